//! The marked block setup writes into a client's instruction file
//! (CLAUDE.md, AGENTS.md, GEMINI.md): what the model should use for files,
//! and why. Everything outside the markers is the user's.

/// The first line of the block; a line starting with it opens the block.
const BEGIN: &str = "<!-- hashedit:begin";
/// The last line of the block.
const END: &str = "<!-- hashedit:end -->";

/// The block, markers included, with `\n` line ends.
pub(crate) const TEXT: &str = "\
<!-- hashedit:begin (written by `hashedit setup`; `hashedit setup CLIENT --undo` removes it) -->
## Reading and editing files

Read, search and change files with the hashedit MCP tools: read_file, grep, glob and list_dir to look, \
edit to change lines, write to create or replace a whole file. Do not change files with other file tools \
or with shell commands (sed -i, cat > file, echo >> file).

Why: read_file and grep show a file as numbered rows under a [path#TAG] header, and edit addresses lines \
by those numbers. An edit of a file that changed since that snapshot is refused and nothing is written, \
so no change lands on text you have not seen.
<!-- hashedit:end -->
";

/// `text` with the block in place: replaced where the markers are, else
/// appended after a blank line. Line ends follow the file's (CRLF files
/// get CRLF).
pub(crate) fn apply(text: &str) -> String {
    let block = in_line_ends_of(text);
    if let Some((start, end)) = span(text) {
        return format!("{}{block}{}", &text[..start], &text[end..]);
    }
    if text.is_empty() {
        return block;
    }
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let ended = if text.ends_with('\n') { "" } else { newline };
    format!("{text}{ended}{newline}{block}")
}

/// `text` without the block and the blank line setup put before it.
pub(crate) fn remove(text: &str) -> String {
    let Some((start, end)) = span(text) else {
        return text.to_string();
    };
    let head = &text[..start];
    let head = head
        .strip_suffix("\r\n")
        .filter(|h| h.ends_with('\n'))
        .or_else(|| head.strip_suffix('\n').filter(|h| h.ends_with('\n')))
        .unwrap_or(head);
    format!("{head}{}", &text[end..])
}

/// The byte range of the block's lines (through the end marker's line
/// end), if both markers are there in order.
fn span(text: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    let mut start = None;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\r', '\n']);
        if start.is_none() && bare.starts_with(BEGIN) {
            start = Some(offset);
        } else if start.is_some() && bare == END {
            return start.map(|s| (s, offset + line.len()));
        }
        offset += line.len();
    }
    None
}

fn in_line_ends_of(text: &str) -> String {
    if text.contains("\r\n") {
        TEXT.replace('\n', "\r\n")
    } else {
        TEXT.to_string()
    }
}
