"""``AsyncWorkspace``: the ``Workspace`` methods as coroutines for asyncio.

Each call runs the synchronous method in a worker thread
(``asyncio.to_thread``); the native code releases the GIL while it reads,
searches and writes, so the event loop keeps running and several calls can
proceed at once. The session is the wrapped workspace's, shared by every
call.
"""

import asyncio
import os
import pathlib
from typing import TYPE_CHECKING, Any, Callable, Concatenate, Coroutine, ParamSpec, TypeVar, Union

from ._native import Workspace

if TYPE_CHECKING:
    from ._native import TagScheme

P = ParamSpec("P")
R = TypeVar("R")


def _offloaded(
    method: Callable[Concatenate[Workspace, P], R],
) -> Callable[Concatenate["AsyncWorkspace", P], Coroutine[Any, Any, R]]:
    async def run(self: "AsyncWorkspace", /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(method, self.sync, *args, **kwargs)

    run.__name__ = method.__name__
    run.__qualname__ = f"AsyncWorkspace.{method.__name__}"
    run.__doc__ = method.__doc__
    return run


class AsyncWorkspace:
    """``Workspace`` for asyncio: the same constructor, properties and tool
    methods, each a coroutine run in a worker thread.

    >>> ws = AsyncWorkspace("project")            # doctest: +SKIP
    >>> (await ws.read("notes.txt")).text          # doctest: +SKIP
    """

    sync: Workspace
    """The wrapped synchronous workspace (same root, same session)."""

    def __init__(
        self,
        root: Union[str, "os.PathLike[str]"],
        *,
        tag_scheme: "TagScheme" = "rho",
        max_output_bytes: int = 64000,
        read_only: bool = False,
    ) -> None:
        self.sync = Workspace(
            root, tag_scheme=tag_scheme, max_output_bytes=max_output_bytes, read_only=read_only
        )

    @property
    def root(self) -> pathlib.Path:
        """The canonical workspace root."""
        return self.sync.root

    @property
    def tag_scheme(self) -> "TagScheme":
        return self.sync.tag_scheme

    @property
    def read_only(self) -> bool:
        return self.sync.read_only

    read = _offloaded(Workspace.read)
    grep = _offloaded(Workspace.grep)
    glob = _offloaded(Workspace.glob)
    list_dir = _offloaded(Workspace.list_dir)
    write = _offloaded(Workspace.write)
    edit = _offloaded(Workspace.edit)
    preview = _offloaded(Workspace.preview)
    call = _offloaded(Workspace.call)

    def __repr__(self) -> str:
        return f"AsyncWorkspace({str(self.sync.root)!r})"


__all__ = ["AsyncWorkspace"]
