//! `str_replace` calls: Claude Code's `Edit` and Rho's `str_replace`
//! arguments (`path`, `old_string`, `new_string`), one call per hunk.
//!
//! The calls are made one after another, so each call's `old_string` must
//! occur exactly once in the file as the calls before it left it
//! (overlapping occurrences counted, which is stricter than any engine's
//! count). [`apply_calls`] is that reading.

use crate::hunks::{Hunk, Lines};

use super::text::{
    Region, Text, hunk_region, insert_before, occurrences, widen_by_lines, widen_by_units,
};

/// One `str_replace` call's strings (the path is the edit's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replace {
    /// The text to find, exactly once.
    pub old: String,
    /// The text that replaces it.
    pub new: String,
}

/// How much text a call's `old_string` holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OldString {
    /// The fewest whole words around the change that occur once in the
    /// file, widened to whole lines only when words do not suffice.
    Minimal,
    /// The changed lines whole (an insert: the line it follows), with
    /// lines around them added until they occur once: what models
    /// usually send.
    WholeLines,
}

/// Why a call does not land.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplaceError {
    /// `old_string` is empty or equals `new_string`.
    NothingToDo,
    /// `old_string` is not in the file.
    NotFound,
    /// `old_string` occurs more than once.
    Ambiguous,
}

/// Applies `calls` to `text` one after another; the index of the first
/// call that does not land, and why.
pub fn apply_calls(text: &str, calls: &[Replace]) -> Result<String, (usize, ReplaceError)> {
    let mut text = text.to_string();
    for (i, call) in calls.iter().enumerate() {
        if call.old.is_empty() || call.old == call.new {
            return Err((i, ReplaceError::NothingToDo));
        }
        match occurrences(&text, &call.old, 2) {
            0 => return Err((i, ReplaceError::NotFound)),
            1 => text = text.replacen(&call.old, &call.new, 1),
            _ => return Err((i, ReplaceError::Ambiguous)),
        }
    }
    Ok(text)
}

/// The calls that turn `old` into `new`, whose line diff is `hunks`: one
/// per hunk in file order (hunks whose text cannot be told apart without
/// the other's merge into one call), then one for a change of the final
/// newline.
pub fn str_replace_calls(
    old: &Lines,
    new: &Lines,
    hunks: &[Hunk],
    size: OldString,
) -> Vec<Replace> {
    let original = Text::new(old);
    // Each hunk's ways of writing it, in the original text.
    let mut pending: Vec<Vec<Region>> = hunks
        .iter()
        .map(|h| {
            let mut ways = vec![hunk_region(&original, h)];
            ways.extend(insert_before(&original, h));
            ways
        })
        .collect();
    let mut text = original.text.clone();
    let mut delta: isize = 0;
    let mut calls = Vec::new();
    let mut last_end = 0;
    let shift = |r: &Region, delta: isize| Region {
        start: r.start.checked_add_signed(delta).expect("in the text"),
        end: r.end.checked_add_signed(delta).expect("in the text"),
        new: r.new.clone(),
    };
    while !pending.is_empty() {
        let ways = pending.remove(0);
        let ceiling = pending.first().map_or(text.len(), |next| {
            shift(&next[0], delta).start.min(text.len())
        });
        let current = Text::from_string(text.clone());
        let found = ways
            .iter()
            .filter_map(|way| unique_region(&current, &shift(way, delta), ceiling, size))
            .min_by_key(|r| (r.end - r.start) + r.new.len());
        let found = found.or_else(|| {
            // The last hunk: the whole text occurs once.
            pending
                .is_empty()
                .then(|| shift(&ways[0], delta).widened(&text, 0, text.len()))
        });
        let Some(region) = found else {
            // Not unique before the next hunk: take the next one along.
            let next = pending.remove(0);
            let (a, b) = (shift(&ways[0], delta), shift(&next[0], delta));
            let merged = Region {
                start: a.start,
                end: b.end,
                new: format!("{}{}{}", a.new, &text[a.end..b.start], b.new),
            };
            let back = |r: Region| shift(&r, -delta);
            pending.insert(0, vec![back(merged)]);
            continue;
        };
        calls.push(Replace {
            old: region.old(&text).to_string(),
            new: region.new.clone(),
        });
        text.replace_range(region.start..region.end, &region.new);
        last_end = region.start + region.new.len();
        delta += region.new.len() as isize - (region.end - region.start) as isize;
    }
    let target = new.text();
    if text != target {
        // Only the end differs: the final newline, or an empty last line
        // the line model cannot tell from it.
        let mut same = text
            .bytes()
            .zip(target.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        while !text.is_char_boundary(same) {
            same -= 1;
        }
        let region = Region {
            start: same,
            end: text.len(),
            new: target[same..].to_string(),
        };
        let current = Text::from_string(text.clone());
        match unique_region(&current, &region, text.len(), size) {
            Some(region) => calls.push(Replace {
                old: region.old(&text).to_string(),
                new: region.new.clone(),
            }),
            // Nothing left to find (the text is empty): the last call's
            // new text, which ends the file, takes the tail.
            None if region.start == text.len() && last_end == text.len() => {
                if let Some(last) = calls.last_mut() {
                    last.new.push_str(&region.new);
                }
            }
            None => {}
        }
    }
    calls
}

/// The smallest widening of `region` of `text`, ending at or before
/// `ceiling`, whose old text occurs once in `text`.
fn unique_region(text: &Text, region: &Region, ceiling: usize, size: OldString) -> Option<Region> {
    let accept = |start: usize, end: usize| {
        end <= ceiling && end > start && occurrences(&text.text, &text.text[start..end], 2) == 1
    };
    let last = last_line_before(text, ceiling);
    let whole = |r: &Region| widen_by_lines(text, r, (1, last), accept);
    match size {
        OldString::Minimal => {
            let core = region.trimmed(&text.text).word_aligned(&text.text);
            if core.end > ceiling {
                return whole(region);
            }
            widen_by_units(&text.text, &core, 0, ceiling, accept).or_else(|| whole(region))
        }
        OldString::WholeLines => whole(region),
    }
}

/// The last line that ends at or before `ceiling`.
fn last_line_before(text: &Text, ceiling: usize) -> usize {
    let n = text.line_at(ceiling);
    if text.line_end(n) <= ceiling {
        n
    } else {
        n.saturating_sub(1).max(1)
    }
}

#[cfg(test)]
mod tests;
