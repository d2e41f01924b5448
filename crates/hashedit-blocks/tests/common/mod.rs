//! Annotated snippets: each line of a test snippet is
//! `RESOLUTION ENCLOSING NEXT|source line`, where RESOLUTION is `A-B` (a
//! block), `S` (single line), `N` (not a block start), `_` (blank line) or
//! `E` (parse error), ENCLOSING and NEXT are `A-B` or `-` (none), and `*`
//! in any column skips that check.

#![allow(dead_code)]

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::{BlockIndex, BlockResolution, LineRange, Unresolvable};

/// One annotated line.
pub(crate) struct Row<'s> {
    pub resolution: &'s str,
    pub enclosing: &'s str,
    pub next: &'s str,
    pub source: &'s str,
}

/// Splits an annotated snippet into its rows and the source text (each row
/// ending in `\n`).
pub(crate) fn parse(snippet: &str) -> (Vec<Row<'_>>, String) {
    let mut rows = Vec::new();
    let mut text = String::new();
    for line in snippet.lines().filter(|l| !l.trim().is_empty()) {
        let (notes, source) = line
            .split_once('|')
            .unwrap_or_else(|| panic!("annotated line without `|`: {line:?}"));
        let notes: Vec<&str> = notes.split_whitespace().collect();
        let [resolution, enclosing, next] = notes[..] else {
            panic!("want three notes before `|`: {line:?}");
        };
        rows.push(Row {
            resolution,
            enclosing,
            next,
            source,
        });
        text.push_str(source);
        text.push('\n');
    }
    (rows, text)
}

/// The note for a resolution.
pub(crate) fn note(resolution: &BlockResolution) -> String {
    match resolution {
        BlockResolution::Block(range) => range_note(Some(*range)),
        BlockResolution::SingleLine => "S".to_owned(),
        BlockResolution::Unresolvable(Unresolvable::NotABlockStart) => "N".to_owned(),
        BlockResolution::Unresolvable(Unresolvable::BlankLine) => "_".to_owned(),
        BlockResolution::Unresolvable(Unresolvable::ParseError) => "E".to_owned(),
        BlockResolution::Unresolvable(other) => format!("{other:?}"),
    }
}

/// The note for a suggested range.
pub(crate) fn range_note(range: Option<LineRange>) -> String {
    range.map_or("-".to_owned(), |r| format!("{}-{}", r.start, r.end))
}

/// Resolves every line of the annotated snippet as the file `path` and
/// compares all three columns, reporting every mismatch at once.
pub(crate) fn check(path: &str, snippet: &str) {
    let (rows, text) = parse(snippet);
    check_text(path, &rows, &text);
}

/// `check` on an explicit text (for example the snippet with CRLF line
/// breaks), whose lines match `rows`.
pub(crate) fn check_text(path: &str, rows: &[Row<'_>], text: &str) {
    let blocks = TreeSitterBlocks::new();
    let index = blocks.index_path(path, text).expect("a supported language");
    assert!(index.is_parsed(), "{path} was not parsed");
    assert_eq!(index.line_count(), rows.len(), "{path}: line count");
    let mut mismatches = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let line = i + 1;
        let got = [
            note(&index.block_at(line)),
            range_note(index.enclosing_block(line)),
            range_note(index.next_block(line)),
        ];
        let want = [row.resolution, row.enclosing, row.next];
        let differs = got.iter().zip(want).any(|(g, w)| w != "*" && g != w);
        if differs {
            mismatches.push(format!(
                "line {line}: want {:<6}{:<6}{:<6} got {:<6}{:<6}{:<6}|{}",
                want[0], want[1], want[2], got[0], got[1], got[2], row.source
            ));
        }
    }
    assert!(
        mismatches.is_empty(),
        "{path}: {} line(s) differ:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    // Past either end.
    for line in [0, rows.len() + 1] {
        assert_eq!(
            index.block_at(line),
            BlockResolution::Unresolvable(Unresolvable::OutOfRange),
            "{path}: line {line}"
        );
        assert_eq!(index.enclosing_block(line), None);
    }
    assert_eq!(index.next_block(rows.len()), None);
}
