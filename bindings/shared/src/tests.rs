use super::*;

fn workspace(files: &[(&str, &str)], access: Access) -> (tempfile::TempDir, Embedded) {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let options = Options {
        access,
        ..Options::default()
    };
    let embedded = Embedded::open(dir.path(), options).unwrap();
    (dir, embedded)
}

#[test]
fn read_then_edit_chained_from_the_preview_through_call() {
    let (dir, ws) = workspace(&[("f.txt", "a\nb\nc\n")], Access::ReadWrite);
    let read = ws
        .call("read_file", serde_json::json!({"path": "f.txt"}))
        .unwrap();
    assert_eq!(read.text, "[f.txt#2A47]\n1:a\n2:b\n3:c");
    let edit = ws
        .call(
            "edit",
            serde_json::json!({"input": "[f.txt#2A47]\nPUT 2:\n+B\n"}),
        )
        .unwrap();
    let new_tag = tag(b"a\nB\nc\n", TagScheme::Rho);
    assert_eq!(
        edit.text,
        format!("PUT 2: (1 → 1 line)\n[f.txt#{new_tag}]\n1:a\n2:B\n3:c")
    );
    assert_eq!(
        edit.structured["files"][0]["diff"],
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "a\nB\nc\n"
    );
}

#[test]
fn a_read_only_workspace_refuses_writes_and_unknown_calls_are_named() {
    let (dir, ws) = workspace(&[("f.txt", "a\n")], Access::ReadOnly);
    let error = ws
        .write(&WriteArgs {
            path: "f.txt".into(),
            content: "b\n".into(),
            tag: None,
            force: None,
        })
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::PermissionDenied);
    assert_eq!(
        error.message,
        "write is not available: this hashedit workspace is read-only, so it offers only \
         read_file, grep, glob and list_dir; nothing was written"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "a\n"
    );
    let error = ws.call("delete", Value::Null).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    let error = ws
        .call("read_file", serde_json::json!({"path": 3}))
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert!(
        error
            .message
            .starts_with("invalid arguments for read_file: "),
        "{}",
        error.message
    );
}

#[test]
fn options_and_helpers() {
    let dir = tempfile::tempdir().unwrap();
    let zero = Options {
        max_output_bytes: 0,
        ..Options::default()
    };
    assert_eq!(
        Embedded::open(dir.path(), zero).unwrap_err().kind,
        ErrorKind::InvalidArguments
    );
    assert_eq!(
        Embedded::open(&dir.path().join("missing"), Options::default())
            .unwrap_err()
            .kind,
        ErrorKind::NotFound
    );
    assert_eq!(tag(b"a\nb\nc\n", TagScheme::Rho), "2A47");
    assert_eq!(parse_scheme("omp"), Ok(TagScheme::Omp));
    assert_eq!(tool_definitions("openai", true).unwrap().len(), 4);
    assert!(tool_definitions("gemini", false).is_err());
    assert_eq!(
        project_json("[a.txt#1234]\nCUT 2\nPUT >3"),
        serde_json::json!([{"path": "a.txt", "tag": "1234", "line": 1, "ops": [
            {"line": 2, "header": "CUT 2", "summary": "delete line 2", "rows": [], "state": "complete"},
            {"line": 3, "header": "PUT >3", "summary": "", "rows": [], "state": "partial"},
        ]}])
    );
}

#[test]
fn the_approval_preview_dry_runs_live_files_and_projects_the_rest() {
    let (dir, ws) = workspace(
        &[("a.txt", "one\ntwo\n"), ("b.txt", "x\n")],
        Access::ReadWrite,
    );
    let a = tag(b"one\ntwo\n", TagScheme::Rho);
    let new_a = tag(b"ONE\ntwo\n", TagScheme::Rho);
    // Both sections dry-run: the real diff, removals as `-` rows.
    let both = format!(
        "[a.txt#{a}]\nPUT 1:\n+ONE\n[b.txt#{}]\nCUT 1\n",
        tag(b"x\n", TagScheme::Rho)
    );
    assert_eq!(
        ws.preview(&both),
        serde_json::json!([
            {"path": "a.txt", "source": "dry_run", "summary": "PUT 1: (1 → 1 line)", "new_tag": new_a,
             "diff": "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-one\n+ONE\n two\n"},
            {"path": "b.txt", "source": "dry_run", "summary": "CUT 1 (1 line)",
             "new_tag": tag(b"", TagScheme::Rho),
             "diff": "--- a/b.txt\n+++ b/b.txt\n@@ -1 +0,0 @@\n-x\n"},
        ])
    );
    // A stale section and a missing file fall back to their projections;
    // the live one still dry-runs. A cut last line is projected too.
    let mixed =
        format!("[b.txt#FFFF]\nCUT 1\n[a.txt#{a}]\nPUT 2:\n+TWO\n[new.txt#1234]\nPUT >$:\n+hel");
    let preview = ws.preview(&mixed);
    assert_eq!(preview[0]["source"], "projection");
    assert_eq!(preview[0]["error"]["kind"], "stale_tag");
    assert_eq!(
        preview[0]["ops"],
        serde_json::json!([{"line": 2, "header": "CUT 1", "summary": "delete line 1", "rows": [], "state": "complete"}])
    );
    assert_eq!(preview[1]["source"], "dry_run");
    assert_eq!(
        preview[1]["diff"],
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n"
    );
    assert_eq!(preview[2]["source"], "projection");
    assert_eq!(preview[2]["error"]["kind"], "not_found");
    assert_eq!(preview[2]["ops"][0]["rows"], serde_json::json!(["hel"]));
    assert_eq!(preview.as_array().unwrap().len(), 3);
    // Nothing was written.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a.txt")).unwrap(),
        "one\ntwo\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.txt")).unwrap(),
        "x\n"
    );
}
