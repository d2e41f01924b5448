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
    let (entries, leftovers) = read_entries(scope, options)?;
    let hidden_note = leftovers_note(leftovers, options.surface);
    let (text, shown) = render(&entries, hidden_note.as_deref(), max_output_bytes);
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

/// The entries of the directory `scope.target`, sorted byte-wise as
/// shown, and how many temp leftovers were left out.
fn read_entries(scope: &SearchScope, options: &SearchOptions) -> ToolResult<(Vec<Entry>, usize)> {
    let io_error = |e: std::io::Error| ToolError::io("list", scope.display, &e);
    let metadata = std::fs::metadata(scope.target).map_err(io_error)?;
    if !metadata.is_dir() {
        let what = if metadata.is_file() {
            let read = options.surface.name(Name::Read);
            format!(
                "{} is a file, not a directory; read it with {read}",
                scope.display
            )
        } else {
            format!(
                "{} is not a directory; list its parent instead",
                scope.display
            )
        };
        return Err(ToolError::new(ErrorKind::NotARegularFile, what));
    }
    let mut entries = Vec::new();
    let mut leftovers = 0usize;
    for entry in std::fs::read_dir(scope.target).map_err(io_error)? {
        if options.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
            let message = format!("listing {} was cancelled", scope.display);
            return Err(ToolError::new(ErrorKind::Cancelled, message));
        }
        let entry = entry.map_err(io_error)?;
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
    Ok((entries, leftovers))
}

/// The listing's text within `budget`, and how many entries it shows.
fn render(entries: &[Entry], hidden_note: Option<&str>, budget: usize) -> (String, usize) {
    let with_note = |text: String, gap: &str| match hidden_note {
        Some(note) => format!("{text}{gap}{note}"),
        None => text,
    };
    if entries.is_empty() {
        return (with_note(EMPTY_DIRECTORY.to_string(), "\n\n"), 0);
    }
    let rows: Vec<&str> = entries.iter().map(|e| e.shown.as_str()).collect();
    let full = with_note(rows.join("\n"), "\n\n");
    if full.len() <= budget {
        return (full, entries.len());
    }
    let notice = |shown: usize| {
        let reason = budget_reason(budget, NARROW);
        let notice = format!("{shown} of {} entries shown ({reason})", entries.len());
        with_note(notice, "\n")
    };
    // The whole listing is known not to fit: only cut layouts count.
    let units: Vec<usize> = rows.iter().map(|row| row.len() + 1).collect();
    let fitted = fit(&units, budget, |k, cut| {
        if cut {
            listing_tail(k, notice(k).len())
        } else {
            usize::MAX
        }
    });
    let text = render_listing(rows[..fitted.shown].iter().copied(), &notice(fitted.shown));
    (text, fitted.shown)
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
