//! Tool errors: a stable [`ErrorKind`] for programs (FORMAT.md §8.4) and
//! the message the model reads, saying what went wrong and what to do.

use std::fmt;

use hashedit_core::{FailureClass, Name, Surface};

/// What kind of failure a tool reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// Arguments that do not fit the tool's schema (bad offset, bad regex…).
    InvalidArguments,
    /// The edit document does not parse.
    ParseError,
    /// The section's snapshot tag does not match the live file.
    StaleTag,
    /// An op names a line outside the file.
    LineOutOfRange,
    /// Two ops claim the same lines, or an insert sits inside a span.
    OverlappingOps,
    /// One document names the same file twice.
    DuplicatePath,
    /// The path does not exist.
    NotFound,
    /// The operating system refused access.
    PermissionDenied,
    /// The path leaves the workspace root (`..`, absolute, or a symlink).
    PathOutsideWorkspace,
    /// A write, edit, `REM` or `MV` into a protected path (version-control
    /// internals, or a `--protect` glob; FORMAT.md §8.5).
    ProtectedPath,
    /// The file is not valid UTF-8.
    NotUtf8,
    /// The file is binary (NUL bytes, archives, images for edit).
    Binary,
    /// The file is text in another encoding (UTF-16/32).
    UnsupportedEncoding,
    /// The path is a directory, FIFO, socket or device where a regular file
    /// was expected (or a file where a directory was expected).
    NotARegularFile,
    /// The file is larger than the operation allows.
    TooLarge,
    /// Another writer held the file's lock for too long.
    LockTimeout,
    /// A block locator (`N*`) did not resolve to a multi-line block.
    UnresolvedBlock,
    /// A register paste had nothing (or something ambiguous) to paste.
    RegisterError,
    /// Body rows indented with spaces among tab-indented lines, or the
    /// other way round.
    IndentationMismatch,
    /// A body's first or last rows repeat the unchanged lines beside it
    /// (the echo guard).
    EchoedRows,
    /// A range that looks aimed one line off (the shift guard).
    ShiftedRange,
    /// A placeholder comment standing in for real lines (the elision
    /// guard).
    ElidedLines,
    /// The file parsed before the edit and would not after it (the syntax
    /// guard).
    BrokenSyntax,
    /// The ops leave the file exactly as it is.
    NoChange,
    /// A `SUB`'s old text is not in the lines its locator names.
    NoMatch,
    /// A `SUB`'s old text occurs there more than once.
    AmbiguousMatch,
    /// The file changed between planning and commit, or the path was
    /// replaced; nothing was written.
    Conflict,
    /// `write` content that looks like pasted read output.
    LooksLikeReadOutput,
    /// `write` over an existing file the session has not read, or that
    /// changed since it last did, without its tag or `force`.
    UnreadFile,
    /// The caller cancelled the call before it finished; nothing was
    /// written.
    Cancelled,
    /// Any other I/O failure.
    Io,
}

impl From<FailureClass> for ErrorKind {
    /// The kind of a core failure's class, one to one.
    fn from(class: FailureClass) -> ErrorKind {
        match class {
            FailureClass::Binary => ErrorKind::Binary,
            FailureClass::NotUtf8 => ErrorKind::NotUtf8,
            FailureClass::UnsupportedEncoding => ErrorKind::UnsupportedEncoding,
            FailureClass::StaleTag => ErrorKind::StaleTag,
            FailureClass::LineOutOfRange => ErrorKind::LineOutOfRange,
            FailureClass::OverlappingOps => ErrorKind::OverlappingOps,
            FailureClass::ParseError => ErrorKind::ParseError,
            FailureClass::UnresolvedBlock => ErrorKind::UnresolvedBlock,
            FailureClass::RegisterError => ErrorKind::RegisterError,
            FailureClass::IndentationMismatch => ErrorKind::IndentationMismatch,
            FailureClass::EchoedRows => ErrorKind::EchoedRows,
            FailureClass::ShiftedRange => ErrorKind::ShiftedRange,
            FailureClass::ElidedLines => ErrorKind::ElidedLines,
            FailureClass::BrokenSyntax => ErrorKind::BrokenSyntax,
            FailureClass::NoChange => ErrorKind::NoChange,
            FailureClass::NoMatch => ErrorKind::NoMatch,
            FailureClass::AmbiguousMatch => ErrorKind::AmbiguousMatch,
        }
    }
}

impl ErrorKind {
    /// The kind's snake_case name, as serialised.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidArguments => "invalid_arguments",
            ErrorKind::ParseError => "parse_error",
            ErrorKind::StaleTag => "stale_tag",
            ErrorKind::LineOutOfRange => "line_out_of_range",
            ErrorKind::OverlappingOps => "overlapping_ops",
            ErrorKind::DuplicatePath => "duplicate_path",
            ErrorKind::NotFound => "not_found",
            ErrorKind::PermissionDenied => "permission_denied",
            ErrorKind::PathOutsideWorkspace => "path_outside_workspace",
            ErrorKind::ProtectedPath => "protected_path",
            ErrorKind::NotUtf8 => "not_utf8",
            ErrorKind::Binary => "binary",
            ErrorKind::UnsupportedEncoding => "unsupported_encoding",
            ErrorKind::NotARegularFile => "not_a_regular_file",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::LockTimeout => "lock_timeout",
            ErrorKind::UnresolvedBlock => "unresolved_block",
            ErrorKind::RegisterError => "register_error",
            ErrorKind::IndentationMismatch => "indentation_mismatch",
            ErrorKind::EchoedRows => "echoed_rows",
            ErrorKind::ShiftedRange => "shifted_range",
            ErrorKind::ElidedLines => "elided_lines",
            ErrorKind::BrokenSyntax => "broken_syntax",
            ErrorKind::NoChange => "no_change",
            ErrorKind::NoMatch => "no_match",
            ErrorKind::AmbiguousMatch => "ambiguous_match",
            ErrorKind::Conflict => "conflict",
            ErrorKind::LooksLikeReadOutput => "looks_like_read_output",
            ErrorKind::UnreadFile => "unread_file",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Io => "io",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed tool call: nothing was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    /// Machine-readable kind.
    pub kind: ErrorKind,
    /// The model-facing message (never truncated: it may carry a live
    /// snapshot the model must copy).
    pub message: String,
    /// A suggestion naming a tool, made where the surface is unknown: in
    /// MCP words at this byte offset of the message, worded for the
    /// surface by [`ToolError::worded`].
    hint: Option<(usize, Hint)>,
}

/// A suggestion that names a tool, in the words of the surface the error
/// reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hint {
    /// `; check the path with glob or list_dir`.
    CheckPath,
    /// `; use list_dir to see its entries`.
    ListEntries,
    /// ` (list the directory with list_dir)`.
    ListParent,
}

impl Hint {
    fn text(self, surface: Surface) -> String {
        let list = surface.name(Name::List);
        match self {
            Hint::CheckPath => format!("; check the path with glob or {list}"),
            Hint::ListEntries => format!("; use {list} to see its entries"),
            Hint::ListParent => format!(" (list the directory with {list})"),
        }
    }
}

impl ToolError {
    /// An error of `kind` with `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ToolError {
        ToolError {
            kind,
            message: message.into(),
            hint: None,
        }
    }

    /// The error with `hint` after its message so far.
    pub(crate) fn with_hint(mut self, hint: Hint) -> ToolError {
        self.hint = Some((self.message.len(), hint));
        self.message.push_str(&hint.text(Surface::Mcp));
        self
    }

    /// The error as it leaves a tool: its hint worded for `surface`.
    pub(crate) fn worded(mut self, surface: Surface) -> ToolError {
        if let Some((at, hint)) = self.hint.take() {
            let end = at + hint.text(Surface::Mcp).len();
            self.message.replace_range(at..end, &hint.text(surface));
        }
        self
    }

    /// Maps an I/O error on `display` (a workspace-relative path) while
    /// doing `action` (e.g. "read", "write") to a kind and message.
    pub fn io(action: &str, display: &str, error: &std::io::Error) -> ToolError {
        use std::io::ErrorKind as K;
        let kind = match error.kind() {
            K::NotFound => ErrorKind::NotFound,
            K::PermissionDenied | K::ReadOnlyFilesystem => ErrorKind::PermissionDenied,
            K::IsADirectory | K::NotADirectory => ErrorKind::NotARegularFile,
            K::FileTooLarge => ErrorKind::TooLarge,
            _ => ErrorKind::Io,
        };
        let permissions = match kind {
            ErrorKind::PermissionDenied => "; the file's permissions do not allow this",
            _ => "",
        };
        let error = ToolError::new(
            kind,
            format!(
                "cannot {action} {display}: {}{permissions}",
                os_message(error)
            ),
        );
        match kind {
            ErrorKind::NotFound => error.with_hint(Hint::CheckPath),
            _ => error,
        }
    }
}

/// An I/O error's text without Rust's " (os error N)" suffix.
pub(crate) fn os_message(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

/// Result of a tool call.
pub type ToolResult<T> = Result<T, ToolError>;
