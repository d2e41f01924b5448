"""The hashedit Python package on real files: every method, the error kinds,
the helpers, and the console script. Texts are compared whole."""

import fcntl
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time

import pytest

import hashedit


@pytest.fixture
def root(tmp_path: pathlib.Path) -> pathlib.Path:
    (tmp_path / "notes.txt").write_text("one\ntwo\nthree\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("def main():\n    return 1\n")
    return tmp_path


def test_read_then_edit_chained_from_the_preview(root: pathlib.Path) -> None:
    ws = hashedit.Workspace(root)
    t1 = hashedit.tag(b"one\ntwo\nthree\n")
    read = ws.read("notes.txt")
    assert read.text == f"[notes.txt#{t1}]\n1:one\n2:two\n3:three"
    assert read.data == {
        "path": "notes.txt",
        "tag": t1,
        "total_lines": 3,
        "start": 1,
        "end": 3,
        "partial": False,
    }
    first = ws.edit(f"[notes.txt#{t1}]\nPUT 2:\n+TWO\n")
    t2 = hashedit.tag("one\nTWO\nthree\n")
    assert first.text == f"PUT 2: (1 → 1 line)\n[notes.txt#{t2}]\n1:one\n2:TWO\n3:three"
    assert first.data["files"][0]["diff"] == (
        "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
    )
    assert "@@" not in first.text
    second = ws.edit(f"[notes.txt#{t2}]\nCUT 3\n")
    t3 = hashedit.tag("one\nTWO\n")
    assert second.text == f"CUT 3 (1 line)\n[notes.txt#{t3}]\n1:one\n2:TWO"
    assert (root / "notes.txt").read_text() == "one\nTWO\n"
    assert str(second) == second.text
    assert repr(second).startswith("Result(text=")


def test_a_stale_edit_raises_with_its_live_snapshot(root: pathlib.Path) -> None:
    ws = hashedit.Workspace(root)
    t1 = ws.read("notes.txt").data["tag"]
    # Changed elsewhere on the very line the edit names: no rebase.
    (root / "notes.txt").write_text("uno\ntwo\nthree\n")
    with pytest.raises(hashedit.ToolError) as raised:
        ws.edit(f"[notes.txt#{t1}]\nPUT 1:\n+ONE\n")
    live = hashedit.tag("uno\ntwo\nthree\n")
    error = raised.value
    assert error.kind == "stale_tag"
    assert error.message == str(error)
    assert str(error).endswith(
        f"Live snapshot (copy this header and these line numbers to retry):\n"
        f"[notes.txt#{live}]\n1:uno\n2:two\n3:three"
    )
    assert isinstance(error, Exception)
    assert (root / "notes.txt").read_text() == "uno\ntwo\nthree\n"


def test_search_list_write_and_dry_run(root: pathlib.Path) -> None:
    ws = hashedit.Workspace(root)
    app = hashedit.tag("def main():\n    return 1\n")
    assert ws.grep("return", glob="*.py").text == (
        f"[src/app.py#{app}]\n2 |     return 1\n\n1 match in 1 file"
    )
    assert ws.grep("RETURN", case_sensitive=False, output_mode="count").text == (
        "src/app.py:1\n\n1 match in 1 file"
    )
    assert ws.glob("*.py").text == "src/app.py\n\n1 file"
    assert ws.list_dir().text == "notes.txt\nsrc/"
    assert ws.list_dir("src").data["entries"] == [{"name": "app.py", "kind": "file"}]
    wrote = ws.write("new.txt", "a\nb\n")
    new_tag = hashedit.tag("a\nb\n")
    assert wrote.text == f"created new.txt\n\n[new.txt#{new_tag}]\n1:a\n2:b"
    # Content shaped like pasted read rows is refused unless forced.
    with pytest.raises(hashedit.ToolError) as pasted:
        ws.write("rows.txt", "1:a\n2:b\n")
    assert pasted.value.kind == "looks_like_read_output"
    assert not (root / "rows.txt").exists()
    forced = ws.write("rows.txt", "1:a\n2:b\n", force=True)
    assert forced.text.startswith("created rows.txt\n")
    assert (root / "rows.txt").read_text() == "1:a\n2:b\n"
    dry = ws.edit(f"[src/app.py#{app}]\nPUT 2:\n+    return 2\n", dry_run=True)
    assert dry.text == (
        "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    return 1\n+    return 2\n"
    )
    assert (root / "src" / "app.py").read_text() == "def main():\n    return 1\n"
    with pytest.raises(hashedit.ToolError) as bad:
        ws.grep("x", output_mode="lines")
    assert (bad.value.kind, str(bad.value)) == (
        "invalid_arguments",
        'invalid arguments for grep: output_mode must be one of "content", '
        '"files_with_matches", "count", got "lines"',
    )


def test_write_replaces_only_a_file_the_workspace_has_read(root: pathlib.Path) -> None:
    ws = hashedit.Workspace(root)
    unread = (
        "notes.txt exists and this session has not read it; nothing was written. To replace it, "
        "call read_file on notes.txt first and write again, or pass the tag of the snapshot you "
        "mean to replace; to replace it unread, send the write again with force: true"
    )
    with pytest.raises(hashedit.ToolError) as raised:
        ws.write("notes.txt", "x\n")
    assert (raised.value.kind, str(raised.value)) == ("unread_file", unread)
    assert (root / "notes.txt").read_text() == "one\ntwo\nthree\n"
    ws.read("notes.txt", limit=1)
    assert ws.write("notes.txt", "x\n").text.startswith("replaced notes.txt\n")
    assert (root / "notes.txt").read_text() == "x\n"
    # Changed by another program: the read that counted was of older bytes.
    (root / "notes.txt").write_text("y\n")
    with pytest.raises(hashedit.ToolError) as raised:
        ws.write("notes.txt", "z\n")
    assert (raised.value.kind, str(raised.value)) == (
        "unread_file",
        unread.replace(
            "exists and this session has not read it", "changed since this session last read it"
        ),
    )
    ws.write("notes.txt", "z\n", tag=hashedit.tag("y\n"))
    assert (root / "notes.txt").read_text() == "z\n"
    ws.write("src/app.py", "pass\n", force=True)
    assert (root / "src" / "app.py").read_text() == "pass\n"


def test_error_kinds_and_read_only(root: pathlib.Path) -> None:
    ws = hashedit.Workspace(root, read_only=True)
    assert ws.read_only and ws.tag_scheme == "rho" and ws.root == root.resolve()
    with pytest.raises(hashedit.ToolError) as raised:
        ws.write("x.txt", "x\n")
    assert raised.value.kind == "permission_denied"
    assert not (root / "x.txt").exists()
    for call, kind in [
        (lambda: ws.read("../outside.txt"), "path_outside_workspace"),
        (lambda: ws.read("missing.txt"), "not_found"),
        (lambda: hashedit.Workspace(root).edit("PUT 1:\n+x\n"), "parse_error"),
        (lambda: hashedit.Workspace(root / "missing"), "not_found"),
        (lambda: ws.call("delete", {}), "invalid_arguments"),
    ]:
        with pytest.raises(hashedit.ToolError) as raised:
            call()
        assert raised.value.kind == kind
    with pytest.raises(ValueError, match="unknown tag scheme 'md5'"):
        hashedit.Workspace(root, tag_scheme="md5")


def test_call_runs_a_function_call_by_name(root: pathlib.Path) -> None:
    ws = hashedit.Workspace(root, tag_scheme="omp", max_output_bytes=200)
    out = ws.call("read_file", {"path": "notes.txt", "limit": 1})
    assert out.data["tag"] == hashedit.tag("one\ntwo\nthree\n", "omp")
    assert out.text.startswith(f"[notes.txt#{out.data['tag']}]\n1:one")


def test_helpers() -> None:
    assert hashedit.tag(b"alpha\nbeta\n") == hashedit.tag("alpha  \nbeta\n")
    assert hashedit.tag(b"") == hashedit.tag("")
    openai = hashedit.tool_definitions("openai")
    assert [d["function"]["name"] for d in openai] == [
        "read_file", "grep", "glob", "list_dir", "write", "edit",
    ]
    anthropic = hashedit.tool_definitions("anthropic", read_only=True)
    assert [d["name"] for d in anthropic] == ["read_file", "grep", "glob", "list_dir"]
    assert anthropic[0]["input_schema"]["required"] == ["path"]
    mcp = hashedit.tool_definitions("mcp")
    assert mcp[5]["annotations"]["destructiveHint"] is True
    with pytest.raises(ValueError, match="use openai, anthropic or mcp"):
        hashedit.tool_definitions("gemini")
    assert hashedit.project("[a.txt#12AB]\nPUT 3.=4:\n+x\n+y") == [
        {
            "path": "a.txt",
            "tag": "12AB",
            "line": 1,
            "ops": [
                {"line": 2, "header": "PUT 3.=4:", "summary": "replace lines 3-4",
                 "rows": ["x", "y"], "state": "complete"},
            ],
        }
    ]


def test_the_gil_is_released_during_file_work(root: pathlib.Path) -> None:
    # The edit waits (up to 1 s) for the file lock this thread holds; only
    # if the edit let go of the GIL can this thread run on and release it.
    ws = hashedit.Workspace(root)
    t1 = ws.read("notes.txt").data["tag"]
    outcome: list = []
    with open(root / "notes.txt", "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        worker = threading.Thread(
            target=lambda: outcome.append(ws.edit(f"[notes.txt#{t1}]\nPUT 1:\n+ONE\n"))
        )
        worker.start()
        time.sleep(0.3)
        fcntl.flock(held, fcntl.LOCK_UN)
    worker.join()
    assert outcome and outcome[0].text.startswith("PUT 1: (1 → 1 line)")
    assert (root / "notes.txt").read_text() == "ONE\ntwo\nthree\n"


def hashedit_script() -> str:
    found = shutil.which("hashedit", path=os.path.dirname(sys.executable))
    assert found, "the package installs a hashedit console script"
    return found


def test_the_console_script_is_the_cli(root: pathlib.Path) -> None:
    script = hashedit_script()
    t1 = hashedit.tag("one\ntwo\nthree\n")
    read = subprocess.run([script, "--root", str(root), "read", "notes.txt"],
                          capture_output=True, text=True, check=False)
    assert (read.returncode, read.stdout) == (0, f"[notes.txt#{t1}]\n1:one\n2:two\n3:three\n")
    edit = subprocess.run([script, "--root", str(root), "--json", "edit"],
                          input=f"[notes.txt#FFFF]\nPUT 1:\n+x\n",
                          capture_output=True, text=True, check=False)
    assert edit.returncode == 1
    assert '"kind":"stale_tag"' in edit.stdout
    usage = subprocess.run([script, "frobnicate"], capture_output=True, text=True, check=False)
    assert usage.returncode == 2
    assert "unrecognized subcommand 'frobnicate'" in usage.stderr
    version = subprocess.run([script, "--version"], capture_output=True, text=True, check=False)
    assert (version.returncode, version.stdout) == (0, "hashedit 0.1.0\n")
    module = subprocess.run([sys.executable, "-m", "hashedit", "--root", str(root), "ls"],
                            capture_output=True, text=True, check=False)
    assert (module.returncode, module.stdout) == (0, "notes.txt\nsrc/\n")


def test_the_approval_preview(root: pathlib.Path) -> None:
    ws = hashedit.Workspace(root)
    t1 = hashedit.tag("one\ntwo\nthree\n")
    preview = ws.preview(f"[notes.txt#{t1}]\nCUT 2\n[gone.txt#1234]\nPUT 1:\n+x")
    assert preview == [
        {"path": "notes.txt", "source": "dry_run", "summary": "CUT 2 (1 line)",
         "new_tag": hashedit.tag("one\nthree\n"),
         "diff": "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,3 +1,2 @@\n one\n-two\n three\n"},
        {"path": "gone.txt", "source": "projection", "tag": "1234", "line": 3,
         "ops": [{"line": 4, "header": "PUT 1:", "summary": "replace line 1", "rows": ["x"],
                  "state": "complete"}],
         "error": {"kind": "not_found", "message": preview[1]["error"]["message"]}},
    ]
    assert (root / "notes.txt").read_text() == "one\ntwo\nthree\n"


def test_options_are_the_tools_arguments(root: pathlib.Path) -> None:
    (root / ".ignore").write_text("ignored.txt\n")
    (root / "ignored.txt").write_text("two\n")
    ws = hashedit.Workspace(root)
    assert ws.grep("^two$", no_ignore=True, output_mode="files_with_matches").text == (
        "ignored.txt\nnotes.txt\n\n2 files"
    )
    assert ws.read("notes.txt", offset=2, limit=1).text.splitlines()[1] == "2:two"
    # None is absent, as over MCP.
    assert ws.read("notes.txt", offset=None).data["start"] == 1
    with pytest.raises(hashedit.ToolError) as unknown:
        ws.grep("x", ignore_case=True)
    assert (unknown.value.kind, str(unknown.value)) == (
        "invalid_arguments",
        "invalid arguments for grep: unknown argument ignore_case (grep takes only "
        "case_sensitive, glob, include_hidden, literal, max_per_file, max_results, no_ignore, "
        "output_mode, path, pattern)",
    )
    with pytest.raises(hashedit.ToolError) as dry:
        ws.read("notes.txt", dry_run=True)
    assert str(dry.value) == (
        "invalid arguments for read_file: unknown argument dry_run (read_file takes only "
        "limit, offset, path)"
    )
