//! Lowering a `SUB` (FORMAT.md §5.9): the old text must occur exactly
//! once in the lines the locator names, and the lines the match spans
//! become the text before it on its first line, the new rows, and the text
//! after it on its last line: an ordinary replace (or delete) hunk, which
//! the planner, the guards and a rebase treat like any other. There is no
//! fuzzy matching: when the old text is not there, the nearest near-match
//! is named, with the difference, and never used.

use std::fmt;

use memchr::memmem;

use crate::document::LineRange;
use crate::hunk::HunkKind;
use crate::text::Text;

/// Most lines an ambiguous match names one by one.
pub const LISTED_OCCURRENCES: usize = 50;

/// Most characters of each side of a near-match's difference quoted.
const QUOTED_CHARS: usize = 60;

/// Characters of agreeing text quoted on each side of a difference.
const CONTEXT_CHARS: usize = 12;

/// The file's lines joined by `\n` (line endings aside: what old text is
/// matched against), and where each line starts in it.
#[derive(Debug)]
pub(crate) struct Joined {
    text: String,
    starts: Vec<usize>,
}

impl Joined {
    /// The lines of `text`.
    pub(crate) fn of(text: &Text) -> Joined {
        let mut joined = String::with_capacity(text.body().len());
        let mut starts = Vec::with_capacity(text.line_count());
        for (index, (line, _)) in text.lines().enumerate() {
            if index > 0 {
                joined.push('\n');
            }
            starts.push(joined.len());
            joined.push_str(line);
        }
        Joined {
            text: joined,
            starts,
        }
    }

    /// The 1-based line holding byte `pos`: a line break belongs to the
    /// line it ends, a line's first byte to that line.
    fn line_at(&self, pos: usize) -> usize {
        self.starts.partition_point(|&s| s <= pos).max(1)
    }

    /// Where line `line` starts.
    fn start(&self, line: usize) -> usize {
        self.starts[line - 1]
    }

    /// Where line `line` ends (its line break, or the end of the text).
    fn end(&self, line: usize) -> usize {
        self.starts
            .get(line)
            .map_or(self.text.len(), |&next| next - 1)
    }
}

/// Why a `SUB` found no single place to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Miss {
    /// The old text is not in the lines searched.
    NotFound(Option<NearMatch>),
    /// It is there more than once.
    Ambiguous(Occurrences),
}

/// Where an old text occurs more than once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrences {
    /// How many times it occurs (overlapping occurrences counted).
    pub count: usize,
    /// The lines they start on, each once, ascending; at most
    /// [`LISTED_OCCURRENCES`].
    pub lines: Vec<usize>,
    /// How many more lines hold one.
    pub more_lines: usize,
}

impl fmt::Display for Occurrences {
    /// `2, 9, 14` or `2, 9, 14 and 3 more`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.lines.iter().map(ToString::to_string).collect();
        f.write_str(&lines.join(", "))?;
        if self.more_lines > 0 {
            write!(f, " and {} more", self.more_lines)?;
        }
        Ok(())
    }
}

/// The text nearest to an old text that was not found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NearMatch {
    /// The lines it spans.
    pub lines: LineRange,
    /// How it differs from the old text.
    pub difference: Difference,
}

/// How a near-match differs from the old text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Difference {
    /// It does not: the old text is there exactly, outside the lines the
    /// locator names.
    Outside,
    /// From line `line` on, the old text has `old` where the file has
    /// `file` (each with a little agreeing text around it, and cut to
    /// 60 characters).
    Text {
        /// The line where they part.
        line: usize,
        /// The old text there.
        old: String,
        /// The file's text there.
        file: String,
    },
}

impl fmt::Display for NearMatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = words(self.lines);
        match &self.difference {
            Difference::Outside => write!(
                f,
                "it is on {lines}, outside the lines searched (SUB {}: names them, if that is the \
                 text you meant)",
                self.lines.canonical()
            ),
            Difference::Text { old, file, .. } if self.lines.len() == 1 => write!(
                f,
                "the nearest near-match is on {lines}, where the old text has {old} and the file has \
                 {file}"
            ),
            Difference::Text { line, old, file } => write!(
                f,
                "the nearest near-match is on {lines}: on line {line} the old text has {old} and the \
                 file has {file}"
            ),
        }
    }
}

/// `line 4` or `lines 4-6`.
fn words(lines: LineRange) -> String {
    if lines.start == lines.end {
        format!("line {}", lines.start)
    } else {
        format!("lines {}-{}", lines.start, lines.end)
    }
}

/// Where a `SUB`'s new text lies in the first row its hunk writes: bytes
/// `start..end` of that row (`end` at the row's end when the new text
/// goes on to more rows; `start == end` where it deleted text), so a
/// preview can show a long line around the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// 1-based document line of the `SUB`.
    pub op_line: usize,
    /// Where the new text starts in the row.
    pub start: usize,
    /// Where it ends in the row.
    pub end: usize,
}

/// The hunk replacing the one occurrence of the `old` rows (joined by
/// `\n`) within lines `within` of `joined` by the `body` rows, the lines
/// the match spans, and where the new text starts and ends in the first
/// row written. The parser guarantees an old text that is not empty,
/// `within` lies inside the file.
pub(crate) fn substitute(
    joined: &Joined,
    within: LineRange,
    old: &[String],
    body: &[String],
) -> Result<(HunkKind, LineRange, (usize, usize)), Miss> {
    let needle = old.join("\n");
    let base = joined.start(within.start);
    let scope = &joined.text[base..joined.end(within.end)];
    let mut found = occurrences(scope, &needle);
    let Some(x) = found.next().map(|at| base + at) else {
        return Err(Miss::NotFound(near_match(joined, within, &needle)));
    };
    if found.next().is_some() {
        return Err(Miss::Ambiguous(ambiguous(joined, base, scope, &needle)));
    }
    let y = x + needle.len();
    let lines = LineRange {
        start: joined.line_at(x),
        end: joined.line_at(y),
    };
    let before = &joined.text[joined.start(lines.start)..x];
    let after = &joined.text[y..joined.end(lines.end)];
    let whole_lines = before.is_empty()
        && after.is_empty()
        && !needle.starts_with('\n')
        && !needle.ends_with('\n');
    let start = before.len();
    let end = start + body.first().map_or(0, String::len);
    if body.is_empty() && whole_lines {
        return Ok((HunkKind::Delete { range: lines }, lines, (start, end)));
    }
    let rows = format!("{before}{}{after}", body.join("\n"))
        .split('\n')
        .map(str::to_string)
        .collect();
    Ok((
        HunkKind::Replace {
            range: lines,
            body: rows,
        },
        lines,
        (start, end),
    ))
}

/// Where `needle` (not empty) starts in `hay`, overlapping occurrences
/// included, in order.
fn occurrences<'h>(hay: &'h str, needle: &'h str) -> impl Iterator<Item = usize> + 'h {
    let finder = memmem::Finder::new(needle.as_bytes());
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = from + finder.find(hay.as_bytes().get(from..)?)?;
        from = at + 1;
        Some(at)
    })
}

/// Every occurrence of `needle` in `scope` (which starts at `base`).
fn ambiguous(joined: &Joined, base: usize, scope: &str, needle: &str) -> Occurrences {
    let mut count = 0;
    let mut lines: Vec<usize> = Vec::new();
    for at in occurrences(scope, needle) {
        count += 1;
        let line = joined.line_at(base + at);
        if lines.last() != Some(&line) {
            lines.push(line);
        }
    }
    let more_lines = lines.len().saturating_sub(LISTED_OCCURRENCES);
    lines.truncate(LISTED_OCCURRENCES);
    Occurrences {
        count,
        lines,
        more_lines,
    }
}

/// The near-match of an old text not found within `within`: the old text
/// itself elsewhere in the file, else the longest start or end of it found
/// in the file (nearest the lines searched) and where the file parts from
/// it. `None` when not even a third of it (or 16 bytes) is anywhere.
fn near_match(joined: &Joined, within: LineRange, needle: &str) -> Option<NearMatch> {
    let file = joined.text.as_str();
    let distance = |at: usize| {
        let line = joined.line_at(at);
        within.start.saturating_sub(line) + line.saturating_sub(within.end)
    };
    let nearest = |part: &str| {
        occurrences(file, part)
            .take(4096)
            .min_by_key(|&at| distance(at))
    };
    if let Some(at) = nearest(needle) {
        let lines = LineRange {
            start: joined.line_at(at),
            end: joined.line_at(at + needle.len()),
        };
        return Some(NearMatch {
            lines,
            difference: Difference::Outside,
        });
    }
    let found = |part: &str| memmem::find(file.as_bytes(), part.as_bytes()).is_some();
    let head = longest(needle, Side::Start, found);
    let tail = longest(needle, Side::End, found);
    let enough = (needle.len() / 3).clamp(1, 16);
    if head.max(tail) < enough {
        return None;
    }
    // The agreeing start at `s`, the agreeing end at `t`: the old text's
    // middle `needle[p..needle.len() - q]` stands where the file has
    // `file[s + p..t]`.
    let (s, p, t, q) = if head >= tail {
        let s = nearest(&needle[..head])?;
        let from = s + head;
        let rest = &needle[head..];
        let to = floor_boundary(file, (from + 2 * rest.len() + 64).min(file.len()));
        let window = &file[from..to];
        let q = longest(rest, Side::End, |part| {
            memmem::find(window.as_bytes(), part.as_bytes()).is_some()
        });
        let t = match q {
            // Nothing after agrees: the file's text as long as the rest,
            // on the line where they part.
            0 => floor_boundary(
                file,
                (from + rest.len()).min(joined.end(joined.line_at(from))),
            ),
            _ => {
                let tail_text = &needle[needle.len() - q..];
                memmem::find(window.as_bytes(), tail_text.as_bytes()).map_or(from, |at| from + at)
            }
        };
        (s, head, t, q)
    } else {
        let tail_text = &needle[needle.len() - tail..];
        let t = nearest(tail_text)?;
        let rest = &needle[..needle.len() - tail];
        let from = floor_boundary(file, t.saturating_sub(2 * rest.len() + 64));
        let window = &file[from..t];
        let p = longest(rest, Side::Start, |part| {
            memmem::find(window.as_bytes(), part.as_bytes()).is_some()
        });
        let s = match p {
            // Nothing before agrees: the file's line up to the agreeing end.
            0 => floor_boundary(file, from.max(joined.start(joined.line_at(t)))),
            _ => from + memmem::rfind(window.as_bytes(), &needle.as_bytes()[..p]).unwrap_or(0),
        };
        (s, p, t, tail)
    };
    let file_middle = &file[(s + p).min(t)..t];
    let old_middle = &needle[p..needle.len() - q];
    let before = context_before(&needle[..p]);
    let after = context_after(&needle[needle.len() - q..]);
    Some(NearMatch {
        lines: LineRange {
            start: joined.line_at(s),
            end: joined.line_at(t + q).max(joined.line_at(s)),
        },
        difference: Difference::Text {
            line: joined.line_at((s + p).min(t)),
            old: quoted(before, old_middle, after),
            file: quoted(before, file_middle, after),
        },
    })
}

/// Which end of an old text is kept.
#[derive(Clone, Copy)]
enum Side {
    Start,
    End,
}

/// The most bytes (at a character boundary) of `text`'s start or end for
/// which `found` holds; `found` must hold for every shorter part when it
/// holds for a longer one.
fn longest(text: &str, side: Side, found: impl Fn(&str) -> bool) -> usize {
    let part = |len: usize| match side {
        Side::Start => &text[..len],
        Side::End => &text[text.len() - len..],
    };
    let mut lengths: Vec<usize> = match side {
        Side::Start => text.char_indices().map(|(i, c)| i + c.len_utf8()).collect(),
        Side::End => text.char_indices().map(|(i, _)| text.len() - i).collect(),
    };
    lengths.sort_unstable();
    let fits = lengths.partition_point(|&len| found(part(len)));
    fits.checked_sub(1).map_or(0, |i| lengths[i])
}

/// The largest character boundary of `text` at or before `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// The last few characters of `agreed` on its last line.
fn context_before(agreed: &str) -> &str {
    let line = agreed.rsplit('\n').next().unwrap_or(agreed);
    let skip = line.chars().count().saturating_sub(CONTEXT_CHARS);
    line.char_indices()
        .nth(skip)
        .map_or("", |(i, _)| &line[i..])
}

/// The first few characters of `agreed` on its first line.
fn context_after(agreed: &str) -> &str {
    let line = agreed.split('\n').next().unwrap_or(agreed);
    line.char_indices()
        .nth(CONTEXT_CHARS)
        .map_or(line, |(i, _)| &line[..i])
}

/// `before + middle + after` as a quoted string (line breaks and tabs
/// escaped), the middle cut to [`QUOTED_CHARS`] characters.
fn quoted(before: &str, middle: &str, after: &str) -> String {
    let mut chars = middle.chars();
    let head: String = chars.by_ref().take(QUOTED_CHARS).collect();
    if chars.next().is_some() {
        format!("{:?}", format!("{before}{head}…"))
    } else {
        format!("{:?}", format!("{before}{head}{after}"))
    }
}

#[cfg(test)]
mod tests;
