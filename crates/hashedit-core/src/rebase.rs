//! Drift rebase: carrying ops written against an older snapshot onto the
//! live file when only unrelated lines changed (FORMAT.md §6.1). The served
//! text is diffed against the live one; every line an op touches, and its
//! neighbours just outside, must sit in unchanged runs, and all ops must
//! move by the same number of lines; anything else is refused. Rebasing
//! never guesses: the moved ops name the same line texts with the same
//! neighbours.

use std::collections::HashMap;
use std::time::Instant;

use similar::{Algorithm, DiffOp, capture_diff_slices_deadline};

use crate::document::LineRange;
use crate::hunk::{Hunk, HunkKind, InsertAt};
use crate::text::Text;

/// How long a rebase may spend diffing the served and live texts. The core
/// never reads the clock to decide this: the caller chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RebaseLimit {
    /// Refuse the rebase ([`RebaseRefusal::TooExpensive`]) when the diff is
    /// not done by this instant.
    Until(Instant),
    /// Diff to the end, however long it takes (tests, offline tools).
    Unlimited,
}

/// Ops moved onto the live file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rebased {
    /// The hunks with line numbers of the live file.
    pub hunks: Vec<Hunk>,
    /// Lines every op moved by (live − served).
    pub shift: isize,
}

/// Why ops could not be rebased.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RebaseRefusal {
    /// An op touches, or sits next to, a line that changed; the document
    /// line of the op is given.
    TouchesChangedLines(usize),
    /// Ops would move by different amounts.
    UnevenShift,
    /// An op has no unchanged neighbour and its text is not unique, so its
    /// position cannot be confirmed.
    NoContext(usize),
    /// The diff took too long (very large or very different files).
    TooExpensive,
}

impl std::fmt::Display for RebaseRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RebaseRefusal::TouchesChangedLines(line) => write!(
                f,
                "the op on document line {line} targets lines that changed (or sit next to changed lines)"
            ),
            RebaseRefusal::UnevenShift => f.write_str(
                "the ops would move by different amounts, since lines changed between them",
            ),
            RebaseRefusal::NoContext(line) => write!(
                f,
                "the op on document line {line} has no unchanged neighbour to confirm its position"
            ),
            RebaseRefusal::TooExpensive => {
                f.write_str("the two versions differ too much to compare quickly")
            }
        }
    }
}

/// Moves `ops` (numbered against `served`) onto `live`, diffing within
/// `limit`. Errors: a [`RebaseRefusal`].
pub fn rebase(
    ops: &[Hunk],
    served: &Text,
    live: &Text,
    limit: RebaseLimit,
) -> Result<Rebased, RebaseRefusal> {
    let old: Vec<&str> = served.lines().map(|(t, _)| t).collect();
    let new: Vec<&str> = live.lines().map(|(t, _)| t).collect();
    let alignment = Alignment::diff(&old, &new, limit)?;
    let mut shift: Option<isize> = None;
    for op in ops {
        let op_shift = alignment.shift_of_op(op)?;
        match shift {
            Some(s) if s != op_shift => return Err(RebaseRefusal::UnevenShift),
            _ => shift = Some(op_shift),
        }
    }
    let shift = shift.unwrap_or(0);
    let hunks = ops.iter().map(|op| moved(op, shift)).collect();
    Ok(Rebased { hunks, shift })
}

/// The served lines aligned with the live ones by a line diff.
struct Alignment<'t> {
    old: &'t [&'t str],
    new: &'t [&'t str],
    /// `map[i] = Some(j)`: served line i + 1 is unchanged and is live line
    /// j + 1.
    map: Vec<Option<usize>>,
    old_index: HashMap<&'t str, Vec<usize>>,
    new_index: HashMap<&'t str, Vec<usize>>,
}

impl<'t> Alignment<'t> {
    /// Diffs `old` against `new` within `limit` (else `TooExpensive`).
    fn diff(
        old: &'t [&'t str],
        new: &'t [&'t str],
        limit: RebaseLimit,
    ) -> Result<Self, RebaseRefusal> {
        let deadline = match limit {
            RebaseLimit::Until(deadline) => Some(deadline),
            RebaseLimit::Unlimited => None,
        };
        let diff = capture_diff_slices_deadline(Algorithm::Myers, old, new, deadline);
        if deadline.is_some_and(|deadline| Instant::now() > deadline) {
            return Err(RebaseRefusal::TooExpensive);
        }
        let mut map: Vec<Option<usize>> = vec![None; old.len()];
        for op in &diff {
            if let DiffOp::Equal {
                old_index,
                new_index,
                len,
            } = *op
            {
                for k in 0..len {
                    map[old_index + k] = Some(new_index + k);
                }
            }
        }
        Ok(Alignment {
            old,
            new,
            map,
            old_index: line_index(old),
            new_index: line_index(new),
        })
    }

    /// How far served line `line` (1-based) moved, when it is unchanged.
    fn shift_of(&self, line: usize) -> Option<isize> {
        self.map
            .get(line.checked_sub(1)?)
            .copied()
            .flatten()
            .map(|j| j as isize - (line as isize - 1))
    }

    /// How far `op` moves, once every check passed: its lines and their
    /// neighbours unchanged and moved alike, its lines not duplicated in
    /// the live file, unique with a little context, and an insert at an
    /// edge still at that edge.
    fn shift_of_op(&self, op: &Hunk) -> Result<isize, RebaseRefusal> {
        let n = self.old.len();
        let (first, last) = touched_lines(&op.kind, n).ok_or(RebaseRefusal::NoContext(op.line))?;
        let mut op_shift = None;
        for line in first..=last {
            let s = self
                .shift_of(line)
                .ok_or(RebaseRefusal::TouchesChangedLines(op.line))?;
            if op_shift.is_some_and(|o| o != s) {
                return Err(RebaseRefusal::TouchesChangedLines(op.line));
            }
            op_shift = Some(s);
        }
        let op_shift = op_shift.ok_or(RebaseRefusal::NoContext(op.line))?;
        let neighbours = [
            first.checked_sub(1).filter(|&l| l >= 1),
            Some(last + 1).filter(|&l| l <= n),
        ];
        for line in neighbours.into_iter().flatten() {
            if self.shift_of(line) != Some(op_shift) {
                return Err(RebaseRefusal::TouchesChangedLines(op.line));
            }
        }
        if self.duplicated_in_live(first, last) || !self.unique_window(first, last, op_shift) {
            return Err(RebaseRefusal::NoContext(op.line));
        }
        // An insert at the file's edge (`>$`, `<1`) has the edge as a
        // neighbour: lines added there since make it ambiguous.
        if let HunkKind::Insert { at, .. } = &op.kind {
            let at_end = matches!(at, InsertAt::End) || *at == InsertAt::After(n);
            let at_top = *at == InsertAt::Before(1);
            if (at_end && (n as isize + op_shift) as usize != self.new.len())
                || (at_top && op_shift != 0)
            {
                return Err(RebaseRefusal::TouchesChangedLines(op.line));
            }
        }
        Ok(op_shift)
    }

    /// Whether the op's lines, with a line of context each side, occur more
    /// often in the live file than in the served one: a copy added
    /// elsewhere makes "which is the original" a guess.
    fn duplicated_in_live(&self, first: usize, last: usize) -> bool {
        let n = self.old.len();
        let lo = first.saturating_sub(1).max(1);
        let hi = (last + 1).min(n);
        let window = &self.old[lo - 1..hi];
        occurrences(window, self.new, &self.new_index)
            > occurrences(window, self.old, &self.old_index)
    }

    /// The op's lines with a little context must occur once in each
    /// version: with repeated blocks, the diff's alignment of equal runs is
    /// a guess, and so would the move be.
    fn unique_window(&self, first: usize, last: usize, op_shift: isize) -> bool {
        let n = self.old.len();
        (0..=MAX_CONTEXT_LINES).any(|w| {
            let lo = first.saturating_sub(w).max(1);
            let hi = (last + w).min(n);
            let window = &self.old[lo - 1..hi];
            (lo..=hi).all(|l| self.shift_of(l) == Some(op_shift))
                && occurrences(window, self.old, &self.old_index) == 1
                && occurrences(window, self.new, &self.new_index) == 1
        })
    }
}

/// `op` with its line numbers moved by `shift`.
fn moved(op: &Hunk, shift: isize) -> Hunk {
    let moved = |line: usize| (line as isize + shift) as usize;
    let kind = match &op.kind {
        HunkKind::Replace { range, body } => HunkKind::Replace {
            range: LineRange {
                start: moved(range.start),
                end: moved(range.end),
            },
            body: body.clone(),
        },
        HunkKind::Delete { range } => HunkKind::Delete {
            range: LineRange {
                start: moved(range.start),
                end: moved(range.end),
            },
        },
        HunkKind::Insert { at, body } => HunkKind::Insert {
            at: match *at {
                InsertAt::Before(l) => InsertAt::Before(moved(l)),
                InsertAt::After(l) => InsertAt::After(moved(l)),
                // Checked in `shift_of_op`: the served end is the live end.
                InsertAt::End => InsertAt::End,
            },
            body: body.clone(),
        },
    };
    Hunk {
        line: op.line,
        header: op.header.clone(),
        kind,
        aim: op.aim,
    }
}

/// Context lines (each side) tried when looking for an op's lines to be
/// unique in both versions.
pub(crate) const MAX_CONTEXT_LINES: usize = 3;

/// Positions of each distinct line text.
fn line_index<'a>(lines: &[&'a str]) -> HashMap<&'a str, Vec<usize>> {
    let mut index: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        index.entry(line).or_default().push(i);
    }
    index
}

/// How many times `window` occurs in `lines` (0, 1 or 2, meaning "more").
fn occurrences(window: &[&str], lines: &[&str], index: &HashMap<&str, Vec<usize>>) -> usize {
    let Some(first) = window.first() else {
        return 0;
    };
    let mut found = 0;
    for &start in index.get(first).map(Vec::as_slice).unwrap_or_default() {
        if lines.get(start..start + window.len()) == Some(window) {
            found += 1;
            if found == 2 {
                break;
            }
        }
    }
    found
}

/// The first and last served line an op depends on; `None` when the op
/// names no line (an insert into an empty file).
fn touched_lines(kind: &HunkKind, total: usize) -> Option<(usize, usize)> {
    match kind {
        HunkKind::Replace { range, .. } | HunkKind::Delete { range } => {
            Some((range.start, range.end))
        }
        HunkKind::Insert {
            at: InsertAt::Before(l) | InsertAt::After(l),
            ..
        } => Some((*l, *l)),
        HunkKind::Insert {
            at: InsertAt::End, ..
        } => (total > 0).then_some((total, total)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::{Registers, lower};
    use crate::parse::parse;
    use crate::plan::plan;

    /// The hunks of the one-section document `ops`, lowered on `served`.
    fn hunks_on(served: &Text, ops: &str) -> Vec<crate::hunk::Hunk> {
        let doc = parse(&format!("[f#0000]\n{ops}")).unwrap();
        lower(
            &doc.sections[0],
            "f",
            served,
            None,
            &mut Registers::default(),
        )
        .unwrap()
        .hunks
    }

    fn text(s: &str) -> Text<'_> {
        Text::decode(s.as_bytes()).unwrap()
    }

    /// Rebases the ops of `doc` from `served` onto `live` and applies them.
    fn run(served: &str, live: &str, ops: &str) -> Result<(String, isize), RebaseRefusal> {
        let live_text = text(live);
        let served_text = text(served);
        let hunks = hunks_on(&served_text, ops);
        let rebased = rebase(&hunks, &served_text, &live_text, RebaseLimit::Unlimited)?;
        let applied = plan(&rebased.hunks, &live_text).unwrap().apply(&live_text);
        Ok((String::from_utf8(applied.bytes).unwrap(), rebased.shift))
    }

    const SERVED: &str = "a\nb\nc\nd\ne\nf\ng\nh\n";

    #[test]
    fn moves_ops_below_an_insertion() {
        let live = "new1\nnew2\na\nb\nc\nd\ne\nf\ng\nh\n";
        assert_eq!(
            run(SERVED, live, "PUT 5:\n+E\nPUT >6:\n+x").unwrap(),
            ("new1\nnew2\na\nb\nc\nd\nE\nf\nx\ng\nh\n".to_string(), 2)
        );
    }

    #[test]
    fn keeps_ops_above_a_change_in_place() {
        let live = "a\nb\nc\nd\ne\nf\nG\nh\n";
        assert_eq!(
            run(SERVED, live, "CUT 2").unwrap(),
            ("a\nc\nd\ne\nf\nG\nh\n".to_string(), 0)
        );
    }

    #[test]
    fn refuses_ops_on_or_next_to_changed_lines() {
        let live = "a\nb\nC\nd\ne\nf\ng\nh\n";
        assert_eq!(
            run(SERVED, live, "PUT 3:\n+x"),
            Err(RebaseRefusal::TouchesChangedLines(2))
        );
        assert_eq!(
            run(SERVED, live, "PUT 4:\n+x"),
            Err(RebaseRefusal::TouchesChangedLines(2))
        );
        // The line just below counts as much as the line just above.
        assert_eq!(
            run(SERVED, live, "PUT 2:\n+x"),
            Err(RebaseRefusal::TouchesChangedLines(2))
        );
        assert_eq!(
            run(SERVED, live, "PUT 5:\n+x").unwrap(),
            ("a\nb\nC\nd\nx\nf\ng\nh\n".to_string(), 0)
        );
        assert_eq!(
            run(SERVED, live, "PUT 1:\n+x").unwrap(),
            ("x\nb\nC\nd\ne\nf\ng\nh\n".to_string(), 0)
        );
    }

    #[test]
    fn refuses_uneven_shifts() {
        let live = "a\nb\nc\nX\nd\ne\nf\ng\nh\n";
        assert_eq!(
            run(SERVED, live, "PUT 1:\n+x\nPUT 7:\n+y"),
            Err(RebaseRefusal::UnevenShift)
        );
    }

    #[test]
    fn end_inserts_follow_the_last_line() {
        let live = "top\na\nb\nc\nd\ne\nf\ng\nh\n";
        assert_eq!(
            run(SERVED, live, "PUT >$:\n+z").unwrap().0,
            format!("{live}z\n")
        );
        // Lines appended after the served end make `>$` ambiguous.
        let appended = "a\nb\nc\nd\ne\nf\ng\nh\ni\n";
        assert_eq!(
            run(SERVED, appended, "PUT >$:\n+z"),
            Err(RebaseRefusal::TouchesChangedLines(2))
        );
        // So do they for an insert after the served last line.
        assert_eq!(
            run(SERVED, appended, "PUT >8:\n+z"),
            Err(RebaseRefusal::TouchesChangedLines(2))
        );
    }

    #[test]
    fn a_copy_of_the_ops_lines_added_elsewhere_is_never_guessed() {
        // A block duplicated right after itself; the op on
        // line 3 could mean either copy, and was put on the first.
        let served = "h\na\nb\nc\nd\nt\n";
        let live = "h\na\nb\nc\nd\na\nb\nc\nd\nt\n";
        assert_eq!(
            run(served, live, "PUT 3:\n+B"),
            Err(RebaseRefusal::NoContext(2))
        );
        // A line equal to the op's line alone, added far away, is fine.
        let far = "h\na\nb\nc\nd\nt\nu\nv\nw\nb\n";
        assert_eq!(
            run(served, far, "PUT 3:\n+B").unwrap().0,
            "h\na\nB\nc\nd\nt\nu\nv\nw\nb\n"
        );
    }

    #[test]
    fn top_inserts_refuse_lines_added_at_the_top() {
        // A shebang inserted with `PUT <1:` after another
        // writer added a header line went below that line, on line 2.
        let live = "top\na\nb\nc\nd\ne\nf\ng\nh\n";
        assert_eq!(
            run(SERVED, live, "PUT <1:\n+#!"),
            Err(RebaseRefusal::TouchesChangedLines(2))
        );
        // A replacement of line 1 follows the line itself.
        assert_eq!(
            run(SERVED, live, "PUT 1:\n+A").unwrap(),
            ("top\nA\nb\nc\nd\ne\nf\ng\nh\n".to_string(), 1)
        );
        // With nothing added at the top, a top insert still rebases.
        let tail = "a\nb\nc\nd\ne\nf\ng\nh\nend\n";
        assert_eq!(
            run(SERVED, tail, "PUT <1:\n+#!").unwrap(),
            (format!("#!\n{tail}"), 0)
        );
    }

    #[test]
    fn repeated_blocks_are_never_guessed() {
        // Second trial: which A,B,C block was deleted cannot be known, so
        // an op inside a repeated block is refused.
        let served = "A\nB\nC\nA\nB\nC\nA\nB\nC\n";
        let live = "A\nB\nC\nA\nB\nC\n";
        assert_eq!(
            run(served, live, "PUT 5:\n+B-middle"),
            Err(RebaseRefusal::NoContext(2))
        );
        // Unique context nearby is enough.
        let served = "head\nA\nB\nC\nA\nB\nC\n";
        let live = "new\nhead\nA\nB\nC\nA\nB\nC\n";
        assert_eq!(
            run(served, live, "PUT 3:\n+B1").unwrap().0,
            "new\nhead\nA\nB1\nC\nA\nB\nC\n"
        );
    }

    #[test]
    fn a_range_moves_whole_or_not_at_all() {
        // Every line of a range moved alike: the range moves.
        let live = "new\na\nb\nc\nd\ne\nf\ng\nh\n";
        assert_eq!(
            run(SERVED, live, "PUT 3.=5:\n+X").unwrap(),
            ("new\na\nb\nX\nf\ng\nh\n".to_string(), 1)
        );
        // A line added inside the range moves its lines unevenly.
        let split = "a\nb\nc\nd\nnew\ne\nf\ng\nh\n";
        assert_eq!(
            run(SERVED, split, "PUT 3.=6:\n+X"),
            Err(RebaseRefusal::TouchesChangedLines(2))
        );
    }

    #[test]
    fn refusals_say_why_in_words() {
        let words = [
            (
                RebaseRefusal::TouchesChangedLines(3),
                "the op on document line 3 targets lines that changed (or sit next to changed lines)",
            ),
            (
                RebaseRefusal::UnevenShift,
                "the ops would move by different amounts, since lines changed between them",
            ),
            (
                RebaseRefusal::NoContext(4),
                "the op on document line 4 has no unchanged neighbour to confirm its position",
            ),
            (
                RebaseRefusal::TooExpensive,
                "the two versions differ too much to compare quickly",
            ),
        ];
        for (refusal, text) in words {
            assert_eq!(refusal.to_string(), text);
        }
    }

    #[test]
    fn the_callers_deadline_decides_whether_the_diff_counts() {
        // The core reads the clock only against the instant it is given: a
        // deadline already past refuses, one an hour away does not.
        let live = "new\na\nb\nc\nd\ne\nf\ng\nh\n";
        let served_text = text(SERVED);
        let live_text = text(live);
        let hunks = hunks_on(&served_text, "PUT 5:\n+E");
        let now = Instant::now();
        let past = now
            .checked_sub(std::time::Duration::from_secs(1))
            .unwrap_or(now);
        assert_eq!(
            rebase(&hunks, &served_text, &live_text, RebaseLimit::Until(past)),
            Err(RebaseRefusal::TooExpensive)
        );
        let later = now + std::time::Duration::from_secs(3600);
        let rebased = rebase(&hunks, &served_text, &live_text, RebaseLimit::Until(later)).unwrap();
        assert_eq!(rebased.shift, 1);
    }

    #[test]
    fn context_is_read_on_both_sides_and_in_both_versions() {
        // Copies of the op's line with its context above only, or below
        // only, are other text: the op still rebases.
        let served = "x\na\nb\nc\ny\n";
        assert_eq!(
            run(served, "x\na\nb\nc\ny\na\nb\nZ\n", "PUT 3:\n+B").unwrap(),
            ("x\na\nB\nc\ny\na\nb\nZ\n".to_string(), 0)
        );
        assert_eq!(
            run(served, "x\na\nb\nc\ny\nQ\nb\nc\n", "PUT 3:\n+B").unwrap(),
            ("x\na\nB\nc\ny\nQ\nb\nc\n".to_string(), 0)
        );
        // Made unique by the line below alone.
        let served = "a\nb\nc\nk\na\nb\nd\n";
        assert_eq!(
            run(served, "a\nb\nc\nk\na\nb\nd\nz\n", "PUT 2:\n+B").unwrap(),
            ("a\nB\nc\nk\na\nb\nd\nz\n".to_string(), 0)
        );
        // Unique in the live file but not in the served one: which copy
        // the author read cannot be known.
        assert_eq!(
            run("A\nB\nC\nA\nB\nC\n", "A\nB\nC\n", "PUT 2:\n+b"),
            Err(RebaseRefusal::NoContext(2))
        );
    }

    #[test]
    fn an_end_insert_into_an_empty_snapshot_has_no_context() {
        // Nothing was there to anchor `>$` to, so the live lines cannot
        // say where the author's end was.
        assert_eq!(
            run("", "x\n", "PUT >$:\n+y"),
            Err(RebaseRefusal::NoContext(2))
        );
    }

    #[test]
    fn a_lone_line_needs_unique_text() {
        assert_eq!(run("a\n", "x\na\n", "PUT 1:\n+A").unwrap().0, "x\nA\n");
        assert_eq!(
            run("}\n", "}\n}\n", "PUT 1:\n+A"),
            Err(RebaseRefusal::NoContext(2))
        );
    }
}
