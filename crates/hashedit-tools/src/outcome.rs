//! A successful tool call: the model-facing text and its typed facts.

use std::path::PathBuf;

use hashedit_core::Fingerprint;
use serde::Serialize;
use serde_json::Value;

use crate::args::OutputMode;

/// What a tool returns on success.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Exactly the text the model reads (already fitted to the output
    /// budget).
    pub text: String,
    /// Machine-readable facts about the result (paths, tags, counts).
    pub facts: Facts,
    /// Snapshot headers this reply showed that the tool did not record
    /// itself (grep's per-file headers), for the session to remember.
    pub served: Vec<Served>,
    /// An image `read_file` read, for surfaces that can show one (the MCP
    /// server sends it as image content; the CLI prints only the text).
    pub image: Option<Image>,
}

impl Outcome {
    /// An outcome with `text` and `facts`.
    pub fn new(text: impl Into<String>, facts: impl Into<Facts>) -> Outcome {
        Outcome {
            text: text.into(),
            facts: facts.into(),
            served: Vec::new(),
            image: None,
        }
    }

    /// The facts as JSON: what MCP `_meta`, the CLI's `--json` and the
    /// bindings' `data` carry (FORMAT.md §6.6).
    pub fn structured(&self) -> Value {
        serde_json::to_value(&self.facts).unwrap_or(Value::Null)
    }
}

/// An image file's bytes and MIME type (FORMAT.md §4.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub mime: &'static str,
    /// The file's bytes, whole.
    pub bytes: Vec<u8>,
}

/// A `[path#TAG]` header shown to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// Canonical path of the file.
    pub target: PathBuf,
    /// Tag and digest of the bytes the header names.
    pub fingerprint: Fingerprint,
}

/// The facts of one call, one variant per tool, serialised as the fields
/// of its struct. Paths are display paths, tags 4-hex strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Facts {
    /// `read_file` of a text file.
    ReadFile(ReadFacts),
    /// `read_file` of an image.
    Image(ImageFacts),
    /// `grep`.
    Grep(GrepFacts),
    /// `glob`.
    Glob(GlobFacts),
    /// `list_dir`.
    ListDir(ListDirFacts),
    /// `write`.
    Write(WriteFacts),
    /// `edit`.
    Edit(EditFacts),
}

/// `read_file` of a text file: the window shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadFacts {
    /// The file.
    pub path: String,
    /// Its snapshot tag.
    pub tag: String,
    /// Lines in the file.
    pub total_lines: usize,
    /// First line shown (1-based).
    pub start: usize,
    /// Last line shown.
    pub end: usize,
    /// Not every line was shown.
    pub partial: bool,
}

/// `read_file` of an image.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImageFacts {
    /// The file.
    pub path: String,
    /// Its MIME type.
    pub mime: &'static str,
    /// Its size in bytes.
    pub bytes: u64,
}

/// `grep`: the files and rows shown (FORMAT.md §4.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepFacts {
    /// The output mode.
    pub mode: OutputMode,
    /// The files shown, with the rows shown.
    pub files: Vec<GrepFile>,
    /// Rows shown in content mode, files otherwise.
    pub shown: usize,
    /// Matching lines in the files shown; `None` in files_with_matches
    /// mode, which stops reading a file at its first match.
    pub total: Option<usize>,
    /// Files shown.
    pub files_matched: usize,
    /// Files whose rows `max_per_file` cut.
    pub files_cut_by_max_per_file: usize,
    /// Files and directories skipped, by cause, over the whole search.
    pub skipped: GrepSkipped,
    /// `output_budget` when the budget left rows out, else why the search
    /// stopped (`result_limit`, `scan_limit`, `time_limit`, `cancelled`).
    pub stop: Option<&'static str>,
}

/// One file of a grep answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepFile {
    /// The file, unquoted.
    pub path: String,
    /// Its snapshot tag (content mode only).
    pub tag: Option<String>,
    /// Its matching lines (`None` in files_with_matches mode).
    pub count: Option<usize>,
    /// The rows shown.
    pub matches: Vec<GrepMatch>,
    /// Matching lines not shown.
    pub more: usize,
}

/// One row of a grep answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrepMatch {
    /// Its line number.
    pub line: u64,
    /// Its text as shown.
    pub text: String,
}

/// What a grep skipped, by cause.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct GrepSkipped {
    /// Files with a NUL byte.
    pub binary: usize,
    /// Files not valid UTF-8 text.
    pub not_utf8: usize,
    /// Files over the size grep reads.
    pub too_large: usize,
    /// Files that could not be read.
    pub unreadable: usize,
    /// FIFOs, sockets and devices.
    pub special: usize,
    /// Directories the walk could not read.
    pub unreadable_dirs: usize,
    /// Files ignore rules skipped.
    pub ignored: usize,
}

/// `glob`: the paths listed (FORMAT.md §8.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GlobFacts {
    /// The paths shown.
    pub paths: Vec<String>,
    /// How many.
    pub count: usize,
    /// As [`GrepFacts::stop`].
    pub stop: Option<&'static str>,
    /// What the walk passed over, by cause.
    pub skipped: GlobSkipped,
}

/// What a glob passed over, by cause.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct GlobSkipped {
    /// FIFOs, sockets and devices that match.
    pub special: usize,
    /// Symbolic links that match.
    pub symlinks: usize,
    /// Hidden entries that match.
    pub hidden: usize,
    /// Directories the walk could not read.
    pub unreadable_dirs: usize,
    /// Entries that could not be read.
    pub unreadable: usize,
    /// Entries ignore rules skipped.
    pub ignored: usize,
}

/// `list_dir`: the entries listed (FORMAT.md §8.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListDirFacts {
    /// The directory.
    pub path: String,
    /// The entries shown.
    pub entries: Vec<ListEntry>,
    /// Entries in the directory.
    pub total: usize,
    /// Not every entry was shown.
    pub truncated: bool,
    /// Unfinished temp files of hashedit not shown.
    pub hidden: usize,
}

/// One entry of a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListEntry {
    /// Its name, unquoted.
    pub name: String,
    /// `file`, `dir`, `symlink` or `other`.
    pub kind: &'static str,
}

/// `write`: the file written (FORMAT.md §6.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WriteFacts {
    /// The file.
    pub path: String,
    /// Its new tag; `None` when the content is not editable text.
    pub tag: Option<String>,
    /// The file did not exist.
    pub created: bool,
    /// Bytes written.
    pub bytes: usize,
    /// Lines written; `None` as for `tag`.
    pub lines: Option<usize>,
}

/// `edit`: each file's result (FORMAT.md §6.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditFacts {
    /// Each file, in document order.
    pub files: Vec<EditedFile>,
    /// The warning and note lines of the reply.
    pub warnings: Vec<String>,
    /// Nothing was written.
    pub dry_run: bool,
    /// After a write: the named registers the document cut into and never
    /// pasted from (kept by a session, lost by a caller without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unpasted_registers: Option<Vec<Unpasted>>,
}

/// One file of an edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditedFile {
    /// The file.
    pub path: String,
    /// The tag its section was written against.
    pub old_tag: String,
    /// Its new tag; `None` for `REM`.
    pub new_tag: Option<String>,
    /// The ops summary line.
    pub summary: String,
    /// The bytes changed.
    pub changed: bool,
    /// `REM` deleted the file.
    pub removed: bool,
    /// The `MV` destination.
    pub moved_to: Option<String>,
    /// Its unified diff (`a/PATH` to `b/PATH`, empty when unchanged), when
    /// diffs were asked for; for people and UI cards, never model-facing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

/// A named register cut into and never pasted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unpasted {
    /// Its name.
    pub name: String,
    /// Lines it holds.
    pub lines: usize,
}

macro_rules! facts_from {
    ($($variant:ident($facts:ty)),*) => {$(
        impl From<$facts> for Facts {
            fn from(facts: $facts) -> Facts {
                Facts::$variant(facts)
            }
        }
    )*};
}

facts_from!(
    ReadFile(ReadFacts),
    Image(ImageFacts),
    Grep(GrepFacts),
    Glob(GlobFacts),
    ListDir(ListDirFacts),
    Write(WriteFacts),
    Edit(EditFacts)
);
