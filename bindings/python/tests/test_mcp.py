"""``hashedit mcp`` started from the Python package's console script answers
a real MCP client (the official ``mcp`` SDK): it lists the six tools, reads,
and edits. The edit's unified diff is made only when the server is asked
for it (``--structured-content``), and then rides in ``_meta``, never in
the text the model reads."""

import asyncio
import os
import pathlib
import shutil
import sys

import pytest

if os.environ.get("HASHEDIT_REQUIRE_PEERS") != "1":
    pytest.importorskip("mcp")

from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

import hashedit  # noqa: E402

META = "io.github.hashedit/result"


DIFF = "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA\n"


async def session(root: pathlib.Path, script: str, flags: list[str]) -> None:
    server = StdioServerParameters(command=script, args=["mcp", "--root", str(root), *flags])
    async with Client(server) as client:
        assert client.server_info.name == "hashedit"
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == [
            "read_file", "grep", "glob", "list_dir", "write", "edit",
        ]
        mcp_defs = hashedit.tool_definitions("mcp")
        assert [t.description for t in listed.tools] == [d["description"] for d in mcp_defs]
        t1 = hashedit.tag("alpha\nbeta\n")
        read = await client.call_tool("read_file", {"path": "notes.txt"})
        assert read.content[0].text == f"[notes.txt#{t1}]\n1:alpha\n2:beta"
        edit = await client.call_tool("edit", {"input": f"[notes.txt#{t1}]\nPUT 2:\n+BETA"})
        t2 = hashedit.tag("alpha\nBETA\n")
        assert not edit.is_error
        assert edit.content[0].text == f"PUT 2: (1 → 1 line)\n[notes.txt#{t2}]\n1:alpha\n2:BETA"
        facts = (edit.meta or {})[META]
        if flags:
            assert facts["files"][0]["diff"] == DIFF
            assert edit.structured_content is not None
            assert "diff" not in edit.structured_content["files"][0]
        else:
            assert "diff" not in facts["files"][0]
            assert edit.structured_content is None
        stale = await client.call_tool("edit", {"input": f"[notes.txt#{t1}]\nPUT 1:\n+x"})
        assert stale.is_error
        assert (stale.meta or {})[META] == {"kind": "stale_tag"}


@pytest.mark.parametrize("flags", [[], ["--structured-content"]])
def test_the_console_scripts_mcp_server_answers_a_real_client(
    tmp_path: pathlib.Path, flags: list[str]
) -> None:
    (tmp_path / "notes.txt").write_text("alpha\nbeta\n")
    script = shutil.which("hashedit", path=os.path.dirname(sys.executable))
    assert script
    asyncio.run(session(tmp_path, script, flags))
    assert (tmp_path / "notes.txt").read_text() == "alpha\nBETA\n"
