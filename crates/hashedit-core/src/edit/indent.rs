//! The indentation refusal (FORMAT.md §7.1): body rows indented with
//! spaces where every indented line around them uses tabs, or the other way
//! round, almost always a model re-typing the indentation. Refused, never
//! converted. Where a leading tab is syntax or data ([`TabRole`]: a
//! Makefile recipe, a TSV table) it is left alone.

use std::fmt;

use crate::hunk::Hunk;
use crate::plan::OpRef;
use crate::text::Text;

use super::neighbours::surroundings;

/// How a line is indented, by its first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Indent {
    /// A leading tab.
    Tabs,
    /// Two or more leading spaces.
    Spaces,
}

impl Indent {
    /// The indentation of `line`, if it is indented.
    fn of(line: &str) -> Option<Indent> {
        if line.starts_with('\t') {
            Some(Indent::Tabs)
        } else if line.starts_with("  ") && !line.trim().is_empty() {
            Some(Indent::Spaces)
        } else {
            None
        }
    }

    fn name(self) -> &'static str {
        match self {
            Indent::Tabs => "tabs",
            Indent::Spaces => "spaces",
        }
    }
}

/// A body row indented in the other style than the lines around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndentMismatch {
    /// The op whose body has the row.
    pub op: OpRef,
    /// 1-based index of the row in the body.
    pub row: usize,
    /// How every indented line around the body is indented.
    pub file: Indent,
}

impl fmt::Display for IndentMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = match self.file {
            Indent::Tabs => Indent::Spaces,
            Indent::Spaces => Indent::Tabs,
        };
        write!(
            f,
            "{}: body row {} indents with {}, but the lines around it indent with {}; \
             write the rows with the file's indentation (the live snapshot below shows it)",
            self.op,
            self.row,
            rows.name(),
            self.file.name()
        )
    }
}

/// What a leading tab means in a file, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TabRole {
    /// Indentation, as in most source files.
    Indent,
    /// Syntax: a Makefile recipe line must start with a tab, even among
    /// space-indented continuation lines.
    Recipe,
    /// Data: a tab-separated table, where a leading tab is an empty field.
    Separator,
}

impl TabRole {
    /// The role of a leading tab in the file `display` names.
    pub(crate) fn of(display: &str) -> TabRole {
        let name = display.rsplit('/').next().unwrap_or(display);
        let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        match (name, extension.as_deref()) {
            ("Makefile" | "makefile" | "GNUmakefile", _) | (_, Some("mk" | "mak")) => {
                TabRole::Recipe
            }
            (_, Some("tsv" | "tab")) => TabRole::Separator,
            _ => TabRole::Indent,
        }
    }
}

/// The first body row, over all hunks, indented in the other style than
/// every indented line around it.
pub(crate) fn indent_mismatch(
    hunks: &[Hunk],
    live: &Text,
    role: TabRole,
) -> Option<IndentMismatch> {
    if role == TabRole::Separator {
        return None;
    }
    let total = live.line_count();
    hunks.iter().find_map(|hunk| {
        let around = surroundings(&hunk.kind, total)?;
        let styles: Vec<Indent> = around
            .context
            .into_iter()
            .filter(|&n| n >= 1 && n <= total)
            .filter_map(|n| Indent::of(live.line(n)))
            .collect();
        let &file = styles.first()?;
        if styles.iter().any(|&s| s != file) {
            return None;
        }
        let foreign = |row: &String| {
            Indent::of(row).is_some_and(|s| s != file)
                && !(role == TabRole::Recipe && Indent::of(row) == Some(Indent::Tabs))
        };
        // A model re-typing the indentation converts every row; rows of
        // both styles are the author's own mix (real code has it).
        if around.body.iter().any(|r| Indent::of(r) == Some(file)) {
            return None;
        }
        let row = around.body.iter().position(foreign)?;
        Some(IndentMismatch {
            op: OpRef::of(hunk),
            row: row + 1,
            file,
        })
    })
}

/// Rows that lost their indentation: no row (plain rows aside) is
/// indented, where the place they land is (a model that stripped leading
/// whitespace). Written as sent, code would land at the top level inside an
/// indented block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LostIndentation {
    /// The op.
    pub op: OpRef,
    /// The indentation of the lines the rows belong with (as written there).
    pub indent: String,
    /// What shows the place is indented.
    pub evidence: IndentEvidence,
}

/// What shows that rows belong indented (see [`LostIndentation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndentEvidence {
    /// A replacement: the lines it replaces, and a neighbour, are indented.
    ReplacedAndAround,
    /// A replacement between a line that opens a block and (or) a line
    /// that closes one, neither indented: the lines it replaces are
    /// indented, and each row is a close edit of the line in its place.
    ReplacedOneForOne,
    /// An insert between two indented lines.
    Around,
    /// An insert right after a line that opens a block, before the block's
    /// indented first line.
    OpenedBlock,
}

impl LostIndentation {
    fn what(&self) -> String {
        let place = match self.evidence {
            IndentEvidence::ReplacedAndAround => {
                "the lines it replaces and the lines around it are"
            }
            IndentEvidence::ReplacedOneForOne => {
                "the lines it replaces, which the rows edit one for one, are"
            }
            IndentEvidence::Around => "the lines around it are",
            IndentEvidence::OpenedBlock => {
                "it goes into the block the line above opens, whose lines are"
            }
        };
        format!(
            "{}: no body row is indented, but {place} (with {})",
            self.op,
            describe(&self.indent)
        )
    }

    /// The warning, once the rows were written as sent.
    pub(crate) fn written(&self) -> String {
        format!("{} (written as sent)", self.what())
    }
}

impl fmt::Display for LostIndentation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: written as sent, the rows would land at the top level inside an indented block",
            self.what()
        )
    }
}

/// `4 spaces`, `1 tab`, `2 tabs and 1 space`.
fn describe(indent: &str) -> String {
    let tabs = indent.chars().filter(|&c| c == '\t').count();
    let spaces = indent.chars().filter(|&c| c == ' ').count();
    let part = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (tabs, spaces) {
        (0, s) => part(s, "space", "spaces"),
        (t, 0) => part(t, "tab", "tabs"),
        (t, s) => format!(
            "{} and {}",
            part(t, "tab", "tabs"),
            part(s, "space", "spaces")
        ),
    }
}

/// The leading whitespace of `line`.
fn leading(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

/// Finds bodies whose rows all lost their indentation (see
/// [`LostIndentation`]).
pub(crate) fn lost_indentation(hunks: &[Hunk], live: &Text) -> Vec<LostIndentation> {
    let total = live.line_count();
    let staying = super::neighbours::Staying::new(hunks, live);
    // The nearest non-blank line that stays, walking from `n` by `step`.
    let nearest = |mut n: usize, up: bool| -> Option<&str> {
        while n >= 1 && n <= total {
            if let Some(line) = staying.line(n).filter(|l| !l.trim().is_empty()) {
                return Some(line);
            }
            n = if up { n - 1 } else { n + 1 };
        }
        None
    };
    let mut found = Vec::new();
    for hunk in hunks {
        let Some(around) = surroundings(&hunk.kind, total) else {
            continue;
        };
        let rows: Vec<&String> = around
            .body
            .iter()
            .filter(|r| !super::echo::is_plain(r))
            .collect();
        // Plain rows (a lone `}`, `end`) close blocks at any depth: they
        // say nothing, and a body of only plain rows is never flagged.
        if rows.is_empty() || rows.iter().any(|r| indented(r)) {
            continue;
        }
        let above = nearest(around.above, true);
        let below = nearest(around.below, false);
        let found_here = match &hunk.kind {
            crate::hunk::HunkKind::Replace { range, body } => {
                replaced_evidence(*range, body, live, above, below)
            }
            _ => insert_evidence(above, below),
        };
        if let Some((evidence, model)) = found_here {
            found.push(LostIndentation {
                op: OpRef::of(hunk),
                indent: leading(model).to_string(),
                evidence,
            });
        }
    }
    found
}

/// Whether `line` starts with whitespace.
fn indented(line: &str) -> bool {
    !leading(line).is_empty()
}

/// The evidence that a replacement's unindented rows belong indented, and
/// the line whose indentation they lost.
fn replaced_evidence<'a>(
    range: crate::document::LineRange,
    body: &[String],
    live: &'a Text,
    above: Option<&str>,
    below: Option<&str>,
) -> Option<(IndentEvidence, &'a str)> {
    let replaced: Vec<&str> = (range.start..=range.end)
        .map(|n| live.line(n))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let first = *replaced.first()?;
    if !replaced.iter().all(|l| indented(l)) {
        return None;
    }
    if above.is_some_and(indented) || below.is_some_and(indented) {
        return Some((IndentEvidence::ReplacedAndAround, first));
    }
    let enclosed = above.is_some_and(opens_block) || below.is_some_and(closes_block);
    let one_for_one = enclosed
        && body.len() == range.len()
        && body.iter().zip(range.start..=range.end).all(|(row, n)| {
            super::echo::is_plain(row) || super::slip::close_edit(row, live.line(n))
        });
    one_for_one.then_some((IndentEvidence::ReplacedOneForOne, first))
}

/// The evidence that an insert's unindented rows belong indented, and the
/// line whose indentation they lost.
fn insert_evidence<'a>(
    above: Option<&'a str>,
    below: Option<&'a str>,
) -> Option<(IndentEvidence, &'a str)> {
    let below = below.filter(|l| indented(l))?;
    let above = above?;
    if indented(above) {
        return Some((IndentEvidence::Around, above));
    }
    opens_block(above).then_some((IndentEvidence::OpenedBlock, below))
}

/// Whether `line` ends as a line that opens an indented block does
/// (`{`, `(`, `[`, `:`, `=>`, ` do`, ` then`), comments aside.
fn opens_block(line: &str) -> bool {
    let t = line.trim_end();
    t.ends_with(['{', '(', '[', ':'])
        || t.ends_with("=>")
        || t.ends_with(" do")
        || t.ends_with(" then")
}

/// Whether `line` starts as a line that closes a block does (`}`, `)`,
/// `]`, or the keyword `end`).
fn closes_block(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with(['}', ')', ']']) || t == "end" || t.starts_with("end ")
}

/// The op of `hunk` with every non-blank row indented with `indent`.
pub(crate) fn reindented(hunk: &Hunk, indent: &str) -> Option<super::reading::Reading> {
    use crate::hunk::HunkKind;
    let (header, body) = match &hunk.kind {
        HunkKind::Replace { range, body } => (format!("PUT {}:", range.canonical()), body),
        HunkKind::Insert { at, body } => (format!("PUT {}:", at.canonical()), body),
        HunkKind::Delete { .. } => return None,
    };
    let rows: Vec<String> = body
        .iter()
        .map(|r| {
            if r.trim().is_empty() {
                r.clone()
            } else {
                format!("{indent}{r}")
            }
        })
        .collect();
    Some(super::reading::Reading {
        kind: super::reading::ReadingKind::Reindent,
        lines: super::reading::op_lines(&header, &rows),
    })
}
