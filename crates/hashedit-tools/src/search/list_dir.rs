//! The `list_dir` tool: the immediate entries of one directory.

use hashedit_core::{Name, Surface, truncate_to_budget};

use super::budget::{fit, listing_tail, render_listing};
use super::{Leftovers, SearchOptions, SearchScope, budget_reason};
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio::is_temp_leftover;
use crate::outcome::{ListDirFacts, ListEntry, Outcome};
use crate::workspace::display_path;

/// What `list_dir` tells the model it can narrow.
const NARROW: &str = "the listing with glob";

/// What the model reads for a directory with no entries.
const EMPTY_DIRECTORY: &str = "(empty directory)";

struct Entry {
    name: String,
    kind: &'static str,
    shown: String,
}

/// [`list_dir_with`] with the default [`SearchOptions`].
#[cfg(test)]
pub(crate) fn list_dir(scope: &SearchScope, max_output_bytes: usize) -> ToolResult<Outcome> {
    list_dir_with(scope, max_output_bytes, &SearchOptions::default())
}

/// The `list_dir` tool on a resolved scope (see [`crate::list_dir`]).
pub(crate) fn list_dir_with(
    scope: &SearchScope,
    max_output_bytes: usize,
    options: &SearchOptions,
) -> ToolResult<Outcome> {
    let metadata =
        std::fs::metadata(scope.target).map_err(|e| ToolError::io("list", scope.display, &e))?;
    if !metadata.is_dir() {
        let what = if metadata.is_file() {
            format!(
                "{} is a file, not a directory; read it with {}",
                scope.display,
                options.surface.name(Name::Read)
            )
        } else {
            format!(
                "{} is not a directory; list its parent instead",
                scope.display
            )
        };
        return Err(ToolError::new(ErrorKind::NotARegularFile, what));
    }
    let reader =
        std::fs::read_dir(scope.target).map_err(|e| ToolError::io("list", scope.display, &e))?;
    let mut entries = Vec::new();
    let mut leftovers = 0usize;
    for entry in reader {
        if options.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
            return Err(ToolError::new(
                ErrorKind::Cancelled,
                format!("listing {} was cancelled", scope.display),
            ));
        }
        let entry = entry.map_err(|e| ToolError::io("list", scope.display, &e))?;
        let file_type = entry.file_type();
        if options.leftovers == Leftovers::Hide
            && file_type.as_ref().is_ok_and(std::fs::FileType::is_file)
            && is_temp_leftover(&entry.file_name())
        {
            leftovers += 1;
            continue;
        }
        let name = crate::workspace::os_to_raw(&entry.file_name()).into_owned();
        let kind = match file_type {
            Ok(t) if t.is_symlink() => "symlink",
            Ok(t) if t.is_dir() => "dir",
            Ok(t) if t.is_file() => "file",
            _ => "other",
        };
        let mut shown = display_path(&name).into_owned();
        if kind == "dir" {
            shown.push('/');
        }
        entries.push(Entry { name, kind, shown });
    }
    entries.sort_by(|a, b| a.shown.as_bytes().cmp(b.shown.as_bytes()));

    let hidden_note = leftovers_note(leftovers, options.surface);
    if entries.is_empty() {
        let facts = ListDirFacts {
            path: scope.display.to_string(),
            entries: Vec::new(),
            total: 0,
            truncated: false,
            hidden: leftovers,
        };
        let text = match &hidden_note {
            Some(note) => format!("{EMPTY_DIRECTORY}\n\n{note}"),
            None => EMPTY_DIRECTORY.to_string(),
        };
        return Ok(Outcome::new(
            truncate_to_budget(text, max_output_bytes),
            facts,
        ));
    }
    let rows: Vec<&str> = entries.iter().map(|e| e.shown.as_str()).collect();
    let mut full = rows.join("\n");
    if let Some(note) = &hidden_note {
        full.push_str("\n\n");
        full.push_str(note);
    }
    let units: Vec<usize> = rows.iter().map(|row| row.len() + 1).collect();
    let notice = |shown: usize| {
        let notice = format!(
            "{shown} of {} entries shown ({})",
            entries.len(),
            budget_reason(max_output_bytes, NARROW)
        );
        match &hidden_note {
            Some(note) => format!("{notice}\n{note}"),
            None => notice,
        }
    };
    let (text, shown) = if full.len() <= max_output_bytes {
        (full, entries.len())
    } else {
        // The whole listing is known not to fit: only cut layouts count.
        let fitted = fit(&units, max_output_bytes, |k, cut| {
            if cut {
                listing_tail(k, notice(k).len())
            } else {
                usize::MAX
            }
        });
        let text = render_listing(rows[..fitted.shown].iter().copied(), &notice(fitted.shown));
        (text, fitted.shown)
    };
    let facts = ListDirFacts {
        path: scope.display.to_string(),
        total: entries.len(),
        truncated: shown < entries.len(),
        hidden: leftovers,
        entries: entries
            .into_iter()
            .take(shown)
            .map(|entry| ListEntry {
                name: entry.name,
                kind: entry.kind,
            })
            .collect(),
    };
    Ok(Outcome::new(
        truncate_to_budget(text, max_output_bytes),
        facts,
    ))
}

/// The line under a listing that left out `leftovers` unfinished temp
/// files (FORMAT.md §8.1); `None` when there are none.
fn leftovers_note(leftovers: usize, surface: Surface) -> Option<String> {
    (leftovers > 0).then(|| {
        format!(
            "({} not shown: unfinished temp {} of a killed write; {} shows {})",
            if leftovers == 1 {
                "1 hidden entry".to_string()
            } else {
                format!("{leftovers} hidden entries")
            },
            if leftovers == 1 { "file" } else { "files" },
            surface.name(Name::Hidden),
            if leftovers == 1 { "it" } else { "them" }
        )
    })
}

#[cfg(test)]
mod tests;
