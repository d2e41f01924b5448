//! The indentation refusal (FORMAT.md §7.1): body rows indented with
//! spaces where every indented line around them uses tabs, or the other
//! way round.
//!
//! That is almost always a model re-typing the file's indentation, which
//! would silently change it (and is an error in Python and Makefiles). It
//! is refused rather than converted: content is never guessed. Where a
//! leading tab is syntax or data rather than indentation ([`TabRole`]),
//! tab rows among space-indented lines are left alone (a Makefile recipe
//! needs its tab), and a tab-separated table is not checked at all.

use std::fmt;

use crate::hunk::Hunk;
use crate::plan::OpRef;
use crate::text::Text;

use super::neighbours::surroundings;

/// How a line is indented, by its first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Indent {
    /// A leading tab.
    Tabs,
    /// Two or more leading spaces.
    Spaces,
}

impl Indent {
    /// The indentation of `line`, if it is indented.
    fn of(line: &str) -> Option<Indent> {
        if line.starts_with('\t') {
            Some(Indent::Tabs)
        } else if line.starts_with("  ") && !line.trim().is_empty() {
            Some(Indent::Spaces)
        } else {
            None
        }
    }

    fn name(self) -> &'static str {
        match self {
            Indent::Tabs => "tabs",
            Indent::Spaces => "spaces",
        }
    }
}

/// A body row indented in the other style than the lines around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndentMismatch {
    /// The op whose body has the row.
    pub op: OpRef,
    /// 1-based index of the row in the body.
    pub row: usize,
    /// How every indented line around the body is indented.
    pub file: Indent,
}

impl fmt::Display for IndentMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = match self.file {
            Indent::Tabs => Indent::Spaces,
            Indent::Spaces => Indent::Tabs,
        };
        write!(
            f,
            "{}: body row {} indents with {}, but the lines around it indent with {}; \
             write the rows with the file's indentation (the live snapshot below shows it)",
            self.op,
            self.row,
            rows.name(),
            self.file.name()
        )
    }
}

/// What a leading tab means in a file, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TabRole {
    /// Indentation, as in most source files.
    Indent,
    /// Syntax: a Makefile recipe line must start with a tab, even among
    /// space-indented continuation lines.
    Recipe,
    /// Data: a tab-separated table, where a leading tab is an empty field.
    Separator,
}

impl TabRole {
    /// The role of a leading tab in the file `display` names.
    pub(crate) fn of(display: &str) -> TabRole {
        let name = display.rsplit('/').next().unwrap_or(display);
        let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        match (name, extension.as_deref()) {
            ("Makefile" | "makefile" | "GNUmakefile", _) | (_, Some("mk" | "mak")) => {
                TabRole::Recipe
            }
            (_, Some("tsv" | "tab")) => TabRole::Separator,
            _ => TabRole::Indent,
        }
    }
}

/// The first body row, over all hunks, indented in the other style than
/// every indented line around it.
pub(crate) fn indent_mismatch(
    hunks: &[Hunk],
    live: &Text,
    role: TabRole,
) -> Option<IndentMismatch> {
    if role == TabRole::Separator {
        return None;
    }
    let total = live.line_count();
    hunks.iter().find_map(|hunk| {
        let around = surroundings(&hunk.kind, total)?;
        let styles: Vec<Indent> = around
            .context
            .into_iter()
            .filter(|&n| n >= 1 && n <= total)
            .filter_map(|n| Indent::of(live.line(n)))
            .collect();
        let &file = styles.first()?;
        if styles.iter().any(|&s| s != file) {
            return None;
        }
        let foreign = |row: &String| {
            Indent::of(row).is_some_and(|s| s != file)
                && !(role == TabRole::Recipe && Indent::of(row) == Some(Indent::Tabs))
        };
        let row = around.body.iter().position(foreign)?;
        Some(IndentMismatch {
            op: OpRef::of(hunk),
            row: row + 1,
            file,
        })
    })
}
