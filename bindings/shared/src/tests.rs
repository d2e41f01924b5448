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
        edit.data["files"][0]["diff"],
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
        .call(
            "write",
            serde_json::json!({"path": "f.txt", "content": "b\n"}),
        )
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
    assert_eq!(
        error.message,
        "unknown tool 'delete': the tools are read_file, grep, glob, list_dir, write and edit"
    );
    let error = ws
        .call("read_file", serde_json::json!({"path": 3}))
        .unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert_eq!(
        error.message,
        "invalid arguments for read_file: path must be a string, got 3"
    );
}

/// Options are the argument struct's fields in the binding's case, checked
/// by the tool's schema: every field is reachable, an unknown or
/// ill-typed one is refused naming the valid ones.
#[test]
fn options_are_the_argument_structs_fields() {
    let (_dir, ws) = workspace(
        &[
            ("a.txt", "x\n"),
            (".hidden.txt", "x\n"),
            ("ignored.txt", "x\n"),
            (".ignore", "ignored.txt\n"),
        ],
        Access::ReadWrite,
    );
    let grep = |options: Value, case: Case| {
        let request = Request::new(ToolName::Grep)
            .arg("pattern", "^X$")
            .options(options, case)?;
        ws.run(request)
    };
    let camel = grep(
        serde_json::json!({"caseSensitive": false, "includeHidden": true, "outputMode": "count", "noIgnore": true}),
        Case::Camel,
    )
    .unwrap();
    assert_eq!(
        camel.text,
        ".hidden.txt:1\na.txt:1\nignored.txt:1\n\n3 matches in 3 files"
    );
    let snake = grep(
        serde_json::json!({"case_sensitive": false, "include_hidden": true, "output_mode": "count", "no_ignore": true}),
        Case::Snake,
    )
    .unwrap();
    assert_eq!(snake, camel);
    let unknown = grep(serde_json::json!({"ignoreCase": true}), Case::Camel).unwrap_err();
    assert_eq!(unknown.kind, ErrorKind::InvalidArguments);
    assert_eq!(
        unknown.message,
        "invalid arguments for grep: unknown argument ignore_case (grep takes only \
         case_sensitive, glob, include_hidden, literal, max_per_file, max_results, no_ignore, \
         output_mode, path, pattern)"
    );
    let typed = grep(serde_json::json!({"maxResults": 0}), Case::Camel).unwrap_err();
    assert_eq!(
        typed.message,
        "invalid arguments for grep: max_results must be an integer of at least 1, got 0"
    );
    let twice = grep(serde_json::json!({"pattern": "y"}), Case::Snake).unwrap_err();
    assert_eq!(
        twice.message,
        "pattern is given twice: as an argument of grep and as an option"
    );
    let not_object = grep(serde_json::json!(3), Case::Snake).unwrap_err();
    assert_eq!(
        not_object.message,
        "the options of grep must be an object, got 3"
    );
    // null is absent, as over MCP.
    assert_eq!(
        grep(serde_json::json!({"glob": null}), Case::Camel)
            .unwrap()
            .text,
        "no matches for '^X$' under . (1 entry skipped by .gitignore/.ignore rules, which \
         no_ignore lifts)"
    );
}

#[test]
fn a_dry_run_is_an_edit_option() {
    let (dir, ws) = workspace(&[("f.txt", "a\n")], Access::ReadWrite);
    let document = format!("[f.txt#{}]\nPUT 1:\n+b\n", tag(b"a\n", TagScheme::Rho));
    let edit = |options: Value| {
        let request = Request::new(ToolName::Edit)
            .arg("input", document.as_str())
            .options(options, Case::Camel)?;
        ws.run(request)
    };
    let dry = edit(serde_json::json!({"dryRun": true})).unwrap();
    assert_eq!(
        dry.data["files"][0]["diff"],
        "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-a\n+b\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "a\n"
    );
    assert_eq!(
        edit(serde_json::json!({"dryRun": 1})).unwrap_err().message,
        "dryRun must be true or false, got 1"
    );
    let read = Request::new(ToolName::ReadFile)
        .arg("path", "f.txt")
        .options(serde_json::json!({"dryRun": true}), Case::Camel)
        .unwrap();
    assert_eq!(
        ws.run(read).unwrap_err().message,
        "invalid arguments for read_file: unknown argument dry_run (read_file takes only limit, \
         offset, path)"
    );
    edit(serde_json::json!({"dryRun": false})).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "b\n"
    );
}

#[test]
fn envelopes_carry_the_reply_or_the_error_kind() {
    let (_dir, ws) = workspace(&[("f.txt", "a\n")], Access::ReadWrite);
    let a = tag(b"a\n", TagScheme::Rho);
    assert_eq!(
        envelope(ws.call("read_file", serde_json::json!({"path": "f.txt"}))),
        serde_json::json!({"ok": true, "text": format!("[f.txt#{a}]\n1:a"), "data": {
            "path": "f.txt", "tag": a, "total_lines": 1, "start": 1, "end": 1, "partial": false,
        }})
    );
    assert_eq!(
        envelope(ws.call("read_file", serde_json::json!({"path": "g.txt"}))),
        serde_json::json!({"ok": false, "error": {"kind": "not_found", "message": "g.txt does not exist; check the path with glob or list_dir"}})
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
