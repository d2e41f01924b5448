"""The ``hashedit`` console script: the same command line as the Rust binary
(``read``, ``grep``, ``glob``, ``ls``, ``write``, ``edit``, ``mcp``)."""

import signal
import sys

from ._native import main as _run


def main() -> None:
    # The command runs in native code with the GIL released; let Ctrl-C end
    # it as it ends the binary, instead of waiting for Python to look.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.stdout.flush()
    sys.exit(_run(["hashedit", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
