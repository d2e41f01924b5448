//! How the model read the file before editing it: the whole file, or
//! windows around the lines it is about to change, as an agent does.
//!
//! An engine with a session makes these reads in the session that then
//! takes the edit, so a rule about what the model was shown (only lines a
//! view displayed may be edited) meets real reads. [`unshown`] says which
//! lines an edit reaches that no view displayed: what such a rule would
//! refuse.

use crate::hunks::{Hunk, Lines};

/// One read the model made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View {
    /// `read_file` of the whole file.
    WholeFile,
    /// `read_file` with `offset` and `limit` (1-based lines).
    Window {
        /// First line shown.
        offset: usize,
        /// Most lines shown.
        limit: usize,
    },
    /// `grep` for a literal line, with context lines around each hit.
    Grep {
        /// The text searched for (a line of the file, trimmed).
        literal: String,
        /// Lines shown above each hit.
        before: usize,
        /// Lines shown below each hit.
        after: usize,
    },
}

/// How the model reads before each edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// The whole file, once.
    WholeFile,
    /// One `read_file` window per hunk (windows that touch merge), the
    /// lines it changes with `context` lines above and below.
    Windows {
        /// Lines of context on each side.
        context: usize,
    },
    /// One `grep` per hunk for the first non-blank line it changes (or the
    /// line an insert follows), with `context` lines around the hits; a
    /// hunk with no such line gets a window.
    Grep {
        /// Lines of context on each side.
        context: usize,
    },
}

impl Reads {
    /// Every mode, with the context the benchmark uses.
    pub const ALL: [Reads; 3] = [
        Reads::WholeFile,
        Reads::Windows { context: 5 },
        Reads::Grep { context: 3 },
    ];

    /// `whole`, `windows` or `grep`.
    pub fn name(self) -> &'static str {
        match self {
            Reads::WholeFile => "whole",
            Reads::Windows { .. } => "windows",
            Reads::Grep { .. } => "grep",
        }
    }

    /// How the reads are made, for table headings.
    pub fn describe(self) -> String {
        match self {
            Reads::WholeFile => "whole-file read_file".to_string(),
            Reads::Windows { context } => {
                format!("read_file windows: each hunk's lines ±{context}")
            }
            Reads::Grep { context } => {
                format!("grep of each hunk's first changed line, ±{context} lines of context")
            }
        }
    }

    /// The mode called `name`.
    pub fn parse(name: &str) -> Option<Reads> {
        Reads::ALL.into_iter().find(|r| r.name() == name)
    }
}

/// The lines a hunk changes, or those around an insert: (first, last).
fn reach(hunk: &Hunk, lines: usize) -> (usize, usize) {
    match hunk {
        Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => (*start, *end),
        Hunk::Insert { after, .. } => ((*after).max(1), (after + 1).min(lines).max(1)),
    }
}

/// The reads made before editing `old` by `hunks`.
pub fn plan(old: &Lines, hunks: &[Hunk], reads: Reads) -> Vec<View> {
    match reads {
        Reads::WholeFile => vec![View::WholeFile],
        Reads::Windows { context } => windows(old, hunks, context),
        Reads::Grep { context } => {
            let mut views = Vec::new();
            for hunk in hunks {
                let (first, last) = reach(hunk, old.len());
                let line = (first..=last)
                    .map(|n| old.line(n).trim())
                    .find(|l| !l.is_empty());
                let view = match line {
                    Some(literal) => View::Grep {
                        literal: literal.to_string(),
                        before: context,
                        after: context,
                    },
                    None => windows(old, std::slice::from_ref(hunk), context).remove(0),
                };
                if !views.contains(&view) {
                    views.push(view);
                }
            }
            views
        }
    }
}

/// One window per hunk, merged where they touch.
fn windows(old: &Lines, hunks: &[Hunk], context: usize) -> Vec<View> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for hunk in hunks {
        let (first, last) = reach(hunk, old.len());
        let (first, last) = (
            first.saturating_sub(context).max(1),
            (last + context).min(old.len()),
        );
        match spans.last_mut() {
            Some(span) if first <= span.1 + 1 => span.1 = span.1.max(last),
            _ => spans.push((first, last)),
        }
    }
    spans
        .into_iter()
        .map(|(offset, last)| View::Window {
            offset,
            limit: last - offset + 1,
        })
        .collect()
}

/// Per line of `old` (index 0 is line 1), whether a view displayed it.
pub fn shown(old: &Lines, views: &[View]) -> Vec<bool> {
    let mut shown = vec![false; old.len()];
    let mut mark = |first: usize, last: usize| {
        for seen in shown.iter_mut().take(last).skip(first.saturating_sub(1)) {
            *seen = true;
        }
    };
    for view in views {
        match view {
            View::WholeFile => mark(1, old.len()),
            View::Window { offset, limit } => mark(*offset, offset + limit - 1),
            View::Grep {
                literal,
                before,
                after,
            } => {
                for (i, line) in old.lines.iter().enumerate() {
                    if line.contains(literal.as_str()) {
                        mark((i + 1).saturating_sub(*before), i + 1 + after);
                    }
                }
            }
        }
    }
    shown
}

/// The lines `hunks` reach (changed lines; for an insert, the line it
/// follows, or line 1 at the top) that no view displayed.
pub fn unshown(old: &Lines, hunks: &[Hunk], views: &[View]) -> Vec<usize> {
    let shown = shown(old, views);
    let mut lines: Vec<usize> = hunks
        .iter()
        .flat_map(|h| match h {
            Hunk::Replace { start, end, .. } | Hunk::Delete { start, end } => *start..=*end,
            Hunk::Insert { after, .. } => (*after).max(1)..=(*after).max(1),
        })
        .filter(|&n| n <= old.len() && !shown[n - 1])
        .collect();
    lines.dedup();
    lines
}

#[cfg(test)]
mod tests;
