"""hashedit's Python tools driven by a real agent framework: pydantic-ai,
with its offline FunctionModel scripted as the model. The agent is given
the tools from ``hashedit.tool_definitions`` (the MCP server's catalogue),
each an async tool awaiting ``AsyncWorkspace.call`` (the work runs in a
worker thread, off the agent's event loop); a refused call is a
``ModelRetry``, so the model reads the error (and its live snapshot) as
pydantic-ai's retry prompt. The script reads, edits, chains a second edit
from the preview's tag, sends a stale edit, and retries it from the live
snapshot it was shown. Every text the model reads is compared whole."""

import os
import pathlib
import re

import pytest

if os.environ.get("HASHEDIT_REQUIRE_PEERS") != "1":
    pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, ModelRetry, Tool  # noqa: E402
from pydantic_ai.messages import (  # noqa: E402
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

import hashedit  # noqa: E402


def hashedit_tools(ws: hashedit.AsyncWorkspace) -> list[Tool]:
    def make(name: str):
        async def run(**arguments) -> str:
            try:
                return (await ws.call(name, arguments)).text
            except hashedit.ToolError as error:
                raise ModelRetry(str(error)) from error

        return run

    tools = []
    for definition in hashedit.tool_definitions("openai"):
        function = definition["function"]
        tools.append(
            Tool.from_schema(
                make(function["name"]),
                name=function["name"],
                description=function["description"],
                json_schema=function["parameters"],
            )
        )
    return tools


def last_parts(messages: list[ModelMessage]) -> list:
    request = messages[-1]
    assert isinstance(request, ModelRequest)
    return list(request.parts)


HEADER = re.compile(r"^\[app\.py#[0-9A-F]{4}\]$", re.M)


def test_read_edit_chain_and_retry_a_stale_edit(tmp_path: pathlib.Path) -> None:
    app = tmp_path / "app.py"
    app.write_text("def greet():\n    return 'hi'\n\nprint(greet())\n")
    ws = hashedit.AsyncWorkspace(tmp_path)
    seen: list[str] = []
    turn = 0

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        nonlocal turn
        turn += 1
        if turn == 1:
            assert [t.name for t in info.function_tools] == [
                "read_file", "grep", "glob", "list_dir", "write", "edit",
            ]
            edit_tool = info.function_tools[5]
            assert edit_tool.parameters_json_schema["required"] == ["input"]
            assert edit_tool.description.startswith("Change existing text files by line number")
            return ModelResponse(parts=[ToolCallPart("read_file", {"path": "app.py"}, "c1")])
        parts = last_parts(messages)
        part = parts[0]
        text = part.content if isinstance(part, (ToolReturnPart, RetryPromptPart)) else None
        assert isinstance(text, str), parts
        seen.append(text)
        header = HEADER.findall(text)[-1] if HEADER.findall(text) else None
        if turn == 2:
            # Edit from the read's header.
            doc = f"{header}\nPUT 2:\n+    return 'hello'\n"
            return ModelResponse(parts=[ToolCallPart("edit", {"input": doc}, "c2")])
        if turn == 3:
            # Chain from the preview's new header, with the preview's numbers.
            doc = f"{header}\nPUT >4:\n+print('bye')\n"
            return ModelResponse(parts=[ToolCallPart("edit", {"input": doc}, "c3")])
        if turn == 4:
            # Someone else changes line 2; the model edits it from the stale preview.
            app.write_text("def greet():\n    return 'hey'\n\nprint(greet())\nprint('bye')\n")
            doc = f"{header}\nPUT 2:\n+    return 'howdy'\n"
            return ModelResponse(parts=[ToolCallPart("edit", {"input": doc}, "c4")])
        if turn == 5:
            # The retry prompt carries the live snapshot: copy its header.
            # (pydantic-ai 2 reports a ModelRetry as a tool return marked
            # "retried"; older versions as a RetryPromptPart.)
            assert isinstance(part, RetryPromptPart) or part.outcome == "retried", part
            doc = f"{header}\nPUT 2:\n+    return 'howdy'\n"
            return ModelResponse(parts=[ToolCallPart("edit", {"input": doc}, "c5")])
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model), tools=hashedit_tools(ws), retries=3)
    result = agent.run_sync("Make greet say hello, then howdy.")
    assert result.output == "done"
    tag = hashedit.tag
    t1 = tag("def greet():\n    return 'hi'\n\nprint(greet())\n")
    t2 = tag("def greet():\n    return 'hello'\n\nprint(greet())\n")
    t3 = tag("def greet():\n    return 'hello'\n\nprint(greet())\nprint('bye')\n")
    live = tag("def greet():\n    return 'hey'\n\nprint(greet())\nprint('bye')\n")
    t5 = tag("def greet():\n    return 'howdy'\n\nprint(greet())\nprint('bye')\n")
    assert seen[0] == f"[app.py#{t1}]\n1:def greet():\n2:    return 'hi'\n3:\n4:print(greet())"
    assert seen[1] == (
        f"PUT 2: (1 → 1 line)\n[app.py#{t2}]\n1:def greet():\n2:    return 'hello'\n3:\n4:print(greet())"
    )
    assert seen[2] == (
        f"PUT >4: (+1 line)\n[app.py#{t3}]\n2:    return 'hello'\n3:\n4:print(greet())\n5:print('bye')\n\n"
        "[post-edit lines 2-5 of 5 shown near the changes; read the file for the rest]"
    )
    assert seen[3] == (
        f"app.py: snapshot tag {t3} is stale: the file changed and its tag is now {live}, and the ops "
        "could not be moved onto it safely (the op on document line 2 targets lines that changed (or "
        "sit next to changed lines)); nothing was written. Retry with the header and line numbers of "
        "the live snapshot below\n\n"
        "Live snapshot (copy this header and these line numbers to retry):\n"
        f"[app.py#{live}]\n1:def greet():\n2:    return 'hey'\n3:\n4:print(greet())\n\n"
        "[4 of 5 lines shown; pass offset/limit to read_file for the rest]"
    )
    assert seen[4] == (
        f"PUT 2: (1 → 1 line)\n[app.py#{t5}]\n1:def greet():\n2:    return 'howdy'\n3:\n4:print(greet())\n5:print('bye')"
    )
    assert app.read_text() == "def greet():\n    return 'howdy'\n\nprint(greet())\nprint('bye')\n"
    assert turn == 6
