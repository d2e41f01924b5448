//! The edit document parser.
//!
//! Accepts the union of Rho's grammar (reference-rho.md §7) and oh-my-pi's
//! (reference-omp.md §2): headers `[path#TAG]` split at the last `#`;
//! `PUT`, `CUT`, `REM`, `MV`; locators `N`, `N.=M` (also `N-M`, `N..M` and
//! omp's other separators), `N*`, `<N`, `>N`, `>$`, `>N*`; registers
//! `@name`; `+` body rows; `*** Begin Patch` / `*** End Patch` envelopes.
//!
//! Tolerance policy (product.md §4): unambiguous spellings are accepted and
//! reported as [`Warning`]s; content is never guessed. Rows without `+`,
//! diff `-` rows, fences, empty `PUT` bodies and truncated ranges are
//! errors. Every error names the document line, quotes it, says what was
//! expected and, where one exists without guessing, gives a corrected line
//! to copy.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;

use crate::document::{
    Document, FinalNewline, Gap, LineRange, MAX_REGISTER_NAME, Op, OpKind, Pasted, Register,
    Section, Target, Warning,
};
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
    /// `PUT` over lines without `:` (body) or `@name` (register).
    PutWithoutColon,
    /// `PUT`/`CUT` with nothing to locate.
    MissingLocator,
    /// A `PUT …:` header followed by no `+` row.
    EmptyBody,
    /// `CUT` followed by body rows.
    CutWithBody,
    /// `+` rows after a colonless `PUT` (a register paste).
    PasteWithBody,
    /// `PUT … @name:`: a register paste takes no colon.
    ColonOnRegister,
    /// An invalid register name.
    BadRegister,
    /// A locator that does not parse.
    BadLocator(LocatorProblem),
    /// A line inside or after a body that does not start with `+`.
    BareRow(RowShape),
    /// A line range written without `PUT`/`CUT`.
    MissingVerb,
    /// `EOF` without `NEWLINE` or `NO NEWLINE` after it.
    BadFinalNewline,
    /// A Markdown code fence around the whole document, opening on the
    /// error's line and closing on document line `close` (product.md §4:
    /// fences are errors with the exact fix, never stripped silently).
    OuterFence {
        /// 1-based document line of the closing fence.
        close: usize,
    },
    /// `*** End Patch` followed by more non-blank lines: applying only the
    /// part before it could be a result the author did not mean.
    AfterEnvelopeEnd {
        /// Non-blank lines after the marker.
        rest: usize,
        /// 1-based document line of the first of them.
        next: usize,
    },
    /// `*** Abort`: the document asks to be abandoned.
    Aborted,
    /// A line from another patch format (apply_patch, unified diff).
    ForeignPatch(ForeignShape),
    /// A line that is no header, op or body row.
    UnknownLine,
    /// `REM` with other ops in its section.
    RemoveWithOps,
    /// Two file ops (`REM`/`MV`) in one section.
    TwoFileOps,
    /// `MV` without a destination, or `REM` with an argument.
    BadFileOp,
    /// `MV 2 >4`: a destination that reads like line numbers.
    MoveLooksLikeLines,
    /// `PUT 2: +B`: the body row written on the header line.
    BodyOnHeaderLine,
    /// `path#TAG` without the brackets.
    HeaderWithoutBrackets,
    /// A header with other text around it (`[a#1A2B] (from read)`).
    HeaderWithJunk,
    /// Every body row starts with its line number (`+12:text`), as copied
    /// from a read.
    NumberedBody,
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
    /// Characters after the locator that are not a separator.
    BadSeparator,
    /// `<$`: `$` only follows `>`.
    DollarBefore,
    /// `*` after a range or `$`: blocks start on one line (`N*`).
    BlockAfterRange,
    /// `3 5`: a range, or two lines? Refused rather than guessed.
    SpaceSeparator,
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
    /// A `+` row with no `PUT …:` header above it.
    OrphanPlus,
    /// `  +text`: whitespace before the `+`.
    IndentedPlus,
    /// `…` or `...` alone: an elision, or code without its `+`.
    Ellipsis,
    /// Anything else.
    Plain,
}

/// The op for a line that uses another word for one (`DEL 4`,
/// `delete 2.=3`, `remove 7`) or a file op in lower case (`rem`,
/// `mv new.rs`), when the rest of the line is a plain locator or path.
fn foreign_verb_fix(trimmed: &str) -> Option<String> {
    let (word, rest) = trimmed
        .split_once(char::is_whitespace)
        .map_or((trimmed, ""), |(w, r)| (w, r.trim()));
    let lower = word.to_ascii_lowercase();
    let numeric = |r: &str| {
        !r.is_empty()
            && r.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '=' | '-' | '*'))
    };
    match lower.as_str() {
        "del" | "delete" | "remove" | "drop" if numeric(rest) => {
            parse_target_with_warning(rest).ok()?;
            Some(format!("CUT {rest}"))
        }
        "rem" if rest.is_empty() && word != "REM" => Some("REM".to_string()),
        "mv" if !rest.is_empty() && word != "MV" => Some(format!("MV {rest}")),
        _ => None,
    }
}

/// Lines of other patch formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForeignShape {
    /// `*** Update File: …` and friends (apply_patch).
    ApplyPatch,
    /// `@@ -a,b +c,d @@` (unified diff).
    UnifiedDiffHunk,
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
            Problem::PutWithoutColon => {
                "PUT over lines ends with ':' and is followed by + body rows (or names a register: PUT N.=M @name)"
            }
            Problem::MissingLocator => {
                "PUT and CUT need a line: N, N.=M, N*, <N, >N or >$ (PUT only)"
            }
            Problem::EmptyBody => {
                "PUT needs at least one + body row (a lone + writes an empty line); to delete lines use CUT"
            }
            Problem::CutWithBody => {
                "CUT deletes lines and takes no body rows; to replace lines use PUT N.=M: with + rows"
            }
            Problem::PasteWithBody => {
                "PUT without ':' pastes a register and takes no body rows; add ':' after the locator to insert these rows"
            }
            Problem::ColonOnRegister => {
                "a register paste takes no colon: write PUT <locator> @name"
            }
            Problem::BadRegister => {
                "a register name is 1 to 64 letters, digits, '_' or '-' after '@'"
            }
            Problem::BadLocator(p) => return write!(f, "{p}"),
            Problem::BareRow(shape) => return write!(f, "{shape}"),
            Problem::OuterFence { close } => {
                return write!(
                    f,
                    "the document is wrapped in a Markdown code fence (this line and line {close}); \
                     send it as plain text without both fence lines, starting with its header"
                );
            }
            Problem::AfterEnvelopeEnd { rest, next } => {
                return write!(
                    f,
                    "'*** End Patch' ends the document, but {rest} more line{} follow{} (from line {next}); \
                     nothing was applied. Delete this line if they belong to the edit, or delete them",
                    if *rest == 1 { "" } else { "s" },
                    if *rest == 1 { "s" } else { "" },
                );
            }
            Problem::Aborted => {
                "'*** Abort' abandons the document, so nothing was applied; send it without this line to apply the ops"
            }
            Problem::MissingVerb => {
                "a line range needs an op in front: PUT N.=M: (then + rows) or CUT N.=M"
            }
            Problem::ForeignPatch(ForeignShape::ApplyPatch) => {
                "apply_patch lines are not part of this format: start each file with [path#TAG] and use PUT/CUT ops"
            }
            Problem::ForeignPatch(ForeignShape::UnifiedDiffHunk) => {
                "unified-diff hunk headers are not part of this format: use PUT N.=M: with + rows, or CUT N.=M"
            }
            Problem::UnknownLine => {
                "expected a [path#TAG] header, an op (PUT, CUT, REM, MV), or a + body row under a PUT header"
            }
            Problem::RemoveWithOps => {
                "REM deletes the whole file, so its section takes no other op"
            }
            Problem::TwoFileOps => "a section takes at most one file op (REM or MV)",
            Problem::BadFileOp => {
                "write REM alone to delete the file, or MV <destination path> to move it"
            }
            Problem::MoveLooksLikeLines => {
                "MV moves the whole file to another path, and this destination reads like line numbers; to move lines use CUT N.=M @name, then PUT >K @name (quote the destination if it really is a file name)"
            }
            Problem::BodyOnHeaderLine => "each body row goes on its own line, after the PUT header",
            Problem::HeaderWithoutBrackets => "a section header is written in brackets: [path#TAG]",
            Problem::HeaderWithJunk => {
                "a section header stands alone on its line: [path#TAG], nothing before or after it"
            }
            Problem::BadFinalNewline => {
                "EOF says how the file ends: EOF NEWLINE makes its last line end with a line break, EOF NO NEWLINE \
                 removes that line break"
            }
            Problem::NumberedBody => {
                "every body row starts with its line number, as copied from a read (N:text), and the numbers are not the \
                 replaced lines'; a + row holds only the line's text (if the text really starts that way, send the document \
                 again with force set: the rows are then written as sent)"
            }
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
            LocatorProblem::MissingEnd => "the range has no end line: write N.=M, or N for one line",
            LocatorProblem::MissingStart => "the range has no start line: write N.=M",
            LocatorProblem::Zero => "line numbers start at 1",
            LocatorProblem::NotANumber => "expected a line number (digits)",
            LocatorProblem::TooLarge => "the line number is too large",
            LocatorProblem::Reversed => {
                "the range starts after it ends; both numbers are line numbers of the snapshot (not a count)"
            }
            LocatorProblem::BadSeparator => "write a range as N.=M (N-M and N..M also work)",
            LocatorProblem::DollarBefore => "'$' (end of file) only follows '>': PUT >$: appends",
            LocatorProblem::BlockAfterRange => "'*' marks a block starting on one line: write N*, not N.=M* or >$*",
            LocatorProblem::SpaceSeparator => {
                "two numbers separated by a space could mean a range or two lines: write N.=M for a range, or one op per line"
            }
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
            RowShape::OrphanPlus => "this + row has no PUT header with ':' above it",
            RowShape::Ellipsis => {
                "a row of '…' or '...' without '+': a body holds every line it writes, so list the lines it stands for (or narrow the range); if it is code, write it as +..."
            }
            RowShape::IndentedPlus => {
                "this row has spaces before its '+'; the '+' must be the first character, with any indentation after it"
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
        match &self.fix {
            Some(fix) if fix.contains('\n') => {
                write!(f, "\ntry:")?;
                for line in fix.lines() {
                    write!(f, "\n  {line}")?;
                }
            }
            Some(fix) => write!(f, "\ntry: {fix}")?,
            None => {}
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
    /// The last op header, while rows right after it would be misplaced
    /// (a paste or a CUT): (line, kind).
    last_bodiless: Option<(usize, Bodiless)>,
    /// For the last colonless gap paste, the same header with a colon (the
    /// fix when `+` rows follow it).
    paste_with_colon: Option<String>,
    once: Once,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bodiless {
    Cut,
    Paste,
    FileOp,
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
}

#[derive(Clone, Copy)]
enum PutTarget {
    Replace(Target),
    Insert(Gap),
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
    fn warn(&mut self, line: usize, message: impl Into<String>) {
        self.warnings.push(Warning {
            line,
            message: message.into(),
        });
    }

    fn run(mut self, input: &str) -> Result<Document, ParseError> {
        let input = input.strip_prefix('\u{FEFF}').unwrap_or(input);
        // A Markdown fence around the whole document is never content (a
        // body row that is a fence is written `+```), so the fence lines
        // are read as blank lines: every other line keeps its number.
        let fence = outer_fence(input);
        if let Some((open, close)) = fence {
            self.warn(
                open,
                format!(
                    "read the document without the Markdown code fence around it (lines {open} and \
                     {close}); send it as plain text, starting with its header"
                ),
            );
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
                            self.warn(
                                number,
                                "ignored the '*** Begin Patch' envelope line; it is not needed",
                            );
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
        if let Some(open) = &mut self.open {
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
                        format!(
                            "the body row '+{row}' spells an op; it is written to the file as text"
                        ),
                    );
                }
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
        // A diff `-old` row inside a body: keep reading, so the error can
        // show the op without them.
        if let Some(open) = &mut self.open
            && row_shape(raw) == RowShape::DiffMinus
        {
            open.minus_rows.push((number, raw.to_string()));
            return Ok(());
        }
        if raw.starts_with('+') {
            // A `+` row with no open PUT body.
            let (problem, fix) = match self.last_bodiless {
                Some((_, Bodiless::Cut)) => (Problem::CutWithBody, None),
                Some((_, Bodiless::Paste)) => {
                    (Problem::PasteWithBody, self.paste_with_colon.clone())
                }
                Some((_, Bodiless::FileOp)) => (Problem::BadFileOp, None),
                None => (Problem::BareRow(RowShape::OrphanPlus), None),
            };
            self.close_put(None)?;
            return Err(err(number, raw, problem, fix));
        }
        if trimmed.starts_with('[') && trimmed.ends_with(']') && !is_view_metadata(trimmed) {
            self.close_put(None)?;
            self.close_section()?;
            let (path, tag) = self.header(number, raw, trimmed)?;
            self.current = Some(Section {
                path,
                tag,
                line: number,
                ops: Vec::new(),
            });
            self.last_bodiless = None;
            return Ok(());
        }
        // Inside a body, a lower-case op word is far more often text without
        // its `+` (a shell `mv …`, a SQL `put …`) than an op; REM and MV,
        // which have no fixed shape after them, must always be capitals.
        let op = split_keyword(trimmed).filter(|(keyword, rest)| {
            trimmed.starts_with(keyword.name())
                || (matches!(keyword, Keyword::Put | Keyword::Cut)
                    && (self.open.is_none() || lowercase_op_parses(*keyword, rest)))
        });
        if let Some((keyword, rest)) = op {
            self.close_put(None)?;
            if self.current.is_none() {
                return Err(err(number, raw, Problem::OutsideSection, None));
            }
            if !trimmed.starts_with(keyword.name()) && !self.once.lowercase_keyword {
                self.once.lowercase_keyword = true;
                self.warn(
                    number,
                    format!(
                        "read the keyword as {}; ops are written in capitals",
                        keyword.name()
                    ),
                );
            }
            self.last_bodiless = None;
            return match keyword {
                Keyword::Put => self.put(number, raw, rest),
                Keyword::Cut => self.cut(number, raw, rest),
                Keyword::Rem => self.file_op(number, raw, Keyword::Rem, rest),
                Keyword::Mv => self.file_op(number, raw, Keyword::Mv, rest),
                Keyword::Eof => self.final_newline(number, raw, rest),
            };
        }
        // Our bracketed footers are never content; a bare `…` right after a
        // body row may be an elision of real lines, so it is refused there.
        if is_view_metadata(trimmed) && (self.open.is_none() || trimmed.starts_with('[')) {
            self.close_put(None)?;
            self.warn(number, "ignored a line copied from tool output (a footer or gap row); it is not part of the edit");
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
        let mut pasted = None;
        if let Some((line, text)) = open.minus_rows.first() {
            // The op as it reads without the `-` rows, if it keeps a body;
            // a body of `-` rows only reads as a deletion.
            let fix = match (open.target, open.body.is_empty()) {
                (_, false) => Some(corrected_op(open.target, &open.body)),
                (PutTarget::Replace(target), true) => Some(format!("CUT {}", target.canonical())),
                (PutTarget::Insert(_), true) => None,
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
            match open.target {
                PutTarget::Replace(Target::Lines(range)) => {
                    pasted = Some(Pasted::Numbered {
                        stripped,
                        first: range.start,
                        refusal: Box::new(refusal),
                    });
                }
                _ => return Err(refusal),
            }
        }
        if open.body.is_empty() {
            let fix = match open.target {
                PutTarget::Replace(target) => Some(format!("CUT {}", target.canonical())),
                PutTarget::Insert(_) => None,
            };
            return Err(err(open.line, &open.text, Problem::EmptyBody, fix));
        }
        let kind = match open.target {
            PutTarget::Replace(target) => OpKind::Replace {
                target,
                body: open.body,
            },
            PutTarget::Insert(at) => OpKind::Insert {
                at,
                body: open.body,
            },
        };
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
        // File-op rules (reference-omp.md §2.4).
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
        // An op that repeats an earlier span op exactly is a duplicated
        // hunk: apply it once. Repeated inserts stay (both peers apply
        // them twice) but are flagged.
        // The first document line of each distinct op, found by hashing so
        // that a document of thousands of ops stays linear.
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
                match op.kind {
                    OpKind::Replace { .. }
                    | OpKind::Cut { .. }
                    | OpKind::PasteOver { .. }
                    | OpKind::Insert { .. } => {
                        self.warn(
                            op.line,
                            format!(
                                "{header} repeats document line {first_line} exactly; it was applied once"
                            ),
                        );
                        continue;
                    }
                    OpKind::Paste { .. } => self.warn(
                        op.line,
                        format!(
                            "{header} repeats document line {first_line} exactly, so its rows are inserted \
                             twice; drop one if that was not meant"
                        ),
                    ),
                    // Once is what it means; twice says it twice.
                    OpKind::FinalNewline(_) => continue,
                    OpKind::Remove | OpKind::Move { .. } => {}
                }
            }
            kept.push(op);
        }
        section.ops = kept;
        self.sections.push(section);
        Ok(())
    }

    fn header(
        &mut self,
        number: usize,
        raw: &str,
        trimmed: &str,
    ) -> Result<(String, SnapshotTag), ParseError> {
        let mut inner = &trimmed[1..trimmed.len() - 1];
        // `[*** Begin Patch] [a.rs#1A2B]`: an envelope marker in brackets
        // before the header (reference-omp.md §4.1 P21).
        if let Some((before, after)) = inner.split_once("] [")
            && marker(&format!("[{before}]")).is_some()
        {
            inner = after;
            self.warn(number, "ignored the envelope marker before the header");
        }
        let Some((path, tag)) = inner.rsplit_once('#') else {
            let fix = (!inner.trim().is_empty()).then(|| format!("[{}#TAG]", inner.trim()));
            return Err(err(number, raw, Problem::HeaderWithoutTag, fix));
        };
        let (path, noise) = clean_path(path.trim());
        if path.is_empty() {
            return Err(err(number, raw, Problem::HeaderEmptyPath, None));
        }
        let tag_text = tag.trim();
        let Some(tag) = SnapshotTag::parse(tag_text) else {
            return Err(err(
                number,
                raw,
                Problem::HeaderBadTag,
                Some(format!("[{path}#TAG]")),
            ));
        };
        if let Some(noise) = noise {
            self.warn(
                number,
                format!("read the header as [{path}#{tag}] (dropped {noise})"),
            );
        }
        if tag_text.bytes().any(|b| b.is_ascii_lowercase()) && !self.once.lowercase_tag {
            self.once.lowercase_tag = true;
            self.warn(
                number,
                format!("read the tag as {tag}; tags are printed in capitals"),
            );
        }
        Ok((path, tag))
    }

    fn put(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let rest = rest.trim();
        if rest.is_empty() || rest == ":" {
            return Err(err(number, raw, Problem::MissingLocator, None));
        }
        if let Some((head, row)) = rest.split_once(':')
            && let Some(row) = row.trim_start().strip_prefix('+')
            && !head.contains('@')
        {
            let fix = format!("PUT {}:\n+{row}", head.trim());
            return Err(err(number, raw, Problem::BodyOnHeaderLine, Some(fix)));
        }
        if let Some((head, tail)) = rest.split_once(':')
            && !head.contains('@')
            && parse_put_locator(head.trim()).is_ok()
        {
            let tail = tail.trim();
            // `PUT >3: @r`: a register paste written with the body colon.
            if let Some(name) = tail.strip_prefix('@')
                && split_register(tail).is_ok()
            {
                let fix = format!("PUT {} @{}", head.trim(), name.trim());
                return Err(err(number, raw, Problem::ColonOnRegister, Some(fix)));
            }
            // `PUT 2: x`: the first row on the header line, without `+`.
            if !tail.is_empty() {
                let row = rest.split_once(':').map_or("", |(_, r)| r.trim_start());
                let fix = format!("PUT {}:\n+{row}", head.trim());
                return Err(err(number, raw, Problem::BodyOnHeaderLine, Some(fix)));
            }
        }
        let (locator, register, colon) =
            split_register(rest).map_err(|problem| err(number, raw, problem, None))?;
        if register.is_some() && colon {
            let fix = format!("PUT {locator} @{}", register.as_deref().unwrap_or_default());
            return Err(err(number, raw, Problem::ColonOnRegister, Some(fix)));
        }
        let target = self.parse_put_locator(number, locator).map_err(|problem| {
            let fix = match problem {
                // Line 0 is before the first line: an insert at the top.
                LocatorProblem::Zero if matches!(locator, "0" | ">0") => Some("<1".to_string()),
                _ => locator_fix(&problem, locator),
            }
            .map(|l| format!("PUT {l}{}", if colon { ":" } else { "" }));
            err(number, raw, Problem::BadLocator(problem), fix)
        })?;
        match (target, register, colon) {
            (target, None, true) => {
                self.open = Some(OpenPut {
                    line: number,
                    text: raw.to_string(),
                    target,
                    body: Vec::new(),
                    blank_after: None,
                    minus_rows: Vec::new(),
                });
            }
            (PutTarget::Insert(at), register, false) => {
                self.paste_with_colon = register
                    .is_none()
                    .then(|| format!("PUT {}:", at.canonical()));
                let register = register.map_or(Register::Anonymous, Register::Named);
                self.push_op(number, OpKind::Paste { at, register });
                self.last_bodiless = Some((number, Bodiless::Paste));
            }
            (PutTarget::Replace(target), Some(name), false) => {
                self.push_op(
                    number,
                    OpKind::PasteOver {
                        target,
                        register: name,
                    },
                );
                self.last_bodiless = Some((number, Bodiless::Paste));
            }
            (PutTarget::Replace(target), None, false) => {
                return Err(err(
                    number,
                    raw,
                    Problem::PutWithoutColon,
                    Some(format!("PUT {}:", target.canonical())),
                ));
            }
            (_, Some(_), true) => unreachable!("handled above"),
        }
        Ok(())
    }

    fn cut(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let rest = rest.trim();
        if rest.is_empty() {
            return Err(err(number, raw, Problem::MissingLocator, None));
        }
        let (locator, register, colon) =
            split_register(rest).map_err(|problem| err(number, raw, problem, None))?;
        let (target, warning) = parse_target_with_warning(locator).map_err(|problem| {
            let fix = locator_fix(&problem, locator).map(|l| format!("CUT {l}"));
            err(number, raw, Problem::BadLocator(problem), fix)
        })?;
        if let Some(message) = warning {
            self.warn(number, message);
        }
        let register = register.map_or(Register::Anonymous, Register::Named);
        let kind = OpKind::Cut { target, register };
        if colon {
            self.warn(
                number,
                format!(
                    "ignored the ':' after CUT; write {}",
                    kind.canonical_header()
                ),
            );
        }
        self.push_op(number, kind);
        self.last_bodiless = Some((number, Bodiless::Cut));
        Ok(())
    }

    fn file_op(
        &mut self,
        number: usize,
        raw: &str,
        keyword: Keyword,
        rest: &str,
    ) -> Result<(), ParseError> {
        let rest = rest.trim();
        let kind = match keyword {
            Keyword::Rem if rest.is_empty() => OpKind::Remove,
            Keyword::Mv => {
                let (dest, _) = clean_path(rest);
                if dest.is_empty() {
                    return Err(err(number, raw, Problem::BadFileOp, None));
                }
                let quoted = rest.starts_with(['"', '\'']);
                let locator_like = dest
                    .trim_start_matches(['<', '>'])
                    .trim_start()
                    .starts_with(|c: char| c.is_ascii_digit() || c == '$');
                if !quoted && (locator_like || dest.starts_with(['<', '>'])) {
                    return Err(err(number, raw, Problem::MoveLooksLikeLines, None));
                }
                if !quoted && dest.contains(" @") {
                    return Err(err(number, raw, Problem::BadFileOp, None));
                }
                OpKind::Move { dest }
            }
            _ => return Err(err(number, raw, Problem::BadFileOp, Some("REM".into()))),
        };
        self.push_op(number, kind);
        self.last_bodiless = Some((number, Bodiless::FileOp));
        Ok(())
    }

    /// `EOF NEWLINE` / `EOF NO NEWLINE`.
    fn final_newline(&mut self, number: usize, raw: &str, rest: &str) -> Result<(), ParseError> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let state = match words.as_slice() {
            [w] if w.eq_ignore_ascii_case("newline") => FinalNewline::Present,
            [no, w] if no.eq_ignore_ascii_case("no") && w.eq_ignore_ascii_case("newline") => {
                FinalNewline::Absent
            }
            [no] if no.eq_ignore_ascii_case("no-newline")
                || no.eq_ignore_ascii_case("nonewline") =>
            {
                FinalNewline::Absent
            }
            _ => {
                let lower = rest.to_ascii_lowercase();
                let negative = lower.split(|c: char| !c.is_ascii_alphabetic()).any(|w| {
                    matches!(
                        w,
                        "no" | "not" | "without" | "remove" | "strip" | "drop" | "none"
                    )
                });
                let fix = if negative {
                    "EOF NO NEWLINE"
                } else {
                    "EOF NEWLINE"
                };
                return Err(err(number, raw, Problem::BadFinalNewline, Some(fix.into())));
            }
        };
        let kind = OpKind::FinalNewline(state);
        let canonical = kind.canonical_header();
        if raw.trim() != canonical {
            self.warn(number, format!("read the line as {canonical}"));
        }
        self.push_op(number, kind);
        self.last_bodiless = Some((number, Bodiless::FileOp));
        Ok(())
    }

    fn parse_put_locator(
        &mut self,
        number: usize,
        locator: &str,
    ) -> Result<PutTarget, LocatorProblem> {
        let (target, warning) = parse_put_locator(locator)?;
        if let Some(message) = warning {
            self.warn(number, message);
        }
        Ok(target)
    }
}

/// Whether a lower-case `put …`/`cut …` line is a complete, valid op (as
/// Rho reads it) rather than text that happens to start with the word.
fn lowercase_op_parses(keyword: Keyword, rest: &str) -> bool {
    let Ok((locator, register, colon)) = split_register(rest.trim()) else {
        return false;
    };
    match keyword {
        Keyword::Cut => !colon && parse_target_with_warning(locator).is_ok(),
        Keyword::Put => (colon || register.is_some()) && parse_put_locator(locator).is_ok(),
        Keyword::Rem | Keyword::Mv | Keyword::Eof => false,
    }
}

/// Splits `locator [@name] [:]` into its parts. Returns the locator text,
/// the register name if any, and whether a trailing colon was present.
fn split_register(rest: &str) -> Result<(&str, Option<String>, bool), Problem> {
    let (body, colon) = match rest.strip_suffix(':') {
        Some(body) => (body.trim_end(), true),
        None => (rest, false),
    };
    match body.split_once('@') {
        None => Ok((body.trim(), None, colon)),
        Some((locator, name)) => {
            let name = name.trim();
            let valid = !name.is_empty()
                && name.chars().count() <= MAX_REGISTER_NAME
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            if !valid {
                return Err(Problem::BadRegister);
            }
            Ok((locator.trim(), Some(name.to_string()), colon))
        }
    }
}

/// Whether a double-quoted path must keep its quotes (see `clean_path`):
/// the text between them has a backslash escape or starts or ends with
/// whitespace.
fn kept_quoted(quoted: &str) -> bool {
    let inner = &quoted[1..quoted.len() - 1];
    inner.contains('\\')
        || inner.starts_with(char::is_whitespace)
        || inner.ends_with(char::is_whitespace)
}

/// Removes quotes and apply_patch noise (`*** Update File: `) from a path;
/// returns the clean path and a description of what was removed.
fn clean_path(path: &str) -> (String, Option<&'static str>) {
    let mut noise = None;
    let mut p = path.trim();
    if let Some(rest) = p.strip_prefix("***") {
        let rest = rest.trim_start();
        let lower = rest.to_ascii_lowercase();
        for verb in ["update", "add", "delete", "move"] {
            if let Some(after) = lower.strip_prefix(verb) {
                let mut cut = rest.len() - after.len();
                let after_trim = after.trim_start();
                for word in ["file", "to"] {
                    if after_trim.starts_with(word) {
                        cut = rest.len() - after_trim.len() + word.len();
                        break;
                    }
                }
                let tail = rest[cut..].trim_start();
                if let Some(tail) = tail.strip_prefix(':') {
                    p = tail.trim();
                    noise = Some("the apply_patch prefix");
                }
                break;
            }
        }
    }
    for q in ['"', '\''] {
        // A double-quoted path holding a backslash, or whitespace at either
        // end inside the quotes, is the tools' quoted spelling of an unusual
        // name (`"tab\tx.txt"`, `" lead.txt"`); stripping the quotes would
        // lose it, so it is kept whole for the workspace to read back.
        if q == '"' && p.len() >= 2 && p.starts_with(q) && p.ends_with(q) && kept_quoted(p) {
            continue;
        }
        if p.len() >= 2 && p.starts_with(q) && p.ends_with(q) {
            // One layer only: `"'y'"` names the file `'y'`.
            p = &p[1..p.len() - 1];
            // The tools quote a name starting with `***` themselves, so
            // those quotes are the name's spelling, not noise.
            if !(q == '"' && p.starts_with("***")) {
                noise = noise.or(Some("the quotes"));
            }
            break;
        }
    }
    (p.to_string(), noise)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Keyword {
    Put,
    Cut,
    Rem,
    Mv,
    Eof,
}

impl Keyword {
    fn name(self) -> &'static str {
        match self {
            Keyword::Put => "PUT",
            Keyword::Cut => "CUT",
            Keyword::Rem => "REM",
            Keyword::Mv => "MV",
            Keyword::Eof => "EOF",
        }
    }
}

/// Splits `PUT rest` (keyword in any case, as a whole token).
fn split_keyword(line: &str) -> Option<(Keyword, &str)> {
    for keyword in [
        Keyword::Put,
        Keyword::Cut,
        Keyword::Rem,
        Keyword::Mv,
        Keyword::Eof,
    ] {
        let name = keyword.name();
        let Some(head) = line.get(..name.len()) else {
            continue;
        };
        if !head.eq_ignore_ascii_case(name) {
            continue;
        }
        let rest = &line[name.len()..];
        match rest.chars().next() {
            None => return Some((keyword, rest)),
            Some(c) if c.is_whitespace() => return Some((keyword, rest)),
            // `PUT:` and `CUT:` are keyword-then-nothing with a colon.
            Some(':') if matches!(keyword, Keyword::Put | Keyword::Cut) => {
                return Some((keyword, rest));
            }
            Some(_) => {}
        }
    }
    None
}

fn parse_put_locator(locator: &str) -> Result<(PutTarget, Option<String>), LocatorProblem> {
    if let Some(rest) = locator.strip_prefix('<') {
        let rest = rest.trim();
        if rest.starts_with('$') {
            return Err(LocatorProblem::DollarBefore);
        }
        if let Some(line) = rest.strip_suffix('*') {
            let line = parse_line(line.trim())?;
            let message = format!(
                "read PUT <{line}*: as PUT <{line}: (inserting before a block is inserting before its line)"
            );
            return Ok((PutTarget::Insert(Gap::Before(line)), Some(message)));
        }
        return parse_line(rest).map(|n| (PutTarget::Insert(Gap::Before(n)), None));
    }
    if let Some(rest) = locator.strip_prefix('>') {
        let rest = rest.trim();
        if rest == "$" {
            return Ok((PutTarget::Insert(Gap::End), None));
        }
        if rest.starts_with('$') {
            return Err(LocatorProblem::BlockAfterRange);
        }
        if let Some(line) = rest.strip_suffix('*') {
            return parse_line(line.trim()).map(|n| (PutTarget::Insert(Gap::AfterBlock(n)), None));
        }
        return parse_line(rest).map(|n| (PutTarget::Insert(Gap::After(n)), None));
    }
    let (target, warning) = parse_target_with_warning(locator)?;
    Ok((PutTarget::Replace(target), warning))
}

/// Parses `N`, `N*` or a range with any of omp's separators; the warning
/// names a non-canonical separator.
fn parse_target_with_warning(text: &str) -> Result<(Target, Option<String>), LocatorProblem> {
    let text = text.trim();
    if let Some(line) = text.strip_suffix('*') {
        let line = line.trim_end();
        if !line.bytes().all(|b| b.is_ascii_digit()) {
            return Err(if line.bytes().any(|b| b.is_ascii_digit()) {
                LocatorProblem::BlockAfterRange
            } else {
                LocatorProblem::NotANumber
            });
        }
        return parse_line(line).map(|n| (Target::Block(n), None));
    }
    let (range, separator) = parse_range(text)?;
    if separator.as_deref() == Some(" ") {
        return Err(LocatorProblem::SpaceSeparator);
    }
    let warning = separator
        .filter(|s| !matches!(s.as_str(), ".=" | "-" | ".."))
        .map(|s| {
            format!(
                "read the range separator '{s}' in '{text}' as '.='; write {}",
                range.canonical()
            )
        });
    Ok((Target::Lines(range), warning))
}

/// Separator characters between two line numbers (reference-omp.md §2.5).
fn is_separator(c: char) -> bool {
    matches!(c, '-' | '.' | '=' | '…') || c.is_whitespace()
}

/// Parses `N` or `N<sep>M`; returns the range and the trimmed separator (or
/// `" "` for whitespace only) when there was one.
fn parse_range(text: &str) -> Result<(LineRange, Option<String>), LocatorProblem> {
    let text = text.trim();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        if text.starts_with(['.', '=', '-', '…'])
            && text
                .trim_start_matches(is_separator)
                .starts_with(|c: char| c.is_ascii_digit())
        {
            return Err(if text.starts_with('-') {
                LocatorProblem::NotANumber
            } else {
                LocatorProblem::MissingStart
            });
        }
        return Err(LocatorProblem::NotANumber);
    }
    let start = parse_line(&text[..digits])?;
    let rest = &text[digits..];
    if rest.is_empty() {
        return Ok((LineRange { start, end: start }, None));
    }
    let separator_len: usize = rest
        .chars()
        .take_while(|c| is_separator(*c))
        .map(char::len_utf8)
        .sum();
    let separator = rest[..separator_len].trim();
    let end_text = &rest[separator_len..];
    if separator_len == 0 {
        return Err(LocatorProblem::BadSeparator);
    }
    if end_text.is_empty() {
        return Err(if separator == "." {
            LocatorProblem::Truncated
        } else {
            LocatorProblem::MissingEnd
        });
    }
    if !end_text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(
            if end_text.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
                LocatorProblem::BadSeparator
            } else {
                LocatorProblem::NotANumber
            },
        );
    }
    let end = parse_line(end_text)?;
    if start > end {
        return Err(LocatorProblem::Reversed);
    }
    let separator = if separator.is_empty() {
        " ".to_string()
    } else {
        separator.to_string()
    };
    Ok((LineRange { start, end }, Some(separator)))
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
        // `7.=` may be a range cut short, so this is a suggestion to check.
        (LocatorProblem::MissingEnd, [n]) => Some(format!("{n}")),
        _ => None,
    }
}

/// Lines of other patch formats.
fn foreign_shape(trimmed: &str) -> Option<ForeignShape> {
    let lower = trimmed.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("***") {
        let rest = rest.trim_start();
        if [
            "update file",
            "add file",
            "delete file",
            "move to",
            "end of file",
        ]
        .iter()
        .any(|p| rest.starts_with(p))
        {
            return Some(ForeignShape::ApplyPatch);
        }
    }
    if trimmed.starts_with("@@") {
        return Some(ForeignShape::UnifiedDiffHunk);
    }
    None
}

/// For `2.=3:` or `5` (a range without an op), the two corrected ops.
fn missing_verb_fix(trimmed: &str) -> Option<String> {
    let (locator, colon) = match trimmed.strip_suffix(':') {
        Some(l) => (l.trim_end(), true),
        None => (trimmed, false),
    };
    if !locator.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let (range, separator) = parse_range(locator).ok()?;
    // `12:` alone may be a pasted empty read row; that is a bare row.
    if colon && separator.is_none() {
        return None;
    }
    let canonical = range.canonical();
    Some(format!(
        "PUT {canonical}:  (then + rows)  or  CUT {canonical}"
    ))
}

fn row_shape(raw: &str) -> RowShape {
    let t = raw.trim_start();
    if t.is_empty() {
        return RowShape::Blank;
    }
    if t.starts_with("```") || t.starts_with("~~~") {
        return RowShape::Fence;
    }
    if t.starts_with('+') {
        return RowShape::IndentedPlus;
    }
    if matches!(t.trim_end(), "…" | "...") {
        return RowShape::Ellipsis;
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

/// The corrected row (inside a body) or op (outside one) for a row without
/// `+`, as a hint only: it is never applied.
fn bare_row_fix(raw: &str, shape: RowShape, in_body: bool) -> Option<String> {
    match shape {
        RowShape::NumberedRow => {
            let t = raw.trim_start();
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            let after = t[digits..].trim_start();
            let text = match after.strip_prefix('|') {
                Some(rest) => rest.strip_prefix(' ').unwrap_or(rest),
                None => &after[1..],
            };
            if in_body {
                Some(format!("+{text}"))
            } else {
                Some(format!("PUT {}:\n+{text}", &t[..digits]))
            }
        }
        // Our own footers pasted into a body are not content to suggest.
        RowShape::Plain if in_body && !is_view_metadata(raw.trim()) => Some(format!("+{raw}")),
        RowShape::DiffMinus
        | RowShape::Fence
        | RowShape::Blank
        | RowShape::OrphanPlus
        | RowShape::IndentedPlus
        | RowShape::Ellipsis
        | RowShape::Plain => None,
    }
}

/// The document lines (1-based) of a Markdown fence around the whole
/// document: the first non-blank line opens a fence (```` ``` ````,
/// ```` ```lang ````, `~~~`) and the last non-blank line closes it. A body
/// line that is a fence is written `+```` `, so a bare fence there is
/// never content.
fn outer_fence(input: &str) -> Option<(usize, usize)> {
    let mut lines = input
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (first, opener) = lines.next()?;
    let (last, closer) = lines.last()?;
    let opener = opener.trim();
    let closer = closer.trim();
    let fence = ["```", "~~~"].into_iter().find(|f| opener.starts_with(f))?;
    let info = &opener[3..];
    let info_ok = info
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '.'));
    (info_ok && closer == fence).then_some((first + 1, last + 1))
}

/// The `PUT` op on `target` with `rows`, canonically spelled: a fix to
/// copy.
fn corrected_op(target: PutTarget, rows: &[String]) -> String {
    let locator = match target {
        PutTarget::Replace(target) => target.canonical(),
        PutTarget::Insert(at) => at.canonical(),
    };
    let mut fix = format!("PUT {locator}:");
    for row in rows {
        fix.push_str("\n+");
        fix.push_str(row);
    }
    fix
}

/// The rows without their prefixes when every row of a body starts with
/// `N:` and the numbers count up by one from the op's own line (for an
/// insert, from its anchor or the line after it; for an insert at the end,
/// any start, but at least two rows): rows pasted from a read.
fn numbered_body(target: PutTarget, body: &[String]) -> Option<Vec<String>> {
    let mut numbers = Vec::with_capacity(body.len());
    let mut stripped = Vec::with_capacity(body.len());
    for row in body {
        let digits = row.bytes().take_while(u8::is_ascii_digit).count();
        let rest = row[digits..].strip_prefix(':')?;
        numbers.push(row[..digits].parse::<usize>().ok()?);
        stripped.push(rest.to_string());
    }
    let first = *numbers.first()?;
    if numbers.iter().enumerate().any(|(i, &n)| n != first + i) {
        return None;
    }
    let expected: &[usize] = match target {
        PutTarget::Replace(Target::Lines(range)) => &[range.start],
        PutTarget::Replace(Target::Block(n)) => &[n],
        PutTarget::Insert(Gap::After(n) | Gap::AfterBlock(n)) => &[n, n + 1],
        PutTarget::Insert(Gap::Before(n)) => &[n.saturating_sub(1), n],
        // The parser does not know the file's length, so any numbering
        // could be the end's; one row (`12:30 standup` appended) is too
        // little evidence, several counting up are not.
        PutTarget::Insert(Gap::End) => return (body.len() >= 2).then_some(stripped),
    };
    expected.contains(&first).then_some(stripped)
}

/// Our own footers and gap rows, pasted back by a model: `…`,
/// `[lines 2-3 of 4 shown; …]`, `[12 of 80 lines shown; …]`,
/// `[post-edit lines …]`, `[structural edit: …]`, `[line 5 is … bytes …]`.
fn is_view_metadata(trimmed: &str) -> bool {
    if trimmed == "…" || trimmed == "..." {
        return true;
    }
    let Some(inner) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
        return false;
    };
    if inner.contains('#') {
        return false;
    }
    if ["lines ", "post-edit lines ", "structural edit", "line "]
        .iter()
        .any(|p| inner.starts_with(p))
        && inner.contains(|c: char| c.is_ascii_digit())
    {
        return true;
    }
    // `12 of 80 lines shown`
    let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && inner[digits..].starts_with(" of ")
}

/// A valid header with decoration around it (Markdown code or bold marks,
/// a heading `#`, a note after it): the header alone.
fn decorated_header_fix(trimmed: &str) -> Option<String> {
    let open = trimmed.find('[')?;
    let close = open + trimmed[open..].find(']')?;
    let candidate = &trimmed[open..=close];
    if candidate == trimmed {
        return None;
    }
    let inner = &candidate[1..candidate.len() - 1];
    let (path, tag) = inner.rsplit_once('#')?;
    let path = path.trim();
    (!path.is_empty() && SnapshotTag::parse(tag.trim()).is_some())
        .then(|| format!("[{path}#{}]", tag.trim().to_ascii_uppercase()))
}

/// `path#TAG` written without brackets: the bracketed header.
fn bracketless_header_fix(trimmed: &str) -> Option<String> {
    let (path, tag) = trimmed.rsplit_once('#')?;
    let path = path.trim();
    let valid = !path.is_empty()
        && !path.contains(char::is_whitespace)
        && SnapshotTag::parse(tag.trim()).is_some();
    valid.then(|| format!("[{path}#{}]", tag.trim().to_ascii_uppercase()))
}

#[cfg(test)]
mod tests;
