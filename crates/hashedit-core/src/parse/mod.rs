//! The edit document parser (FORMAT.md §5): the union of Rho's and
//! oh-my-pi's grammars. Unambiguous spellings are accepted and reported as
//! [`Warning`]s; content is never guessed: rows without `+`, diff `-` rows,
//! fences, empty bodies and truncated ranges are errors, each naming and
//! quoting the document line and, where one exists without guessing, a
//! corrected line to copy (§5.8). This module runs the line state machine;
//! `header`, `op` and `locator` read their parts, `repair` detects the
//! usual mistakes, and [`crate::problem`] words the failures.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::tag::SnapshotTag;

use crate::document::{
    Document, Gap, Op, OpKind, Pasted, Repeat, Section, Target, Warning, WarningKind,
};

mod header;
mod locator;
mod op;
mod repair;

pub use crate::problem::{ForeignShape, LocatorProblem, ParseError, Problem, RowShape};

use crate::problem::err;
use op::{Keyword, lowercase_op_parses, rows_after, split_keyword};
use repair::{
    bare_row_fix, bracketless_header_fix, corrected_op, corrected_sub, decorated_header_fix,
    foreign_shape, foreign_verb_fix, is_view_metadata, missing_verb_fix, numbered_body,
    outer_fence, row_shape,
};

/// Parses an edit document.
///
/// Errors: the first [`ParseError`] in document order.
pub fn parse(input: &str) -> Result<Document, ParseError> {
    Parser::default().run(input)
}

/// Reads `trimmed` as a section header standing on its own line: the path
/// and tag the parser takes from it, or `None` where it would refuse it.
/// With [`read_op`], the parser's lenient mode: one line at a time, no
/// state and no error, for the projection of a document still streaming in.
pub(crate) fn read_header(trimmed: &str) -> Option<(String, SnapshotTag)> {
    let header = trimmed.starts_with('[') && trimmed.ends_with(']') && !is_view_metadata(trimmed);
    header
        .then(|| Parser::default().header(0, trimmed, trimmed).ok())
        .flatten()
}

/// Reads `trimmed` as an op line at the start of a section: the op (a
/// `PUT …:` with no rows yet), or `None` where the parser would not read
/// it as an op or would refuse it.
pub(crate) fn read_op(trimmed: &str) -> Option<OpKind> {
    let mut parser = Parser {
        current: Some(Section {
            path: String::new(),
            tag: SnapshotTag(0),
            line: 0,
            ops: Vec::new(),
        }),
        ..Parser::default()
    };
    let (keyword, rest) = parser.op_keyword(trimmed)?;
    parser.keyword_op(0, trimmed, keyword, rest).ok()?;
    match parser.open.take() {
        Some(open) => Some(open.target.with_body(Vec::new(), Vec::new())),
        None => parser.current?.ops.pop().map(|op| op.kind),
    }
}

/// Notes that are reported once per document however often they apply.
#[derive(Default)]
struct Once {
    lowercase_keyword: bool,
    lowercase_tag: bool,
    envelope: bool,
}

#[derive(Default)]
struct Parser {
    sections: Vec<Section>,
    warnings: Vec<Warning>,
    current: Option<Section>,
    open: Option<OpenPut>,
    once: Once,
}

/// A `PUT …:` header whose body rows are being collected.
struct OpenPut {
    line: usize,
    text: String,
    target: PutTarget,
    body: Vec<String>,
    /// Line and text of a blank line seen after the last row.
    blank_after: Option<(usize, String)>,
    /// Unified-diff `-old` rows met in the body: (line, text).
    minus_rows: Vec<(usize, String)>,
    /// A `SUB`'s `-` rows, without their `-`: its old text.
    old: Vec<String>,
}

impl OpenPut {
    /// The op on document line `line` (written `text`), before its rows.
    fn new(line: usize, text: &str, target: PutTarget) -> OpenPut {
        OpenPut {
            line,
            text: text.to_string(),
            target,
            body: Vec::new(),
            blank_after: None,
            minus_rows: Vec::new(),
            old: Vec::new(),
        }
    }
}

/// What an op with a body is aimed at.
#[derive(Clone, Copy)]
enum PutTarget {
    Replace(Target),
    Insert(Gap),
    /// A `SUB`, within these lines (`None`: the whole file).
    Substitute(Option<Target>),
}

impl PutTarget {
    /// The op of a `PUT …:` or `SUB …:` with these rows (`old` is a
    /// `SUB`'s, and ignored otherwise).
    fn with_body(self, old: Vec<String>, body: Vec<String>) -> OpKind {
        match self {
            PutTarget::Replace(target) => OpKind::Replace { target, body },
            PutTarget::Insert(at) => OpKind::Insert { at, body },
            PutTarget::Substitute(within) => OpKind::Substitute { within, old, body },
        }
    }
}

/// Envelope marker lines (also bracketed, `[*** Begin Patch]`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Marker {
    Begin,
    End,
    Abort,
}

fn marker(trimmed: &str) -> Option<Marker> {
    let inner = trimmed
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .map_or(trimmed, str::trim);
    match inner {
        "*** Begin Patch" => Some(Marker::Begin),
        "*** End Patch" => Some(Marker::End),
        "*** Abort" => Some(Marker::Abort),
        _ => None,
    }
}

impl Parser {
    fn warn(&mut self, line: usize, kind: WarningKind) {
        self.warnings.push(Warning { line, kind });
    }

    fn run(mut self, input: &str) -> Result<Document, ParseError> {
        let input = input.strip_prefix('\u{FEFF}').unwrap_or(input);
        // A Markdown fence around the whole document is never content (a
        // body row that is a fence is written `+```), so the fence lines
        // are read as blank lines: every other line keeps its number.
        let fence = outer_fence(input);
        if let Some((open, close)) = fence {
            self.warn(open, WarningKind::OuterFence { open, close });
        }
        let mut lines = input.lines().enumerate().map(|(index, raw)| {
            let fenced = fence.is_some_and(|(open, close)| index + 1 == open || index + 1 == close);
            (index, if fenced { "" } else { raw })
        });
        while let Some((index, raw)) = lines.next() {
            // `lines` keeps a lone CR at the very end; rows never end in one.
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let number = index + 1;
            if !raw.starts_with('+')
                && let Some(m) = marker(raw.trim())
            {
                match m {
                    Marker::Begin => {
                        if !self.once.envelope {
                            self.once.envelope = true;
                            self.warn(number, WarningKind::BeginPatchEnvelope);
                        }
                        continue;
                    }
                    Marker::End => {
                        let mut rest = lines.filter(|(_, l)| !l.trim().is_empty());
                        if let Some((next, _)) = rest.next() {
                            return Err(err(
                                number,
                                raw,
                                Problem::AfterEnvelopeEnd {
                                    rest: 1 + rest.count(),
                                    next: next + 1,
                                },
                                None,
                            ));
                        }
                        break;
                    }
                    Marker::Abort => return Err(err(number, raw, Problem::Aborted, None)),
                }
            }
            self.line(number, raw)?;
        }
        self.close_put(None)?;
        self.close_section()?;
        if self.sections.is_empty() {
            return Err(err(0, "", Problem::NoSections, None));
        }
        Ok(Document {
            sections: self.sections,
            warnings: self.warnings,
        })
    }

    fn line(&mut self, number: usize, raw: &str) -> Result<(), ParseError> {
        if self.body_line(number, raw)? {
            return Ok(());
        }
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        if raw.starts_with('+') {
            return self.stray_row(number, raw);
        }
        if trimmed.starts_with('[') && trimmed.ends_with(']') && !is_view_metadata(trimmed) {
            return self.open_section(number, raw, trimmed);
        }
        if let Some((keyword, rest)) = self.op_keyword(trimmed) {
            return self.op(number, raw, trimmed, keyword, rest);
        }
        self.other_line(number, raw, trimmed)
    }

    /// Takes a line that belongs to the open `PUT` body (a `+` row, a
    /// blank line, a diff `-old` row); false when there is none or the
    /// line ends it.
    fn body_line(&mut self, number: usize, raw: &str) -> Result<bool, ParseError> {
        let Some(open) = &mut self.open else {
            return Ok(false);
        };
        if let (PutTarget::Substitute(_), Some(row)) = (open.target, raw.strip_prefix('-')) {
            if let Some((blank_line, blank_text)) = open.blank_after.take() {
                return Err(err(
                    blank_line,
                    &blank_text,
                    Problem::BareRow(RowShape::Blank),
                    None,
                ));
            }
            if !open.body.is_empty() {
                return Err(err(number, raw, Problem::OldRowAfterNewRows, None));
            }
            open.old.push(row.to_string());
            return Ok(true);
        }
        if let Some(row) = raw.strip_prefix('+') {
            if let Some((blank_line, blank_text)) = open.blank_after.take() {
                return Err(err(
                    blank_line,
                    &blank_text,
                    Problem::BareRow(RowShape::Blank),
                    Some("+".to_string()),
                ));
            }
            open.body.push(row.to_string());
            let spelled_op = split_keyword(row.trim()).is_some();
            if spelled_op {
                self.warn(
                    number,
                    WarningKind::BodyRowSpellsOp {
                        row: row.to_string(),
                    },
                );
            }
            return Ok(true);
        }
        if raw.trim().is_empty() {
            let rows = !open.body.is_empty() || !open.old.is_empty();
            if rows && open.blank_after.is_none() {
                open.blank_after = Some((number, raw.to_string()));
            }
            return Ok(true);
        }
        // A diff `-old` row inside a body: keep reading, so the error can
        // show the op without them.
        if row_shape(raw) == RowShape::DiffMinus {
            open.minus_rows.push((number, raw.to_string()));
            return Ok(true);
        }
        Ok(false)
    }

    /// A `+` row with no open PUT body: the error says what it follows.
    fn stray_row(&mut self, number: usize, raw: &str) -> Result<(), ParseError> {
        let last = self.current.as_ref().and_then(|s| s.ops.last());
        let (problem, fix) = match last {
            Some(op) => rows_after(&op.kind),
            None => (Problem::BareRow(RowShape::OrphanPlus), None),
        };
        self.close_put(None)?;
        Err(err(number, raw, problem, fix))
    }

    /// A `[path#TAG]` line: ends the section before it and opens one.
    fn open_section(&mut self, number: usize, raw: &str, trimmed: &str) -> Result<(), ParseError> {
        self.close_put(None)?;
        self.close_section()?;
        let (path, tag) = self.header(number, raw, trimmed)?;
        self.current = Some(Section {
            path,
            tag,
            line: number,
            ops: Vec::new(),
        });
        Ok(())
    }

    /// The op keyword `trimmed` starts with, if it is read as an op there:
    /// inside a body a lower-case `put …`/`cut …` must parse as an op (it
    /// is more often text without its `+`); REM and MV only in capitals.
    fn op_keyword<'t>(&self, trimmed: &'t str) -> Option<(Keyword, &'t str)> {
        split_keyword(trimmed).filter(|(keyword, rest)| {
            trimmed.starts_with(keyword.name())
                || (keyword.any_case()
                    && (self.open.is_none() || lowercase_op_parses(*keyword, rest)))
        })
    }

    /// An op line, `rest` following its keyword.
    fn op(
        &mut self,
        number: usize,
        raw: &str,
        trimmed: &str,
        keyword: Keyword,
        rest: &str,
    ) -> Result<(), ParseError> {
        self.close_put(None)?;
        if self.current.is_none() {
            return Err(err(number, raw, Problem::OutsideSection, None));
        }
        if !trimmed.starts_with(keyword.name()) && !self.once.lowercase_keyword {
            self.once.lowercase_keyword = true;
            self.warn(number, WarningKind::LowercaseKeyword(keyword.name()));
        }
        self.keyword_op(number, raw, keyword, rest)
    }

    /// A line that is no header, op or body row: a footer we printed
    /// (ignored), else the error the repair detectors word best.
    fn other_line(&mut self, number: usize, raw: &str, trimmed: &str) -> Result<(), ParseError> {
        // Our bracketed footers are never content; a bare `…` right after a
        // body row may be an elision of real lines, so it is refused there.
        if is_view_metadata(trimmed) && (self.open.is_none() || trimmed.starts_with('[')) {
            self.close_put(None)?;
            self.warn(number, WarningKind::ToolOutputLine);
            return Ok(());
        }
        if let Some(fix) = decorated_header_fix(trimmed) {
            self.close_put(None)?;
            return Err(err(number, raw, Problem::HeaderWithJunk, Some(fix)));
        }
        if let Some(fix) = bracketless_header_fix(trimmed) {
            self.close_put(None)?;
            return Err(err(number, raw, Problem::HeaderWithoutBrackets, Some(fix)));
        }
        if let Some(foreign) = foreign_shape(trimmed) {
            self.close_put(None)?;
            return Err(err(number, raw, Problem::ForeignPatch(foreign), None));
        }
        if let Some(fix) = missing_verb_fix(trimmed) {
            self.close_put(None)?;
            return Err(err(number, raw, Problem::MissingVerb, Some(fix)));
        }
        if self.open.is_none()
            && let Some(fix) = foreign_verb_fix(trimmed)
        {
            return Err(err(number, raw, Problem::UnknownLine, Some(fix)));
        }
        // Not a header, op or body row.
        let shape = row_shape(raw);
        if self.open.is_some() || shape != RowShape::Plain {
            let fix = bare_row_fix(raw, shape, self.open.is_some());
            self.close_put(Some((number, raw, shape, fix)))?;
        }
        if self.current.is_none() {
            return Err(err(number, raw, Problem::OutsideSection, None));
        }
        Err(err(number, raw, Problem::UnknownLine, None))
    }
    /// Ends the open PUT body. `bare` is the line that ended it when that
    /// line is a row without `+`, which is then the error.
    fn close_put(
        &mut self,
        bare: Option<(usize, &str, RowShape, Option<String>)>,
    ) -> Result<(), ParseError> {
        if let Some((line, text, shape, fix)) = bare {
            self.open = None;
            return Err(err(line, text, Problem::BareRow(shape), fix));
        }
        let Some(open) = self.open.take() else {
            return Ok(());
        };
        if let PutTarget::Substitute(within) = open.target {
            return self.close_sub(open, within);
        }
        let mut pasted = None;
        if let Some((line, text)) = open.minus_rows.first() {
            // The op as it reads without the `-` rows, if it keeps a body;
            // a body of `-` rows only reads as a deletion.
            let fix = match (open.target, open.body.is_empty()) {
                (_, false) => Some(corrected_op(open.target, &open.body)),
                (PutTarget::Replace(target), true) => Some(format!("CUT {}", target.canonical())),
                (PutTarget::Insert(_) | PutTarget::Substitute(_), true) => None,
            };
            let refusal = err(*line, text, Problem::BareRow(RowShape::DiffMinus), fix);
            // Only a line range names lines the `-` rows can be checked
            // against; anything else is refused here.
            match (open.target, open.body.is_empty()) {
                (PutTarget::Replace(Target::Lines(_)), false) => {
                    let rows = open
                        .minus_rows
                        .iter()
                        .map(|(line, text)| (*line, text[1..].to_string()))
                        .collect();
                    pasted = Some(Pasted::MinusRows {
                        rows,
                        refusal: Box::new(refusal),
                    });
                }
                _ => return Err(refusal),
            }
        } else if let Some(stripped) = numbered_body(open.target, &open.body) {
            let fix = corrected_op(open.target, &stripped);
            let refusal = err(open.line, &open.text, Problem::NumberedBody, Some(fix));
            // Kept for the edit stage on every target: a line range is
            // verified against the snapshot; any target is written as sent
            // under force.
            let first = match open.target {
                PutTarget::Replace(Target::Lines(range)) => range.start,
                _ => 0,
            };
            pasted = Some(Pasted::Numbered {
                stripped,
                first,
                refusal: Box::new(refusal),
            });
        }
        if open.body.is_empty() {
            let fix = match open.target {
                PutTarget::Replace(target) => Some(format!("CUT {}", target.canonical())),
                PutTarget::Insert(_) | PutTarget::Substitute(_) => None,
            };
            return Err(err(open.line, &open.text, Problem::EmptyBody, fix));
        }
        let kind = open.target.with_body(Vec::new(), open.body);
        self.push_pasted_op(open.line, kind, pasted);
        Ok(())
    }

    /// Ends the open `SUB` body, whose lines lie `within` (`None`: the
    /// whole file).
    fn close_sub(&mut self, open: OpenPut, within: Option<Target>) -> Result<(), ParseError> {
        if open.old.concat().is_empty() && open.old.len() < 2 {
            return Err(err(open.line, &open.text, Problem::SubWithoutOld, None));
        }
        // `+` rows numbered as a read prints them, under `-` rows that
        // are not (the file's text is not numbered so): refused with
        // the rows unnumbered, or written as sent under force.
        let pasted = numbered_body(open.target, &open.body)
            .filter(|_| numbered_body(open.target, &open.old).is_none())
            .map(|stripped| {
                let fix = corrected_sub(within, &open.old, &stripped);
                Pasted::Numbered {
                    stripped,
                    first: 0,
                    refusal: Box::new(err(open.line, &open.text, Problem::NumberedBody, Some(fix))),
                }
            });
        let kind = open.target.with_body(open.old, open.body);
        self.push_pasted_op(open.line, kind, pasted);
        Ok(())
    }

    fn push_op(&mut self, line: usize, kind: OpKind) {
        self.push_pasted_op(line, kind, None);
    }

    fn push_pasted_op(&mut self, line: usize, kind: OpKind, pasted: Option<Pasted>) {
        if let Some(section) = &mut self.current {
            section.ops.push(Op { line, kind, pasted });
        }
    }

    fn close_section(&mut self) -> Result<(), ParseError> {
        let Some(mut section) = self.current.take() else {
            return Ok(());
        };
        if section.ops.is_empty() {
            let text = format!("[{}#{}]", section.path, section.tag);
            return Err(err(section.line, &text, Problem::EmptySection, None));
        }
        // File-op rules (FORMAT.md §5.6).
        let file_ops: Vec<&Op> = section
            .ops
            .iter()
            .filter(|op| op.kind.is_file_op())
            .collect();
        if file_ops.len() > 1 {
            let op = file_ops[1];
            return Err(err(
                op.line,
                &op.kind.canonical_header(),
                Problem::TwoFileOps,
                None,
            ));
        }
        if let Some(rem) = section.ops.iter().find(|op| op.kind == OpKind::Remove)
            && section.ops.len() > 1
        {
            return Err(err(rem.line, "REM", Problem::RemoveWithOps, None));
        }
        // An op repeating an earlier one exactly is a duplicated hunk,
        // applied once; repeated pastes stay (both peers apply them twice)
        // but are flagged. Found by hashing, linear in the ops.
        let mut first_line: HashMap<&OpKind, usize> = HashMap::with_capacity(section.ops.len());
        let repeats: Vec<Option<usize>> = section
            .ops
            .iter()
            .map(|op| match first_line.entry(&op.kind) {
                Entry::Occupied(first) => Some(*first.get()),
                Entry::Vacant(slot) => {
                    slot.insert(op.line);
                    None
                }
            })
            .collect();
        let mut kept: Vec<Op> = Vec::with_capacity(section.ops.len());
        for (op, first_line) in std::mem::take(&mut section.ops).into_iter().zip(repeats) {
            if let Some(first_line) = first_line {
                let header = op.kind.canonical_header();
                match op.kind.repeat() {
                    Repeat::AppliedOnce => {
                        self.warn(op.line, WarningKind::RepeatedOp { header, first_line });
                        continue;
                    }
                    Repeat::AppliedTwice => {
                        self.warn(op.line, WarningKind::RepeatedPaste { header, first_line });
                    }
                    Repeat::Silent => continue,
                    Repeat::Kept => {}
                }
            }
            kept.push(op);
        }
        section.ops = kept;
        self.sections.push(section);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
