use super::*;

#[test]
fn diff_colours() {
    assert_eq!(
        colorize_diff("--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n c\n"),
        "\x1b[1m--- a/f\x1b[0m\n\x1b[1m+++ b/f\x1b[0m\n\x1b[36m@@ -1 +1 @@\x1b[0m\n\x1b[31m-a\x1b[0m\n\x1b[32m+b\x1b[0m\n c\n"
    );
}

#[test]
fn cli_definition_is_valid() {
    use clap::CommandFactory;
    Cli::command().debug_assert();
}
