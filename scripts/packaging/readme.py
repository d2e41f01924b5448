"""The README's code blocks, run verbatim as a newcomer would, top to
bottom, on a fresh machine: one scratch HOME and project directory, the
packages served by the local registry of scripts/test-packaging (which
holds only this repository's packages, so a line installing anybody
else's fails), and the README's own install lines putting `hashedit` on
PATH.

Blocks by language:

  sh        run with bash -e in the project directory, or in the checkout
            when the line before the block is `<!-- readme-test: in the
            checkout -->`; must exit 0 (and print what EXPECTED says, where
            it says anything)
  python    saved as example.py in the project and run with the project's
            .venv (which the README's block before it makes); must print
            EXPECTED's text; type-checked by `mypy --strict` against the
            installed package's stubs
  js        saved as example.mjs in the project (where the README's block
            before it ran `npm install`) and run by every Node the npm
            package's `engines` covers (the system Node 20, and 22 and 24
            from the peers); must print EXPECTED's text; type-checked by
            `tsc --checkJs --strict` against the package's index.d.ts
  rust      compiled and run as a doctest of crates/hashedit (cargo test)
  text      not a command: format illustrations and syntax summaries; a
            line starting with `$ ` fails, so no command hides there

Any other language fails. One deviation from a newcomer's machine: the
`cargo install` of the checkout builds unoptimised (opt-level 0, LTO off,
16 codegen units, through CARGO_PROFILE_RELEASE_*) to keep CI within its
time: what it checks is that the line resolves, builds and installs the
command, not the optimiser; the command line itself is the README's.

Besides running them, every README, docs/*.md and package README line that
installs or runs a package (pip, uv, uvx, pipx, npm, npx, cargo install)
must name this project's: `hashedit-mcp` on PyPI and npm, `hashedit` on
crates.io.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

CHECKOUT_MARK = "<!-- readme-test: in the checkout -->"
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```\n", re.S | re.M)

# What the examples print, written down (tags from docs/FORMAT.md §3's rho
# scheme: "one\ntwo\n" is 89F7, "one\nTWO\n" is 8F97).
EXAMPLE_OUTPUT = """[notes.txt#89F7]
1:one
2:two
--- a/notes.txt
+++ b/notes.txt
@@ -1,2 +1,2 @@
 one
-two
+TWO

stale_tag
notes.txt:1

1 match in 1 file
"""
PYTHON_TAIL = "['read_file', 'grep', 'glob', 'list_dir', 'write', 'edit']\n"
NODE_TAIL = "[ 'read_file', 'grep', 'glob', 'list_dir', 'write', 'edit' ]\n"
CLI_OUTPUT = """[notes.txt#89F7]
1:one
2:two
PUT 2: (1 → 1 line)
[notes.txt#8F97]
1:one
2:TWO
one
TWO
"""
# sh blocks whose output is checked, by their first line.
EXPECTED = {"printf 'one\\ntwo\\n' > notes.txt": CLI_OUTPUT}

# Install and run commands; the package they name is the first argument
# that is not a flag.
INSTALLS = re.compile(
    r"\b(?P<tool>uvx|pipx (?:install|run)|pip install|pip uninstall|uv tool (?:install|uninstall)"
    r"|uv pip install|npm (?:install|i|uninstall)|npx|cargo (?:install|uninstall))"
    r"(?P<tail>[^`\n#;|&),]*)"
)
OURS = {"cargo": {"hashedit"}, "other": {"hashedit-mcp"}}
# Other projects' tools that docs may name as such (never the README): the
# MCP Inspector, and the test tools docs/TESTING.md installs.
THIRD_PARTY = {"@modelcontextprotocol/inspector", "cargo-mutants", "cargo-fuzz"}


def blocks(text: str) -> list[tuple[str, str, bool]]:
    """(language, body, in the checkout) of each fenced block."""
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        found.append((match.group(1), match.group(2), before.strip() == CHECKOUT_MARK))
    return found


def foreign_packages(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """Install or run commands in `text` that name a package not ours (nor
    in `allowed`)."""
    wrong = []
    for match in INSTALLS.finditer(text):
        tool, tokens = match.group("tool"), match.group("tail").split()
        package = None
        while tokens:
            token = tokens.pop(0).rstrip(",.;:")
            if token == "--path":
                path = tokens.pop(0).rstrip(",.;:") if tokens else ""
                package = "--path" if path == "crates/hashedit" else f"--path {path}"
                break
            if not token.startswith("-"):
                package = token
                break
        if package is None or package == "--path":
            continue
        ours = OURS["cargo"] if tool.startswith("cargo") else OURS["other"]
        if package not in ours and package not in allowed:
            wrong.append(f"{tool} {package}")
    return wrong


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise AssertionError(
            f"{' '.join(map(str, command))} exited {done.returncode}\n"
            f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
        )
    return done


def same(what: str, got: str, expected: str) -> None:
    if got != expected:
        raise AssertionError(f"{what} printed\n{got!r}\ninstead of\n{expected!r}")


def run_all(repo: Path, work: Path, registry_env: dict[str, str], peers: Path) -> dict:
    """Runs every block; returns what ran, by language."""
    for path in [repo / "README.md", *sorted((repo / "docs").glob("*.md")),
                 *sorted(repo.glob("bindings/*/README.md")), *sorted(repo.glob("crates/*/README.md"))]:
        allowed = frozenset() if path.name == "README.md" and path.parent == repo else frozenset(THIRD_PARTY)
        wrong = foreign_packages(path.read_text(), allowed)
        if wrong:
            raise AssertionError(f"{path.relative_to(repo)} installs or runs packages not ours: {wrong}")
    shutil.rmtree(work, ignore_errors=True)
    home, project = work / "home", work / "project"
    for directory in [home, project, work / "cargo-root" / "bin"]:
        directory.mkdir(parents=True, exist_ok=True)
    real_home = Path.home()
    path = os.pathsep.join([
        str(work / "cargo-root" / "bin"),
        str(home / ".local" / "bin"),
        str(work / "npm-prefix" / "bin"),
        str(peers / "packaging-venv" / "bin"),
        os.environ["PATH"],
    ])
    env = {
        key: value for key, value in os.environ.items()
        if not key.startswith(("XDG_", "VIRTUAL_ENV", "HASHEDIT_", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET"))
    }
    env.update(registry_env)
    env.update({
        "HOME": str(home),
        "PATH": path,
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", str(real_home / ".rustup")),
        "CARGO_HOME": os.environ.get("CARGO_HOME", str(real_home / ".cargo")),
        "CARGO_INSTALL_ROOT": str(work / "cargo-root"),
        "CARGO_TARGET_DIR": str(repo / "target" / "readme"),
        "CARGO_PROFILE_RELEASE_OPT_LEVEL": "0",
        "CARGO_PROFILE_RELEASE_LTO": "off",
        "CARGO_PROFILE_RELEASE_CODEGEN_UNITS": "16",
        "UV_CACHE_DIR": str(work / "uv-cache"),
        "UV_TOOL_DIR": str(work / "uv-tools"),
        "npm_config_prefix": str(work / "npm-prefix"),
        "npm_config_cache": str(work / "npm-cache"),
        "PIP_NO_CACHE_DIR": "1",
    })
    nodes = {
        "node 20 (system)": "node",
        "node 22": str(peers / "node_modules" / "node22" / "bin" / "node"),
        "node 24": str(peers / "node_modules" / "node24" / "bin" / "node"),
    }
    ran: dict[str, int] = {}
    for number, (language, body, in_checkout) in enumerate(blocks((repo / "README.md").read_text()), 1):
        where = f"README block {number} ({language})"
        if language in ("sh", "bash"):
            done = run(["bash", "-e", "-c", body], cwd=repo if in_checkout else project, env=env,
                       stdin=subprocess.DEVNULL)
            first = body.split("\n", 1)[0]
            if first in EXPECTED:
                same(where, done.stdout, EXPECTED[first])
        elif language == "python":
            (project / "example.py").write_text(body)
            python = project / ".venv" / "bin" / "python"
            done = run([python, "example.py"], cwd=project, env=env)
            same(where, done.stdout, EXAMPLE_OUTPUT + PYTHON_TAIL)
            run([peers / "packaging-venv" / "bin" / "mypy", "--strict", "--no-incremental",
                 "--python-executable", python, "example.py"], cwd=project, env=env)
        elif language == "js":
            (project / "example.mjs").write_text(body)
            for name, node in nodes.items():
                done = run([node, "example.mjs"], cwd=project, env=env)
                same(f"{where} on {name}", done.stdout, EXAMPLE_OUTPUT + NODE_TAIL)
            run([peers / "node_modules" / ".bin" / "tsc", "--noEmit", "--allowJs", "--checkJs",
                 "--strict", "--module", "nodenext", "--moduleResolution", "nodenext",
                 "--target", "es2022", "--types", "node",
                 "--typeRoots", peers / "node_modules" / "@types", "example.mjs"], cwd=project, env=env)
        elif language == "rust":
            hook = (repo / "crates" / "hashedit" / "src" / "lib.rs").read_text()
            if 'include_str!("../../../README.md")' not in hook:
                raise AssertionError(f"{where}: crates/hashedit no longer runs the README as a doctest")
        elif language == "text":
            commands = [line for line in body.splitlines() if line.startswith("$ ")]
            if commands:
                raise AssertionError(f"{where}: a command in a text block is never run: {commands}")
        else:
            raise AssertionError(f"{where}: no rule runs a block fenced as '{language}'")
        ran[language] = ran.get(language, 0) + 1
    return ran
