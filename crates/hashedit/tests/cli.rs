//! End-to-end tests of the `hashedit` binary on temporary workspaces:
//! exact stdout, exit status (0 ok, 1 tool error, 2 usage) and file bytes.

use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

mod run_cli;
use run_cli::{run_hashedit, workspace};

fn hashedit(root: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    hashedit_with_registry(root, args, stdin, Path::new("off"))
}

/// Runs the binary with the snapshot registry at `registry` (`off`: none).
fn hashedit_with_registry(
    root: &Path,
    args: &[&str],
    stdin: Option<&str>,
    registry: &Path,
) -> Output {
    run_hashedit(root, args, stdin, registry)
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// What a failing command printed: errors go to stderr.
fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

#[test]
fn read_prints_the_view_and_exits_zero() {
    let dir = workspace(&[("a.txt", "one\ntwo\nthree\nfour\n")]);
    let out = hashedit(
        dir.path(),
        &["read", "a.txt", "--offset", "2", "--limit", "2"],
        None,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "[a.txt#8935]\n2:two\n3:three\n\n[lines 2-3 of 4 shown; pass --offset/--limit to read the rest]\n"
    );
}

#[test]
fn omp_scheme_changes_the_tag() {
    let dir = workspace(&[("a.txt", "a\nb\n")]);
    let out = hashedit(dir.path(), &["--tag-scheme", "omp", "read", "a.txt"], None);
    assert_eq!(stdout(&out), "[a.txt#9A46]\n1:a\n2:b\n");
}

#[test]
fn edit_then_chained_edit_from_the_preview_tag() {
    let dir = workspace(&[("f.txt", "alpha\nbeta\ngamma\n")]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"alpha\nbeta\ngamma\n");
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[f.txt#{tag}]\nPUT 2:\n+BETA\n")),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let new_tag = hashedit_core::TagScheme::Rho.tag_of(b"alpha\nBETA\ngamma\n");
    assert_eq!(
        stdout(&out),
        format!("PUT 2: (1 → 1 line)\n[f.txt#{new_tag}]\n1:alpha\n2:BETA\n3:gamma\n")
    );
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[f.txt#{new_tag}]\nPUT >$:\n+delta\n")),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "alpha\nBETA\ngamma\ndelta\n"
    );
}

#[test]
fn stale_tag_exits_one_with_a_live_snapshot_and_writes_nothing() {
    let dir = workspace(&[("f.txt", "alpha\n")]);
    let out = hashedit(dir.path(), &["edit"], Some("[f.txt#DEAD]\nPUT 1:\n+x\n"));
    assert_eq!(out.status.code(), Some(1));
    let live = hashedit_core::TagScheme::Rho.tag_of(b"alpha\n");
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        format!(
            "f.txt: snapshot tag DEAD is stale: the file's tag is now {live} (it changed since that \
             snapshot, or the tag was mistyped); nothing was written. Retry with the header and line numbers of the live snapshot below\n\nLive snapshot \
             (copy this header and these line numbers to retry):\n[f.txt#{live}]\n1:alpha\n"
        )
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "alpha\n"
    );
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let dir = workspace(&[("f.txt", "a\nb\nc\n")]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"a\nb\nc\n");
    let out = hashedit(
        dir.path(),
        &["edit", "--dry-run"],
        Some(&format!("[f.txt#{tag}]\nPUT 2:\n+B\n")),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "a\nb\nc\n"
    );
}

#[test]
fn edit_reads_the_document_from_a_file() {
    let dir = workspace(&[("f.txt", "a\n")]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"a\n");
    let doc = dir.path().join("doc.hl");
    fs::write(&doc, format!("[f.txt#{tag}]\nPUT 1:\n+A\n")).unwrap();
    let out = hashedit(
        dir.path(),
        &["edit", "--input", doc.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(fs::read_to_string(dir.path().join("f.txt")).unwrap(), "A\n");
}

#[test]
fn write_takes_content_on_stdin() {
    let dir = workspace(&[]);
    let out = hashedit(dir.path(), &["write", "nested/hello.txt"], Some("hello\n"));
    assert_eq!(out.status.code(), Some(0));
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"hello\n");
    assert_eq!(
        stdout(&out),
        format!("created nested/hello.txt\n\n[nested/hello.txt#{tag}]\n1:hello\n")
    );
    assert_eq!(
        fs::read(dir.path().join("nested/hello.txt")).unwrap(),
        b"hello\n"
    );
}

/// The CLI's refusal of a write over a file no call has read.
const UNREAD_NOTES: &str = "notes.txt exists and no hashedit call has read it; nothing was \
written. To replace it, run hashedit read notes.txt first and write again, or pass the --tag of \
the snapshot you mean to replace; to replace it unread, send the write again with --force\n";

#[test]
fn write_replaces_only_a_file_an_earlier_call_read() {
    let dir = workspace(&[("notes.txt", "one\ntwo\n")]);
    let cache = tempfile::tempdir().unwrap();
    let registry = cache.path().join("snapshots.v2");
    let hashedit = |args: &[&str], stdin: Option<&str>| {
        hashedit_with_registry(dir.path(), args, stdin, &registry)
    };
    let notes = || fs::read_to_string(dir.path().join("notes.txt")).unwrap();
    let out = hashedit(&["write", "notes.txt"], Some("x\n"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        (stdout(&out), stderr(&out)),
        (String::new(), UNREAD_NOTES.into())
    );
    assert_eq!(notes(), "one\ntwo\n");
    let out = hashedit(&["--json", "write", "notes.txt"], Some("x\n"));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["error"]["kind"], "unread_file");
    // A read in one process lets a write in the next replace the file.
    let out = hashedit(&["read", "notes.txt", "--limit", "1"], None);
    assert_eq!(out.status.code(), Some(0));
    let out = hashedit(&["write", "notes.txt"], Some("x\n"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("replaced notes.txt\n"));
    assert_eq!(notes(), "x\n");
    // Changed by another program since: read again first.
    fs::write(dir.path().join("notes.txt"), "y\n").unwrap();
    let out = hashedit(&["write", "notes.txt"], Some("z\n"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        UNREAD_NOTES.replace(
            "exists and no hashedit call has read it",
            "changed since a hashedit call last read it"
        )
    );
    assert_eq!(notes(), "y\n");
}

#[test]
fn without_a_registry_write_replaces_a_file_with_its_tag_or_force() {
    let dir = workspace(&[("notes.txt", "one\ntwo\n")]);
    let notes = || fs::read_to_string(dir.path().join("notes.txt")).unwrap();
    // Without the registry a read is forgotten when its process ends.
    hashedit(dir.path(), &["read", "notes.txt"], None);
    let out = hashedit(dir.path(), &["write", "notes.txt"], Some("x\n"));
    assert_eq!(
        (out.status.code(), stderr(&out)),
        (Some(1), UNREAD_NOTES.into())
    );
    assert_eq!(notes(), "one\ntwo\n");
    let tag = hashedit_core::TagScheme::Rho
        .tag_of(b"one\ntwo\n")
        .to_string();
    let out = hashedit(
        dir.path(),
        &["write", "notes.txt", "--tag", &tag],
        Some("x\n"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(notes(), "x\n");
    let out = hashedit(dir.path(), &["write", "notes.txt", "--force"], Some("y\n"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(notes(), "y\n");
}

#[test]
fn json_output_carries_kind_and_data() {
    let dir = workspace(&[("a.txt", "x\n")]);
    let out = hashedit(dir.path(), &["--json", "read", "a.txt"], None);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["ok"], true);
    assert_eq!(value["data"]["total_lines"], 1);
    assert_eq!(
        value["text"],
        format!(
            "[a.txt#{}]\n1:x",
            hashedit_core::TagScheme::Rho.tag_of(b"x\n")
        )
    );
    let out = hashedit(dir.path(), &["--json", "read", "../outside.txt"], None);
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["ok"], false);
    assert_eq!(value["error"]["kind"], "path_outside_workspace");
}

#[test]
fn search_and_listing_commands() {
    let dir = workspace(&[
        ("src/a.rs", "fn main() {}\n"),
        ("src/b.rs", "// nothing\n"),
        ("README", "fn\n"),
    ]);
    let out = hashedit(dir.path(), &["glob", "*.rs"], None);
    assert_eq!(stdout(&out), "src/a.rs\nsrc/b.rs\n\n2 files\n");
    let out = hashedit(dir.path(), &["ls"], None);
    assert_eq!(stdout(&out), "README\nsrc/\n");
    let out = hashedit(dir.path(), &["grep", "main", "src"], None);
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"fn main() {}\n");
    assert_eq!(
        stdout(&out),
        format!("[src/a.rs#{tag}]\n1 | fn main() {{}}\n\n1 match in 1 file\n")
    );
    let out = hashedit(
        dir.path(),
        &["grep", "-i", "FN", "--output-mode", "files_with_matches"],
        None,
    );
    assert_eq!(stdout(&out), "README\nsrc/a.rs\n\n2 files\n");
}

#[test]
fn usage_errors_exit_two() {
    let dir = workspace(&[]);
    let out = hashedit(dir.path(), &["read"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = hashedit(dir.path(), &["--max-output-bytes", "0", "ls"], None);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "hashedit: --max-output-bytes must be at least 1\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .args(["--root", "/nonexistent/dir/for/sure", "ls"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn block_ops_resolve_with_the_bundled_grammars() {
    let src = "fn a() {\n    if x {\n        y();\n    }\n}\n\nfn b() {\n    a();\n}\n";
    let dir = workspace(&[("lib.rs", src), ("script.py", "def f():\n    return 1\n")]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(src.as_bytes());
    let doc = format!("[lib.rs#{tag}]\nCUT 7* @b\nPUT <1 @b\nPUT >2*:\n+    z();\n");
    let out = hashedit(dir.path(), &["edit"], Some(&doc));
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        fs::read_to_string(dir.path().join("lib.rs")).unwrap(),
        "fn b() {\n    a();\n}\nfn a() {\n    if x {\n        y();\n    }\n    z();\n}\n\n"
    );
    assert!(
        stdout(&out).starts_with(
            "CUT 7* @b (block: lines 7-9; 3 lines); PUT <1 @b (+3 lines from @b); PUT >2*: (+1 line after \
             the block's last line 4 (block: lines 2-4))\n"
        ),
        "{}",
        stdout(&out)
    );
    let py_tag = hashedit_core::TagScheme::Rho.tag_of(b"def f():\n    return 1\n");
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[script.py#{py_tag}]\nPUT 2*:\n+x\n")),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("single line; use PUT 2:"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn b05_collision_is_caught_across_cli_calls() {
    let dir = workspace(&[("f.txt", "alpha\nbeta\n")]);
    let cache = tempfile::tempdir().unwrap();
    let registry = cache.path().join("snapshots.v1");
    let hashedit = |root: &Path, args: &[&str], stdin: Option<&str>| {
        hashedit_with_registry(root, args, stdin, &registry)
    };
    let out = hashedit(dir.path(), &["read", "f.txt"], None);
    assert_eq!(stdout(&out), "[f.txt#ADF9]\n1:alpha\n2:beta\n");
    // Another process prepends a line; the 4-hex tag does not change.
    fs::write(
        dir.path().join("f.txt"),
        "// build 075ab-002d6\nalpha\nbeta\n",
    )
    .unwrap();
    let out = hashedit(dir.path(), &["read", "f.txt", "--limit", "1"], None);
    assert!(stdout(&out).starts_with("[f.txt#ADF9]\n"));
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some("[f.txt#ADF9]\nPUT 1:\n+ALPHA\n"),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "the second read served the new content: {}",
        stdout(&out)
    );
    // Now the other way round: read, then the collision, then edit.
    fs::write(dir.path().join("g.txt"), "alpha\nbeta\n").unwrap();
    hashedit(dir.path(), &["read", "g.txt"], None);
    fs::write(
        dir.path().join("g.txt"),
        "// build 075ab-002d6\nalpha\nbeta\n",
    )
    .unwrap();
    let out = hashedit(
        dir.path(),
        &["--json", "edit"],
        Some("[g.txt#ADF9]\nPUT 1:\n+ALPHA\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["error"]["kind"], "stale_tag");
    assert_eq!(
        fs::read_to_string(dir.path().join("g.txt")).unwrap(),
        "// build 075ab-002d6\nalpha\nbeta\n"
    );
    assert!(registry.exists());
}

#[test]
fn registry_calls_append_to_the_log_without_rewriting_it() {
    use std::os::unix::fs::MetadataExt;
    let dir = workspace(&[("f.txt", "alpha\nbeta\n"), ("g.txt", "g\n")]);
    let cache = tempfile::tempdir().unwrap();
    let registry = cache.path().join("hashedit/snapshots.v2");
    let run = |args: &[&str]| hashedit_with_registry(dir.path(), args, None, &registry);
    run(&["read", "f.txt"]);
    let inode = fs::metadata(&registry).unwrap().ino();
    let lines = || fs::read_to_string(&registry).unwrap().lines().count();
    assert_eq!(lines(), 2);
    // Each call that serves a snapshot adds its line to the same file.
    run(&["read", "f.txt"]);
    run(&["grep", "g"]);
    assert_eq!(lines(), 4);
    // glob and ls serve no snapshot: nothing is written.
    run(&["glob", "*.txt"]);
    run(&["ls"]);
    assert_eq!(lines(), 4);
    assert_eq!(fs::metadata(&registry).unwrap().ino(), inode);
    assert_eq!(
        fs::read_to_string(&registry).unwrap().lines().next(),
        Some("hashedit-registry v2")
    );
}

#[test]
fn endless_input_is_refused_in_bounded_memory() {
    // Issue 5: stdin and --input were read whole, so `write < /dev/zero`
    // or `edit --input /dev/zero` grew until the machine ran out of memory.
    // Reading now stops one byte past the 256 MiB input limit.
    let dir = workspace(&[("a.txt", "a\n")]);
    let out = Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .arg("--root")
        .arg(dir.path())
        .args(["--json", "write", "zero.txt"])
        .stdin(fs::File::open("/dev/zero").unwrap())
        .env("HASHEDIT_REGISTRY", "off")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "{\"error\":{\"kind\":\"too_large\",\"message\":\"the input of write on stdin is more than 268435456 bytes, over the 268435456-byte limit; nothing was written\"},\"ok\":false}\n"
    );
    assert!(!dir.path().join("zero.txt").exists());
    let out = hashedit(
        dir.path(),
        &["--json", "edit", "--input", "/dev/zero"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("the input of edit on /dev/zero is more than 268435456 bytes"),
        "{}",
        stdout(&out)
    );
    assert_eq!(fs::read(dir.path().join("a.txt")).unwrap(), b"a\n");
}

#[test]
fn an_edit_that_breaks_the_syntax_is_refused_unless_forced() {
    let src = "fn a() {\n    let x = 1;\n}\n";
    let dir = workspace(&[("lib.rs", src)]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(src.as_bytes());
    // Off by one: the author meant to replace line 2 but named line 3.
    let document = format!("[lib.rs#{tag}]\nPUT 3:\n+    let x = 2;\n");
    let out = hashedit(dir.path(), &["--json", "edit"], Some(&document));
    assert_eq!(out.status.code(), Some(1));
    let reply: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(reply["error"]["kind"], "shifted_range");
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(
            "Also, the file parses now, and written as sent it would have a syntax error near line 1, \
             by the rows of PUT 3: (document line 2); check that op's line numbers, range and rows. \
             Nothing was written.\n"
        ),
        "{message}"
    );
    assert!(
        message.contains("try: PUT 2:\n+    let x = 2;\n"),
        "{message}"
    );
    assert_eq!(fs::read_to_string(dir.path().join("lib.rs")).unwrap(), src);
    // Forced, it is written as sent, and the findings become warnings.
    let out = hashedit(dir.path(), &["edit", "--force"], Some(&document));
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).ends_with(
            "warning: lib.rs: the file parsed before this edit and now has a syntax error near line 1, \
             by the rows of PUT 3: (document line 2) (written as sent)\n"
        ),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("lib.rs")).unwrap(),
        "fn a() {\n    let x = 1;\n    let x = 2;\n"
    );
    // A file that did not parse before gets no such warning.
    let broken = "fn a( {\n}\n";
    fs::write(dir.path().join("b.rs"), broken).unwrap();
    let tag = hashedit_core::TagScheme::Rho.tag_of(broken.as_bytes());
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[b.rs#{tag}]\nPUT 2:\n+}}}}\n")),
    );
    assert!(!stdout(&out).contains("syntax error"), "{}", stdout(&out));
}

#[test]
fn a_named_register_never_pasted_is_reported_as_dropped() {
    let src = "a\nb\nc\n";
    let dir = workspace(&[("r.txt", src)]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(src.as_bytes());
    // Cut and pasted in one document: nothing to report.
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[r.txt#{tag}]\nCUT 2 @keep\nPUT >3 @keep\n")),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(!stdout(&out).contains("warning"), "{}", stdout(&out));
    assert_eq!(fs::read(dir.path().join("r.txt")).unwrap(), b"a\nc\nb\n");
    // Cut and never pasted: the CLI forgets the register, and says so.
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"a\nc\nb\n");
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[r.txt#{tag}]\nCUT 2 @keep\n")),
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).ends_with(
            "warning: @keep (1 line) was never pasted and is not kept after this command: the CLI keeps \
             named registers only within one document (the MCP server keeps them for its session); CUT and \
             PUT them in the same document\n"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_block_cut_that_leaves_its_attribute_behind_is_warned() {
    // Tester report: `CUT 3*` removed an impl but left its `#[cfg(..)]`,
    // which then gated the next item, with no warning.
    let src = "struct S;\n\n#[cfg(feature = \"x\")]\nimpl S {\n    fn a() {}\n}\n\nimpl Clone for S {\n    fn clone(&self) -> S { S }\n}\n";
    let dir = workspace(&[("lib.rs", src)]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(src.as_bytes());
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[lib.rs#{tag}]\nCUT 4*\n")),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains(
            "warning: lib.rs: CUT 4* (document line 2): line 3 above the block (#[cfg(feature = \"x\")]) is an attribute or \
             decorator and stays, so it now applies to what follows; CUT 3.=6 would remove it with the block\n"
        ),
        "{}",
        stdout(&out)
    );
    // The cut itself is written as sent.
    assert_eq!(
        fs::read_to_string(dir.path().join("lib.rs")).unwrap(),
        "struct S;\n\n#[cfg(feature = \"x\")]\n\nimpl Clone for S {\n    fn clone(&self) -> S { S }\n}\n"
    );
    // A Python decorator, likewise; a block with no attribute above is quiet.
    let py = "class A:\n    @property\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n";
    fs::write(dir.path().join("a.py"), py).unwrap();
    let tag = hashedit_core::TagScheme::Rho.tag_of(py.as_bytes());
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[a.py#{tag}]\nCUT 3*\n")),
    );
    assert!(
        stdout(&out).contains("line 2 above the block (@property)"),
        "{}",
        stdout(&out)
    );
    fs::write(dir.path().join("b.py"), py).unwrap();
    let out = hashedit(
        dir.path(),
        &["edit"],
        Some(&format!("[b.py#{tag}]\nCUT 6*\n")),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(!stdout(&out).contains("warning"), "{}", stdout(&out));
}

#[test]
fn a_non_utf8_document_is_a_tool_error_with_json() {
    let dir = workspace(&[("f.txt", "a\n")]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .args(["--root", dir.path().to_str().unwrap(), "--json", "edit"])
        .env("HASHEDIT_REGISTRY", "off")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"[f.txt#ABCD]\nPUT 1:\n+\xff\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        "{\"error\":{\"kind\":\"not_utf8\",\"message\":\"the input of edit on stdin is not UTF-8 text (first bad \
         byte at offset 21); nothing was written. Send it as UTF-8\"},\"ok\":false}\n"
    );
    assert_eq!(fs::read(dir.path().join("f.txt")).unwrap(), b"a\n");
}

#[test]
fn an_unusable_registry_is_reported_on_stderr() {
    let dir = workspace(&[("f.txt", "a\n")]);
    let registry = tempfile::tempdir().unwrap();
    // A directory where the registry file should be.
    let in_the_way = registry.path().join("reg");
    fs::create_dir(&in_the_way).unwrap();
    let out = hashedit_with_registry(dir.path(), &["read", "f.txt"], None, &in_the_way);
    assert_eq!(out.status.code(), Some(0));
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"a\n");
    assert_eq!(stdout(&out), format!("[f.txt#{tag}]\n1:a\n"));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "hashedit: warning: cannot update the snapshot registry {}: it is a directory; name a file (in \
             it or elsewhere) instead. Tags are still checked, but without the fingerprints of earlier \
             calls; set HASHEDIT_REGISTRY to the path of a file hashedit may create or write, or to off to \
             do without it\n",
            in_the_way.display()
        )
    );
    // A writable registry file: no warning.
    let file = registry.path().join("snapshots.v1");
    let out = hashedit_with_registry(dir.path(), &["read", "f.txt"], None, &file);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn json_edit_data_carries_the_diff_of_a_dry_run_and_the_text_none() {
    let dir = workspace(&[("a.txt", "one\ntwo\n")]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"one\ntwo\n");
    let document = format!("[a.txt#{tag}]\nPUT 2:\n+TWO\n");
    let dry = hashedit(
        dir.path(),
        &["--json", "edit", "--dry-run"],
        Some(&document),
    );
    let value: serde_json::Value = serde_json::from_slice(&dry.stdout).unwrap();
    let diff = "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n";
    assert_eq!(value["text"], diff);
    assert_eq!(value["data"]["files"][0]["diff"], diff);
    let out = hashedit(dir.path(), &["--json", "edit"], Some(&document));
    assert_eq!(out.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let new_tag = hashedit_core::TagScheme::Rho.tag_of(b"one\nTWO\n");
    assert_eq!(
        value["text"],
        format!("PUT 2: (1 → 1 line)\n[a.txt#{new_tag}]\n1:one\n2:TWO")
    );
    // An applied edit's diff is made only when asked for (FORMAT.md §6.6).
    assert_eq!(value["data"]["files"][0].get("diff"), None);
}

/// `edit --dry-run` on a real terminal (a pty from util-linux `script`):
/// additions green, removals red, file headers bold, hunk headers cyan.
#[test]
fn dry_run_on_a_terminal_is_coloured() {
    let dir = workspace(&[("a.txt", "one\ntwo\n")]);
    let tag = hashedit_core::TagScheme::Rho.tag_of(b"one\ntwo\n");
    let doc = dir.path().join("doc.txt");
    fs::write(&doc, format!("[a.txt#{tag}]\nPUT 2:\n+TWO\n")).unwrap();
    let command = format!(
        "{} --root {} edit --dry-run --input {}",
        env!("CARGO_BIN_EXE_hashedit"),
        dir.path().display(),
        doc.display()
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env_remove("NO_COLOR")
        .env("HASHEDIT_REGISTRY", "off")
        .stdin(Stdio::null())
        .output()
        .expect("util-linux script runs");
    assert_eq!(out.status.code(), Some(0));
    let screen = String::from_utf8(out.stdout).unwrap().replace("\r\n", "\n");
    assert_eq!(
        screen,
        "\x1b[1m--- a/a.txt\x1b[0m\n\x1b[1m+++ b/a.txt\x1b[0m\n\x1b[36m@@ -1,2 +1,2 @@\x1b[0m\n one\n\
         \x1b[31m-two\x1b[0m\n\x1b[32m+TWO\x1b[0m\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "one\ntwo\n"
    );
}

/// `hashedit mcp` with a terminal as stdin (a pseudo-terminal), ended by
/// Ctrl-D: on stderr, that it waits for an MCP client and how to connect
/// one.
#[test]
fn mcp_on_a_terminal_says_it_waits_for_a_client() {
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    use std::io::Write;
    let ws = workspace(&[]);
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    let terminal = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().unwrap())
        .unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .args(["mcp", "--root"])
        .arg(ws.path())
        .stdin(terminal)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Ctrl-D on an empty line: end of input, so the server stops.
    let mut master = fs::File::from(master);
    master.write_all(b"\x04").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stderr(&out),
        "hashedit mcp: waiting for an MCP client on stdin (JSON-RPC, one message per line); press Ctrl-D to stop.\n\
         An agent client starts this command itself. To connect one, run in your project:\n  \
         hashedit setup claude-code    (or codex, gemini, opencode, cursor, zed, vscode; see docs/SETUP.md)\n"
    );
    assert_eq!(stdout(&out), "");
}

/// Piped, as every client starts it, `hashedit mcp` says nothing on stderr.
#[test]
fn mcp_on_a_pipe_is_silent_on_stderr() {
    let ws = workspace(&[]);
    let out = hashedit(ws.path(), &["mcp"], Some(""));
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stderr(&out), "");
}

/// `hashedit setup ARGS` in the project `project`, with `home` as HOME.
fn setup(project: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hashedit"))
        .arg("setup")
        .args(args)
        .current_dir(project)
        .env("HOME", home)
        .env_remove("XDG_STATE_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("CODEX_HOME")
        .env_remove("CLAUDE_CONFIG_DIR")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn setup_dry_run_prints_the_changes_and_writes_nothing() {
    let project = workspace(&[("GEMINI.md", "# Rules\n")]);
    let home = tempfile::tempdir().unwrap();
    let out = setup(
        project.path(),
        home.path(),
        &["gemini", "--dry-run", "--command", "hashedit"],
    );
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    let gemini_md = project.path().canonicalize().unwrap().join("GEMINI.md");
    let gemini_md = gemini_md.display();
    assert!(
        text.contains(&format!(
            "--- {gemini_md}\n+++ {gemini_md}\n@@ -1 +1,9 @@\n # Rules\n+\n+<!-- hashedit:begin"
        )),
        "{text}"
    );
    assert!(
        text.contains("  would create .gemini/settings.json: registers the hashedit MCP server;"),
        "{text}"
    );
    assert!(
        text.contains("  would update GEMINI.md: tells the model"),
        "{text}"
    );
    assert!(text.ends_with("Dry run: nothing was written.\n"), "{text}");
    assert_eq!(
        fs::read_to_string(project.path().join("GEMINI.md")).unwrap(),
        "# Rules\n"
    );
    assert!(!project.path().join(".gemini").exists());
    assert_eq!(fs::read_dir(home.path()).unwrap().count(), 0);
}

#[test]
fn setup_then_undo_under_json_lists_each_file() {
    let project = workspace(&[]);
    let home = tempfile::tempdir().unwrap();
    let files = |out: &Output| -> Vec<(String, String)> {
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(value["ok"], true, "{value}");
        value["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let path = f["path"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_string();
                (path, f["action"].as_str().unwrap().to_string())
            })
            .collect()
    };
    let out = setup(
        project.path(),
        home.path(),
        &["cursor", "--json", "--command", "hashedit"],
    );
    assert_eq!(
        files(&out),
        [
            ("mcp.json".into(), "created".into()),
            ("AGENTS.md".into(), "created".into())
        ]
    );
    let out = setup(project.path(), home.path(), &["cursor", "--undo", "--json"]);
    assert_eq!(
        files(&out),
        [
            ("mcp.json".into(), "deleted".into()),
            ("AGENTS.md".into(), "deleted".into())
        ]
    );
    assert_eq!(fs::read_dir(project.path()).unwrap().count(), 0);
    assert_eq!(fs::read_dir(home.path()).unwrap().count(), 0);
}

#[test]
fn setup_makes_a_relative_command_absolute() {
    let project = workspace(&[("bin/hashedit", "")]);
    let home = tempfile::tempdir().unwrap();
    let out = setup(
        project.path(),
        home.path(),
        &["cursor", "--command", "bin/hashedit"],
    );
    assert!(out.status.success(), "{out:?}");
    let config = fs::read_to_string(project.path().join(".cursor/mcp.json")).unwrap();
    let binary = project.path().canonicalize().unwrap().join("bin/hashedit");
    let value: serde_json::Value = serde_json::from_str(&config).unwrap();
    assert_eq!(
        value["mcpServers"]["hashedit"]["command"],
        binary.display().to_string()
    );
}

#[test]
fn setup_puts_the_server_flags_it_is_given_in_the_command_line() {
    let project = workspace(&[]);
    let home = tempfile::tempdir().unwrap();
    let args = [
        "cursor",
        "--command",
        "hashedit",
        "--tag-scheme",
        "omp",
        "--protect",
        "secrets/**",
        "--max-output-bytes",
        "20000",
        "--allow-protected",
    ];
    let out = setup(project.path(), home.path(), &args);
    assert!(out.status.success(), "{out:?}");
    let config = fs::read_to_string(project.path().join(".cursor/mcp.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&config).unwrap();
    assert_eq!(
        value["mcpServers"]["hashedit"]["args"],
        serde_json::json!([
            "mcp",
            "--tag-scheme",
            "omp",
            "--max-output-bytes",
            "20000",
            "--protect",
            "secrets/**",
            "--allow-protected"
        ])
    );
}

#[test]
fn setup_refuses_a_file_it_cannot_merge_into_and_exits_one() {
    let project = workspace(&[(".mcp.json", "[1]\n")]);
    let home = tempfile::tempdir().unwrap();
    let out = setup(
        project.path(),
        home.path(),
        &["claude-code", "--command", "hashedit"],
    );
    assert_eq!(out.status.code(), Some(1));
    let mcp_json = project.path().canonicalize().unwrap().join(".mcp.json");
    assert_eq!(
        stderr(&out),
        format!(
            "hashedit: setup: {} does not hold a JSON object; nothing was written. Fix or move the file and run setup again\n",
            mcp_json.display()
        )
    );
    assert_eq!(fs::read_dir(project.path()).unwrap().count(), 1);
    let out = setup(
        project.path(),
        home.path(),
        &["zed", "--replace-codex-catalog"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "hashedit: setup: --replace-codex-catalog is for codex only\n"
    );
}
