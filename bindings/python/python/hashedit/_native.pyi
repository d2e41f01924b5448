"""Types of hashedit's native module (``hashedit._native``)."""

import os
import pathlib
from typing import Any, Literal, Optional, Union

TagScheme = Literal["rho", "omp"]
OutputMode = Literal["content", "files_with_matches", "count"]
ToolFormat = Literal["openai", "anthropic", "mcp"]

class ToolError(Exception):
    """A tool refused; nothing was written."""

    kind: str
    """Stable kind name: ``stale_tag``, ``parse_error``, ``line_out_of_range``,
    ``overlapping_ops``, ``not_found``, ``path_outside_workspace``, ``not_utf8``,
    ``binary``, ``permission_denied``, ``invalid_arguments``, ... (FORMAT.md §8.4)."""
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
        ``edit``, ``files[i]["diff"]`` is each file's unified diff."""

class Workspace:
    """One workspace root (no path may leave it) and its session.

    The session remembers every snapshot served, as ``hashedit mcp`` does:
    16-bit tag collisions are caught, edits written against a slightly older
    snapshot are rebased when only other lines changed, and named registers
    (``CUT … @name``) last between calls. File work runs with the GIL
    released; one workspace may be used from several threads."""

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
    def read(self, path: str, offset: Optional[int] = None, limit: Optional[int] = None) -> Result:
        """``read_file``: numbered rows under the ``[path#TAG]`` header."""
    def grep(
        self,
        pattern: str,
        path: Optional[str] = None,
        *,
        glob: Optional[str] = None,
        literal: bool = False,
        ignore_case: bool = False,
        include_hidden: bool = False,
        max_results: Optional[int] = None,
        max_per_file: Optional[int] = None,
        output_mode: OutputMode = "content",
    ) -> Result:
        """Search contents; hits carry ``[path#TAG]`` headers to edit from."""
    def glob(
        self,
        pattern: str,
        path: Optional[str] = None,
        *,
        include_hidden: bool = False,
        max_results: Optional[int] = None,
    ) -> Result:
        """Files whose path matches ``pattern``."""
    def list_dir(self, path: str = ".") -> Result:
        """One directory's entries."""
    def write(
        self, path: str, content: str, *, tag: Optional[str] = None, force: bool = False
    ) -> Result:
        """Create or replace a whole file; with ``tag``, refused if it changed.
        Content that is numbered read rows (``1:…``, ``2:…``) is refused as
        a pasted snapshot unless ``force`` (docs/FORMAT.md §8.1)."""
    def edit(self, document: str, *, dry_run: bool = False, force: bool = False) -> Result:
        """Apply a hashline edit document, all or nothing. ``dry_run`` writes
        nothing and answers with the unified diffs; ``force`` writes past the
        guards (never past a stale tag, an overlap or a bad line)."""
    def preview(self, document: str) -> list[dict[str, Any]]:
        """The approval preview of an edit document (may be partial), one
        entry per section, writing nothing: ``{"path", "source": "dry_run",
        "diff", "summary", "new_tag"}`` when the section dry-runs against the
        live file (removals are real ``-`` rows), else ``{"path", "source":
        "projection", "tag", "line", "ops", "error": {"kind", "message"}}``."""
    def call(self, name: str, arguments: Optional[dict[str, Any]] = None) -> Result:
        """Run a tool by its function-calling name (``read_file``, ``grep``,
        ``glob``, ``list_dir``, ``write``, ``edit``) with the JSON arguments
        ``tool_definitions`` describes."""

def tag(data: Union[bytes, str], scheme: TagScheme = "rho") -> str:
    """The 4-hex snapshot tag of ``data`` (FORMAT.md §3)."""

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
