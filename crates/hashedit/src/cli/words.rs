//! The CLI's names for what the tools' messages call by their MCP names.
//!
//! The tools speak to a model through MCP (`read_file`, `list_dir`,
//! `max_per_file`, `include_hidden`…); a person at the shell runs `read`,
//! `ls`, `--max-per-file`, `--hidden`. The CLI rewrites those names in the
//! lines hashedit itself wrote (summaries, footers, hints, error prose),
//! and never in the lines that carry a file's or a document's text: read
//! and grep rows, `[path#TAG]` headers, `+` body rows, `try:` fixes, quoted
//! document lines and diffs, which must stay byte-exact to be copied.

/// Whole-word replacements, longest first where one contains another.
const NAMES: [(&str, &str); 18] = [
    ("include_hidden=true", "--hidden"),
    ("call read_file with offset:", "run read with --offset"),
    (
        "pass offset/limit to read_file for the rest",
        "run read with --offset/--limit for the rest",
    ),
    ("offset starts at 1", "--offset starts at 1"),
    (
        "limit must be at least 1 row",
        "--limit must be at least 1 row",
    ),
    ("include_hidden", "--hidden"),
    ("read_file", "read"),
    ("list_dir", "ls"),
    ("offset/limit", "--offset/--limit"),
    ("max_per_file", "--max-per-file"),
    ("max_results", "--max-results"),
    ("no_ignore", "--no-ignore"),
    ("force: true", "--force"),
    ("with force set", "with --force"),
    ("under force", "under --force"),
    ("`force`", "`--force`"),
    ("set literal", "pass -F"),
    ("write again with tag", "write again with --tag"),
];

/// `text` with the MCP names of its prose lines spelled as CLI names.
pub(super) fn cli_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if carries_content(line) {
            out.push_str(line);
        } else {
            out.push_str(&rename(&long_line_command(line)));
        }
    }
    out
}

/// Whether `line` holds file or document text that must stay exact.
fn carries_content(line: &str) -> bool {
    let trimmed = line.trim_start();
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let numbered =
        digits > 0 && (trimmed[digits..].starts_with(':') || trimmed[digits..].starts_with(" | "));
    numbered
        || line.starts_with('+')
        || line.starts_with('-')
        || line.starts_with(' ')
        || line.starts_with("@@")
        || line.starts_with("try:")
        || line.starts_with("PUT")
        || line.starts_with("CUT")
        || (line.starts_with('[') && line.trim_end().ends_with(']') && line.contains('#'))
}

/// `line` with every name of [`NAMES`] replaced where it stands as a word.
fn rename(line: &str) -> String {
    let mut line = line.to_string();
    for (mcp, cli) in NAMES {
        let mut out = String::with_capacity(line.len());
        let mut rest = line.as_str();
        while let Some(at) = rest.find(mcp) {
            let before = rest[..at].chars().next_back();
            let after = rest[at + mcp.len()..].chars().next();
            let word =
                |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
            out.push_str(&rest[..at]);
            if word(before) || word(after) {
                out.push_str(mcp);
            } else {
                out.push_str(cli);
            }
            rest = &rest[at + mcp.len()..];
        }
        out.push_str(rest);
        line = out;
    }
    register_scope(&image_line(&offset_flag(&line)))
}

/// `line` with a paste of an empty register told where the CUT must be:
/// a CLI call is its own session, so a register cut by an earlier command
/// is gone (FORMAT.md §5.5); the MCP server keeps registers for its session.
fn register_scope(line: &str) -> String {
    const CLAUSE: &str = "no named register exists yet: CUT … @";
    const FIRST: &str = " first";
    let Some(at) = line.find(CLAUSE) else {
        return line.to_string();
    };
    let after = at + CLAUSE.len();
    match line[after..].find(FIRST) {
        Some(end) => {
            let end = after + end + FIRST.len();
            format!(
                "{} in the same document (the CLI keeps named registers only within one document; an \
                 earlier command's cuts are gone){}",
                &line[..end],
                &line[end..]
            )
        }
        None => line.to_string(),
    }
}

/// `line` without the MCP clause of an image's description: the CLI never
/// shows an image, so `image/png image (N bytes; not shown: … over the
/// output budget …)` reads `image/png image (N bytes)` (FORMAT.md §4.5).
fn image_line(line: &str) -> String {
    const CLAUSE: &str = "; not shown: ";
    match (line.starts_with("image/"), line.find(CLAUSE)) {
        (true, Some(at)) => match line[at..].find(')') {
            Some(close) => format!("{}{}", &line[..at], &line[at + close..]),
            None => line.to_string(),
        },
        _ => line.to_string(),
    }
}

/// `line` with each long-line hint of `hashedit_core::long_line_hint`
/// (`read_file with offset: N, limit: 1 shows it[ only under an output
/// budget of at least M bytes, …; grep for the part you need]`) spelled as
/// the command that shows the line: `read --offset N --limit 1
/// [--max-output-bytes M] shows it`.
fn long_line_command(line: &str) -> String {
    const HEAD: &str = "read_file with offset: ";
    const ONE: &str = ", limit: 1 shows it";
    const BUDGET: &str = " only under an output budget of at least ";
    const TAIL: &str = "; grep for the part you need";
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(HEAD) {
        out.push_str(&rest[..at]);
        let after = &rest[at + HEAD.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let Some(tail) = after[digits..].strip_prefix(ONE).filter(|_| digits > 0) else {
            out.push_str(HEAD);
            rest = after;
            continue;
        };
        let offset = &after[..digits];
        let needed = tail.strip_prefix(BUDGET).and_then(|b| {
            let width = b.bytes().take_while(u8::is_ascii_digit).count();
            let end = b.find(TAIL)?;
            (width > 0).then(|| (&b[..width], &b[end + TAIL.len()..]))
        });
        match needed {
            Some((bytes, after_tail)) => {
                out.push_str(&format!(
                    "read --offset {offset} --limit 1 --max-output-bytes {bytes} shows it"
                ));
                rest = after_tail;
            }
            None => {
                out.push_str(&format!("read --offset {offset} --limit 1 shows it"));
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `line` with the `offset N is beyond the last line` of a read window
/// (FORMAT.md §4.2) naming the `--offset` flag, as FORMAT.md §8.3 has the
/// CLI spell its own flags.
fn offset_flag(line: &str) -> String {
    const TAIL: &str = " is beyond the last line";
    let Some(tail) = line.find(TAIL) else {
        return line.to_string();
    };
    let head = &line[..tail];
    let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let number_at = tail - digits;
    let starts_word = |at: usize| at == 0 || line[..at].ends_with(' ');
    match line[..number_at].strip_suffix("offset ") {
        Some(before) if digits > 0 && starts_word(before.len()) => {
            format!("{before}--{}", &line[before.len()..])
        }
        _ => line.to_string(),
    }
}

#[cfg(test)]
mod tests;
