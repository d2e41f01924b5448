//! The edit document as authored: sections of ops against original lines.
//!
//! ```text
//! [src/app.py#A1B2]      section header: display path and snapshot tag
//! PUT 2:                 replace line 2 …
//! +print("hi")           … with these body rows
//! PUT 4.=6:              replace lines 4 to 6 (also 4-6, 4..6)
//! +x = 1
//! PUT 9*:                replace the block that starts on line 9
//! +def g(): pass
//! PUT <1:                insert before line 1
//! +# header
//! PUT >7:                insert after line 7 (PUT >12*: after the block starting on 12)
//! +pass
//! PUT >$:                append at the end of the file
//! +# end
//! CUT 20.=22             delete lines 20 to 22 and keep them in the anonymous register
//! CUT 30* @helper        delete the block on line 30 into register @helper
//! PUT >40                paste the anonymous register after line 40
//! PUT 50.=51 @helper     replace lines 50-51 with register @helper
//! SUB 60:                in line 60, replace the one occurrence of …
//! -count > 10            … this old text (several - rows: across lines) …
//! +count >= 10           … with these rows (SUB: searches the whole file)
//! MV src/new.py          after the ops, move the file (REM deletes it)
//! ```
//!
//! Line numbers always name the snapshot the tag identifies; they never
//! shift within a document (FORMAT.md §5). The parser is [`crate::parse`];
//! [`crate::lower`] turns ops into the [`crate::hunk::Hunk`]s the planner
//! applies.

use crate::tag::SnapshotTag;

/// A parsed edit document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Sections in document order.
    pub sections: Vec<Section>,
    /// Tolerated spellings, in document order.
    pub warnings: Vec<Warning>,
}

/// One `[path#TAG]` section and its ops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The path as written in the header (trimmed, quotes and apply_patch
    /// noise removed).
    pub path: String,
    /// The snapshot tag the ops were written against.
    pub tag: SnapshotTag,
    /// 1-based line of the header in the document.
    pub line: usize,
    /// Ops in document order.
    pub ops: Vec<Op>,
}

impl Section {
    /// The section's file op (`REM` or `MV`), if any; the parser allows at
    /// most one.
    pub fn file_op(&self) -> Option<&Op> {
        self.ops
            .iter()
            .find(|op| matches!(op.kind, OpKind::Remove | OpKind::Move { .. }))
    }
}

/// One op with the document line of its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    /// 1-based line of the op header in the document.
    pub line: usize,
    /// What the op does.
    pub kind: OpKind,
    /// Rows that look pasted from a diff or a read, which the edit checks
    /// against the snapshot before it repairs them (FORMAT.md §7.6).
    pub pasted: Option<Pasted>,
}

/// A body that looks pasted from a diff or a read: the edit decides, by the
/// snapshot the parser does not see, whether to repair it or to fail with
/// `refusal` (FORMAT.md §7.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pasted {
    /// `-old` rows among the `+` rows, as a unified diff shows them; the
    /// op's body holds only the `+` rows. Repaired when the `-` rows equal
    /// the replaced lines, in order.
    MinusRows {
        /// Each `-` row's document line and text without its `-`.
        rows: Vec<(usize, String)>,
        /// The refusal when they do not.
        refusal: Box<crate::problem::ParseError>,
    },
    /// Every body row starts with `N:`, counting up from the op's first
    /// line; the body holds the rows as written. Repaired on a line range
    /// whose lines the numbers name (and do not begin with), written as
    /// sent under force, else refused.
    Numbered {
        /// The rows without their `N:` prefixes.
        stripped: Vec<String>,
        /// The first number (0 when the op's target is not a line range).
        first: usize,
        /// The refusal when the numbers do not fit.
        refusal: Box<crate::problem::ParseError>,
    },
}

/// The ops of the grammar.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OpKind {
    /// `PUT N:`, `PUT N.=M:`, `PUT N*:`: replace lines with the body rows.
    Replace {
        /// The lines replaced.
        target: Target,
        /// Replacement rows (at least one).
        body: Vec<String>,
    },
    /// `PUT <N:`, `PUT >N:`, `PUT >$:`, `PUT >N*:`: insert body rows.
    Insert {
        /// Where the rows go.
        at: Gap,
        /// Inserted rows (at least one).
        body: Vec<String>,
    },
    /// `CUT N`, `CUT N.=M`, `CUT N*`, optionally `@name`: delete lines and
    /// keep them in a register.
    Cut {
        /// The lines deleted.
        target: Target,
        /// Where the lines are kept.
        register: Register,
    },
    /// `PUT <N`, `PUT >N`, `PUT >$`, `PUT >N*`, optionally `@name` (no
    /// colon, no body): insert a register's lines at a gap.
    Paste {
        /// Where the lines go.
        at: Gap,
        /// Which register.
        register: Register,
    },
    /// `PUT N.=M @name`, `PUT N @name`, `PUT N* @name`: replace lines with a
    /// named register's lines.
    PasteOver {
        /// The lines replaced.
        target: Target,
        /// The register's name (span pastes always name one).
        register: String,
    },
    /// `REM`: delete the file. No other op may share its section.
    Remove,
    /// `MV DEST`: after the section's line ops, move the file to `dest`
    /// (which must not exist).
    Move {
        /// Destination path as written (trimmed, quotes removed).
        dest: String,
    },
    /// `EOF NEWLINE` or `EOF NO NEWLINE`: make the file end with a line
    /// break after its last line, or without one (FORMAT.md §5.6). The one
    /// change of a file the rows cannot express.
    FinalNewline(FinalNewline),
    /// `SUB N:`, `SUB N.=M:`, `SUB N*:` or `SUB:`: replace the one
    /// occurrence of the old text within those lines (the whole file for
    /// `SUB:`) with the body rows (FORMAT.md §5.9).
    Substitute {
        /// The lines searched; `None` searches the whole file.
        within: Option<Target>,
        /// The `-` rows (at least one), joined by line breaks: the old
        /// text, matched byte for byte, line endings aside.
        old: Vec<String>,
        /// The `+` rows, joined by line breaks: the new text. None deletes
        /// the old text (and whole lines it spans exactly).
        body: Vec<String>,
    },
}

/// Lines an op replaces or deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Explicit original lines.
    Lines(LineRange),
    /// `N*`: the syntactic block that starts on line N.
    Block(usize),
}

impl Target {
    /// The canonical locator: `N`, `N.=M` or `N*`.
    pub fn canonical(self) -> String {
        match self {
            Target::Lines(range) => range.canonical(),
            Target::Block(line) => format!("{line}*"),
        }
    }

    /// The lines in words: `line 4`, `lines 4-6`, `the block at line 9`.
    pub fn words(self) -> String {
        match self {
            Target::Lines(range) if range.start == range.end => format!("line {}", range.start),
            Target::Lines(range) => format!("lines {}-{}", range.start, range.end),
            Target::Block(line) => format!("the block at line {line}"),
        }
    }
}

/// An inclusive range of original lines, `start <= end`, both ≥ 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LineRange {
    /// First line (1-based).
    pub start: usize,
    /// Last line (inclusive).
    pub end: usize,
}

impl LineRange {
    /// Number of lines in the range.
    pub fn len(self) -> usize {
        self.end - self.start + 1
    }

    /// Always false: a range holds at least one line.
    pub fn is_empty(self) -> bool {
        false
    }

    /// `N` for one line, `N.=M` otherwise: the canonical spelling.
    pub fn canonical(self) -> String {
        if self.start == self.end {
            self.start.to_string()
        } else {
            format!("{}.={}", self.start, self.end)
        }
    }
}

/// A gap between lines where rows can be inserted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gap {
    /// `<N`: before original line N.
    Before(usize),
    /// `>N`: after original line N.
    After(usize),
    /// `>$`: after the last line.
    End,
    /// `>N*`: after the last line of the block that starts on line N.
    AfterBlock(usize),
}

impl Gap {
    /// The canonical locator: `<N`, `>N`, `>$` or `>N*`.
    pub fn canonical(self) -> String {
        match self {
            Gap::Before(n) => format!("<{n}"),
            Gap::After(n) => format!(">{n}"),
            Gap::End => ">$".to_string(),
            Gap::AfterBlock(n) => format!(">{n}*"),
        }
    }

    /// The gap in words: `before line 1`, `at the end`.
    pub fn words(self) -> String {
        match self {
            Gap::Before(line) => format!("before line {line}"),
            Gap::After(line) => format!("after line {line}"),
            Gap::End => "at the end".to_string(),
            Gap::AfterBlock(line) => format!("after the block at line {line}"),
        }
    }
}

/// Whether a file ends with a line break after its last line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FinalNewline {
    /// The last line ends with a line break (`EOF NEWLINE`).
    Present,
    /// It does not (`EOF NO NEWLINE`).
    Absent,
}

/// A register: where `CUT` keeps lines and a colonless `PUT` takes them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Register {
    /// The unnamed register: lives for one edit call.
    Anonymous,
    /// `@name`: lives for the session (the MCP server) or the call (CLI).
    Named(String),
}

impl Register {
    /// ` @name` for a named register, empty for the anonymous one.
    pub fn suffix(&self) -> String {
        match self {
            Register::Anonymous => String::new(),
            Register::Named(name) => format!(" @{name}"),
        }
    }
}

/// Longest register name (characters of `[A-Za-z0-9_-]`).
pub const MAX_REGISTER_NAME: usize = 64;

/// What a second op equal to an earlier one in the same section means
/// (FORMAT.md §5.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    /// A duplicated hunk: applied once, with a warning.
    AppliedOnce,
    /// A paste: its rows go in again, with a warning.
    AppliedTwice,
    /// Once is what the op means; a repeat says it twice, without a word.
    Silent,
    /// A file op, of which a section holds one anyway.
    Kept,
}

/// The facts of each op kind, in one place: its keyword, its canonical
/// header, whether `+` rows follow it, what it does in words, the lines a
/// live snapshot shows for it and what a repeat of it means.
impl OpKind {
    /// The keyword its header starts with.
    pub fn keyword(&self) -> &'static str {
        match self {
            OpKind::Replace { .. }
            | OpKind::Insert { .. }
            | OpKind::Paste { .. }
            | OpKind::PasteOver { .. } => "PUT",
            OpKind::Cut { .. } => "CUT",
            OpKind::Remove => "REM",
            OpKind::Move { .. } => "MV",
            OpKind::FinalNewline(_) => "EOF",
            OpKind::Substitute { .. } => "SUB",
        }
    }

    /// The op's canonical header, e.g. `PUT 2.=5:`, `CUT 4 @a`, `MV b.rs`.
    pub fn canonical_header(&self) -> String {
        let keyword = self.keyword();
        match self {
            OpKind::Replace { target, .. } => format!("{keyword} {}:", target.canonical()),
            OpKind::Insert { at, .. } => format!("{keyword} {}:", at.canonical()),
            OpKind::Cut { target, register } => {
                format!("{keyword} {}{}", target.canonical(), register.suffix())
            }
            OpKind::Paste { at, register } => {
                format!("{keyword} {}{}", at.canonical(), register.suffix())
            }
            OpKind::PasteOver { target, register } => {
                format!("{keyword} {} @{register}", target.canonical())
            }
            OpKind::Remove => keyword.to_string(),
            OpKind::Move { dest } => format!("{keyword} {dest}"),
            OpKind::FinalNewline(FinalNewline::Present) => format!("{keyword} NEWLINE"),
            OpKind::FinalNewline(FinalNewline::Absent) => format!("{keyword} NO NEWLINE"),
            OpKind::Substitute {
                within: Some(target),
                ..
            } => format!("{keyword} {}:", target.canonical()),
            OpKind::Substitute { within: None, .. } => format!("{keyword}:"),
        }
    }

    /// Whether body rows follow the header (a `PUT …:` or a `SUB …:`).
    pub fn takes_body(&self) -> bool {
        matches!(
            self,
            OpKind::Replace { .. } | OpKind::Insert { .. } | OpKind::Substitute { .. }
        )
    }

    /// True for `REM` and `MV`.
    pub fn is_file_op(&self) -> bool {
        matches!(self, OpKind::Remove | OpKind::Move { .. })
    }

    /// What the op does, in words and without the file: `replace lines
    /// 4-6`, `paste @a after line 3`.
    pub fn words(&self) -> String {
        match self {
            OpKind::Replace { target, .. } => format!("replace {}", target.words()),
            OpKind::Insert { at, .. } => format!("insert {}", at.words()),
            OpKind::Cut { target, register } => match register {
                Register::Anonymous => format!("delete {}", target.words()),
                Register::Named(name) => format!("delete {} into @{name}", target.words()),
            },
            OpKind::Paste { at, register } => match register {
                Register::Anonymous => format!("paste the cut lines {}", at.words()),
                Register::Named(name) => format!("paste @{name} {}", at.words()),
            },
            OpKind::PasteOver { target, register } => {
                format!("replace {} with @{register}", target.words())
            }
            OpKind::Remove => "delete the file".to_string(),
            OpKind::Move { dest } => format!("move the file to {dest}"),
            OpKind::FinalNewline(FinalNewline::Present) => "end the file with a line break".into(),
            OpKind::FinalNewline(FinalNewline::Absent) => {
                "end the file without a line break".into()
            }
            OpKind::Substitute {
                within: Some(target),
                ..
            } => format!("replace text in {}", target.words()),
            OpKind::Substitute { within: None, .. } => "replace text in the file".into(),
        }
    }

    /// The original lines a live snapshot shows for the op: a target's
    /// first and last line (a block's first), a gap's anchor, none for
    /// `>$` and file ops (FORMAT.md §4.4).
    pub fn anchor_lines(&self) -> Vec<usize> {
        match self {
            OpKind::Replace { target, .. }
            | OpKind::Cut { target, .. }
            | OpKind::PasteOver { target, .. }
            | OpKind::Substitute {
                within: Some(target),
                ..
            } => match target {
                Target::Lines(range) => vec![range.start, range.end],
                Target::Block(line) => vec![*line],
            },
            OpKind::Insert { at, .. } | OpKind::Paste { at, .. } => match at {
                Gap::Before(n) | Gap::After(n) | Gap::AfterBlock(n) => vec![*n],
                Gap::End => Vec::new(),
            },
            OpKind::Remove
            | OpKind::Move { .. }
            | OpKind::FinalNewline(_)
            | OpKind::Substitute { within: None, .. } => Vec::new(),
        }
    }

    /// What an equal op earlier in the section makes of this one.
    pub fn repeat(&self) -> Repeat {
        match self {
            OpKind::Replace { .. }
            | OpKind::Cut { .. }
            | OpKind::PasteOver { .. }
            | OpKind::Insert { .. }
            | OpKind::Substitute { .. } => Repeat::AppliedOnce,
            OpKind::Paste { .. } => Repeat::AppliedTwice,
            OpKind::FinalNewline(_) => Repeat::Silent,
            OpKind::Remove | OpKind::Move { .. } => Repeat::Kept,
        }
    }
}

/// A spelling the parser accepted although it is not canonical, or a note
/// about an op applied as written; reported to the model so it can learn
/// the canonical form (FORMAT.md §5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 1-based document line.
    pub line: usize,
    /// What was accepted, and how to write it canonically.
    pub kind: WarningKind,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "warning: document line {}: {}", self.line, self.kind)
    }
}

/// What a [`Warning`] says; its `Display` is the sentence the model reads.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// The whole document sat inside a Markdown code fence, on these two
    /// document lines.
    OuterFence {
        /// The opening fence's line.
        open: usize,
        /// The closing fence's line.
        close: usize,
    },
    /// A `*** Begin Patch` envelope line (reported once per document).
    BeginPatchEnvelope,
    /// An envelope marker in brackets before a header:
    /// `[*** Begin Patch] [a.rs#1A2B]`.
    EnvelopeBeforeHeader,
    /// A header path with apply_patch noise or quotes, read without them.
    HeaderNoise {
        /// The path as read.
        path: String,
        /// The header's tag.
        tag: SnapshotTag,
        /// What was dropped (e.g. `the '*** Update File:' prefix`).
        dropped: &'static str,
    },
    /// A tag written in lower case (reported once per document).
    LowercaseTag(SnapshotTag),
    /// An op keyword written in lower case (reported once per document).
    LowercaseKeyword(&'static str),
    /// A footer or gap row copied from tool output, ignored.
    ToolOutputLine,
    /// A body row that spells an op; it is written as text.
    BodyRowSpellsOp {
        /// The row after its `+`.
        row: String,
    },
    /// An op repeating an earlier one exactly, applied once.
    RepeatedOp {
        /// The op's canonical header.
        header: String,
        /// The document line of its first occurrence.
        first_line: usize,
    },
    /// A `PUT … @r` repeating an earlier one exactly: its rows go in twice.
    RepeatedPaste {
        /// The op's canonical header.
        header: String,
        /// The document line of its first occurrence.
        first_line: usize,
    },
    /// A range separator other than `.=`, `-` and `..` (`read the range
    /// separator '…' in '3…5' as '.='`).
    RangeSeparator {
        /// The separator as written.
        separator: String,
        /// The locator as written.
        locator: String,
        /// The canonical range.
        canonical: String,
    },
    /// `PUT <N*:`, read as `PUT <N:`.
    BlockBeforeInsert(usize),
    /// A `:` after a `CUT` locator, ignored.
    ColonAfterCut {
        /// The canonical header.
        canonical: String,
    },
    /// An `EOF NEWLINE` / `EOF NO NEWLINE` line spelled otherwise.
    FinalNewlineSpelling {
        /// The canonical spelling.
        canonical: String,
    },
}

impl std::fmt::Display for WarningKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WarningKind::OuterFence { open, close } => write!(
                f,
                "read the document without the Markdown code fence around it (lines {open} and \
                 {close}); send it as plain text, starting with its header"
            ),
            WarningKind::BeginPatchEnvelope => {
                f.write_str("ignored the '*** Begin Patch' envelope line; it is not needed")
            }
            WarningKind::EnvelopeBeforeHeader => {
                f.write_str("ignored the envelope marker before the header")
            }
            WarningKind::HeaderNoise { path, tag, dropped } => {
                write!(f, "read the header as [{path}#{tag}] (dropped {dropped})")
            }
            WarningKind::LowercaseTag(tag) => {
                write!(f, "read the tag as {tag}; tags are printed in capitals")
            }
            WarningKind::LowercaseKeyword(keyword) => {
                write!(f, "read the keyword as {keyword}; ops are written in capitals")
            }
            WarningKind::ToolOutputLine => f.write_str(
                "ignored a line copied from tool output (a footer or gap row); it is not part of the edit",
            ),
            WarningKind::BodyRowSpellsOp { row } => write!(
                f,
                "the body row '+{row}' spells an op; it is written to the file as text"
            ),
            WarningKind::RepeatedOp { header, first_line } => write!(
                f,
                "{header} repeats document line {first_line} exactly; it was applied once"
            ),
            WarningKind::RepeatedPaste { header, first_line } => write!(
                f,
                "{header} repeats document line {first_line} exactly, so its rows are inserted \
                 twice; drop one if that was not meant"
            ),
            WarningKind::RangeSeparator {
                separator,
                locator,
                canonical,
            } => write!(
                f,
                "read the range separator '{separator}' in '{locator}' as '.='; write {canonical}"
            ),
            WarningKind::BlockBeforeInsert(line) => write!(
                f,
                "read PUT <{line}*: as PUT <{line}: (inserting before a block is inserting before its line)"
            ),
            WarningKind::ColonAfterCut { canonical } => {
                write!(f, "ignored the ':' after CUT; write {canonical}")
            }
            WarningKind::FinalNewlineSpelling { canonical } => {
                write!(f, "read the line as {canonical}")
            }
        }
    }
}
