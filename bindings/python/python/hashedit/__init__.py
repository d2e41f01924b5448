"""hashedit: hashline file editing for AI coding agents, in-process.

A model reads a file as numbered rows under a ``[path#TAG]`` header and edits
it with a document of ``PUT``/``CUT`` ops against those line numbers; a stale
tag, an overlap or a line out of range writes nothing and answers with a live
snapshot to copy (docs/FORMAT.md in the repository).

``Workspace`` runs the six tools over one directory and keeps a session as
``hashedit mcp`` does; ``AsyncWorkspace`` offers the same methods as
coroutines for asyncio. ``tool_definitions`` gives the tools' names,
descriptions and JSON schemas for function calling, and ``Workspace.call``
runs a model's call by name.
"""

from ._async import AsyncWorkspace
from ._native import (
    Result,
    ToolError,
    Workspace,
    project,
    tag,
    tool_definitions,
)

__all__ = [
    "AsyncWorkspace",
    "Result",
    "ToolError",
    "Workspace",
    "project",
    "tag",
    "tool_definitions",
]
