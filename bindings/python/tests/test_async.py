"""``AsyncWorkspace`` under asyncio: the same replies as ``Workspace``, the
same session, and file work that leaves the event loop free."""

import asyncio
import fcntl
import inspect
import pathlib

import pytest

import hashedit


@pytest.fixture
def root(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n")
    return tmp_path


def test_every_tool_method_is_a_coroutine_with_the_sync_reply(root: pathlib.Path) -> None:
    async def main() -> None:
        ws = hashedit.AsyncWorkspace(root, max_output_bytes=1000)
        assert (ws.root, ws.tag_scheme, ws.read_only) == (root.resolve(), "rho", False)
        assert repr(ws) == f"AsyncWorkspace({str(root.resolve())!r})"
        t1 = hashedit.tag("one\ntwo\nthree\n")
        read, grep, glob, ls = await asyncio.gather(
            ws.read("notes.txt", limit=1),
            ws.grep("two", output_mode="count"),
            ws.glob("*.txt"),
            ws.list_dir(),
        )
        assert read.text == (
            f"[notes.txt#{t1}]\n1:one\n\n"
            "[lines 1-1 of 3 shown; pass offset/limit to read the rest]"
        )
        assert grep.text == "notes.txt:1\n\n1 match in 1 file"
        assert glob.text == "notes.txt\n\n1 file"
        assert ls.text == "notes.txt"
        preview = await ws.preview(f"[notes.txt#{t1}]\nCUT 3\n")
        assert preview[0]["diff"] == (
            "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,2 @@\n one\n two\n-three\n"
        )
        done = await ws.edit(f"[notes.txt#{t1}]\nCUT 3\n")
        t2 = hashedit.tag("one\ntwo\n")
        assert done.text == f"CUT 3 (1 line)\n[notes.txt#{t2}]\n1:one\n2:two"
        # The wrapped workspace's session served that snapshot: a sync edit
        # chains from it.
        assert ws.sync.edit(f"[notes.txt#{t2}]\nPUT 2:\n+TWO\n").text.startswith("PUT 2:")
        wrote = await ws.write("new.txt", "x\n")
        x = hashedit.tag("x\n")
        assert wrote.text == f"created new.txt\n\n[new.txt#{x}]\n1:x"
        called = await ws.call("read_file", {"path": "new.txt"})
        assert called.data["tag"] == x
        with pytest.raises(hashedit.ToolError) as stale:
            await ws.edit(f"[notes.txt#{t1}]\nCUT 1\n")
        assert stale.value.kind == "stale_tag"

    asyncio.run(main())
    for name in ["read", "grep", "glob", "list_dir", "write", "edit", "preview", "call"]:
        method = getattr(hashedit.AsyncWorkspace, name)
        assert inspect.iscoroutinefunction(method), name
        assert method.__doc__ == getattr(hashedit.Workspace, name).__doc__, name


def test_a_waiting_call_leaves_the_event_loop_free(root: pathlib.Path) -> None:
    # The edit waits (up to 1 s) for a file lock the event loop's thread
    # holds. Only if the call runs off the loop can the loop go on and
    # release the lock; run on the loop, the edit would time out first.
    async def main() -> str:
        ws = hashedit.AsyncWorkspace(root)
        t1 = (await ws.read("notes.txt")).data["tag"]
        with open(root / "notes.txt", "rb") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            task = asyncio.create_task(ws.edit(f"[notes.txt#{t1}]\nPUT 1:\n+ONE\n"))
            await asyncio.sleep(0)
            fcntl.flock(held, fcntl.LOCK_UN)
        return (await task).text

    assert asyncio.run(main()).startswith("PUT 1: (1 → 1 line)")
    assert (root / "notes.txt").read_text() == "ONE\ntwo\nthree\n"
