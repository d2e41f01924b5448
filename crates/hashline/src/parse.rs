//! The edit document parser.
//!
//! Implements the grammar of reference-rho.md §7 (strict mode): headers
//! `[path#TAG]` split at the last `#`, `PUT`/`CUT` keywords in any case,
//! locators `N`, `N.=M`, `N-M`, `N..M`, `<N`, `>N`, `>$`, body rows that
//! start with `+`. Every error names the document line, quotes it, says what
//! was expected and, where one exists, gives a corrected line to copy
//! (product.md §4). Content is never guessed: a row without `+` is an error,
//! never a body row.

use std::fmt;

use crate::document::{Document, InsertAt, LineRange, Op, OpKind, Section, Warning};
use crate::tag::SnapshotTag;

/// Longest excerpt of an offending line quoted in an error (characters).
const QUOTE_CHARS: usize = 120;

/// A document that cannot be parsed; nothing was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based document line (0 when the document as a whole is at fault).
    pub line: usize,
    /// The offending line, as written (possibly shortened).
    pub text: String,
    /// What is wrong.
    pub problem: Problem,
    /// A corrected line to copy, when one can be derived without guessing
    /// content.
    pub fix: Option<String>,
}

/// The kinds of parse failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The document has no `[path#TAG]` section.
    NoSections,
    /// An op or row before the first header.
    OutsideSection,
    /// A header that is followed by no op.
    EmptySection,
    /// A bracketed line without `#TAG`.
    HeaderWithoutTag,
    /// A header with nothing before `#`.
    HeaderEmptyPath,
    /// A header whose tag is not 4 hex digits.
    HeaderBadTag,
    /// `PUT` without a trailing `:`.
    PutWithoutColon,
    /// `PUT` with nothing to locate.
    MissingLocator,
    /// A `PUT …:` header followed by no `+` row.
    EmptyBody,
    /// `CUT` with a colon or body.
    CutWithColon,
    /// A locator that does not parse.
    BadLocator(LocatorProblem),
    /// A line inside or after a body that does not start with `+`.
    BareRow(RowShape),
    /// A line that is no header, op or body row.
    UnknownLine,
    /// A grammar feature this build does not support yet.
    Unsupported(&'static str),
}

/// Why a locator is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocatorProblem {
    /// `N.` — a range cut short after the start.
    Truncated,
    /// `N.=` or `N-` — a range without an end.
    MissingEnd,
    /// `.=M` — a range without a start.
    MissingStart,
    /// Line 0.
    Zero,
    /// Not a number where one was expected.
    NotANumber,
    /// A number too large to be a line.
    TooLarge,
    /// `M.=N` with M > N.
    Reversed,
    /// A separator other than `.=`, `-` or `..`.
    BadSeparator,
    /// `<$`: `$` only follows `>`.
    DollarBefore,
}

/// What a row without `+` looks like, to tailor the advice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowShape {
    /// `12:text` or `12 | text`: a row copied from a read or grep.
    NumberedRow,
    /// `-text`: a unified-diff removal row.
    DiffMinus,
    /// A Markdown code fence.
    Fence,
    /// An empty line between body rows.
    Blank,
    /// Anything else.
    Plain,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: &str = match self {
            Problem::NoSections => {
                "the document has no section; start with a [path#TAG] header copied from a read, then PUT/CUT ops"
            }
            Problem::OutsideSection => {
                "this line comes before any [path#TAG] header; every op belongs to a section"
            }
            Problem::EmptySection => {
                "this section has no ops; add PUT/CUT ops or remove the header"
            }
            Problem::HeaderWithoutTag => {
                "a section header needs the snapshot tag: [path#TAG], with TAG copied from your latest read, grep, edit or write of the file"
            }
            Problem::HeaderEmptyPath => "the section header has no path before '#'",
            Problem::HeaderBadTag => "a snapshot tag is exactly 4 hex digits, e.g. [src/a.rs#1A2B]",
            Problem::PutWithoutColon => "a PUT header ends with ':' and is followed by + body rows",
            Problem::MissingLocator => "PUT and CUT need a line: N, N.=M, <N, >N or >$ (PUT only)",
            Problem::EmptyBody => {
                "PUT needs at least one + body row (a lone + writes an empty line); to delete lines use CUT"
            }
            Problem::CutWithColon => {
                "CUT takes a line or range and nothing else: no colon, no body rows"
            }
            Problem::BadLocator(p) => return write!(f, "{p}"),
            Problem::BareRow(shape) => return write!(f, "{shape}"),
            Problem::UnknownLine => {
                "expected a [path#TAG] header, a PUT/CUT op, or a + body row under a PUT header"
            }
            Problem::Unsupported(what) => return write!(f, "{what} are not supported yet"),
        };
        f.write_str(text)
    }
}

impl fmt::Display for LocatorProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LocatorProblem::Truncated => {
                "the range ends after 'N.': write N for one line or N.=M for a range"
            }
            LocatorProblem::MissingEnd => {
                "the range has no end line: write N.=M, or N for one line"
            }
            LocatorProblem::MissingStart => "the range has no start line: write N.=M",
            LocatorProblem::Zero => "line numbers start at 1",
            LocatorProblem::NotANumber => "expected a line number (digits)",
            LocatorProblem::TooLarge => "the line number is too large",
            LocatorProblem::Reversed => "the range starts after it ends",
            LocatorProblem::BadSeparator => "write a range as N.=M (N-M and N..M also work)",
            LocatorProblem::DollarBefore => "'$' (end of file) only follows '>': PUT >$: appends",
        })
    }
}

impl fmt::Display for RowShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RowShape::NumberedRow => {
                "this row has no leading '+' and looks copied from a read or grep (N:text / N | text); body rows are '+' then the exact line text, without line numbers"
            }
            RowShape::DiffMinus => {
                "diff '-' rows are not part of the format: delete lines with CUT N.=M, or write '+-…' for a line that starts with '-'"
            }
            RowShape::Fence => "remove the code fence: the document is plain text, not Markdown",
            RowShape::Blank => {
                "an empty line between body rows is ambiguous; write a lone '+' for an empty row, or end the body before it"
            }
            RowShape::Plain => {
                "body rows start with '+'; this row has none (write '+' before the exact line text)"
            }
        })
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "edit document: {}", self.problem)?;
        } else {
            write!(f, "edit document line {}: {}", self.line, self.problem)?;
            write!(f, "\n  {} | {}", self.line, self.text)?;
        }
        if let Some(fix) = &self.fix {
            write!(f, "\ntry: {fix}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

/// Parses an edit document.
///
/// Errors: the first [`ParseError`] in document order.
pub fn parse(input: &str) -> Result<Document, ParseError> {
    Parser::default().run(input)
}

#[derive(Default)]
struct Parser {
    sections: Vec<Section>,
    warnings: Vec<Warning>,
    current: Option<Section>,
    open: Option<OpenPut>,
}

/// A `PUT …:` header whose body rows are being collected.
struct OpenPut {
    line: usize,
    text: String,
    target: PutTarget,
    body: Vec<String>,
    /// Line and text of a blank line seen after the last row.
    blank_after: Option<(usize, String)>,
}

#[derive(Clone, Copy)]
enum PutTarget {
    Replace(LineRange),
    Insert(InsertAt),
}

fn quote(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(QUOTE_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

fn err(line: usize, text: &str, problem: Problem, fix: Option<String>) -> ParseError {
    ParseError {
        line,
        text: quote(text),
        problem,
        fix,
    }
}

impl Parser {
    fn run(mut self, input: &str) -> Result<Document, ParseError> {
        let input = input.strip_prefix('\u{FEFF}').unwrap_or(input);
        for (index, raw) in input.lines().enumerate() {
            // `lines` keeps a lone CR at the very end; rows never end in one.
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            self.line(index + 1, raw)?;
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
        if let Some(open) = &mut self.open {
            if let Some(row) = raw.strip_prefix('+') {
                if let Some((blank_line, blank_text)) = open.blank_after.take() {
                    return Err(err(
                        blank_line,
                        &blank_text,
                        Problem::BareRow(RowShape::Blank),
                        None,
                    ));
                }
                open.body.push(row.to_string());
                return Ok(());
            }
            if raw.trim().is_empty() {
                if !open.body.is_empty() && open.blank_after.is_none() {
                    open.blank_after = Some((number, raw.to_string()));
                }
                return Ok(());
            }
        }
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            self.close_put(None)?;
            self.close_section()?;
            let (path, tag) = parse_header(number, raw, trimmed)?;
            self.current = Some(Section {
                path,
                tag,
                line: number,
                ops: Vec::new(),
            });
            return Ok(());
        }
        if let Some((keyword, rest)) = split_keyword(trimmed) {
            self.close_put(None)?;
            if self.current.is_none() {
                return Err(err(number, raw, Problem::OutsideSection, None));
            }
            return match keyword {
                Keyword::Put => self.put(number, raw, rest),
                Keyword::Cut => self.cut(number, raw, rest),
            };
        }
        // Not a header, op or body row.
        let shape = row_shape(raw);
        if self.open.is_some() || shape != RowShape::Plain {
            let fix = bare_row_fix(raw, shape);
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
        let Some(open) = self.open.take() else {
            if let Some((line, text, shape, fix)) = bare {
                return Err(err(line, text, Problem::BareRow(shape), fix));
            }
            return Ok(());
        };
        if let Some((line, text, shape, fix)) = bare {
            return Err(err(line, text, Problem::BareRow(shape), fix));
        }
        if open.body.is_empty() {
            let fix = match open.target {
                PutTarget::Replace(range) => Some(format!("CUT {}", range.canonical())),
                PutTarget::Insert(_) => None,
            };
            return Err(err(open.line, &open.text, Problem::EmptyBody, fix));
        }
        let kind = match open.target {
            PutTarget::Replace(range) => OpKind::Replace {
                range,
                body: open.body,
            },
            PutTarget::Insert(at) => OpKind::Insert {
                at,
                body: open.body,
            },
        };
        self.push_op(open.line, kind);
        Ok(())
    }

    fn push_op(&mut self, line: usize, kind: OpKind) {
        if let Some(section) = &mut self.current {
            section.ops.push(Op { line, kind });
        }
    }

    fn close_section(&mut self) -> Result<(), ParseError> {
        if let Some(section) = self.current.take() {
            if section.ops.is_empty() {
                let text = format!("[{}#{}]", section.path, section.tag);
                return Err(err(section.line, &text, Problem::EmptySection, None));
            }
            self.sections.push(section);
        }
        Ok(())
    }

    fn put(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let rest = rest.trim();
        if rest.is_empty() {
            return Err(err(number, raw, Problem::MissingLocator, None));
        }
        reject_unsupported(number, raw, rest)?;
        let Some(locator) = rest.strip_suffix(':') else {
            let fix = parse_put_locator(rest)
                .ok()
                .map(|t| format!("{}:", put_header(t)));
            return Err(err(number, raw, Problem::PutWithoutColon, fix));
        };
        let locator = locator.trim();
        if locator.is_empty() {
            return Err(err(number, raw, Problem::MissingLocator, None));
        }
        let target = parse_put_locator(locator).map_err(|problem| {
            let fix = locator_fix(&problem, locator).map(|l| format!("PUT {l}:"));
            err(number, raw, Problem::BadLocator(problem), fix)
        })?;
        self.open = Some(OpenPut {
            line: number,
            text: raw.to_string(),
            target,
            body: Vec::new(),
            blank_after: None,
        });
        Ok(())
    }

    fn cut(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let rest = rest.trim();
        if rest.is_empty() {
            return Err(err(number, raw, Problem::MissingLocator, None));
        }
        reject_unsupported(number, raw, rest)?;
        if let Some(locator) = rest.strip_suffix(':') {
            let fix = parse_range(locator.trim())
                .ok()
                .map(|r| format!("CUT {}", r.canonical()));
            return Err(err(number, raw, Problem::CutWithColon, fix));
        }
        let range = parse_range(rest).map_err(|problem| {
            let fix = locator_fix(&problem, rest).map(|l| format!("CUT {l}"));
            err(number, raw, Problem::BadLocator(problem), fix)
        })?;
        self.push_op(number, OpKind::Delete { range });
        Ok(())
    }
}

fn put_header(target: PutTarget) -> String {
    match target {
        PutTarget::Replace(range) => format!("PUT {}", range.canonical()),
        PutTarget::Insert(at) => format!("PUT {}", at.canonical()),
    }
}

fn reject_unsupported(number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
    if rest.contains('*') {
        return Err(err(
            number,
            raw,
            Problem::Unsupported("block ops (N*)"),
            None,
        ));
    }
    if rest.contains('@') {
        return Err(err(
            number,
            raw,
            Problem::Unsupported("registers (@name)"),
            None,
        ));
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum Keyword {
    Put,
    Cut,
}

/// Splits `PUT rest` / `CUT rest` (keyword in any case, as a whole token).
fn split_keyword(line: &str) -> Option<(Keyword, &str)> {
    let head = line.get(..3)?;
    let keyword = if head.eq_ignore_ascii_case("PUT") {
        Keyword::Put
    } else if head.eq_ignore_ascii_case("CUT") {
        Keyword::Cut
    } else {
        return None;
    };
    let rest = &line[3..];
    match rest.chars().next() {
        None => Some((keyword, rest)),
        Some(c) if c.is_whitespace() => Some((keyword, rest)),
        Some(_) => None,
    }
}

fn parse_header(
    number: usize,
    raw: &str,
    trimmed: &str,
) -> Result<(String, SnapshotTag), ParseError> {
    let inner = &trimmed[1..trimmed.len() - 1];
    let Some((path, tag)) = inner.rsplit_once('#') else {
        let fix = (!inner.trim().is_empty()).then(|| format!("[{}#TAG]", inner.trim()));
        return Err(err(number, raw, Problem::HeaderWithoutTag, fix));
    };
    let path = path.trim();
    if path.is_empty() {
        return Err(err(number, raw, Problem::HeaderEmptyPath, None));
    }
    let Some(tag) = SnapshotTag::parse(tag.trim()) else {
        return Err(err(number, raw, Problem::HeaderBadTag, None));
    };
    Ok((path.to_string(), tag))
}

fn parse_put_locator(locator: &str) -> Result<PutTarget, LocatorProblem> {
    if let Some(rest) = locator.strip_prefix('<') {
        let rest = rest.trim();
        if rest == "$" {
            return Err(LocatorProblem::DollarBefore);
        }
        return parse_line(rest).map(|n| PutTarget::Insert(InsertAt::Before(n)));
    }
    if let Some(rest) = locator.strip_prefix('>') {
        let rest = rest.trim();
        if rest == "$" {
            return Ok(PutTarget::Insert(InsertAt::End));
        }
        return parse_line(rest).map(|n| PutTarget::Insert(InsertAt::After(n)));
    }
    parse_range(locator).map(PutTarget::Replace)
}

/// Parses `N`, `N.=M`, `N-M` or `N..M` (spaces around pieces allowed).
fn parse_range(text: &str) -> Result<LineRange, LocatorProblem> {
    let text = text.trim();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        if text.starts_with('.') || text.starts_with('=') {
            return Err(LocatorProblem::MissingStart);
        }
        return Err(LocatorProblem::NotANumber);
    }
    let start = parse_line(&text[..digits])?;
    let rest = text[digits..].trim_start();
    if rest.is_empty() {
        return Ok(LineRange { start, end: start });
    }
    let (separator, end_text) = [".=", "..", "-"]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep).map(|tail| (*sep, tail.trim())))
        .ok_or(if rest == "." {
            LocatorProblem::Truncated
        } else {
            LocatorProblem::BadSeparator
        })?;
    if end_text.is_empty() {
        return Err(LocatorProblem::MissingEnd);
    }
    if !end_text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(if separator == ".." && end_text.starts_with('=') {
            LocatorProblem::BadSeparator
        } else {
            LocatorProblem::NotANumber
        });
    }
    let end = parse_line(end_text)?;
    if start > end {
        return Err(LocatorProblem::Reversed);
    }
    Ok(LineRange { start, end })
}

fn parse_line(text: &str) -> Result<usize, LocatorProblem> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(LocatorProblem::NotANumber);
    }
    match text.parse::<usize>() {
        Ok(0) => Err(LocatorProblem::Zero),
        Ok(n) => Ok(n),
        Err(_) => Err(LocatorProblem::TooLarge),
    }
}

/// A corrected locator for problems whose fix is certain.
fn locator_fix(problem: &LocatorProblem, locator: &str) -> Option<String> {
    let numbers: Vec<usize> = locator
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|s| s.parse().ok())
        .filter(|&n| n > 0)
        .collect();
    match (problem, numbers.as_slice()) {
        (LocatorProblem::Truncated, [n]) => Some(format!("{n}")),
        (LocatorProblem::BadSeparator, [a, b]) if a <= b => Some(format!("{a}.={b}")),
        _ => None,
    }
}

fn row_shape(raw: &str) -> RowShape {
    let t = raw.trim_start();
    if t.is_empty() {
        return RowShape::Blank;
    }
    if t.starts_with("```") || t.starts_with("~~~") {
        return RowShape::Fence;
    }
    if t.starts_with('-') && !t.starts_with("---") {
        return RowShape::DiffMinus;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let after = t[digits..].trim_start();
        if after.starts_with(':') || after.starts_with('|') {
            return RowShape::NumberedRow;
        }
    }
    RowShape::Plain
}

/// For a numbered row, the `+` row that writes its text, as a hint only.
fn bare_row_fix(raw: &str, shape: RowShape) -> Option<String> {
    match shape {
        RowShape::NumberedRow => {
            let t = raw.trim_start();
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            let after = t[digits..].trim_start();
            let text = match after.strip_prefix('|') {
                Some(rest) => rest.strip_prefix(' ').unwrap_or(rest),
                None => &after[1..],
            };
            Some(format!("+{text}"))
        }
        RowShape::DiffMinus | RowShape::Fence | RowShape::Blank => None,
        RowShape::Plain => Some(format!("+{raw}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(doc: &str) -> Vec<OpKind> {
        parse(doc)
            .unwrap()
            .sections
            .into_iter()
            .flat_map(|s| s.ops.into_iter().map(|o| o.kind))
            .collect()
    }

    fn fails(doc: &str) -> ParseError {
        parse(doc).unwrap_err()
    }

    fn range(start: usize, end: usize) -> LineRange {
        LineRange { start, end }
    }

    fn body(rows: &[&str]) -> Vec<String> {
        rows.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_core_ops() {
        // reference-rho.md §11 case 22.
        let doc =
            "[a.txt#E178]\nPUT 1.=2:\n+alpha\n+beta\nPUT >2:\n+gamma\nCUT 4.=4\nPUT >$:\n+tail\n";
        assert_eq!(
            ops(doc),
            vec![
                OpKind::Replace {
                    range: range(1, 2),
                    body: body(&["alpha", "beta"])
                },
                OpKind::Insert {
                    at: InsertAt::After(2),
                    body: body(&["gamma"])
                },
                OpKind::Delete { range: range(4, 4) },
                OpKind::Insert {
                    at: InsertAt::End,
                    body: body(&["tail"])
                },
            ]
        );
        let parsed = parse(doc).unwrap();
        assert_eq!(parsed.sections[0].path, "a.txt");
        assert_eq!(parsed.sections[0].tag, SnapshotTag(0xE178));
        assert_eq!(parsed.sections[0].ops[1].line, 5);
    }

    #[test]
    fn accepts_every_rho_locator_spelling() {
        // reference-rho.md §7 and §11 cases 24 and 28.
        for spelling in ["3.=5", "3-5", "3..5", " 3 .= 5 ", "3 - 5"] {
            assert_eq!(
                ops(&format!("[a#ABCD]\nPUT {spelling}:\n+x")),
                vec![OpKind::Replace {
                    range: range(3, 5),
                    body: body(&["x"])
                }],
                "{spelling}"
            );
        }
        assert_eq!(ops("[a#ABCD]\nPUT 3:\n+x"), ops("[a#ABCD]\nPUT 3.=3:\n+x"));
        assert_eq!(
            ops("[a#abcd]\nput 1-2:\n+x\ncut 3-3\nPuT < 2:\n+y\nCUT 7\nPUT > $:\n+z"),
            vec![
                OpKind::Replace {
                    range: range(1, 2),
                    body: body(&["x"])
                },
                OpKind::Delete { range: range(3, 3) },
                OpKind::Insert {
                    at: InsertAt::Before(2),
                    body: body(&["y"])
                },
                OpKind::Delete { range: range(7, 7) },
                OpKind::Insert {
                    at: InsertAt::End,
                    body: body(&["z"])
                },
            ]
        );
    }

    #[test]
    fn headers_split_at_the_last_hash_and_allow_spaces() {
        let doc = parse("  [ p.txt # e178 ]  \nCUT 1\n[dir#1/p.txt#0001]\nCUT 2").unwrap();
        assert_eq!(doc.sections[0].path, "p.txt");
        assert_eq!(doc.sections[0].tag, SnapshotTag(0xE178));
        assert_eq!(doc.sections[1].path, "dir#1/p.txt");
    }

    #[test]
    fn body_rows_are_literal() {
        // reference-rho.md §11 case 26; handed cases B03 (2) and B04.
        assert_eq!(
            ops("[a#ABCD]\nPUT 1:\n+keep trailing  \n+\tkeep tab\t\n+\n+  \r\n"),
            vec![OpKind::Replace {
                range: range(1, 1),
                body: body(&["keep trailing  ", "\tkeep tab\t", "", "  "])
            }]
        );
        assert_eq!(
            ops("[f.txt#ABCD]\nPUT 2:\n+12:30 standup"),
            vec![OpKind::Replace {
                range: range(2, 2),
                body: body(&["12:30 standup"])
            }]
        );
        assert_eq!(
            ops("[f.txt#ABCD]\nPUT 2:\n+- [x] done\n+- [ ] next\n++1"),
            vec![OpKind::Replace {
                range: range(2, 2),
                body: body(&["- [x] done", "- [ ] next", "+1"])
            }]
        );
        // A body row that spells an op is text (handed case B01 (1) relative).
        assert_eq!(
            ops("[f#ABCD]\nPUT 1:\n+CUT 3"),
            vec![OpKind::Replace {
                range: range(1, 1),
                body: body(&["CUT 3"])
            }]
        );
    }

    #[test]
    fn locator_errors_name_the_line_and_fix() {
        let e = fails("[a#ABCD]\nPUT 3.:\n+x");
        assert_eq!(e.line, 2);
        assert_eq!(e.problem, Problem::BadLocator(LocatorProblem::Truncated));
        assert_eq!(e.fix.as_deref(), Some("PUT 3:"));
        assert_eq!(
            e.to_string(),
            "edit document line 2: the range ends after 'N.': write N for one line or N.=M for a range\n  2 | PUT 3.:\ntry: PUT 3:"
        );
        assert_eq!(
            fails("[a#ABCD]\nPUT 3.=:\n+x").problem,
            Problem::BadLocator(LocatorProblem::MissingEnd)
        );
        assert_eq!(
            fails("[a#ABCD]\nPUT .=5:\n+x").problem,
            Problem::BadLocator(LocatorProblem::MissingStart)
        );
        assert_eq!(
            fails("[a#ABCD]\nCUT 3.").problem,
            Problem::BadLocator(LocatorProblem::Truncated)
        );
        let e = fails("[a#ABCD]\nPUT 3..=5:\n+x");
        assert_eq!(e.problem, Problem::BadLocator(LocatorProblem::BadSeparator));
        assert_eq!(e.fix.as_deref(), Some("PUT 3.=5:"));
        assert_eq!(
            fails("[a#ABCD]\nCUT 5.=3").problem,
            Problem::BadLocator(LocatorProblem::Reversed)
        );
        assert_eq!(
            fails("[a#ABCD]\nPUT 0:\n+x").problem,
            Problem::BadLocator(LocatorProblem::Zero)
        );
        assert_eq!(
            fails("[a#ABCD]\nCUT -1").problem,
            Problem::BadLocator(LocatorProblem::NotANumber)
        );
        assert_eq!(
            fails("[a#ABCD]\nPUT <$:\n+x").problem,
            Problem::BadLocator(LocatorProblem::DollarBefore)
        );
        assert_eq!(
            fails("[a#ABCD]\nCUT 99999999999999999999999").problem,
            Problem::BadLocator(LocatorProblem::TooLarge)
        );
    }

    #[test]
    fn op_shape_errors() {
        let e = fails("[a#ABCD]\nPUT 3\n+x");
        assert_eq!(e.problem, Problem::PutWithoutColon);
        assert_eq!(e.fix.as_deref(), Some("PUT 3:"));
        assert_eq!(
            fails("[a#ABCD]\nPUT :\n+x").problem,
            Problem::MissingLocator
        );
        assert_eq!(fails("[a#ABCD]\nPUT").problem, Problem::MissingLocator);
        assert_eq!(fails("[a#ABCD]\nCUT").problem, Problem::MissingLocator);
        let e = fails("[a#ABCD]\nCUT 3:");
        assert_eq!(e.problem, Problem::CutWithColon);
        assert_eq!(e.fix.as_deref(), Some("CUT 3"));
        let e = fails("[a#ABCD]\nPUT 1.=2:\nCUT 3");
        assert_eq!((e.line, e.problem), (2, Problem::EmptyBody));
        assert_eq!(e.fix.as_deref(), Some("CUT 1.=2"));
        assert_eq!(fails("[a#ABCD]\nPUT <2:").problem, Problem::EmptyBody);
        assert_eq!(fails("[a#ABCD]\nPUT >$:\n").problem, Problem::EmptyBody);
        assert_eq!(fails("[a#ABCD]\nPUTX 1:").problem, Problem::UnknownLine);
        assert_eq!(
            fails("[a#ABCD]\nPUT 1*:\n+x").problem,
            Problem::Unsupported("block ops (N*)")
        );
        assert_eq!(
            fails("[a#ABCD]\nCUT 1.=2 @name").problem,
            Problem::Unsupported("registers (@name)")
        );
    }

    #[test]
    fn document_level_errors() {
        assert_eq!(fails("").problem, Problem::NoSections);
        assert_eq!(fails("\n\n").problem, Problem::NoSections);
        let e = fails("PUT 1:\n+x");
        assert_eq!((e.line, e.problem), (1, Problem::OutsideSection));
        let e = fails("[p.txt#E178]\n");
        assert_eq!((e.line, e.problem), (1, Problem::EmptySection));
        let e = fails("[p.txt]\nCUT 1");
        assert_eq!(e.problem, Problem::HeaderWithoutTag);
        assert_eq!(e.fix.as_deref(), Some("[p.txt#TAG]"));
        assert_eq!(fails("[#E178]\nCUT 1").problem, Problem::HeaderEmptyPath);
        assert_eq!(fails("[p.txt#ABC]\nCUT 1").problem, Problem::HeaderBadTag);
        assert_eq!(fails("[a#ABCD]\nCUT 1\nREM").problem, Problem::UnknownLine);
    }

    #[test]
    fn rows_without_plus_are_errors_never_content() {
        // Handed case B03 (1): a pasted read row.
        let e = fails("[f.txt#ABCD]\nPUT 2:\n2:B");
        assert_eq!(
            (e.line, e.problem.clone()),
            (3, Problem::BareRow(RowShape::NumberedRow))
        );
        assert_eq!(e.fix.as_deref(), Some("+B"));
        // Handed case B01 (2): a bare keyword is a CUT without a range.
        let e = fails("[f.txt#ABCD]\nPUT 2.=3:\nCUT");
        assert_eq!(e.line, 2);
        assert_eq!(e.problem, Problem::EmptyBody);
        let e = fails("[f#ABCD]\nPUT 1:\n+a\nb");
        assert_eq!(
            (e.line, e.problem.clone()),
            (4, Problem::BareRow(RowShape::Plain))
        );
        assert_eq!(e.fix.as_deref(), Some("+b"));
        assert_eq!(
            fails("[f#ABCD]\nPUT 1:\n+a\n-old").problem,
            Problem::BareRow(RowShape::DiffMinus)
        );
        assert_eq!(
            fails("[f#ABCD]\nPUT 1:\n```\n+a").problem,
            Problem::BareRow(RowShape::Fence)
        );
        let e = fails("[f#ABCD]\nPUT 1:\n+a\n\n+b");
        assert_eq!(
            (e.line, e.problem.clone()),
            (4, Problem::BareRow(RowShape::Blank))
        );
        // A blank line after a body, before the next op, is a separator.
        assert_eq!(ops("[f#ABCD]\nPUT 1:\n+a\n\nCUT 3\n").len(), 2);
    }

    #[test]
    fn crlf_documents_parse_like_lf() {
        assert_eq!(
            ops("[f#ABCD]\r\nPUT 1:\r\n+a\r\nCUT 2\r\n"),
            ops("[f#ABCD]\nPUT 1:\n+a\nCUT 2\n")
        );
    }
}
