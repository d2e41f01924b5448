"""A real MCP client session against `hashedit mcp`, using the official
Python SDK (`pip install mcp`).

Usage: python python_session.py HASHEDIT_BINARY

Runs the session of issue 3's "Done when" twice, once over each protocol
revision (the 2025-11-25 `initialize` handshake, and 2026-07-28 reached by
`server/discover`), each against a fresh server process over stdio:

1. read a real file;
2. edit it twice, the second edit chained from the first one's preview tag;
3. after an external change, get a stale-tag error with a live snapshot;
4. after a change in an unrelated region, get a drift rebase;
5. be refused a path outside the root (`..`, absolute, and a symlink).

Expected tags are computed here with an independent implementation of the
`rho` tag scheme, and failure texts are compared with what the hashedit CLI
prints for the same request. Exits non-zero with a traceback on the first
mismatch.
"""

import asyncio
import os
import pathlib
import subprocess
import sys
import tempfile

from mcp import Client
from mcp.client.stdio import StdioServerParameters

BINARY = sys.argv[1]


def rho_tag(text: str) -> str:
    """FNV-1a 32 over the lines (split at every \\n, each right-trimmed of
    space, tab and CR, joined by \\n); low 16 bits as 4 uppercase hex."""
    pieces = [p.rstrip(b" \t\r") for p in text.encode().split(b"\n")]
    h = 0x811C9DC5
    for byte in b"\n".join(pieces):
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{h & 0xFFFF:04X}"


def check(condition: bool, what: str) -> None:
    if not condition:
        raise AssertionError(what)


def equal(actual, expected, what: str) -> None:
    if actual != expected:
        raise AssertionError(f"{what}:\n--- expected\n{expected!r}\n--- actual\n{actual!r}")


def text_of(result) -> str:
    equal(len(result.content), 1, "one content item")
    equal(result.content[0].type, "text", "a text item")
    return result.content[0].text


def facts(result) -> dict:
    """The machine facts hashedit puts in the result's _meta."""
    return (result.meta or {})["io.github.hashedit/result"]


def ok(result) -> str:
    text = text_of(result)
    check(not result.is_error, f"expected success, got: {text}")
    return text


def failed(result, kind: str) -> str:
    text = text_of(result)
    check(bool(result.is_error), f"expected {kind}, got success: {text}")
    equal(result.structured_content, None, "no structured content")
    equal(facts(result), {"kind": kind}, "error kind")
    return text


def cli(root: pathlib.Path, *args: str, stdin: str = "") -> tuple[int, str]:
    """Runs the hashedit CLI on the same workspace: (exit code, what it
    printed: stdout on success, stderr on a failure, where errors go)."""
    done = subprocess.run(
        [BINARY, "--root", str(root), *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode, done.stdout if done.returncode == 0 else done.stderr


async def session(mode: str, expected_version: str) -> None:
    with tempfile.TemporaryDirectory(prefix="hashedit-py-") as ws, tempfile.TemporaryDirectory(
        prefix="hashedit-py-outside-"
    ) as out:
        root = pathlib.Path(ws).resolve()
        outside = pathlib.Path(out).resolve()
        notes = root / "notes.txt"
        notes.write_text("alpha\nbeta\ngamma\ndelta\n")
        secret = outside / "secret.txt"
        secret.write_text("secret\n")
        os.symlink(secret, root / "link.txt")

        server = StdioServerParameters(command=BINARY, args=["mcp", "--root", str(root)])
        async with Client(server, mode=mode) as client:
            equal(client.protocol_version, expected_version, "negotiated protocol version")
            equal(client.server_info.name, "hashedit", "server name")
            check("[path#TAG]" in (client.instructions or ""), "instructions teach the header")

            listed = await client.list_tools()
            tools = {t.name: t for t in listed.tools}
            equal(
                sorted(tools),
                ["edit", "glob", "grep", "list_dir", "read_file", "write"],
                "tool names",
            )
            hints = tools["edit"].annotations
            equal(
                (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint, hints.open_world_hint),
                (False, True, False, False),
                "edit annotations",
            )
            hints = tools["read_file"].annotations
            equal(
                (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint, hints.open_world_hint),
                (True, False, True, False),
                "read_file annotations",
            )

            # 1. Read a real file.
            t1 = rho_tag("alpha\nbeta\ngamma\ndelta\n")
            read = await client.call_tool("read_file", {"path": "notes.txt"})
            equal(ok(read), f"[notes.txt#{t1}]\n1:alpha\n2:beta\n3:gamma\n4:delta", "read_file")
            equal(read.structured_content, None, "no structured content")
            equal(facts(read)["tag"], t1, "tag in _meta")
            equal(cli(root, "read", "notes.txt"), (0, ok(read) + "\n"), "same text as the CLI")

            # 2. Edit twice; the second edit uses the first preview's header.
            first = await client.call_tool("edit", {"input": f"[notes.txt#{t1}]\nPUT 2:\n+BETA"})
            t2 = rho_tag("alpha\nBETA\ngamma\ndelta\n")
            equal(
                ok(first),
                f"PUT 2: (1 → 1 line)\n[notes.txt#{t2}]\n1:alpha\n2:BETA\n3:gamma\n4:delta",
                "first edit",
            )
            header = ok(first).splitlines()[1]
            equal(header, f"[notes.txt#{t2}]", "preview header")
            second = await client.call_tool("edit", {"input": f"{header}\nPUT >4:\n+epsilon"})
            after_two = "alpha\nBETA\ngamma\ndelta\nepsilon\n"
            t3 = rho_tag(after_two)
            equal(
                ok(second),
                f"PUT >4: (+1 line)\n[notes.txt#{t3}]\n2:BETA\n3:gamma\n4:delta\n5:epsilon\n\n"
                "[post-edit lines 2-5 of 5 shown near the changes; read the file for the rest]",
                "chained edit",
            )
            equal(notes.read_text(), after_two, "file after two edits")

            # 3. Someone changes the line the next edit targets: stale tag,
            # live snapshot, nothing written.
            changed = "alpha\nBETA\nGAMMA by hand\ndelta\nepsilon\n"
            notes.write_text(changed)
            live = rho_tag(changed)
            stale = await client.call_tool("edit", {"input": f"[notes.txt#{t3}]\nPUT 3:\n+gamma 3"})
            text = failed(stale, "stale_tag")
            check(
                f"[notes.txt#{live}]\n1:alpha\n2:BETA\n3:GAMMA by hand\n4:delta\n5:epsilon" in text,
                f"live snapshot in: {text}",
            )
            equal(notes.read_text(), changed, "file after the stale edit")

            # 4. Working from the live snapshot, a change far away (two lines
            # added on top) is carried over: the ops move by +2.
            drifted = "# one\n# two\n" + changed
            notes.write_text(drifted)
            now = rho_tag(drifted)
            rebased = await client.call_tool("edit", {"input": f"[notes.txt#{live}]\nPUT 5:\n+EPSILON"})
            final = "# one\n# two\nalpha\nBETA\nGAMMA by hand\ndelta\nEPSILON\n"
            t5 = rho_tag(final)
            equal(
                ok(rebased),
                f"PUT 5: (1 → 1 line)\n[notes.txt#{t5}]\n4:BETA\n5:GAMMA by hand\n6:delta\n7:EPSILON\n\n"
                "[post-edit lines 4-7 of 7 shown near the changes; read the file for the rest]\n\n"
                f"note: notes.txt: the file changed since snapshot {live} was served (it is now {now}); "
                "the ops touch only unchanged lines, so they were moved by +2 lines and applied to the "
                "live file",
                "drift rebase",
            )
            equal(notes.read_text(), final, "file after the rebase")

            # 5. Paths outside the root are refused, with the CLI's text.
            secret_tag = rho_tag("secret\n")
            for path in (f"../{outside.name}/secret.txt", str(secret), "link.txt"):
                refused = await client.call_tool("read_file", {"path": path})
                text = failed(refused, "path_outside_workspace")
                equal(cli(root, "read", path), (1, text + "\n"), f"CLI text for {path}")
                edit = await client.call_tool("edit", {"input": f"[{path}#{secret_tag}]\nPUT 1:\n+pwned"})
                failed(edit, "path_outside_workspace")
            equal(secret.read_text(), "secret\n", "the outside file is untouched")

            # A parse error says how to fix the op, and writes nothing.
            bad = await client.call_tool("edit", {"input": f"[notes.txt#{t5}]\nPUT 7\n+x"})
            equal(
                (failed(bad, "parse_error"), notes.read_text()),
                (cli(root, "edit", stdin=f"[notes.txt#{t5}]\nPUT 7\n+x")[1][:-1], final),
                "parse error",
            )

        print(f"python mcp client: session ok (mode={mode}, protocol {expected_version})")


async def main() -> None:
    await session("legacy", "2025-11-25")
    await session("auto", "2026-07-28")


asyncio.run(main())
