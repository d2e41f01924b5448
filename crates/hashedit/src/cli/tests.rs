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

#[test]
fn man_lists_exactly_the_pages_it_generates() {
    // Break-it pass: hashedit(1) listed hashedit-help(1), and `man help`
    // printed a page listing hashedit-help-read(1) and others that exist
    // nowhere.
    let names = man_page_names();
    assert_eq!(
        names,
        [
            "read",
            "grep",
            "glob",
            "ls",
            "write",
            "edit",
            "completions",
            "man",
            "mcp",
            "setup"
        ]
    );
    let mut main = Vec::new();
    clap_mangen::Man::new(man_page(None).unwrap())
        .render(&mut main)
        .unwrap();
    let main = String::from_utf8(main).unwrap();
    let listed: Vec<String> = main
        .lines()
        .filter_map(|line| line.strip_prefix("hashedit\\-")?.strip_suffix("(1)"))
        .map(|name| name.replace("\\-", "-"))
        .collect();
    assert_eq!(listed, names);
    for name in &names {
        let mut page = Vec::new();
        clap_mangen::Man::new(man_page(Some(name)).unwrap())
            .render(&mut page)
            .unwrap();
        let page = String::from_utf8(page).unwrap();
        assert!(page.contains(&format!(".TH hashedit-{name} 1")), "{name}");
        // No page lists pages below it.
        assert!(!page.contains(&format!("hashedit\\-{name}\\-")), "{name}");
    }
    assert_eq!(
        man_page(Some("help")).unwrap_err(),
        "man: no page for 'help'; the pages are hashedit (no argument) and read, grep, glob, ls, write, \
         edit, completions, man, mcp, setup"
    );
}
