use super::*;

#[test]
fn the_line_names_the_command_and_the_time() {
    assert_eq!(
        line("grep", Duration::from_millis(2500)),
        "hashedit: grep still running after 2.5 s (Ctrl-C stops it; nothing half-written is left)"
    );
}

#[test]
fn without_a_terminal_nothing_starts() {
    // Test runs capture stderr: not a terminal.
    if !std::io::stderr().is_terminal() {
        assert!(Progress::start("grep").is_none());
    }
}
