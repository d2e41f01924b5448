//! What the CLI prints: a reply or its JSON object on stdout, an error on
//! stderr (or as JSON), a coloured diff on a terminal (FORMAT.md §8.3).

use std::io::{IsTerminal, Write};

use hashedit_tools::{Outcome, ToolError};
use serde_json::json;

use super::EXIT_TOOL_ERROR;
use super::args::Command;
use super::tool::Printed;

/// A usage error (exit 2): `hashedit: MESSAGE` on stderr, or under
/// `--json` the error object every `--json` failure prints, on stdout,
/// with kind `usage_error` (FORMAT.md §8.3).
pub(super) fn print_usage_error(message: &str, json_output: bool) {
    let _ = if json_output {
        let value = json!({"ok": false, "error": {"kind": "usage_error", "message": message}});
        writeln!(std::io::stdout().lock(), "{value}")
    } else {
        writeln!(std::io::stderr(), "hashedit: {message}")
    };
}

/// Whether a command changes files, so that a failure to print its reply
/// must not read as a failure of the change itself.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Writes {
    Nothing,
    Files,
}

impl Writes {
    pub(super) fn of(command: &Command) -> Writes {
        match command {
            Command::Write { .. } | Command::Edit { dry_run: false, .. } => Writes::Files,
            _ => Writes::Nothing,
        }
    }
}

/// The exit status when stdout could not take the reply. A reader that
/// closed the pipe (`| head`) wanted no more, as for grep and rg: quiet
/// success. Any other failure (a full disk) is said on stderr, exit 1,
/// never a silent 0 with the output lost.
pub(super) fn output_failed(error: &std::io::Error, writes: Writes) -> u8 {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        return 0;
    }
    let done = match writes {
        Writes::Files => "; the change itself was made (read the file to see it)",
        Writes::Nothing => "",
    };
    let _ = writeln!(
        std::io::stderr(),
        "hashedit: cannot write the output: {error}{done}"
    );
    EXIT_TOOL_ERROR
}

pub(super) fn print_success(
    outcome: &Outcome,
    json_output: bool,
    printed: Printed,
) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let written = if json_output {
        let value = json!({"ok": true, "text": outcome.text, "data": outcome.structured()});
        writeln!(out, "{value}")
    } else if printed == Printed::Diff {
        if use_color() {
            write!(out, "{}", colorize_diff(&outcome.text))
        } else {
            write!(out, "{}", outcome.text)
        }
    } else {
        let text = &outcome.text;
        if text.ends_with('\n') || text.is_empty() {
            write!(out, "{text}")
        } else {
            writeln!(out, "{text}")
        }
    };
    written.and_then(|()| out.flush())
}

/// A tool error: the message on stderr (stdout carries results only, as
/// grep and git do), or under `--json` the error object on stdout, where a
/// program reads the one object every call prints.
pub(super) fn print_failure(error: &ToolError, json_output: bool) {
    let _ = if json_output {
        let value = json!({"ok": false, "error": {"kind": error.kind, "message": error.message}});
        writeln!(std::io::stdout().lock(), "{value}")
    } else {
        writeln!(std::io::stderr().lock(), "{}", error.message)
    };
}

/// Colour only on a terminal, and never when NO_COLOR is set.
fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Colours a unified diff: headers bold, hunk headers cyan, additions
/// green, removals red.
pub(super) fn colorize_diff(diff: &str) -> String {
    const RESET: &str = "\x1b[0m";
    let mut out = String::with_capacity(diff.len() + diff.len() / 4);
    for line in diff.split_inclusive('\n') {
        let color = if line.starts_with("+++") || line.starts_with("---") {
            "\x1b[1m"
        } else if line.starts_with("@@") {
            "\x1b[36m"
        } else if line.starts_with('+') {
            "\x1b[32m"
        } else if line.starts_with('-') {
            "\x1b[31m"
        } else {
            ""
        };
        if color.is_empty() {
            out.push_str(line);
        } else {
            let (body, newline) = match line.strip_suffix('\n') {
                Some(body) => (body, "\n"),
                None => (line, ""),
            };
            out.push_str(color);
            out.push_str(body);
            out.push_str(RESET);
            out.push_str(newline);
        }
    }
    out
}
