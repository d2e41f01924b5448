//! Lowering authored ops to primitive hunks: blocks resolved, registers
//! filled (FORMAT.md §5.5). Ops are lowered in document order, so
//! registers flow through the sections of one call: a `CUT` captures the
//! snapshot's lines and a later colonless `PUT` pastes them. Failing
//! closed: the anonymous register lives for one call and a paste of it
//! before any unlabelled cut, or with two pending, is refused; a named
//! register must exist when pasted; pasting never consumes a register.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::block::{BlockResolution, BlockResolver, LazyIndex, Unresolvable};
use crate::document::{FinalNewline, Gap, LineRange, OpKind, Register, Section, Target};
use crate::hunk::{Aim, Hunk, HunkKind, InsertAt};
use crate::text::Text;
use crate::view::plural;

mod error;
mod substitute;

pub use error::LowerError;
pub use substitute::{Change, Difference, LISTED_OCCURRENCES, NearMatch, Occurrences};
use substitute::{Joined, Miss};

/// The registers of one edit call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Registers {
    named: BTreeMap<String, Vec<String>>,
    /// Named registers this call cut into (the ones to keep for the
    /// session; the others are unchanged copies of what it held).
    captured: BTreeSet<String>,
    /// Named registers this call pasted from.
    pasted: BTreeSet<String>,
    anonymous: Option<Vec<String>>,
    /// Unlabelled cuts since the last anonymous paste, with their headers.
    pending: Vec<String>,
}

impl Registers {
    /// Registers starting from `named` (the session's, or empty for a
    /// call of its own).
    pub fn with_named(named: BTreeMap<String, Vec<String>>) -> Registers {
        Registers {
            named,
            ..Registers::default()
        }
    }

    /// The named registers after the call, to keep for the session.
    pub fn into_named(self) -> BTreeMap<String, Vec<String>> {
        self.named
    }

    /// The named registers this call cut into, with their lines: what a
    /// session must store after the call. Only these: a register the call
    /// merely read may have been replaced meanwhile by a concurrent call.
    pub fn into_captured(mut self) -> BTreeMap<String, Vec<String>> {
        self.named.retain(|name, _| self.captured.contains(name));
        self.named
    }

    /// Names of the named registers this call cut into but never pasted
    /// from, sorted, with their line counts: lost at the end of a call that
    /// keeps no session.
    pub fn unpasted(&self) -> Vec<(String, usize)> {
        self.captured
            .iter()
            .filter(|name| !self.pasted.contains(*name))
            .filter_map(|name| {
                let lines = self.named.get(name)?;
                (!lines.is_empty()).then(|| (name.clone(), lines.len()))
            })
            .collect()
    }

    /// The named registers' names, sorted.
    pub fn names(&self) -> Vec<String> {
        self.named.keys().cloned().collect()
    }
}

/// A file op of a section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileOp {
    /// `REM`: delete the file.
    Remove,
    /// `MV DEST`: move the (edited) file to this path, as written.
    Move(String),
}

/// A section lowered to hunks.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lowered {
    /// Primitive hunks in document order.
    pub hunks: Vec<Hunk>,
    /// One summary part per authored op, in document order.
    pub summary: Vec<String>,
    /// The section's file op.
    pub file_op: Option<FileOp>,
    /// What block resolution noticed, for the reply.
    pub notes: Vec<LowerNote>,
    /// The final-newline state `EOF NEWLINE` / `EOF NO NEWLINE` asks for.
    pub final_newline: Option<FinalNewline>,
    /// Where each `SUB`'s new text lies in the rows it writes.
    pub changes: Vec<Change>,
}

/// Something block resolution noticed about an op that lowered fine.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LowerNote {
    /// A block cut leaves the attribute or decorator written just above the
    /// block in the file, where it applies to whatever comes next.
    AttributeLeftBehind {
        /// The op.
        op: OpName,
        /// The attribute's line.
        line: usize,
        /// Its text, trimmed.
        text: String,
        /// The block the op cut.
        block: LineRange,
    },
    /// `>N*` on a line that only closes a block: the rows go right after
    /// it, as `>N` would put them.
    AfterCloser {
        /// The op.
        op: OpName,
        /// The closing line.
        line: usize,
    },
}

impl fmt::Display for LowerNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LowerNote::AttributeLeftBehind {
                op,
                line,
                text,
                block,
            } => write!(
                f,
                "{op}: line {line} above the block ({text}) is an attribute or decorator and stays, so it \
                 now applies to what follows; CUT {line}.={} would remove it with the block",
                block.end
            ),
            LowerNote::AfterCloser { op, line } => write!(
                f,
                "{op}: line {line} closes a block, so the rows go right after it (same as PUT >{line})"
            ),
        }
    }
}

/// An op as lowering errors name it: document line and header as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpName {
    /// 1-based document line.
    pub line: usize,
    /// Canonical header of the op.
    pub header: String,
}

impl fmt::Display for OpName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (document line {})", self.header, self.line)
    }
}

/// A pure closer such as `}`, `});` or `]`: `>N*` on it means after line N.
fn is_pure_closer(line: &str) -> bool {
    let t = line.trim();
    let t = t.strip_suffix([';', ',']).unwrap_or(t).trim_end();
    !t.is_empty()
        && t.chars()
            .all(|c| matches!(c, ')' | ']' | '}') || c.is_whitespace())
}

/// Lowers `section` against `text` (the snapshot its line numbers name),
/// `path` picking the block grammar. Errors: [`LowerError`].
pub fn lower(
    section: &Section,
    path: &str,
    text: &Text,
    resolver: Option<&dyn BlockResolver>,
    registers: &mut Registers,
) -> Result<Lowered, LowerError> {
    let mut blocks = LazyIndex::new(resolver, path, text.body());
    lower_with(section, text, &mut blocks, registers)
}

/// [`lower`] with the block index of `text` built by the caller (at most
/// once, on the first block op), so the edit pipeline can reuse the parse.
pub(crate) fn lower_with<'a>(
    section: &Section,
    text: &Text,
    blocks: &mut LazyIndex<'a>,
    registers: &mut Registers,
) -> Result<Lowered, LowerError> {
    let mut lowering = Lowering {
        text,
        blocks,
        registers,
        joined: None,
        out: Lowered::default(),
    };
    for op in &section.ops {
        let name = OpName {
            line: op.line,
            header: op.kind.canonical_header(),
        };
        let (kind, summary) = match lowering.op(&op.kind, &name)? {
            Some((kind, summary)) => (kind, summary),
            None => continue,
        };
        lowering.out.summary.push(summary);
        let aim = match op.kind {
            OpKind::Substitute { .. } => Aim::Text,
            _ => Aim::Lines,
        };
        lowering.out.hunks.push(Hunk {
            line: op.line,
            header: name.header,
            kind,
            aim,
        });
    }
    Ok(lowering.out)
}

/// The state of one section's lowering.
struct Lowering<'l, 'a> {
    text: &'l Text<'l>,
    blocks: &'l mut LazyIndex<'a>,
    registers: &'l mut Registers,
    /// The text `SUB` ops search, made on the first.
    joined: Option<Joined>,
    out: Lowered,
}

impl Lowering<'_, '_> {
    /// The hunk of `kind` and its summary part (`PUT 2: (1 → 1 line)`);
    /// `None` for a file op, which is recorded in the output instead.
    fn op(
        &mut self,
        kind: &OpKind,
        name: &OpName,
    ) -> Result<Option<(HunkKind, String)>, LowerError> {
        let total = self.text.line_count();
        let header = &name.header;
        Ok(Some(match kind {
            OpKind::Replace { target, body } => {
                let (range, echo) =
                    resolve_target(*target, name, self.blocks, total, (kind.keyword(), ":"))?;
                let (rows, body) = (body.len(), body.clone());
                let summary = format!("{header} ({echo}{} → {rows} {})", range.len(), lines(rows));
                (HunkKind::Replace { range, body }, summary)
            }
            OpKind::Insert { at, body } => {
                let (at, echo) = self.gap(*at, name)?;
                let summary = format!("{header} (+{} {}{echo})", body.len(), lines(body.len()));
                let body = body.clone();
                (HunkKind::Insert { at, body }, summary)
            }
            OpKind::Cut { target, register } => {
                let (range, echo) =
                    resolve_target(*target, name, self.blocks, total, (kind.keyword(), ""))?;
                if matches!(target, Target::Block(_)) {
                    let note = attribute_left_behind(name, range, self.text);
                    self.out.notes.extend(note);
                }
                capture(register, range, name, self.text, self.registers);
                let summary = format!("{header} ({echo}{} {})", range.len(), lines(range.len()));
                (HunkKind::Delete { range }, summary)
            }
            OpKind::Paste { at, register } => {
                let (body, from) = take_register(register, name, self.registers)?;
                let (at, echo) = self.gap(*at, name)?;
                let rows = body.len();
                let summary = format!("{header} (+{rows} {} from {from}{echo})", lines(rows));
                (HunkKind::Insert { at, body }, summary)
            }
            OpKind::PasteOver { target, register } => {
                let named = Register::Named(register.clone());
                let (body, from) = take_register(&named, name, self.registers)?;
                let tail = format!(" @{register}");
                let (range, echo) =
                    resolve_target(*target, name, self.blocks, total, (kind.keyword(), &tail))?;
                let rows = body.len();
                let summary = format!(
                    "{header} ({echo}{} → {rows} {} from {from})",
                    range.len(),
                    lines(rows)
                );
                (HunkKind::Replace { range, body }, summary)
            }
            OpKind::Substitute { within, old, body } => {
                self.substitute_op(kind, *within, old, body, name)?
            }
            OpKind::Remove | OpKind::Move { .. } | OpKind::FinalNewline(_) => {
                lower_file_op(kind, &mut self.out);
                return Ok(None);
            }
        }))
    }

    /// The hunk and summary of a `SUB` (`op`) within `within` (`None`: the
    /// whole file), and the change it records.
    fn substitute_op(
        &mut self,
        op: &OpKind,
        within: Option<Target>,
        old: &[String],
        body: &[String],
        name: &OpName,
    ) -> Result<(HunkKind, String), LowerError> {
        let (total, header) = (self.text.line_count(), &name.header);
        let (scope, echo) = match within {
            Some(target) => {
                let tail = (op.keyword(), ":");
                resolve_target(target, name, self.blocks, total, tail)?
            }
            None => (
                LineRange {
                    start: 1,
                    end: total,
                },
                String::new(),
            ),
        };
        let (kind, lines, (start, end)) =
            self.substitute(scope, within.is_some(), old, body, name)?;
        self.out.changes.push(Change {
            op_line: name.line,
            start,
            end,
        });
        let rows = match &kind {
            HunkKind::Replace { body, .. } => body.len(),
            HunkKind::Delete { .. } | HunkKind::Insert { .. } => 0,
        };
        let found = Target::Lines(lines).words();
        let summary = format!(
            "{header} ({echo}found on {found}: {} → {rows} {})",
            lines.len(),
            self::lines(rows)
        );
        Ok((kind, summary))
    }

    /// The hunk of a `SUB` searching `scope` (`located`: the lines its
    /// locator named, else the whole file) and the lines its match spans.
    fn substitute(
        &mut self,
        scope: LineRange,
        located: bool,
        old: &[String],
        body: &[String],
        name: &OpName,
    ) -> Result<(HunkKind, LineRange, (usize, usize)), LowerError> {
        let total = self.text.line_count();
        let within = located.then_some(scope);
        if located && scope.end > total {
            return Err(LowerError::OutOfRange {
                op: name.clone(),
                line: scope.end,
                total,
            });
        }
        if total == 0 {
            return Err(LowerError::NoMatch {
                op: name.clone(),
                within,
                near: None,
            });
        }
        let joined = self.joined.get_or_insert_with(|| Joined::of(self.text));
        substitute::substitute(joined, scope, old, body).map_err(|miss| match miss {
            Miss::NotFound(near) => LowerError::NoMatch {
                op: name.clone(),
                within,
                near: near.map(Box::new),
            },
            Miss::Ambiguous(occurrences) => LowerError::AmbiguousMatch {
                op: name.clone(),
                within,
                occurrences,
            },
        })
    }

    /// [`resolve_gap`] with this section's block index and notes.
    fn gap(&mut self, at: Gap, name: &OpName) -> Result<(InsertAt, String), LowerError> {
        resolve_gap(at, name, self.blocks, self.text, &mut self.out.notes)
    }
}

/// `line` or `lines` after a count.
fn lines(count: usize) -> &'static str {
    plural(count, "line", "lines")
}

/// Stores the lines a `CUT` of `range` removes in its register. Past the
/// end the planner refuses the delete; what exists is captured so a later
/// paste in the same call still lowers.
fn capture(
    register: &Register,
    range: LineRange,
    name: &OpName,
    text: &Text,
    registers: &mut Registers,
) {
    let lines: Vec<String> = (range.start..=range.end.min(text.line_count()))
        .map(|n| text.line(n).to_string())
        .collect();
    match register {
        Register::Anonymous => {
            registers.anonymous = Some(lines);
            registers.pending.push(name.header.clone());
        }
        Register::Named(register) => {
            registers.named.insert(register.clone(), lines);
            registers.captured.insert(register.clone());
        }
    }
}

/// `REM`, `MV` and `EOF [NO] NEWLINE`: no hunk, a summary part and what
/// the caller carries out. Any other op kind is left alone.
fn lower_file_op(kind: &OpKind, out: &mut Lowered) {
    match kind {
        OpKind::Remove => {
            out.summary.push("REM (the file is deleted)".to_string());
            out.file_op = Some(FileOp::Remove);
        }
        OpKind::Move { dest } => {
            out.summary
                .push(format!("MV {dest} (the file moves there)"));
            out.file_op = Some(FileOp::Move(dest.clone()));
        }
        OpKind::FinalNewline(state) => {
            out.summary.push(
                match state {
                    FinalNewline::Present => "EOF NEWLINE (the last line ends with a line break)",
                    FinalNewline::Absent => {
                        "EOF NO NEWLINE (the last line ends without a line break)"
                    }
                }
                .to_string(),
            );
            out.final_newline = Some(*state);
        }
        OpKind::Replace { .. }
        | OpKind::Insert { .. }
        | OpKind::Cut { .. }
        | OpKind::Paste { .. }
        | OpKind::PasteOver { .. }
        | OpKind::Substitute { .. } => {}
    }
}

/// The rows a paste inserts and how to name their source in the summary.
fn take_register(
    register: &Register,
    op: &OpName,
    registers: &mut Registers,
) -> Result<(Vec<String>, String), LowerError> {
    match register {
        Register::Anonymous => {
            if registers.pending.len() >= 2 {
                return Err(LowerError::AmbiguousPaste {
                    op: op.clone(),
                    pending: registers.pending.clone(),
                });
            }
            let rows = registers
                .anonymous
                .clone()
                .ok_or_else(|| LowerError::NothingToPaste { op: op.clone() })?;
            registers.pending.clear();
            Ok((rows, "the anonymous register".to_string()))
        }
        Register::Named(name) => match registers.named.get(name) {
            Some(rows) => {
                let rows = rows.clone();
                registers.pasted.insert(name.clone());
                Ok((rows, format!("@{name}")))
            }
            None => Err(LowerError::UnknownRegister {
                op: op.clone(),
                name: name.clone(),
                known: registers.names(),
            }),
        },
    }
}

/// Resolves a target to lines; the echo text names a resolved block. The
/// plain op for a one-line block is `verb`, the line and `tail`.
fn resolve_target(
    target: Target,
    op: &OpName,
    blocks: &mut LazyIndex<'_>,
    total: usize,
    (verb, tail): (&str, &str),
) -> Result<(LineRange, String), LowerError> {
    match target {
        Target::Lines(range) => Ok((range, String::new())),
        Target::Block(line) => {
            let range = resolve_block(line, op, blocks, total, |line| {
                format!("{verb} {line}{tail}")
            })?;
            Ok((
                range,
                format!("block: lines {}-{}; ", range.start, range.end),
            ))
        }
    }
}

/// The block starting on `line`, or the error with suggestions.
fn resolve_block(
    line: usize,
    op: &OpName,
    blocks: &mut LazyIndex<'_>,
    total: usize,
    plain: impl Fn(usize) -> String,
) -> Result<LineRange, LowerError> {
    if line > total {
        return Err(LowerError::OutOfRange {
            op: op.clone(),
            line,
            total,
        });
    }
    let index = blocks.get().map_err(|reason| LowerError::Unresolvable {
        op: op.clone(),
        line,
        reason,
        suggestion: None,
    })?;
    match index.block_at(line) {
        BlockResolution::Block(range) => Ok(range),
        BlockResolution::SingleLine => Err(LowerError::SingleLineBlock {
            op: op.clone(),
            plain: plain(line),
            enclosing: index.enclosing_block(line).map(|r| {
                format!(
                    "{} (lines {}-{})",
                    block_form(&op.header, line, r.start),
                    r.start,
                    r.end
                )
            }),
        }),
        BlockResolution::Unresolvable(reason) => {
            let nearby = match reason {
                Unresolvable::BlankLine => index.next_block(line),
                _ => index.enclosing_block(line),
            };
            Err(LowerError::Unresolvable {
                op: op.clone(),
                line,
                reason,
                suggestion: nearby.map(|r| {
                    format!(
                        "{} (lines {}-{})",
                        block_form(&op.header, line, r.start),
                        r.start,
                        r.end
                    )
                }),
            })
        }
    }
}

/// The warning for a block cut that leaves the attribute or decorator just
/// above it (`#[cfg(..)]`, `@property`) to apply to what follows, naming
/// the range that takes it too.
fn attribute_left_behind(op: &OpName, range: LineRange, text: &Text) -> Option<LowerNote> {
    let above = range.start.checked_sub(1).filter(|&n| n >= 1)?;
    let line = text.line(above).trim();
    let attribute = (line.starts_with("#[") && line.ends_with(']'))
        || (line.starts_with('@')
            && line[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'));
    attribute.then(|| LowerNote::AttributeLeftBehind {
        op: op.clone(),
        line: above,
        text: line.to_string(),
        block: range,
    })
}

/// `header` with its block anchor `line*` moved to `start*`.
fn block_form(header: &str, line: usize, start: usize) -> String {
    header.replacen(&format!("{line}*"), &format!("{start}*"), 1)
}

/// Resolves a gap; `>N*` becomes the line after the block's end.
fn resolve_gap(
    at: Gap,
    op: &OpName,
    blocks: &mut LazyIndex<'_>,
    text: &Text,
    notes: &mut Vec<LowerNote>,
) -> Result<(InsertAt, String), LowerError> {
    match at {
        Gap::Before(n) => Ok((InsertAt::Before(n), String::new())),
        Gap::After(n) => Ok((InsertAt::After(n), String::new())),
        Gap::End => Ok((InsertAt::End, String::new())),
        Gap::AfterBlock(line) => {
            let total = text.line_count();
            let plain_after = |line: usize| {
                op.header
                    .replacen(&format!(">{line}*"), &format!(">{line}"), 1)
            };
            match resolve_block(line, op, blocks, total, plain_after) {
                Ok(range) => Ok((
                    InsertAt::After(range.end),
                    format!(
                        " after the block's last line {} (block: lines {}-{})",
                        range.end, range.start, range.end
                    ),
                )),
                // After a closer line, "after its block" is after the line.
                Err(LowerError::Unresolvable { .. })
                    if line <= total && is_pure_closer(text.line(line)) =>
                {
                    notes.push(LowerNote::AfterCloser {
                        op: op.clone(),
                        line,
                    });
                    Ok((InsertAt::After(line), String::new()))
                }
                Err(e) => Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests;
