//! Verified repairs (FORMAT.md §7.6): bodies that look pasted from a diff
//! or a read are repaired only when the snapshot proves what was meant:
//! `-old` rows dropped when they are exactly the replaced lines; `N:`
//! prefixes dropped when the numbers are exactly the replaced lines' and
//! those lines do not start with them. Otherwise the parser's error and
//! fix; under [`Guards::WriteAsSent`] numbered rows are written as sent.

use std::borrow::Cow;
use std::fmt;

use crate::surface::{Name, Surface, Word, display_as_mcp};

use crate::document::{LineRange, OpKind, Pasted, Section, Target};
use crate::parse::ParseError;
use crate::plan::OpRef;
use crate::text::Text;

use super::guard::Guards;
use super::slip::lines_phrase;

/// A repair applied to a section's ops.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Repair {
    /// The `-` rows restated the replaced lines and were left out.
    MinusRows {
        /// The op.
        op: OpRef,
        /// The lines the `-` rows restated.
        lines: LineRange,
    },
    /// The rows' `N:` prefixes numbered the replaced lines and were left
    /// out.
    Numbered {
        /// The op.
        op: OpRef,
        /// The lines the numbers named.
        lines: LineRange,
    },
}

impl Word for Repair {
    fn word(&self, f: &mut fmt::Formatter<'_>, surface: Surface) -> fmt::Result {
        match self {
            Repair::MinusRows { op, lines } => write!(
                f,
                "{op}: the - rows restate {}, which the op replaces, as a diff shows them; they were \
                 left out (body rows start with +, and only the new lines are written)",
                lines_phrase(*lines)
            ),
            Repair::Numbered { op, lines } => write!(
                f,
                "{op}: every row started with its number as a read shows {} (N:text); the numbers \
                 were left out (a + row holds only the line's text; if the lines really begin with \
                 those numbers, send the document again with {}, which writes rows exactly as sent)",
                lines_phrase(*lines),
                surface.name(Name::ForceSet)
            ),
        }
    }
}

display_as_mcp!(Repair);

/// The section with its pasted bodies repaired against `snapshot` (the
/// text the section's line numbers name), and the repairs made.
///
/// Errors: the parser's error for a body that cannot be verified.
pub(crate) fn verify<'s>(
    section: &'s Section,
    snapshot: &Text,
    guards: Guards,
) -> Result<(Cow<'s, Section>, Vec<Repair>), Box<ParseError>> {
    if section.ops.iter().all(|op| op.pasted.is_none()) {
        return Ok((Cow::Borrowed(section), Vec::new()));
    }
    let mut repaired = section.clone();
    let mut repairs = Vec::new();
    for op in &mut repaired.ops {
        let Some(pasted) = op.pasted.take() else {
            continue;
        };
        let header = op.kind.canonical_header();
        let OpKind::Replace {
            target: Target::Lines(range),
            body,
        } = &mut op.kind
        else {
            // Only numbered rows reach here on other targets: nothing in
            // the snapshot can prove them pasted, so they are written as
            // sent under force and refused otherwise.
            match (guards, pasted) {
                (Guards::WriteAsSent, Pasted::Numbered { .. }) => continue,
                (_, Pasted::Numbered { refusal, .. } | Pasted::MinusRows { refusal, .. }) => {
                    return Err(refusal);
                }
            }
        };
        let name = OpRef {
            line: op.line,
            header,
        };
        match pasted {
            Pasted::MinusRows { rows, refusal } => {
                if !restates(&rows, *range, snapshot) {
                    return Err(refusal);
                }
                repairs.push(Repair::MinusRows {
                    op: name,
                    lines: *range,
                });
            }
            Pasted::Numbered {
                stripped,
                first,
                refusal,
            } => {
                let exact = first == range.start && stripped.len() == range.len();
                let numbered_text = (range.start..=range.end.min(snapshot.line_count()))
                    .any(|n| snapshot.line(n).starts_with(&format!("{n}:")));
                match (guards, numbered_text, exact) {
                    // Written as sent, or the file's text is numbered so.
                    (Guards::WriteAsSent, _, _) | (Guards::Refuse, true, _) => {}
                    (Guards::Refuse, false, true) => {
                        *body = stripped;
                        repairs.push(Repair::Numbered {
                            op: name,
                            lines: *range,
                        });
                    }
                    (Guards::Refuse, false, false) => return Err(refusal),
                }
            }
        }
    }
    Ok((Cow::Owned(repaired), repairs))
}

/// Whether the `-` rows are exactly the lines of `range`, in order.
fn restates(rows: &[(usize, String)], range: LineRange, snapshot: &Text) -> bool {
    rows.len() == range.len()
        && range.end <= snapshot.line_count()
        && rows
            .iter()
            .zip(range.start..=range.end)
            .all(|((_, row), n)| row.trim_end() == snapshot.line(n).trim_end())
}
