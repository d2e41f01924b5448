//! Guards (FORMAT.md §7): checks that refuse an edit that is well formed
//! but would likely write a file its author did not mean, saying what it
//! would have written, with corrected lines to copy. [`Guards::WriteAsSent`]
//! (the tools' `force`) writes it as sent and reports each finding as a
//! warning. A stale tag, an overlap or a range fault fail before them.

use std::fmt;

use crate::class::FailureClass;
use crate::hunk::{Aim, Hunk, HunkKind};
use crate::plan::{OpRef, Placed};
use crate::surface::{Name, Surface, Word, display_as_mcp};
use crate::text::Text;

use super::echo::{self, Echo};
use super::elision::Elision;
use super::indent::{IndentMismatch, LostIndentation};
use super::reading::Reading;
use super::slip::{self, DroppedBlank, Shift, ShortRange};
use super::{elision, indent};

/// Whether the guards refuse what they find.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Guards {
    /// Refuse the section when a guard finds something (the default).
    #[default]
    Refuse,
    /// Write the document as sent and report each finding as a warning
    /// (the author said `force`).
    WriteAsSent,
}

/// What a guard found about one op.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Suspicion {
    /// Rows indented in the other style than the lines around them.
    Indentation(IndentMismatch),
    /// Rows without indentation among indented lines.
    LostIndentation(LostIndentation),
    /// Rows that repeat the unchanged lines beside them.
    Echo(Echo),
    /// A row that copies the line beside the range.
    Shift(Shift),
    /// A range one line short, its rows restating the line beyond it.
    ShortRange(ShortRange),
    /// A range one line too long over a blank line.
    DroppedBlank(DroppedBlank),
    /// A placeholder comment standing in for lines.
    Elision(Elision),
    /// The file parsed before the edit and would not after it.
    BrokenSyntax(SyntaxBreak),
    /// Every body equals the lines it replaces: the ops change nothing,
    /// so they are not what the author meant to send.
    NoChange,
    /// The ops leave the file as it is once the `N:` prefixes of an op's
    /// rows are read as pasted read numbers and left out (FORMAT.md §7.6,
    /// §7.8). Written as sent, under force, the rows keep their numbers
    /// and do change the file: the lines may really begin with them.
    UnnumberedNoChange {
        /// The op whose rows were numbered.
        op: OpRef,
        /// The lines the numbers named.
        lines: crate::document::LineRange,
    },
}

/// A syntax error the edit would introduce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxBreak {
    /// 1-based line of the first syntax error in the new file.
    pub line: usize,
    /// The op whose rows (or deletion) lie nearest to it.
    pub op: Option<OpRef>,
}

impl Suspicion {
    /// The finding's class.
    pub fn class(&self) -> FailureClass {
        match self {
            Suspicion::Indentation(_) | Suspicion::LostIndentation(_) => {
                FailureClass::IndentationMismatch
            }
            Suspicion::Echo(_) => FailureClass::EchoedRows,
            Suspicion::Shift(_) | Suspicion::ShortRange(_) | Suspicion::DroppedBlank(_) => {
                FailureClass::ShiftedRange
            }
            Suspicion::Elision(_) => FailureClass::ElidedLines,
            Suspicion::BrokenSyntax(_) => FailureClass::BrokenSyntax,
            Suspicion::NoChange | Suspicion::UnnumberedNoChange { .. } => FailureClass::NoChange,
        }
    }

    /// The document line of the op concerned, when one is known.
    pub fn op_line(&self) -> Option<usize> {
        match self {
            Suspicion::Indentation(m) => Some(m.op.line),
            Suspicion::LostIndentation(l) => Some(l.op.line),
            Suspicion::Echo(e) => Some(e.op.line),
            Suspicion::Shift(s) => Some(s.op.line),
            Suspicion::ShortRange(s) => Some(s.op.line),
            Suspicion::DroppedBlank(d) => Some(d.op.line),
            Suspicion::Elision(e) => Some(e.op.line),
            Suspicion::BrokenSyntax(b) => b.op.as_ref().map(|op| op.line),
            Suspicion::NoChange => None,
            Suspicion::UnnumberedNoChange { op, .. } => Some(op.line),
        }
    }

    /// The warning reported when the document was written as sent.
    pub fn written(&self) -> String {
        match self {
            Suspicion::Indentation(m) => format!("{m} (written as sent)"),
            Suspicion::LostIndentation(l) => l.written(),
            Suspicion::Echo(e) => e.written(),
            Suspicion::Shift(s) => s.written(),
            Suspicion::ShortRange(s) => s.written(),
            Suspicion::DroppedBlank(d) => d.written(),
            Suspicion::Elision(e) => e.written(),
            Suspicion::BrokenSyntax(b) => format!(
                "the file parsed before this edit and now has a syntax error near line {}{} (written \
                 as sent)",
                b.line,
                near_op(b)
            ),
            Suspicion::NoChange | Suspicion::UnnumberedNoChange { .. } => {
                "the edit leaves the file exactly as it was (each body equals \
                                    the lines it replaces); nothing was written to it"
                    .to_string()
            }
        }
    }
}

fn near_op(b: &SyntaxBreak) -> String {
    b.op.as_ref()
        .map(|op| format!(", by the rows of {op}"))
        .unwrap_or_default()
}

impl fmt::Display for Suspicion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Suspicion::Indentation(m) => write!(f, "{m}"),
            Suspicion::LostIndentation(l) => write!(f, "{l}"),
            Suspicion::Echo(e) => write!(f, "{e}"),
            Suspicion::Shift(s) => write!(f, "{s}"),
            Suspicion::ShortRange(s) => write!(f, "{s}"),
            Suspicion::DroppedBlank(d) => write!(f, "{d}"),
            Suspicion::Elision(e) => write!(f, "{e}"),
            Suspicion::BrokenSyntax(b) => write!(
                f,
                "the file parses now, and written as sent it would have a syntax error near line {}{}; \
                 check that op's line numbers, range and rows",
                b.line,
                near_op(b)
            ),
            Suspicion::UnnumberedNoChange { op, lines } => write!(
                f,
                "{op}: every row starts with its number as a read shows {} (N:text); read as pasted \
                 numbers and left out, the rows equal the lines they replace, so the ops leave the \
                 file exactly as it is. If those lines really begin with the numbers, the rows are \
                 right as sent",
                super::slip::lines_phrase(*lines)
            ),
            Suspicion::NoChange => f.write_str(
                "the ops leave the file exactly as it is (each body equals the lines it replaces), so \
                 they cannot be the change you meant; check their line numbers and rows against the \
                 live snapshot",
            ),
        }
    }
}

/// A section the guards refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// Everything found, in document order of the ops.
    pub suspicions: Vec<Suspicion>,
    /// Corrected ops to copy, for the intents the findings allow.
    pub readings: Vec<Reading>,
    /// The rows the edit would have written around the suspect places
    /// (`N:text`, post-edit numbering, `…` between runs).
    pub would_write: String,
}

impl Refusal {
    /// The refusal's class: an indentation mismatch's wherever it stands
    /// among the findings, else the first finding's.
    pub fn class(&self) -> FailureClass {
        let indentation = self
            .suspicions
            .iter()
            .find(|s| matches!(s, Suspicion::Indentation(_)));
        indentation
            .or(self.suspicions.first())
            .map_or(FailureClass::NoChange, Suspicion::class)
    }
}

impl Word for Refusal {
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        let findings: Vec<String> = self.suspicions.iter().map(ToString::to_string).collect();
        write!(f, "{}. Nothing was written.", findings.join(". Also, "))?;
        if !self.would_write.is_empty() {
            write!(
                f,
                "\nIt would have written (post-edit lines):\n{}",
                self.would_write
            )?;
        }
        for reading in &self.readings {
            write!(f, "\n{reading}")?;
        }
        // Forced, a no-op still writes nothing to its file (FORMAT.md §7.8):
        // force only lets the document's other sections apply.
        if self.suspicions.iter().all(|s| *s == Suspicion::NoChange) {
            return write!(
                f,
                "\nSent again with {}, the document still leaves this file as it is; that only lets \
                 its other sections, if any, be written without this one.",
                surface.name(Name::ForceSet)
            );
        }
        write!(
            f,
            "\nIf the document is right as it is, send it again with {} to write it exactly as sent.",
            surface.name(Name::ForceSet)
        )
    }
}

display_as_mcp!(Refusal);

impl std::error::Error for Refusal {}

/// What the guards look at: a section's hunks and the live text, with the
/// two findings made beforehand (the indentation style of the file's kind
/// and the syntax check of the result).
pub(crate) struct Scene<'s> {
    pub(crate) hunks: &'s [Hunk],
    pub(crate) live: &'s Text<'s>,
    pub(crate) indentation: Option<IndentMismatch>,
    pub(crate) syntax: Option<SyntaxBreak>,
}

impl Scene<'_> {
    /// `found` without the findings about ops that found their lines by
    /// their text ([`Aim::Text`]): an echo or a range one line off is a
    /// doubt about where a range was aimed, which the text settled.
    fn aimed_by_line(&self, found: Vec<Suspicion>) -> Vec<Suspicion> {
        let by_text: Vec<usize> = self
            .hunks
            .iter()
            .filter(|h| h.aim == Aim::Text)
            .map(|h| h.line)
            .collect();
        found
            .into_iter()
            .filter(|s| s.op_line().is_none_or(|line| !by_text.contains(&line)))
            .collect()
    }
}

/// One guard: what it finds in a scene, and the corrected ops it offers
/// for its findings about one hunk (given every finding about the hunk).
struct Guard {
    find: fn(&Scene) -> Vec<Suspicion>,
    read: fn(&Hunk, &[&Suspicion], &Text) -> Vec<Reading>,
}

/// Every guard, in the order the findings about one op are listed. A new
/// guard is a module of its own, a [`Suspicion`] variant and a row here.
const GUARDS: [Guard; 8] = [
    Guard {
        find: |scene| {
            scene
                .indentation
                .clone()
                .map(Suspicion::Indentation)
                .into_iter()
                .collect()
        },
        read: |_, _, _| Vec::new(),
    },
    Guard {
        find: |scene| {
            let found = indent::lost_indentation(scene.hunks, scene.live);
            found.into_iter().map(Suspicion::LostIndentation).collect()
        },
        read: |hunk, about, _| {
            let lost = about.iter().filter_map(|s| match s {
                Suspicion::LostIndentation(lost) => indent::reindented(hunk, &lost.indent),
                _ => None,
            });
            lost.collect()
        },
    },
    Guard {
        find: |scene| {
            let found = echo::echoes(scene.hunks, scene.live);
            scene.aimed_by_line(found.into_iter().map(Suspicion::Echo).collect())
        },
        read: |hunk, about, live| {
            let echoes: Vec<&Echo> = about
                .iter()
                .filter_map(|s| match s {
                    Suspicion::Echo(echo) => Some(echo),
                    _ => None,
                })
                .collect();
            if echoes.is_empty() {
                return Vec::new();
            }
            echo::readings(hunk, &echoes, live)
        },
    },
    Guard {
        find: |scene| {
            let found = slip::shifts(scene.hunks, scene.live);
            scene.aimed_by_line(found.into_iter().map(Suspicion::Shift).collect())
        },
        read: |hunk, about, _| {
            replace_readings(hunk, about, |s, body| match s {
                Suspicion::Shift(shift) => Some(slip::reading(shift, body)),
                _ => None,
            })
        },
    },
    Guard {
        find: |scene| {
            let found = slip::short_ranges(scene.hunks, scene.live);
            scene.aimed_by_line(found.into_iter().map(Suspicion::ShortRange).collect())
        },
        read: |hunk, about, _| {
            replace_readings(hunk, about, |s, body| match s {
                Suspicion::ShortRange(short) => Some(slip::widened(short, body)),
                _ => None,
            })
        },
    },
    Guard {
        find: |scene| {
            let found = slip::dropped_blanks(scene.hunks, scene.live);
            scene.aimed_by_line(found.into_iter().map(Suspicion::DroppedBlank).collect())
        },
        read: |hunk, about, _| {
            replace_readings(hunk, about, |s, body| match s {
                Suspicion::DroppedBlank(dropped) => Some(slip::shortened(dropped, body)),
                _ => None,
            })
        },
    },
    Guard {
        find: |scene| {
            let found = elision::elisions(scene.hunks, scene.live);
            found.into_iter().map(Suspicion::Elision).collect()
        },
        read: |_, _, _| Vec::new(),
    },
    Guard {
        find: |scene| {
            scene
                .syntax
                .clone()
                .map(Suspicion::BrokenSyntax)
                .into_iter()
                .collect()
        },
        read: |_, _, _| Vec::new(),
    },
];

/// The corrected ops `read` makes of the findings about `hunk`, a replace
/// (the guards of a range's ends offer none for other hunks).
fn replace_readings(
    hunk: &Hunk,
    about: &[&Suspicion],
    read: fn(&Suspicion, &[String]) -> Option<Reading>,
) -> Vec<Reading> {
    let HunkKind::Replace { body, .. } = &hunk.kind else {
        return Vec::new();
    };
    about.iter().filter_map(|s| read(s, body)).collect()
}

/// Every guard's findings about a scene, in document order of the ops.
pub(crate) fn suspicions(scene: &Scene) -> Vec<Suspicion> {
    let mut found: Vec<Suspicion> = GUARDS
        .iter()
        .flat_map(|guard| (guard.find)(scene))
        .collect();
    found.sort_by_key(|s| s.op_line().unwrap_or(usize::MAX));
    found
}

/// The corrected ops for `suspicions`, one hunk at a time, each guard
/// reading its own findings.
pub(crate) fn readings(hunks: &[Hunk], suspicions: &[Suspicion], live: &Text) -> Vec<Reading> {
    let mut out = Vec::new();
    for hunk in hunks {
        let about: Vec<&Suspicion> = suspicions
            .iter()
            .filter(|s| s.op_line() == Some(hunk.line))
            .collect();
        for guard in &GUARDS {
            out.extend((guard.read)(hunk, &about, live));
        }
    }
    out
}

/// The op whose placed rows lie nearest to post-edit `line`.
pub(crate) fn nearest_op(placed: &[Placed], hunks: &[Hunk], line: usize) -> Option<OpRef> {
    let distance = |p: &Placed| {
        let last = p.first + p.rows.saturating_sub(1);
        if line < p.first {
            p.first - line
        } else {
            line.saturating_sub(last)
        }
    };
    let best = placed.iter().min_by_key(|p| distance(p))?;
    hunks.iter().find(|h| h.line == best.line).map(OpRef::of)
}

/// The post-edit lines worth showing for `suspicions`: each suspect op's
/// rows, and the syntax error's line.
pub(crate) fn focus(suspicions: &[Suspicion], placed: &[Placed]) -> Vec<usize> {
    let mut lines = Vec::new();
    for suspicion in suspicions {
        if let Suspicion::BrokenSyntax(b) = suspicion {
            lines.push(b.line);
        }
        if let Some(op) = suspicion.op_line() {
            for p in placed.iter().filter(|p| p.line == op) {
                lines.extend(p.first..p.first + p.rows.max(1));
            }
        }
    }
    lines
}
