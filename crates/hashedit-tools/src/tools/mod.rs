//! The six tools, one function each.

mod edit;
mod find;
mod image;
mod name;
mod read;
mod write;

pub use edit::{EditMode, edit};
pub use find::{glob, grep, list_dir};
pub use name::ToolName;
pub use read::read_file;
pub use write::{looks_like_read_output, looks_like_read_rows, write};

/// Largest file `edit` will load (bytes). Editing holds the old and new
/// text in memory (about 3× the file), so the cap bounds memory; reads are
/// streamed and have no such cap.
pub const EDIT_MAX_BYTES: u64 = 256 * 1024 * 1024;

/// Appends `note` (a `note: …` line) to a reply after a blank line, when
/// there is one (FORMAT.md §8.5: a path resolved through its Unicode twin).
pub(crate) fn append_note(outcome: &mut crate::outcome::Outcome, note: Option<&str>) {
    if let Some(note) = note {
        outcome.text.push_str("\n\n");
        outcome.text.push_str(note);
    }
}
