"""The console scripts: ``hashedit``, the same command line as the Rust
binary (``read``, ``grep``, ``glob``, ``ls``, ``write``, ``edit``, ``mcp``,
...), and ``hashedit-mcp``, which is ``hashedit mcp``: the MCP server on
stdio, so ``uvx hashedit-mcp`` starts it."""

import signal
import sys

from ._native import main as _run


def main() -> None:
    _exit_with(["hashedit", *sys.argv[1:]])


def mcp() -> None:
    _exit_with(["hashedit", "mcp", *sys.argv[1:]])


def _exit_with(argv: list[str]) -> None:
    # The command runs in native code with the GIL released; let Ctrl-C end
    # it as it ends the binary, instead of waiting for Python to look.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_run(argv))


if __name__ == "__main__":
    main()
