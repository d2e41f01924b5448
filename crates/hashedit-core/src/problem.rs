//! What a parse failure says: the error, its kinds and their wording.
//! Every message names what was expected; the fix, when there is one, is
//! a line to copy.

use std::fmt;

use crate::surface::{Name, Surface, Word, display_as_mcp};

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
#[non_exhaustive]
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
    /// error's line and closing on document line `close`.
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
    /// `SUB` without the colon that opens its rows.
    SubWithoutColon,
    /// A `SUB …:` header followed by no `-` row, or by one empty `-` row
    /// only: no old text to find.
    SubWithoutOld,
    /// A `-` row after a `SUB`'s `+` rows.
    OldRowAfterNewRows,
}

/// Why a locator is invalid.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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
#[non_exhaustive]
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

/// Lines of other patch formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ForeignShape {
    /// `*** Update File: …` and friends (apply_patch).
    ApplyPatch,
    /// `@@ -a,b +c,d @@` (unified diff).
    UnifiedDiffHunk,
}

impl Word for Problem {
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        match self {
            Problem::BadLocator(p) => write!(f, "{p}"),
            Problem::BareRow(shape) => write!(f, "{shape}"),
            Problem::OuterFence { close } => {
                write!(
                    f,
                    "the document is wrapped in a Markdown code fence (this line and line {close}); \
                     send it as plain text without both fence lines, starting with its header"
                )
            }
            Problem::AfterEnvelopeEnd { rest, next } => {
                write!(
                    f,
                    "'*** End Patch' ends the document, but {rest} more line{} follow{} (from line {next}); \
                     nothing was applied. Delete this line if they belong to the edit, or delete them",
                    if *rest == 1 { "" } else { "s" },
                    if *rest == 1 { "s" } else { "" },
                )
            }
            Problem::NumberedBody => {
                write!(
                    f,
                    "every body row starts with a line number, as copied from a read (N:text), and the snapshot cannot \
                 confirm them as the replaced lines'; a + row holds only the line's text, so rows copied from a read are \
                 written as below. If the text really starts with those numbers, send the same document again with \
                 {}: force writes every row exactly as sent, numbers included",
                    surface.name(Name::ForceSet)
                )
            }
            fixed => f.write_str(fixed.fixed_text()),
        }
    }
}

impl Problem {
    /// The wording of a problem that has no parts.
    fn fixed_text(&self) -> &'static str {
        match self {
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
                "expected a [path#TAG] header, an op (PUT, CUT, SUB, REM, MV), or a + body row under a PUT header"
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
            Problem::SubWithoutColon => {
                "SUB ends with ':' and is followed by - rows (the old text) and + rows (the new text): SUB N:, \
                 SUB N.=M:, or SUB: to search the whole file"
            }
            Problem::SubWithoutOld => {
                "SUB needs its old text as - rows right after the header (at least one character; several - rows \
                 span lines), then the new text as + rows"
            }
            Problem::OldRowAfterNewRows => {
                "a SUB's - rows (the old text) all come before its + rows (the new text)"
            }
            Problem::BadFinalNewline => {
                "EOF says how the file ends: EOF NEWLINE makes its last line end with a line break, EOF NO NEWLINE \
                 removes that line break"
            }
            Problem::BadLocator(_)
            | Problem::BareRow(_)
            | Problem::OuterFence { .. }
            | Problem::AfterEnvelopeEnd { .. }
            | Problem::NumberedBody => "",
        }
    }
}

display_as_mcp!(Problem);

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

impl Word for ParseError {
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        if self.line == 0 {
            f.write_str("edit document: ")?;
            self.problem.word(f, surface)?;
        } else {
            write!(f, "edit document line {}: ", self.line)?;
            self.problem.word(f, surface)?;
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

display_as_mcp!(ParseError);

impl std::error::Error for ParseError {}

fn quote(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(QUOTE_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

pub(crate) fn err(line: usize, text: &str, problem: Problem, fix: Option<String>) -> ParseError {
    ParseError {
        line,
        text: quote(text),
        problem,
        fix,
    }
}
