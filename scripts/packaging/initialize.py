"""Checks that an installed `hashedit-mcp` (or any command starting the
hashedit MCP server) answers a client: `initialize`, then `tools/list`.

    python3 initialize.py COMMAND [ARG...]

The server runs in an empty scratch directory (its workspace root) with the
requests on stdin; their end ends it. An argument naming an existing file
or directory is made absolute first. Prints the server's name, version and
tools on success; exits 1 naming what differs otherwise.
"""

import json
import os
import subprocess
import sys
import tempfile

TOOLS = ["read_file", "grep", "glob", "list_dir", "write", "edit"]
REQUESTS = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "hashedit-packaging-check", "version": "1"},
    }},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def check(command: list[str], env: dict[str, str] | None = None, cwd: str | None = None) -> str:
    """The one-line summary of a server that answered as expected, started
    with `env` in `cwd` (by default an empty scratch directory)."""
    # Paths given relative to the caller's directory still name the same files.
    command = [os.path.abspath(a) if os.path.exists(a) else a for a in command]
    with tempfile.TemporaryDirectory(prefix="hashedit-initialize-") as scratch:
        done = subprocess.run(
            command,
            cwd=cwd or scratch,
            env=env,
            input="".join(json.dumps(r) + "\n" for r in REQUESTS),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    replies = {}
    for line in done.stdout.splitlines():
        message = json.loads(line)
        replies[message.get("id")] = message
    if done.returncode != 0 or 1 not in replies or 2 not in replies:
        raise SystemExit(
            f"{' '.join(command)}: exit {done.returncode}, replies {sorted(map(str, replies))}\n"
            f"stdout: {done.stdout}\nstderr: {done.stderr}"
        )
    info = replies[1]["result"]["serverInfo"]
    tools = [tool["name"] for tool in replies[2]["result"]["tools"]]
    if info["name"] != "hashedit" or tools != TOOLS:
        raise SystemExit(f"{' '.join(command)}: server {info}, tools {tools}")
    return f"{info['name']} {info['version']} answered initialize and listed {', '.join(tools)}"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    print(check(sys.argv[1:]))
