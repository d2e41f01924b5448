use super::*;
use crate::lower::{LowerError, OpName};
use crate::view::WindowError;

#[test]
fn the_cli_names_its_commands_and_flags() {
    let cli: Vec<&str> = [
        Name::Read,
        Name::List,
        Name::OffsetLimit,
        Name::Hidden,
        Name::NoIgnore,
        Name::MaxResults,
        Name::MaxPerFile,
        Name::Force,
        Name::ForceSet,
        Name::Literal,
        Name::Tag,
    ]
    .into_iter()
    .map(|name| Surface::Cli.name(name))
    .collect();
    assert_eq!(
        cli,
        [
            "read",
            "ls",
            "--offset/--limit",
            "--hidden",
            "--no-ignore",
            "--max-results",
            "--max-per-file",
            "--force",
            "--force",
            "pass -F",
            "--tag"
        ]
    );
    assert_eq!(Surface::Mcp.name(Name::Hidden), "include_hidden=true");
    assert_eq!(Surface::Mcp.name(Name::ForceSet), "force set");
}

#[test]
fn read_window_errors_name_the_read_flags() {
    let worded = |e: &WindowError| Worded(e, Surface::Cli).to_string();
    assert_eq!(
        worded(&WindowError::ZeroOffset),
        "--offset starts at 1 (line numbers are 1-based)"
    );
    assert_eq!(
        worded(&WindowError::ZeroLimit),
        "--limit must be at least 1 row"
    );
    let past = WindowError::OffsetPastEnd {
        offset: 300_000,
        total: 200_000,
    };
    assert_eq!(
        worded(&past),
        "--offset 300000 is beyond the last line: the file has 200000 lines"
    );
    assert_eq!(
        past.to_string(),
        "offset 300000 is beyond the last line: the file has 200000 lines"
    );
}

#[test]
fn a_line_too_long_for_the_budget_is_shown_by_a_command() {
    assert_eq!(
        Surface::Cli.show_line(7, None, 64_000),
        "read --offset 7 --limit 1 shows it"
    );
    assert_eq!(
        Surface::Cli.show_line(7, Some(90_000), 64_000),
        "read --offset 7 --limit 1 --max-output-bytes 90000 shows it"
    );
    assert_eq!(
        Surface::Mcp.show_line(7, Some(90_000), 64_000),
        "read_file with offset: 7, limit: 1 shows it only under an output budget of at least 90000 \
         bytes, more than this one of 64000 (the server's --max-output-bytes); grep for the part you need"
    );
    assert_eq!(Surface::Cli.read_from(3), "run read with --offset 3");
    assert_eq!(Surface::Cli.read_rest(), "run read with --offset/--limit");
}

#[test]
fn an_empty_register_in_the_cli_says_the_cut_must_be_in_the_same_document() {
    let error = LowerError::UnknownRegister {
        op: OpName {
            line: 2,
            header: "PUT >$ @x".into(),
        },
        name: "x".into(),
        known: Vec::new(),
    };
    assert_eq!(
        Worded(&error, Surface::Cli).to_string(),
        "PUT >$ @x (document line 2): register @x holds nothing; no named register exists yet: \
         CUT … @x first in the same document (the CLI keeps named registers only within one document; \
         an earlier command's cuts are gone)"
    );
    assert_eq!(
        error.to_string(),
        "PUT >$ @x (document line 2): register @x holds nothing; no named register exists yet: \
         CUT … @x first"
    );
}
