//! The full grammar through the edit tool on real files: file ops (REM,
//! MV), registers across sections and calls, and the all-or-nothing rule
//! when one of them fails.

use std::fs;
use std::path::Path;

use hashedit_tools::{
    EditArgs, EditMode, ErrorKind, Outcome, Session, ToolContext, ToolError, Workspace,
};

fn tag(bytes: &str) -> String {
    hashedit_core::TagScheme::Rho
        .tag_of(bytes.as_bytes())
        .to_string()
}

fn setup(files: &[(&str, &str)]) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, content).unwrap();
    }
    let ws = Workspace::new(dir.path()).unwrap();
    (dir, ws)
}

fn edit(cx: &ToolContext, doc: &str) -> Result<Outcome, ToolError> {
    hashedit_tools::edit(cx, &EditArgs::new(doc), EditMode::Apply)
}

fn read(root: &Path, name: &str) -> Option<String> {
    fs::read_to_string(root.join(name)).ok()
}

#[test]
fn rem_deletes_and_mv_moves_with_edits() {
    let (dir, ws) = setup(&[("old.txt", "one\ntwo\nthree\n"), ("gone.txt", "x\n")]);
    let cx = ToolContext::new(&ws);
    let doc = format!(
        "[old.txt#{}]\nPUT 2:\n+TWO\nMV sub/new.txt\n[gone.txt#{}]\nREM\n",
        tag("one\ntwo\nthree\n"),
        tag("x\n")
    );
    let out = edit(&cx, &doc).unwrap();
    assert_eq!(
        read(dir.path(), "sub/new.txt").as_deref(),
        Some("one\nTWO\nthree\n")
    );
    assert_eq!(read(dir.path(), "old.txt"), None);
    assert_eq!(read(dir.path(), "gone.txt"), None);
    let new_tag = tag("one\nTWO\nthree\n");
    assert_eq!(
        out.text,
        format!(
            "PUT 2: (1 → 1 line); MV sub/new.txt (the file moves there)\n[sub/new.txt#{new_tag}]\n1:one\n2:TWO\n3:three\n\nREM (the file is deleted)"
        )
    );
    assert_eq!(out.structured()["files"][0]["moved_to"], "sub/new.txt");
    assert_eq!(out.structured()["files"][1]["removed"], true);
}

#[test]
fn mv_never_overwrites() {
    let (dir, ws) = setup(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
    let cx = ToolContext::new(&ws);
    let err = edit(&cx, &format!("[a.txt#{}]\nMV b.txt", tag("a\n"))).unwrap_err();
    assert_eq!(err.kind, ErrorKind::Conflict);
    assert_eq!(read(dir.path(), "a.txt").as_deref(), Some("a\n"));
    assert_eq!(read(dir.path(), "b.txt").as_deref(), Some("b\n"));
    let err = edit(&cx, &format!("[a.txt#{}]\nMV ../outside.txt", tag("a\n"))).unwrap_err();
    assert_eq!(err.kind, ErrorKind::PathOutsideWorkspace);
    let err = edit(&cx, &format!("[a.txt#{}]\nMV ./a.txt", tag("a\n"))).unwrap_err();
    assert_eq!(err.kind, ErrorKind::InvalidArguments);
}

#[test]
fn a_stale_tag_never_removes_a_file() {
    let (dir, ws) = setup(&[("a.txt", "a\n")]);
    let session = Session::new();
    let cx = ToolContext::new(&ws).with_session(&session);
    let err = edit(&cx, "[a.txt#0000]\nREM").unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert_eq!(read(dir.path(), "a.txt").as_deref(), Some("a\n"));
}

#[test]
fn a_failing_section_keeps_earlier_file_ops_unapplied() {
    let (dir, ws) = setup(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
    let cx = ToolContext::new(&ws);
    let doc = format!(
        "[a.txt#{}]\nREM\n[b.txt#{}]\nPUT 9:\n+x\n",
        tag("a\n"),
        tag("b\n")
    );
    assert_eq!(edit(&cx, &doc).unwrap_err().kind, ErrorKind::LineOutOfRange);
    assert_eq!(read(dir.path(), "a.txt").as_deref(), Some("a\n"));
    assert_eq!(read(dir.path(), "b.txt").as_deref(), Some("b\n"));
}

#[test]
fn cross_file_move_with_the_anonymous_register() {
    let (dir, ws) = setup(&[("a.ts", "keep\nm1\nm2\n"), ("b.ts", "b1\n")]);
    let cx = ToolContext::new(&ws);
    let doc = format!(
        "[a.ts#{}]\nCUT 2-3\n[b.ts#{}]\nPUT >$\n",
        tag("keep\nm1\nm2\n"),
        tag("b1\n")
    );
    edit(&cx, &doc).unwrap();
    assert_eq!(read(dir.path(), "a.ts").as_deref(), Some("keep\n"));
    assert_eq!(read(dir.path(), "b.ts").as_deref(), Some("b1\nm1\nm2\n"));
}

#[test]
fn named_registers_live_for_the_session_only() {
    let (dir, ws) = setup(&[("a.txt", "one\ntwo\n"), ("b.txt", "x\n")]);
    let session = Session::new();
    let cx = ToolContext::new(&ws).with_session(&session);
    edit(&cx, &format!("[a.txt#{}]\nCUT 1 @first", tag("one\ntwo\n"))).unwrap();
    let out = edit(&cx, &format!("[b.txt#{}]\nPUT >$ @first", tag("x\n"))).unwrap();
    assert!(
        out.text
            .starts_with("PUT >$ @first (+1 line from @first)\n"),
        "{}",
        out.text
    );
    assert_eq!(read(dir.path(), "b.txt").as_deref(), Some("x\none\n"));
    // Without a session (the CLI), a register lasts one call.
    let cx = ToolContext::new(&ws);
    let err = edit(&cx, &format!("[b.txt#{}]\nPUT >$ @first", tag("x\none\n"))).unwrap_err();
    assert_eq!(err.kind, ErrorKind::RegisterError);
    // A failed call does not publish its captures.
    let cx = ToolContext::new(&ws).with_session(&session);
    let doc = format!("[a.txt#{}]\nCUT 1 @second\nPUT 9:\n+x", tag("two\n"));
    assert_eq!(edit(&cx, &doc).unwrap_err().kind, ErrorKind::LineOutOfRange);
    assert!(!session.registers().contains_key("second"));
}

#[test]
fn block_ops_without_a_grammar_fail_with_a_clear_error() {
    let (dir, ws) = setup(&[("a.rs", "fn a() {\n}\n")]);
    let cx = ToolContext::new(&ws);
    let err = edit(&cx, &format!("[a.rs#{}]\nCUT 1*", tag("fn a() {\n}\n"))).unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnresolvedBlock);
    assert!(
        err.message.contains("no parser is available"),
        "{}",
        err.message
    );
    assert_eq!(read(dir.path(), "a.rs").as_deref(), Some("fn a() {\n}\n"));
}

#[test]
fn dry_runs_name_file_ops_and_tiny_budgets_keep_the_headers() {
    let (dir, ws) = setup(&[("r.txt", "a\nb\n"), ("g.txt", "x\n")]);
    let cx = ToolContext::new(&ws);
    let doc = format!(
        "[r.txt#{}]\nPUT 1:\n+A\nMV moved/r2.txt\n[g.txt#{}]\nREM\n",
        tag("a\nb\n"),
        tag("x\n")
    );
    let out = hashedit_tools::edit(&cx, &EditArgs::new(doc.clone()), EditMode::DryRun).unwrap();
    assert_eq!(
        out.text,
        "MV: r.txt would move to moved/r2.txt\n--- a/r.txt\n+++ b/moved/r2.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\
         REM: g.txt would be deleted\n--- a/g.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    );
    assert_eq!(read(dir.path(), "r.txt").as_deref(), Some("a\nb\n"));
    // With a budget too small for the summaries, the reply is the headers.
    let ws = ws.with_max_output_bytes(40);
    let cx = ToolContext::new(&ws);
    let out = edit(&cx, &doc).unwrap();
    assert_eq!(
        out.text,
        format!("[moved/r2.txt#{}]\nREM g.txt", tag("A\nb\n"))
    );
    assert_eq!(
        out.structured()["files"][1]["new_tag"],
        serde_json::Value::Null
    );
}

#[test]
fn diffs_are_made_only_when_asked_and_share_the_output_budget() {
    let big: String = (0..200_000)
        .map(|i| format!("line {i} of the big file\n"))
        .collect();
    let (dir, ws) = setup(&[("big.txt", &big)]);
    let doc = format!("[big.txt#{}]\nREM\n", tag(&big));
    let out = edit(&ToolContext::new(&ws), &doc).unwrap();
    assert_eq!(out.structured()["files"][0].get("diff"), None);
    fs::write(dir.path().join("big.txt"), &big).unwrap();
    let out = edit(&ToolContext::new(&ws).with_diffs(), &doc).unwrap();
    let diff = out.structured()["files"][0]["diff"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(diff.starts_with("--- a/big.txt\n+++ /dev/null\n@@ -1,200000 +0,0 @@\n-line 0 of"));
    assert!(
        diff.ends_with("\n[truncated]\n"),
        "{}",
        &diff[diff.len() - 40..]
    );
    let json = serde_json::to_string(&out.structured()).unwrap();
    assert!(json.len() < 64 * 1024, "{}", json.len());
    fs::write(dir.path().join("big.txt"), &big).unwrap();
    let dry = hashedit_tools::edit(
        &ToolContext::new(&ws),
        &EditArgs::new(doc),
        EditMode::DryRun,
    );
    assert!(dry.unwrap().text.len() < 64_100);
}

#[test]
fn an_applied_edit_reports_each_files_diff_as_data_only() {
    let (dir, ws) = setup(&[("r.txt", "a\nb\nc\n"), ("g.txt", "x\n")]);
    let cx = ToolContext::new(&ws).with_diffs();
    let doc = format!(
        "[r.txt#{}]\nPUT 2:\n+B\nCUT 3\n[g.txt#{}]\nREM\n",
        tag("a\nb\nc\n"),
        tag("x\n")
    );
    let out = edit(&cx, &doc).unwrap();
    assert_eq!(
        out.structured()["files"][0]["diff"],
        "--- a/r.txt\n+++ b/r.txt\n@@ -1,3 +1,2 @@\n a\n-b\n-c\n+B\n"
    );
    assert_eq!(
        out.structured()["files"][1]["diff"],
        "--- a/g.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    );
    assert!(!out.text.contains("@@"), "{}", out.text);
    assert!(!out.text.contains("--- a/"), "{}", out.text);
    assert_eq!(read(dir.path(), "r.txt").as_deref(), Some("a\nB\n"));
}
