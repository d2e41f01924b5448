//! Session behaviour: collision detection (handed case B05) and drift
//! rebase (FORMAT.md §6.1), through the tools as the MCP
//! server calls them.

use std::fs;

use hashedit_tools::{
    EditArgs, EditMode, ErrorKind, ReadFileArgs, Session, ToolContext, Workspace,
};

fn setup(content: &str) -> (tempfile::TempDir, Workspace, Session) {
    let dir = tempfile::tempdir().unwrap();
    put_f_txt(&dir, content);
    let ws = Workspace::new(dir.path()).unwrap();
    (dir, ws, Session::new())
}

/// The content of `f.txt` now.
fn f_txt(dir: &tempfile::TempDir) -> String {
    fs::read_to_string(dir.path().join("f.txt")).unwrap()
}

/// Writes `f.txt` directly, not through the tools (as another program
/// would).
fn put_f_txt(dir: &tempfile::TempDir, content: impl AsRef<[u8]>) {
    fs::write(dir.path().join("f.txt"), content).unwrap();
}

fn read_tag(cx: &ToolContext) -> String {
    let out = hashedit_tools::read_file(
        cx,
        &ReadFileArgs {
            path: "f.txt".into(),
            ..Default::default()
        },
    )
    .unwrap();
    out.structured()["tag"].as_str().unwrap().to_string()
}

fn edit(
    cx: &ToolContext,
    doc: String,
) -> Result<hashedit_tools::Outcome, hashedit_tools::ToolError> {
    hashedit_tools::edit(cx, &EditArgs::new(doc), EditMode::Apply)
}

#[test]
fn b05_colliding_snapshot_is_stale() {
    let (dir, ws, session) = setup("alpha\nbeta\n");
    let cx = ToolContext::new(&ws).with_session(&session);
    let t = read_tag(&cx);
    let changed = "// build 075ab-002d6\nalpha\nbeta\n";
    put_f_txt(&dir, changed);
    assert_eq!(
        read_tag(&ToolContext::new(&ws)),
        t,
        "the handed pair collides"
    );
    let err = edit(&cx, format!("[f.txt#{t}]\nPUT 1:\n+ALPHA")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert!(err.message.contains("collision"), "{}", err.message);
    assert!(
        err.message
            .contains(&format!("[f.txt#{t}]\n1:// build 075ab-002d6")),
        "{}",
        err.message
    );
    assert_eq!(f_txt(&dir), changed);
}

#[test]
fn whitespace_drift_is_not_a_collision() {
    let (dir, ws, session) = setup("a\r\nb\r\n");
    let cx = ToolContext::new(&ws).with_session(&session);
    let t = read_tag(&cx);
    put_f_txt(&dir, "a\nb\n");
    edit(&cx, format!("[f.txt#{t}]\nPUT 1:\n+X")).unwrap();
    assert_eq!(f_txt(&dir), "X\nb\n");
}

#[test]
fn drift_in_an_unrelated_region_is_rebased() {
    let original: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    let (dir, ws, session) = setup(&original);
    let cx = ToolContext::new(&ws).with_session(&session);
    let t = read_tag(&cx);
    let drifted = format!("// header one\n// header two\n{original}");
    put_f_txt(&dir, &drifted);
    let live = read_tag(&ToolContext::new(&ws));
    let out = edit(&cx, format!("[f.txt#{t}]\nPUT 8:\n+LINE EIGHT")).unwrap();
    assert_eq!(f_txt(&dir), drifted.replace("line 8\n", "LINE EIGHT\n"));
    assert!(
        out.text
            .contains(&format!("snapshot {t} was served (it is now {live})")),
        "{}",
        out.text
    );
    assert!(out.text.contains("moved by +2 lines"), "{}", out.text);
    // The preview numbers the live file.
    assert!(out.text.contains("\n10:LINE EIGHT\n"), "{}", out.text);
}

#[test]
fn drift_at_the_edited_lines_fails_closed() {
    let original: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    let (dir, ws, session) = setup(&original);
    let cx = ToolContext::new(&ws).with_session(&session);
    let t = read_tag(&cx);
    let drifted = original.replace("line 7\n", "line seven\n");
    put_f_txt(&dir, &drifted);
    let err = edit(&cx, format!("[f.txt#{t}]\nPUT 8:\n+LINE EIGHT")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert!(
        err.message.contains("could not be moved onto it safely"),
        "{}",
        err.message
    );
    assert!(err.message.contains("\n7:line seven\n"), "{}", err.message);
    assert_eq!(f_txt(&dir), drifted);
}

#[test]
fn chained_edits_record_their_previews() {
    let (dir, ws, session) = setup("a\nb\nc\n");
    let cx = ToolContext::new(&ws).with_session(&session);
    let t = read_tag(&cx);
    let out = edit(&cx, format!("[f.txt#{t}]\nPUT 2:\n+B")).unwrap();
    let start = out.text.find("[f.txt#").unwrap() + 7;
    let t2 = &out.text[start..start + 4];
    // Someone appends a line; the second edit, chained from the preview
    // tag, is rebased (the appended line is far from line 1).
    put_f_txt(&dir, "a\nB\nc\nd\n");
    let out = edit(&cx, format!("[f.txt#{t2}]\nPUT 1:\n+A")).unwrap();
    assert!(out.text.contains("moved by +0 lines"), "{}", out.text);
    assert_eq!(f_txt(&dir), "A\nB\nc\nd\n");
}

#[test]
fn b06_reused_anchors_are_stale_even_with_a_session() {
    // The session still holds the first snapshot, but an edit written
    // against it already landed: a second edit from it is stale, never
    // rebased onto the first edit's result.
    let (dir, ws, session) = setup("a\nb\nc\n");
    let cx = ToolContext::new(&ws).with_session(&session);
    let t1 = read_tag(&cx);
    edit(&cx, format!("[f.txt#{t1}]\nPUT >1:\n+x")).unwrap();
    let err = edit(&cx, format!("[f.txt#{t1}]\nPUT 3:\n+C")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert_eq!(f_txt(&dir), "a\nx\nb\nc\n");
}

#[test]
fn b07_racing_edits_from_one_snapshot_exactly_one_lands_with_a_session() {
    for _ in 0..20 {
        let (dir, ws, session) = setup("1\n2\n3\n4\n5\n");
        let cx = ToolContext::new(&ws).with_session(&session);
        let t = read_tag(&cx);
        let (ra, rb) = std::thread::scope(|s| {
            let a = s.spawn(|| edit(&cx, format!("[f.txt#{t}]\nPUT 2:\n+TWO")));
            let b = s.spawn(|| edit(&cx, format!("[f.txt#{t}]\nPUT 4:\n+FOUR")));
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(usize::from(ra.is_ok()) + usize::from(rb.is_ok()), 1);
        let loser = if ra.is_ok() { rb } else { ra };
        assert_eq!(loser.unwrap_err().kind, ErrorKind::StaleTag);
        let after = f_txt(&dir);
        assert!(
            after == "1\nTWO\n3\n4\n5\n" || after == "1\n2\n3\nFOUR\n5\n",
            "{after}"
        );
    }
}

#[test]
fn a_rebased_edit_consumes_the_snapshot_it_was_written_against() {
    let original: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    let (dir, ws, session) = setup(&original);
    let cx = ToolContext::new(&ws).with_session(&session);
    let t = read_tag(&cx);
    put_f_txt(&dir, format!("top\n{original}"));
    edit(&cx, format!("[f.txt#{t}]\nPUT 8:\n+EIGHT")).unwrap();
    let err = edit(&cx, format!("[f.txt#{t}]\nPUT 2:\n+TWO")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
}

#[test]
fn b05_grep_headers_are_remembered_too() {
    let (dir, ws, session) = setup("alpha\nbeta\n");
    let cx = ToolContext::new(&ws).with_session(&session);
    let out = hashedit_tools::grep(
        &cx,
        &hashedit_tools::GrepArgs {
            pattern: "beta".into(),
            ..Default::default()
        },
    )
    .unwrap();
    let t = out.structured()["files"][0]["tag"]
        .as_str()
        .unwrap()
        .to_string();
    fs::write(
        dir.path().join("f.txt"),
        "// build 075ab-002d6\nalpha\nbeta\n",
    )
    .unwrap();
    let err = edit(&cx, format!("[f.txt#{t}]\nPUT 1:\n+ALPHA")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert!(err.message.contains("collision"), "{}", err.message);
}

#[test]
fn a_broad_grep_does_not_push_out_a_reads_fingerprint() {
    // Second trial: 300 files of grep hits used to evict the read of
    // f.txt from a 256-file memory, and the collision then went unseen.
    let (dir, ws, session) = setup("alpha\nbeta\n");
    for i in 0..300 {
        fs::write(dir.path().join(format!("n{i}.txt")), "needle\n").unwrap();
    }
    let cx = ToolContext::new(&ws).with_session(&session);
    let t = read_tag(&cx);
    hashedit_tools::grep(
        &cx,
        &hashedit_tools::GrepArgs {
            pattern: "needle".into(),
            max_results: Some(1000),
            max_per_file: Some(1),
            ..Default::default()
        },
    )
    .unwrap();
    fs::write(
        dir.path().join("f.txt"),
        "// build 075ab-002d6\nalpha\nbeta\n",
    )
    .unwrap();
    let err = edit(&cx, format!("[f.txt#{t}]\nPUT 1:\n+ALPHA")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
}

#[test]
fn the_newest_snapshot_served_under_a_tag_is_the_one_it_names() {
    // The model read v1, then wrote v2 itself (same 4-hex tag): the write's
    // reply showed v2 under that tag, so the tag now names v2; v1 no longer
    // confirms anything.
    let (dir, ws, session) = setup("alpha\nbeta\n");
    let cx = ToolContext::new(&ws).with_session(&session);
    let t = read_tag(&cx);
    let v2 = "// build 075ab-002d6\nalpha\nbeta\n";
    let out = hashedit_tools::write(
        &cx,
        &hashedit_tools::WriteArgs {
            path: "f.txt".into(),
            content: v2.into(),
            tag: None,
            force: None,
        },
    )
    .unwrap();
    assert!(out.text.contains(&format!("[f.txt#{t}]")));
    // Someone restores v1: same tag, but not the snapshot last served.
    put_f_txt(&dir, "alpha\nbeta\n");
    let err = edit(&cx, format!("[f.txt#{t}]\nPUT 1:\n+X")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert!(err.message.contains("collision"), "{}", err.message);
}

#[test]
fn a_missing_path_under_a_served_tag_suggests_the_file_that_was_served() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("src/deep")).unwrap();
    fs::write(dir.path().join("src/deep/f.txt"), "alpha\nbeta\n").unwrap();
    let ws = Workspace::new(dir.path()).unwrap();
    let session = Session::new();
    let cx = ToolContext::new(&ws).with_session(&session);
    let out = hashedit_tools::read_file(
        &cx,
        &ReadFileArgs {
            path: "src/deep/f.txt".into(),
            ..Default::default()
        },
    )
    .unwrap();
    let t = out.structured()["tag"].as_str().unwrap().to_string();
    // The model drops a directory from the path it read.
    let err = edit(&cx, format!("[src/f.txt#{t}]\nPUT 1:\n+ALPHA")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotFound);
    assert_eq!(
        err.message,
        format!(
            "src/f.txt (document line 1) does not exist; edit never creates files, so use write to create \
             it. A snapshot with this tag was served for src/deep/f.txt: if you meant that file, use the \
             header [src/deep/f.txt#{t}]. Nothing was written."
        )
    );
    // Another tag, or no session: no guess.
    let other = if t == "0000" { "0001" } else { "0000" };
    let err = edit(&cx, format!("[src/f.txt#{other}]\nPUT 1:\n+ALPHA")).unwrap_err();
    assert!(!err.message.contains("was served for"), "{}", err.message);
    let err = edit(
        &ToolContext::new(&ws),
        format!("[src/f.txt#{t}]\nPUT 1:\n+ALPHA"),
    )
    .unwrap_err();
    assert!(!err.message.contains("was served for"), "{}", err.message);
    assert_eq!(
        fs::read_to_string(dir.path().join("src/deep/f.txt")).unwrap(),
        "alpha\nbeta\n"
    );
    assert!(!dir.path().join("src/f.txt").exists());
}

#[test]
fn concurrent_edits_keep_each_others_register_captures() {
    // Two edits of different files run at once, each cutting into its own
    // named register. Each used to copy all registers out of the session
    // at its start and write them all back at its end, so the later one
    // put back the other's register as it was before.
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::new(dir.path()).unwrap();
    let session = Session::new();
    for round in 0..200 {
        let mut documents = Vec::new();
        for name in ["a", "b"] {
            let content = format!("{name} {round}\nlast\n");
            fs::write(dir.path().join(format!("{name}.txt")), &content).unwrap();
            let tag = hashedit_core::TagScheme::Rho.tag_of(content.as_bytes());
            // Cut the first line into @name and paste it at the end.
            documents.push(format!(
                "[{name}.txt#{tag}]\nCUT 1 @{name}\nPUT >$ @{name}\n"
            ));
        }
        std::thread::scope(|scope| {
            for document in &documents {
                let cx = ToolContext::new(&ws).with_session(&session);
                scope.spawn(move || edit(&cx, document.clone()).unwrap());
            }
        });
        let registers = session.registers();
        assert_eq!(
            registers.get("a"),
            Some(&vec![format!("a {round}")]),
            "round {round}"
        );
        assert_eq!(
            registers.get("b"),
            Some(&vec![format!("b {round}")]),
            "round {round}"
        );
    }
}

#[test]
fn importing_fingerprints_replays_them_in_order_with_their_consumed_marks() {
    use std::path::{Path, PathBuf};

    use hashedit_core::TagScheme;
    let print = |text: &str| TagScheme::Rho.fingerprint(text.as_bytes());
    let (a, b) = (Path::new("/w/a.txt"), Path::new("/w/b.txt"));
    // Six snapshots of a (four are kept, newest first), a consumed one of
    // b, then a again: a is the most recently used file.
    let mut entries: Vec<(PathBuf, _, bool)> = (0..6)
        .map(|i| (a.to_path_buf(), print(&format!("a{i}\n")), i == 4))
        .collect();
    entries.insert(3, (b.to_path_buf(), print("b\n"), true));
    entries.push((a.to_path_buf(), print("a2\n"), false));
    let session = Session::new();
    session.import_fingerprints(entries);
    let exported = session.export_fingerprints();
    let expected: Vec<(PathBuf, _, bool)> = vec![
        (b.to_path_buf(), print("b\n"), true),
        (a.to_path_buf(), print("a3\n"), false),
        (a.to_path_buf(), print("a4\n"), true),
        (a.to_path_buf(), print("a5\n"), false),
        (a.to_path_buf(), print("a2\n"), false),
    ];
    assert_eq!(exported, expected);
    assert_eq!(session.files_remembered(), 2);
    // Imported snapshots keep no text.
    assert_eq!(session.text_bytes(), 0);
    assert_eq!(session.served_text(a, print("a2\n").tag), None);
}
