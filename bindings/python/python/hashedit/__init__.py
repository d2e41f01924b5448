"""hashedit: hashline file editing for AI coding agents, in-process.

A model reads a file as numbered rows under a ``[path#TAG]`` header and edits
it with a document of ``PUT``/``CUT`` ops against those line numbers; a stale
tag, an overlap or a line out of range writes nothing and answers with a live
snapshot to copy (see docs/FORMAT.md in the repository).

>>> import hashedit
>>> ws = hashedit.Workspace(".")
>>> print(ws.read("notes.txt").text)          # doctest: +SKIP
[notes.txt#89F7]
1:one
2:two

``Workspace`` keeps a session like ``hashedit mcp`` does; ``tool_definitions``
gives the six tools' names, descriptions and JSON schemas for function
calling, and ``Workspace.call`` runs a call by name.
"""

from ._native import (
    Result,
    ToolError,
    Workspace,
    project,
    tag,
    tool_definitions,
)

__all__ = [
    "Result",
    "ToolError",
    "Workspace",
    "project",
    "tag",
    "tool_definitions",
]
