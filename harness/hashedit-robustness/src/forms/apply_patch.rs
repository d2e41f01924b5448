//! Codex `apply_patch` patches (the V4A format), as Codex writes them.
//!
//! ```text
//! *** Begin Patch
//! *** Update File: src/lib.rs
//! @@
//!  three lines of context
//! -an old line
//! +a new line
//!  three lines of context
//! *** End Patch
//! ```
//!
//! Hunks whose context would touch or overlap merge into one `@@` chunk,
//! as in a unified diff. A chunk's old lines (context and `-` rows) must
//! occur exactly once in the file: when they do not, both contexts grow a
//! line at a time until they do. The patch is the `input` argument of the
//! `apply_patch` tool. A change of the final newline cannot be written.
//! [`apply_patch_to`] is the strict reading: exact lines, each chunk once.

use crate::hunks::{Hunk, Lines};

/// Context lines on each side of a change, as Codex writes them.
pub const CONTEXT: usize = 3;

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const UPDATE: &str = "*** Update File: ";

/// Why a patch does not land.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    /// Not a one-file `*** Update File` patch in the V4A grammar.
    Malformed(String),
    /// A chunk's old lines are not in the file.
    NotFound(usize),
    /// A chunk's old lines occur more than once.
    Ambiguous(usize),
    /// A chunk lies before or over the one above it.
    OutOfOrder(usize),
}

/// One `@@` chunk: old lines `first..=last` (context included) and the
/// hunks inside them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Chunk {
    first: usize,
    last: usize,
    hunks: Vec<Hunk>,
}

/// The old lines a hunk removes, as (first, last); an insert after line
/// N removes none: (N + 1, N).
fn span(hunk: &Hunk) -> (usize, usize) {
    match hunk {
        Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (*start, *end),
        Hunk::Insert { after, .. } => (after + 1, *after),
    }
}

/// The patch turning `old` into `new` (line diff `hunks`) for `path`;
/// `None` when the format cannot write it: the final newline changes, or
/// a context line would read as a patch marker.
pub fn apply_patch(path: &str, old: &Lines, new: &Lines, hunks: &[Hunk]) -> Option<String> {
    if old.final_newline != new.final_newline && !new.is_empty() {
        return None;
    }
    if hunks.is_empty() {
        return None;
    }
    let chunks = chunks(old, hunks);
    let mut out = format!("{BEGIN}\n{UPDATE}{path}\n");
    for chunk in &chunks {
        out.push_str("@@\n");
        for row in rows(old, chunk) {
            if row.starts_with(' ') && is_marker(row.trim()) {
                return None;
            }
            out.push_str(&row);
            out.push('\n');
        }
    }
    out.push_str(END);
    out.push('\n');
    Some(out)
}

/// The chunks of `hunks` with [`CONTEXT`] lines around, merged where they
/// touch, each widened until its old lines occur once in `old`.
fn chunks(old: &Lines, hunks: &[Hunk]) -> Vec<Chunk> {
    let n = old.len();
    // Per hunk, the context it asks for above and below.
    let mut context = vec![CONTEXT; hunks.len()];
    loop {
        let mut chunks: Vec<(Chunk, Vec<usize>)> = Vec::new();
        for (i, hunk) in hunks.iter().enumerate() {
            let (s, e) = span(hunk);
            let first = s.saturating_sub(context[i]).max(1);
            let last = (e + context[i]).min(n);
            match chunks.last_mut() {
                Some((chunk, members)) if first <= chunk.last + 1 => {
                    chunk.last = chunk.last.max(last);
                    chunk.hunks.push(hunk.clone());
                    members.push(i);
                }
                _ => chunks.push((
                    Chunk {
                        first,
                        last,
                        hunks: vec![hunk.clone()],
                    },
                    vec![i],
                )),
            }
        }
        let mut grew = false;
        for (chunk, members) in &chunks {
            let whole_file = chunk.first == 1 && chunk.last == n;
            if !whole_file && count(&old.lines, &old.lines[chunk.first - 1..chunk.last], 2) > 1 {
                for &i in members {
                    context[i] += 1;
                }
                grew = true;
            }
        }
        if !grew {
            return chunks.into_iter().map(|(c, _)| c).collect();
        }
    }
}

/// The chunk's body rows: ` ` context, `-` old, `+` new.
fn rows(old: &Lines, chunk: &Chunk) -> Vec<String> {
    let mut out = Vec::new();
    let inserted_after = |n: usize| {
        chunk.hunks.iter().find_map(|h| match h {
            Hunk::Insert { after, rows } if *after == n => Some(rows),
            _ => None,
        })
    };
    let plus = |rows: &[String], out: &mut Vec<String>| {
        out.extend(rows.iter().map(|r| format!("+{r}")));
    };
    let mut n = chunk.first;
    if let Some(rows) = inserted_after(n - 1) {
        plus(rows, &mut out);
    }
    while n <= chunk.last {
        let spanned = chunk.hunks.iter().find(|h| {
            matches!(h, Hunk::Replace { start, .. } | Hunk::Delete { start, .. } if *start == n)
        });
        let done = match spanned {
            Some(hunk) => {
                let (s, e) = span(hunk);
                out.extend((s..=e).map(|k| format!("-{}", old.line(k))));
                if let Some(rows) = hunk.rows() {
                    plus(rows, &mut out);
                }
                e
            }
            None => {
                out.push(format!(" {}", old.line(n)));
                n
            }
        };
        if let Some(rows) = inserted_after(done) {
            plus(rows, &mut out);
        }
        n = done + 1;
    }
    out
}

/// Whether a line, trimmed, ends a chunk in Codex's parser.
fn is_marker(trimmed: &str) -> bool {
    trimmed == END
        || trimmed.starts_with("*** Add File: ")
        || trimmed.starts_with("*** Delete File: ")
        || trimmed.starts_with(UPDATE)
}

/// How often `needle` (lines) occurs in `hay`, overlapping counted, up to
/// `limit`.
fn count(hay: &[String], needle: &[String], limit: usize) -> usize {
    if needle.is_empty() || needle.len() > hay.len() {
        return 0;
    }
    hay.windows(needle.len())
        .filter(|w| *w == needle)
        .take(limit)
        .count()
}

/// Applies `patch` (one `*** Update File: path` section) to `old`,
/// strictly: every chunk's old lines occur exactly once, chunks in file
/// order; the final newline stays.
pub fn apply_patch_to(patch: &str, path: &str, old: &Lines) -> Result<Lines, PatchError> {
    let malformed = |why: &str| PatchError::Malformed(why.to_string());
    let mut lines = patch.strip_suffix('\n').unwrap_or(patch).split('\n');
    if lines.next() != Some(BEGIN) {
        return Err(malformed("no *** Begin Patch"));
    }
    if lines.next() != Some(&format!("{UPDATE}{path}")) {
        return Err(malformed("no *** Update File for the path"));
    }
    let mut parsed: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut ended = false;
    for line in lines {
        if ended {
            return Err(malformed("text after *** End Patch"));
        }
        if line == END {
            ended = true;
        } else if line == "@@" {
            parsed.push((Vec::new(), Vec::new()));
        } else if is_marker(line.trim()) {
            return Err(malformed("a body row reads as a marker"));
        } else {
            let Some((old_rows, new_rows)) = parsed.last_mut() else {
                return Err(malformed("a row before the first @@"));
            };
            match line.split_at_checked(1) {
                Some((" ", text)) => {
                    old_rows.push(text.to_string());
                    new_rows.push(text.to_string());
                }
                Some(("-", text)) => old_rows.push(text.to_string()),
                Some(("+", text)) => new_rows.push(text.to_string()),
                _ => return Err(malformed("a row without ' ', '-' or '+'")),
            }
        }
    }
    if !ended || parsed.is_empty() {
        return Err(malformed("no chunk, or no *** End Patch"));
    }
    let mut out: Vec<String> = Vec::new();
    let mut next = 0;
    for (i, (old_rows, new_rows)) in parsed.iter().enumerate() {
        let at = match count(&old.lines, old_rows, 2) {
            0 => return Err(PatchError::NotFound(i)),
            1 => old
                .lines
                .windows(old_rows.len())
                .position(|w| w == old_rows.as_slice())
                .expect("counted once"),
            _ => return Err(PatchError::Ambiguous(i)),
        };
        if at < next {
            return Err(PatchError::OutOfOrder(i));
        }
        out.extend(old.lines[next..at].iter().cloned());
        out.extend(new_rows.iter().cloned());
        next = at + old_rows.len();
    }
    out.extend(old.lines[next..].iter().cloned());
    Ok(Lines {
        lines: out,
        final_newline: old.final_newline,
    })
}

#[cfg(test)]
mod tests;
