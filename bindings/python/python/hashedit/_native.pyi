"""Types of hashedit's native module (``hashedit._native``).

A tool method's positional parameters are the required fields of the tool's
argument struct, and its keyword options the other fields, under the same
names (``tests/test_types.py`` checks them against the schemas
``tool_definitions("mcp")`` publishes). ``None`` counts as absent.
"""

import os
import pathlib
from typing import Any, Literal, Optional, Union

TagScheme = Literal["rho", "omp"]
OutputMode = Literal["content", "files_with_matches", "count"]
ToolFormat = Literal["openai", "anthropic", "mcp"]
ToolName = Literal["read_file", "grep", "glob", "list_dir", "write", "edit"]
ToolErrorKind = Literal[
    "invalid_arguments", "parse_error", "stale_tag", "line_out_of_range", "overlapping_ops",
    "duplicate_path", "not_found", "permission_denied", "path_outside_workspace",
    "protected_path", "not_utf8", "binary", "unsupported_encoding", "not_a_regular_file",
    "too_large", "lock_timeout", "unresolved_block", "register_error",
    "indentation_mismatch", "echoed_rows", "shifted_range", "elided_lines", "broken_syntax",
    "no_change", "no_match", "ambiguous_match", "conflict", "looks_like_read_output", "unread_file",
    "cancelled", "io",
]
"""The stable kind names of a tool error (docs/FORMAT.md §8.4)."""

class ToolError(Exception):
    """A tool refused; nothing was written."""

    kind: ToolErrorKind
    """The stable kind name: ``stale_tag``, ``parse_error``, ``not_found``, ..."""
    message: str
    """The model-facing message (also ``str(error)``), with a live snapshot
    to copy when the file exists."""

class Result:
    """A successful tool call."""

    @property
    def text(self) -> str:
        """Exactly the text the model should read."""
    @property
    def data(self) -> dict[str, Any]:
        """The call's facts (a fresh dict each time): paths, tags, counts; for
        ``edit``, ``files[i]["diff"]`` is each file's unified diff, for UI
        cards, never in ``text``."""

class Workspace:
    """One workspace root (no path may leave it) and its session.

    The session remembers every snapshot served, as ``hashedit mcp`` does:
    16-bit tag collisions are caught, edits written against a slightly older
    snapshot are rebased when only other lines changed, and named registers
    (``CUT … @name``) last between calls. File work runs with the GIL
    released; one workspace may be used from several threads, and
    ``AsyncWorkspace`` offers the same methods as coroutines."""

    def __init__(
        self,
        root: Union[str, os.PathLike[str]],
        *,
        tag_scheme: TagScheme = "rho",
        max_output_bytes: int = 64000,
        read_only: bool = False,
    ) -> None: ...
    @property
    def root(self) -> pathlib.Path:
        """The canonical workspace root."""
    @property
    def tag_scheme(self) -> TagScheme: ...
    @property
    def read_only(self) -> bool: ...
    def read(
        self,
        path: str,
        *,
        offset: Optional[int] = None,
        limit: Optional[int] = None,
    ) -> Result:
        """``read_file``: numbered rows under the ``[path#TAG]`` header,
        from line ``offset`` (1-based), at most ``limit`` of them."""
    def grep(
        self,
        pattern: str,
        *,
        path: Optional[str] = None,
        glob: Optional[str] = None,
        literal: Optional[bool] = None,
        case_sensitive: Optional[bool] = None,
        include_hidden: Optional[bool] = None,
        no_ignore: Optional[bool] = None,
        max_results: Optional[int] = None,
        max_per_file: Optional[int] = None,
        output_mode: Optional[OutputMode] = None,
    ) -> Result:
        """``grep``: search contents (Rust regex syntax, or plain text with
        ``literal``) under ``path`` (default: the root); hits carry
        ``[path#TAG]`` headers to edit from."""
    def glob(
        self,
        pattern: str,
        *,
        path: Optional[str] = None,
        include_hidden: Optional[bool] = None,
        no_ignore: Optional[bool] = None,
        max_results: Optional[int] = None,
    ) -> Result:
        """``glob``: files whose path matches ``pattern``."""
    def list_dir(self, path: str = ".", *, include_hidden: Optional[bool] = None) -> Result:
        """``list_dir``: one directory's entries."""
    def write(
        self,
        path: str,
        content: str,
        *,
        tag: Optional[str] = None,
        force: Optional[bool] = None,
    ) -> Result:
        """``write``: create or replace a whole file. An existing file is
        replaced only if this workspace read it (``read``, ``grep``, an
        edit's preview) and it has not changed since, or ``tag`` is its
        live tag (a stale one is refused), or ``force``; else ``unread_file``.
        Content that is numbered read rows (``1:…``, ``2:…``) is refused as
        a pasted snapshot unless ``force`` (docs/FORMAT.md §6.7)."""
    def edit(
        self,
        document: str,
        *,
        dry_run: Optional[bool] = None,
        force: Optional[bool] = None,
    ) -> Result:
        """``edit``: apply a hashline edit document, all or nothing.
        ``dry_run`` writes nothing and answers with the unified diffs;
        ``force`` writes past the guards (never past a stale tag, an overlap
        or a bad line)."""
    def preview(self, document: str) -> list[dict[str, Any]]:
        """The approval preview of an edit document (may be partial), one
        entry per section, writing nothing: ``{"path", "source": "dry_run",
        "diff", "summary", "new_tag"}`` when the section dry-runs against the
        live file (removals are real ``-`` rows), else ``{"path", "source":
        "projection", "tag", "line", "ops", "error": {"kind", "message"}}``."""
    def call(self, name: ToolName, arguments: Optional[dict[str, Any]] = None) -> Result:
        """Run a tool by its function-calling name with the JSON arguments
        ``tool_definitions`` describes, checked as ``hashedit mcp`` checks
        them."""

def tag(data: Union[bytes, str], scheme: TagScheme = "rho") -> str:
    """The 4-hex snapshot tag of ``data`` (docs/FORMAT.md §3)."""

def project(partial_document: str) -> list[dict[str, Any]]:
    """Project a (possibly still streaming) edit document for UI cards:
    ``[{"path", "tag", "line", "ops": [{"line", "header", "summary", "rows",
    "state"}]}]``, ``state`` one of ``complete``, ``partial`` (a last line cut
    by the stream) and ``unrecognised``."""

def tool_definitions(format: ToolFormat = "openai", *, read_only: bool = False) -> list[dict[str, Any]]:
    """The six tools' definitions (four when ``read_only``), from the MCP
    server's catalogue, in OpenAI, Anthropic or MCP ``tools/list`` shape."""

def main(argv: list[str]) -> int:
    """Run the ``hashedit`` command line (``argv[0]`` is the program name)."""
