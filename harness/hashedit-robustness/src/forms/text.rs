//! A file as one string with its line offsets, the units a model cuts
//! text at, and the search for the smallest old text that is unique.
//!
//! Content-addressed forms (`SUB` ops, `str_replace` calls) name the text
//! they change. The generators start from the bytes a hunk changes and
//! widen them a *unit* at a time until the old text occurs exactly once
//! where it is looked for. A unit is a run of word characters (letters,
//! digits, `_`), a run of spaces and tabs, or any other single character
//! (punctuation, a line break), so old text never cuts a word in two.

use crate::hunks::{Hunk, Lines};

/// A file's text and where its lines start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    /// The bytes: lines joined by `\n`, plus the final newline if any.
    pub text: String,
    /// Byte offset of each line's start; line `n` starts at `starts[n - 1]`.
    starts: Vec<usize>,
}

impl Text {
    /// The text of `lines`.
    pub fn new(lines: &Lines) -> Text {
        Text::from_string(lines.text())
    }

    /// `text` with its line offsets.
    pub fn from_string(text: String) -> Text {
        let mut starts = vec![0];
        starts.extend(
            text.match_indices('\n')
                .map(|(i, _)| i + 1)
                .filter(|&s| s < text.len()),
        );
        if text.is_empty() {
            starts.clear();
        }
        Text { text, starts }
    }

    /// Number of lines.
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// Offset of line `n`'s first byte (1-based); the text's length past
    /// the last line.
    pub fn line_start(&self, n: usize) -> usize {
        self.starts.get(n - 1).copied().unwrap_or(self.text.len())
    }

    /// Offset just past line `n`'s last byte, before its line break.
    pub fn line_end(&self, n: usize) -> usize {
        match self.starts.get(n) {
            Some(&next) => next - 1,
            None => self.text.strip_suffix('\n').unwrap_or(&self.text).len(),
        }
    }

    /// The line holding offset `pos`: a position at a line's end (on its
    /// line break) belongs to that line, one at a line's start to it.
    pub fn line_at(&self, pos: usize) -> usize {
        self.starts.partition_point(|&s| s <= pos).max(1)
    }

    /// The bytes of `lines`, line breaks between them included.
    pub fn span(&self, first: usize, last: usize) -> &str {
        &self.text[self.line_start(first)..self.line_end(last)]
    }
}

/// A change of a text: bytes `start..end` become `new`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// First byte replaced.
    pub start: usize,
    /// Byte after the last one replaced.
    pub end: usize,
    /// The replacement.
    pub new: String,
}

impl Region {
    /// The old bytes of the region in `text`.
    pub fn old<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }

    /// The region widened to `start..end` (around it): the bytes added on
    /// either side are kept, so the change stays the same.
    pub fn widened(&self, text: &str, start: usize, end: usize) -> Region {
        Region {
            start,
            end,
            new: format!(
                "{}{}{}",
                &text[start..self.start],
                self.new,
                &text[self.end..end]
            ),
        }
    }

    /// The region without the bytes its old and new text share at either
    /// end (whole characters), so it holds only what changes.
    pub fn trimmed(&self, text: &str) -> Region {
        let old = self.old(text);
        let prefix = common_prefix(old, &self.new);
        let suffix = common_suffix(&old[prefix..], &self.new[prefix..]);
        Region {
            start: self.start + prefix,
            end: self.end - suffix,
            new: self.new[prefix..self.new.len() - suffix].to_string(),
        }
    }

    /// The region widened so that it cuts no word in two: where a word
    /// of the text meets old or new text that starts (or ends) with a
    /// word character, the whole word joins the region.
    pub fn word_aligned(&self, text: &str) -> Region {
        let old = self.old(text);
        let starts_word =
            old.chars().next().is_some_and(is_word) || self.new.chars().next().is_some_and(is_word);
        let ends_word = old.chars().next_back().is_some_and(is_word)
            || self.new.chars().next_back().is_some_and(is_word);
        let mut start = self.start;
        let mut end = self.end;
        if starts_word {
            while word_before(text, start) {
                start -= char_before(text, start).len_utf8();
            }
        }
        if ends_word {
            while word_after(text, end) {
                end += char_after(text, end).len_utf8();
            }
        }
        self.widened(text, start, end)
    }
}

/// Bytes `a` and `b` share at their start, in whole characters.
fn common_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}

/// Bytes `a` and `b` share at their end, in whole characters.
fn common_suffix(a: &str, b: &str) -> usize {
    a.chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum()
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn char_before(text: &str, pos: usize) -> char {
    text[..pos].chars().next_back().expect("pos > 0")
}

fn char_after(text: &str, pos: usize) -> char {
    text[pos..].chars().next().expect("pos < len")
}

fn word_before(text: &str, pos: usize) -> bool {
    pos > 0 && is_word(char_before(text, pos))
}

fn word_after(text: &str, pos: usize) -> bool {
    pos < text.len() && is_word(char_after(text, pos))
}

/// The offset one unit left of `pos`, not below `floor`.
fn unit_left(text: &str, pos: usize, floor: usize) -> Option<usize> {
    if pos <= floor {
        return None;
    }
    let first = char_before(text, pos);
    let mut at = pos - first.len_utf8();
    let same = |c: char| (is_word(first) && is_word(c)) || (is_blank(first) && is_blank(c));
    while at > floor && same(char_before(text, at)) {
        at -= char_before(text, at).len_utf8();
    }
    Some(at)
}

/// The offset one unit right of `pos`, not past `ceiling`.
fn unit_right(text: &str, pos: usize, ceiling: usize) -> Option<usize> {
    if pos >= ceiling {
        return None;
    }
    let first = char_after(text, pos);
    let mut at = pos + first.len_utf8();
    let same = |c: char| (is_word(first) && is_word(c)) || (is_blank(first) && is_blank(c));
    while at < ceiling && same(char_after(text, at)) {
        at += char_after(text, at).len_utf8();
    }
    Some(at)
}

/// How often `needle` occurs in `hay`, overlapping occurrences counted,
/// counting no further than `limit`.
pub fn occurrences(hay: &str, needle: &str, limit: usize) -> usize {
    if needle.is_empty() {
        return limit;
    }
    let mut count = 0;
    let mut from = 0;
    while count < limit {
        let Some(i) = hay[from..].find(needle) else {
            break;
        };
        count += 1;
        from += i + char_after(hay, from + i).len_utf8();
    }
    count
}

/// Most units a region grows by on each side before the search gives up
/// on units and falls back to whole lines.
pub const MAX_UNITS: usize = 4096;

/// The shortest widening of `region` by whole units on either side,
/// staying inside `floor..ceiling`, whose bytes `accept` takes; `None`
/// when no widening by up to [`MAX_UNITS`] units a side is taken.
///
/// `accept` must be monotone: a widening of an accepted candidate is
/// accepted too (as "occurs once" is). So for each number of units on
/// the left, the fewest on the right are found by bisection, and the
/// search stops once the left part alone is longer than the best.
pub fn widen_by_units(
    text: &str,
    region: &Region,
    floor: usize,
    ceiling: usize,
    accept: impl Fn(usize, usize) -> bool,
) -> Option<Region> {
    let steps = |first: usize, next: &dyn Fn(usize) -> Option<usize>| {
        let mut out = vec![first];
        while out.len() <= MAX_UNITS {
            match next(*out.last().expect("not empty")) {
                Some(at) => out.push(at),
                None => break,
            }
        }
        out
    };
    let lefts = steps(region.start, &|at| unit_left(text, at, floor));
    let rights = steps(region.end, &|at| unit_right(text, at, ceiling));
    let mut best: Option<(usize, usize)> = None;
    let mut top = rights.len() - 1;
    for &start in &lefts {
        if best.is_some_and(|(s, e)| rights[0] - start >= e - s) {
            break;
        }
        if !accept(start, rights[top]) {
            continue;
        }
        let (mut lo, mut hi) = (0, top);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if accept(start, rights[mid]) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        top = hi;
        let end = rights[hi];
        if best.is_none_or(|(s, e)| end - start < e - s) {
            best = Some((start, end));
        }
    }
    best.map(|(start, end)| region.widened(text, start, end))
}

/// The smallest widening of `region` to whole lines (the lines it touches,
/// then more lines above and below, fewest first) whose old text `accept`
/// takes, staying inside lines `first..=last`. Line breaks at the ends
/// are not part of the old text, unless the region holds them.
pub fn widen_by_lines(
    text: &Text,
    region: &Region,
    (first, last): (usize, usize),
    accept: impl Fn(usize, usize) -> bool,
) -> Option<Region> {
    let top = text.line_at(region.start).max(first);
    let bottom = text.line_at(region.end).min(last).max(top);
    for steps in 0..=(top - first) + (last - bottom) {
        let best = (0..=steps)
            .filter(|&up| up <= top - first && steps - up <= last - bottom)
            .map(|up| {
                (
                    text.line_start(top - up).min(region.start),
                    text.line_end(bottom + steps - up).max(region.end),
                )
            })
            .find(|&(start, end)| accept(start, end));
        if let Some((start, end)) = best {
            return Some(region.widened(&text.text, start, end));
        }
    }
    None
}

/// Where a hunk's change sits in the text of the file it applies to.
///
/// A replacement changes its lines' bytes (line breaks at the ends kept);
/// a deletion removes its lines with one line break (the one after them,
/// or before them at the end of the file); an insert puts its rows at the
/// end of the line it follows, after a line break. [`insert_before`] gives
/// the other way to write an insert.
pub fn hunk_region(text: &Text, hunk: &Hunk) -> Region {
    match hunk {
        Hunk::Replace { start, end, rows } => Region {
            start: text.line_start(*start),
            end: text.line_end(*end),
            new: rows.join("\n"),
        },
        Hunk::Delete { start, end } if *end < text.lines() => Region {
            start: text.line_start(*start),
            end: text.line_start(end + 1),
            new: String::new(),
        },
        Hunk::Delete { start, end } if *start > 1 => Region {
            start: text.line_end(start - 1),
            end: text.line_end(*end),
            new: String::new(),
        },
        Hunk::Delete { end, .. } => Region {
            start: 0,
            end: text.line_end(*end),
            new: String::new(),
        },
        Hunk::Insert { after: 0, rows } => Region {
            start: 0,
            end: 0,
            new: format!("{}\n", rows.join("\n")),
        },
        Hunk::Insert { after, rows } => {
            let at = text.line_end(*after);
            Region {
                start: at,
                end: at,
                new: format!("\n{}", rows.join("\n")),
            }
        }
    }
}

/// An insert after line `after` written at the start of the next line
/// instead (`None` for an insert at either end of the file).
pub fn insert_before(text: &Text, hunk: &Hunk) -> Option<Region> {
    match hunk {
        Hunk::Insert { after, rows } if *after >= 1 && *after < text.lines() => {
            let at = text.line_start(after + 1);
            Some(Region {
                start: at,
                end: at,
                new: format!("{}\n", rows.join("\n")),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
