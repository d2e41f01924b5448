//! One test per handed case, named by case id,
//! run through the tools exactly as the CLI and MCP server run them. Each
//! asserts the exact resulting bytes or error kind, and that failures leave
//! every file byte-identical.

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use hashedit_tools::{
    EditArgs, EditMode, ErrorKind, GrepArgs, Outcome, ReadFileArgs, ToolContext, ToolResult,
    Workspace, WriteArgs,
};

struct Ws {
    dir: tempfile::TempDir,
    ws: Workspace,
}

impl Ws {
    fn new() -> Ws {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::new(dir.path()).unwrap();
        Ws { dir, ws }
    }

    fn cx(&self) -> ToolContext<'_> {
        ToolContext::new(&self.ws)
    }

    fn path(&self, name: &str) -> std::path::PathBuf {
        self.dir.path().join(name)
    }

    fn put(&self, name: &str, bytes: &[u8]) {
        let path = self.path(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(path, bytes).unwrap();
    }

    fn bytes(&self, name: &str) -> Vec<u8> {
        fs::read(self.path(name)).unwrap()
    }

    fn read(&self, name: &str) -> ToolResult<Outcome> {
        hashedit_tools::read_file(
            &self.cx(),
            &ReadFileArgs {
                path: name.into(),
                ..Default::default()
            },
        )
    }

    /// The tag a read of `name` reports.
    fn tag(&self, name: &str) -> String {
        let out = self.read(name).unwrap();
        out.structured()["tag"].as_str().unwrap().to_string()
    }

    fn edit(&self, doc: &str) -> ToolResult<Outcome> {
        hashedit_tools::edit(&self.cx(), &EditArgs::new(doc), EditMode::Apply)
    }

    /// `edit` with `force`: the guards report instead of refusing.
    fn forced(&self, doc: &str) -> ToolResult<Outcome> {
        let args = EditArgs {
            input: doc.into(),
            force: Some(true),
        };
        hashedit_tools::edit(&self.cx(), &args, EditMode::Apply)
    }

    fn write(&self, name: &str, content: &str) -> ToolResult<Outcome> {
        hashedit_tools::write(
            &self.cx(),
            &WriteArgs {
                path: name.into(),
                content: content.into(),
                tag: None,
                force: None,
            },
        )
    }

    /// `write` over an existing file with its live tag, as a model that
    /// read it sends (no session here).
    fn write_after_read(&self, name: &str, content: &str) -> ToolResult<Outcome> {
        hashedit_tools::write(
            &self.cx(),
            &WriteArgs {
                path: name.into(),
                content: content.into(),
                tag: Some(self.tag(name)),
                force: None,
            },
        )
    }

    fn grep(&self, pattern: &str) -> ToolResult<Outcome> {
        hashedit_tools::grep(
            &self.cx(),
            &GrepArgs {
                pattern: pattern.into(),
                ..Default::default()
            },
        )
    }
}

fn kind(result: ToolResult<Outcome>) -> ErrorKind {
    result.expect_err("the call should fail").kind
}

/// The `[path#TAG]` header at the top of a reply, e.g. a post-edit preview.
fn header_tag(text: &str, path: &str) -> String {
    let start = text
        .find(&format!("[{path}#"))
        .expect("reply has the header")
        + path.len()
        + 2;
    text[start..start + 4].to_string()
}

#[test]
fn b01_a_body_restating_the_lines_outside_its_range_is_refused_unless_forced() {
    let w = Ws::new();
    let original = b"keep\nold-a\nold-b\nkeep\n";
    w.put("f.txt", original);
    let t = w.tag("f.txt");
    let doc = format!("[f.txt#{t}]\nPUT 2.=3:\n+keep\n+new-a\n+new-b\n+keep");
    let refused = w.edit(&doc).unwrap_err();
    assert_eq!(refused.kind, ErrorKind::EchoedRows);
    // Both readings are offered, ready to copy.
    assert!(
        refused.message.contains("try: PUT 2.=3:\n+new-a\n+new-b\n"),
        "{}",
        refused.message
    );
    assert!(
        refused
            .message
            .contains("try: PUT 1.=4:\n+keep\n+keep\n+new-a\n+new-b\n+keep\n+keep\n"),
        "{}",
        refused.message
    );
    assert_eq!(w.bytes("f.txt"), original);
    // With force, the body is applied literally, never trimmed.
    let out = w.forced(&doc).unwrap();
    assert_eq!(w.bytes("f.txt"), b"keep\nkeep\nnew-a\nnew-b\nkeep\nkeep\n");
    assert!(out.text.contains("(written as sent)"), "{}", out.text);
    // (2) a bare keyword under a PUT is a parse error; nothing changes.
    w.put("g.txt", original);
    let t = w.tag("g.txt");
    assert_eq!(
        kind(w.edit(&format!("[g.txt#{t}]\nPUT 2.=3:\nCUT"))),
        ErrorKind::ParseError
    );
    assert_eq!(w.bytes("g.txt"), original);
}

#[test]
fn b02_inserts_restating_the_anchor_are_refused_unless_forced() {
    let w = Ws::new();
    for (name, doc, forced) in [
        (
            "f.txt",
            "PUT >2:\n+bbb\n+NEW",
            &b"aaa\nbbb\nbbb\nNEW\nccc\n"[..],
        ),
        (
            "g.txt",
            "PUT <2:\n+NEW\n+bbb",
            &b"aaa\nNEW\nbbb\nbbb\nccc\n"[..],
        ),
    ] {
        w.put(name, b"aaa\nbbb\nccc\n");
        let t = w.tag(name);
        let doc = format!("[{name}#{t}]\n{doc}");
        let refused = w.edit(&doc).unwrap_err();
        assert_eq!(refused.kind, ErrorKind::EchoedRows, "{name}");
        assert!(
            refused
                .message
                .contains("if the repeated rows were context")
                && refused.message.contains("if you do mean the lines twice"),
            "{}",
            refused.message
        );
        assert_eq!(w.bytes(name), b"aaa\nbbb\nccc\n");
        w.forced(&doc).unwrap();
        assert_eq!(w.bytes(name), forced, "{name}");
    }
}

#[test]
fn b03_rows_without_plus_are_refused_and_plus_text_is_never_stripped() {
    let w = Ws::new();
    w.put("f.txt", b"a\nb\nc\n");
    let t = w.tag("f.txt");
    assert_eq!(
        kind(w.edit(&format!("[f.txt#{t}]\nPUT 2:\n2:B"))),
        ErrorKind::ParseError
    );
    assert_eq!(w.bytes("f.txt"), b"a\nb\nc\n");
    w.edit(&format!("[f.txt#{t}]\nPUT 2:\n+12:30 standup"))
        .unwrap();
    assert_eq!(w.bytes("f.txt"), b"a\n12:30 standup\nc\n");
}

#[test]
fn b04_one_plus_removed_per_row() {
    let w = Ws::new();
    w.put("f.txt", b"# todo\nold\n");
    let t = w.tag("f.txt");
    w.edit(&format!(
        "[f.txt#{t}]\nPUT 2:\n+- [x] done\n+- [ ] next\n++1"
    ))
    .unwrap();
    assert_eq!(w.bytes("f.txt"), b"# todo\n- [x] done\n- [ ] next\n+1\n");
}

#[test]
fn b06_reused_anchors_after_an_edit_are_stale() {
    let w = Ws::new();
    w.put("f.txt", b"a\nb\nc\n");
    let t1 = w.tag("f.txt");
    let out = w.edit(&format!("[f.txt#{t1}]\nPUT >1:\n+x")).unwrap();
    assert_eq!(w.bytes("f.txt"), b"a\nx\nb\nc\n");
    let t2 = header_tag(&out.text, "f.txt");
    assert_ne!(t1, t2);
    assert_eq!(t2, w.tag("f.txt"));
    let err = w.edit(&format!("[f.txt#{t1}]\nPUT 3:\n+C")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::StaleTag);
    assert!(
        err.message.contains(&format!("[f.txt#{t2}]")),
        "{}",
        err.message
    );
    assert_eq!(w.bytes("f.txt"), b"a\nx\nb\nc\n");
}

#[test]
fn b07_concurrent_edits_from_one_snapshot_exactly_one_lands() {
    for _ in 0..20 {
        let w = Ws::new();
        w.put("f.txt", b"1\n2\n3\n4\n5\n");
        let t = w.tag("f.txt");
        let a = format!("[f.txt#{t}]\nPUT 2:\n+TWO");
        let b = format!("[f.txt#{t}]\nPUT 4:\n+FOUR");
        let (ra, rb) = std::thread::scope(|s| {
            let ha = s.spawn(|| w.edit(&a));
            let hb = s.spawn(|| w.edit(&b));
            (ha.join().unwrap(), hb.join().unwrap())
        });
        let outcomes = [ra.is_ok(), rb.is_ok()];
        assert_eq!(
            outcomes.iter().filter(|ok| **ok).count(),
            1,
            "exactly one edit lands"
        );
        let loser = if ra.is_ok() { rb } else { ra };
        assert_eq!(loser.unwrap_err().kind, ErrorKind::StaleTag);
        let bytes = w.bytes("f.txt");
        assert!(bytes == b"1\nTWO\n3\n4\n5\n" || bytes == b"1\n2\n3\nFOUR\n5\n");
    }
}

#[test]
fn b08_grep_headers_carry_the_read_tag() {
    let w = Ws::new();
    w.put("f.txt", b"alpha\r\nbeta\r\ngamma\r\n");
    let t = w.tag("f.txt");
    let out = w.grep("beta").unwrap();
    assert!(
        out.text.starts_with(&format!("[f.txt#{t}]\n2 | beta\n")),
        "{}",
        out.text
    );
    assert!(!out.text.contains('\r'));
    w.edit(&format!("[f.txt#{t}]\nPUT 2:\n+BETA")).unwrap();
    assert_eq!(w.bytes("f.txt"), b"alpha\r\nBETA\r\ngamma\r\n");
}

#[test]
fn b10_mixed_endings_untouched_lines_stay_identical() {
    let w = Ws::new();
    w.put("f.txt", b"a\r\nb\nc");
    let t = w.tag("f.txt");
    w.edit(&format!("[f.txt#{t}]\nPUT 3:\n+C")).unwrap();
    assert_eq!(w.bytes("f.txt"), b"a\r\nb\nC");
    w.put("g.txt", b"a\r\nb\nc");
    let t = w.tag("g.txt");
    w.edit(&format!("[g.txt#{t}]\nPUT 2:\n+B1\n+B2")).unwrap();
    assert_eq!(w.bytes("g.txt"), b"a\r\nB1\nB2\nc");
}

#[test]
fn b11_crlf_file_stays_crlf() {
    let w = Ws::new();
    w.put("f.txt", b"one\r\ntwo\r\nthree\r\n");
    let out = w.read("f.txt").unwrap();
    assert!(!out.text.contains('\r'));
    let t = w.tag("f.txt");
    w.edit(&format!("[f.txt#{t}]\nPUT >1:\n+inserted")).unwrap();
    assert_eq!(w.bytes("f.txt"), b"one\r\ninserted\r\ntwo\r\nthree\r\n");
    w.put("lf.txt", b"one\ntwo\n");
    let t = w.tag("lf.txt");
    w.edit(&format!("[lf.txt#{t}]\nPUT >1:\n+inserted"))
        .unwrap();
    assert_eq!(w.bytes("lf.txt"), b"one\ninserted\ntwo\n");
}

#[test]
fn b12_bom_is_hidden_and_kept() {
    let w = Ws::new();
    let original = "\u{FEFF}hello\n中文\n".as_bytes();
    w.put("f.txt", original);
    let out = w.read("f.txt").unwrap();
    assert!(out.text.contains("\n1:hello\n"), "{:?}", out.text);
    let t = w.tag("f.txt");
    w.edit(&format!("[f.txt#{t}]\nPUT 1:\n+hello2")).unwrap();
    assert_eq!(w.bytes("f.txt"), "\u{FEFF}hello2\n中文\n".as_bytes());
    w.put("g.txt", original);
    let t = w.tag("g.txt");
    w.edit(&format!("[g.txt#{t}]\nPUT <1:\n+# top")).unwrap();
    assert_eq!(w.bytes("g.txt"), "\u{FEFF}# top\nhello\n中文\n".as_bytes());
}

#[test]
fn b13_latin1_file_is_refused_untouched() {
    let w = Ws::new();
    let original = b"const x = 1;\n// caf\xE9 note\n";
    w.put("f.txt", original);
    assert_eq!(kind(w.read("f.txt")), ErrorKind::NotUtf8);
    assert_eq!(
        kind(w.edit("[f.txt#ABCD]\nPUT 1:\n+const x = 2;")),
        ErrorKind::NotUtf8
    );
    assert_eq!(w.bytes("f.txt"), original);
}

#[test]
fn b15_trailing_blank_line_survives_repeated_edits() {
    let w = Ws::new();
    w.put("f.txt", b"alpha\nbeta\n\n");
    let out = w.read("f.txt").unwrap();
    assert!(out.text.ends_with("\n3:"), "{:?}", out.text);
    for word in ["ALPHA", "alpha", "ALPHA"] {
        let t = w.tag("f.txt");
        w.edit(&format!("[f.txt#{t}]\nPUT 1:\n+{word}")).unwrap();
        assert_eq!(w.bytes("f.txt"), format!("{word}\nbeta\n\n").as_bytes());
    }
}

#[test]
fn b17_edit_through_a_symlink_updates_the_target() {
    let w = Ws::new();
    w.put("real.txt", b"x\n");
    symlink("real.txt", w.path("link.txt")).unwrap();
    let t = w.tag("link.txt");
    let out = w.edit(&format!("[link.txt#{t}]\nPUT 1:\n+y")).unwrap();
    assert!(out.text.contains("[link.txt#"), "{}", out.text);
    assert_eq!(w.bytes("real.txt"), b"y\n");
    assert!(
        fs::symlink_metadata(w.path("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        fs::read_link(w.path("link.txt")).unwrap(),
        Path::new("real.txt")
    );
    assert_eq!(w.tag("link.txt"), w.tag("real.txt"));
}

#[test]
fn b18_mode_is_preserved() {
    let w = Ws::new();
    w.put("run.sh", b"#!/bin/sh\necho a\n");
    fs::set_permissions(w.path("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
    let t = w.tag("run.sh");
    w.edit(&format!("[run.sh#{t}]\nPUT 2:\n+echo b")).unwrap();
    assert_eq!(w.bytes("run.sh"), b"#!/bin/sh\necho b\n");
    let mode = fs::metadata(w.path("run.sh")).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o755);
    // No session here: the live tag is what lets write replace it.
    hashedit_tools::write(
        &w.cx(),
        &WriteArgs {
            path: "run.sh".into(),
            content: "#!/bin/sh\necho c\n".into(),
            tag: Some(w.tag("run.sh")),
            force: None,
        },
    )
    .unwrap();
    let mode = fs::metadata(w.path("run.sh")).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o755);
}

#[test]
fn b19_symlinks_cannot_escape_the_workspace() {
    let parent = tempfile::tempdir().unwrap();
    let proj = parent.path().join("proj");
    let evil = parent.path().join("proj-evil");
    let outside = parent.path().join("outside");
    fs::create_dir_all(&proj).unwrap();
    fs::create_dir_all(&evil).unwrap();
    fs::create_dir_all(&outside).unwrap();
    fs::write(evil.join("x"), "secret\n").unwrap();
    fs::write(outside.join("host"), "hostname-secret\n").unwrap();
    symlink(outside.join("host"), proj.join("leak")).unwrap();
    symlink(&outside, proj.join("out")).unwrap();
    let ws = Workspace::new(&proj).unwrap();
    let cx = ToolContext::new(&ws);
    let read = |p: &str| {
        hashedit_tools::read_file(
            &cx,
            &ReadFileArgs {
                path: p.into(),
                ..Default::default()
            },
        )
    };
    assert_eq!(
        read("leak").unwrap_err().kind,
        ErrorKind::PathOutsideWorkspace
    );
    assert_eq!(
        read("../proj-evil/x").unwrap_err().kind,
        ErrorKind::PathOutsideWorkspace
    );
    let abs = evil.join("x").to_string_lossy().into_owned();
    assert_eq!(
        read(&abs).unwrap_err().kind,
        ErrorKind::PathOutsideWorkspace
    );
    let written = hashedit_tools::write(
        &cx,
        &WriteArgs {
            path: "out/new.txt".into(),
            content: "x\n".into(),
            tag: None,
            force: None,
        },
    );
    assert_eq!(written.unwrap_err().kind, ErrorKind::PathOutsideWorkspace);
    assert!(!outside.join("new.txt").exists());
    let grep = hashedit_tools::grep(
        &cx,
        &GrepArgs {
            pattern: "secret".into(),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(
        !grep.text.contains("secret\n") && grep.text.starts_with("no matches"),
        "{}",
        grep.text
    );
}

#[test]
fn b21_zip_documents_are_binary() {
    let w = Ws::new();
    let original = b"PK\x03\x04\x14\x00\x00\x00\x08\x00rest";
    w.put("s.ods", original);
    assert_eq!(kind(w.read("s.ods")), ErrorKind::Binary);
    let grep = w.grep("PK").unwrap();
    assert!(!grep.text.contains("[s.ods#"), "{}", grep.text);
    assert_eq!(kind(w.edit("[s.ods#ABCD]\nPUT 1:\n+x")), ErrorKind::Binary);
    assert_eq!(w.bytes("s.ods"), original);
}

#[test]
fn b22_mtime_alone_never_makes_a_tag_stale() {
    let w = Ws::new();
    w.put("f.txt", b"a\nb\n");
    let t = w.tag("f.txt");
    let file = fs::File::options()
        .write(true)
        .open(w.path("f.txt"))
        .unwrap();
    file.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(60))
        .unwrap();
    drop(file);
    w.edit(&format!("[f.txt#{t}]\nPUT 2:\n+B")).unwrap();
    assert_eq!(w.bytes("f.txt"), b"a\nB\n");
    let t2 = w.tag("f.txt");
    w.put("f.txt", b"A\nB\n");
    assert_eq!(
        kind(w.edit(&format!("[f.txt#{t2}]\nPUT 1:\n+a2"))),
        ErrorKind::StaleTag
    );
    assert_eq!(w.bytes("f.txt"), b"A\nB\n");
}

#[test]
fn d01_empty_files() {
    let w = Ws::new();
    w.put("e.txt", b"");
    let out = w.read("e.txt").unwrap();
    assert_eq!(out.text, "[e.txt#9DC5]");
    w.edit("[e.txt#9DC5]\nPUT >$:\n+hello").unwrap();
    assert_eq!(w.bytes("e.txt"), b"hello\n");
    w.put("e2.txt", b"");
    assert_eq!(
        kind(w.edit("[e2.txt#9DC5]\nPUT 1:\n+x")),
        ErrorKind::LineOutOfRange
    );
    assert_eq!(w.bytes("e2.txt"), b"");
    w.put("f.txt", b"x\n");
    let t = w.tag("f.txt");
    w.edit(&format!("[f.txt#{t}]\nCUT 1.=1")).unwrap();
    assert_eq!(w.bytes("f.txt"), b"");
    w.put("g.txt", b"x\n");
    let t = w.tag("g.txt");
    w.edit(&format!("[g.txt#{t}]\nPUT 1:\n+")).unwrap();
    assert_eq!(w.bytes("g.txt"), b"\n");
}

#[test]
fn d02_read_only_and_vanished_targets() {
    let w = Ws::new();
    w.put("ro.txt", b"a\n");
    fs::set_permissions(w.path("ro.txt"), fs::Permissions::from_mode(0o444)).unwrap();
    let t = w.tag("ro.txt");
    assert_eq!(
        kind(w.edit(&format!("[ro.txt#{t}]\nPUT 1:\n+b"))),
        ErrorKind::PermissionDenied
    );
    assert_eq!(w.bytes("ro.txt"), b"a\n");
    let mode = fs::metadata(w.path("ro.txt")).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o444);
    w.put("f.txt", b"a\n");
    let t = w.tag("f.txt");
    fs::remove_file(w.path("f.txt")).unwrap();
    assert_eq!(
        kind(w.edit(&format!("[f.txt#{t}]\nPUT 1:\n+b"))),
        ErrorKind::NotFound
    );
    assert!(!w.path("f.txt").exists());
}

#[test]
fn d03_deleting_the_last_line() {
    for (file, after_cut2) in [(&b"a\nb"[..], &b"a"[..]), (&b"a\nb\n"[..], &b"a\n"[..])] {
        let w = Ws::new();
        w.put("f.txt", file);
        let t = w.tag("f.txt");
        w.edit(&format!("[f.txt#{t}]\nCUT 2.=2")).unwrap();
        assert_eq!(w.bytes("f.txt"), after_cut2);
        w.put("g.txt", file);
        let t = w.tag("g.txt");
        w.edit(&format!("[g.txt#{t}]\nCUT 1.=2")).unwrap();
        assert_eq!(w.bytes("g.txt"), b"");
    }
}

#[test]
fn d05_trailing_whitespace_is_kept() {
    let w = Ws::new();
    w.put("f.md", b"line one  \nline two\n");
    let out = w.read("f.md").unwrap();
    assert!(out.text.contains("\n1:line one  \n"));
    let t = w.tag("f.md");
    w.edit(&format!("[f.md#{t}]\nPUT 2:\n+line 2  ")).unwrap();
    assert_eq!(w.bytes("f.md"), b"line one  \nline 2  \n");
}

#[test]
fn d06_huge_file_tag_covers_everything() {
    let w = Ws::new();
    let original: String = (1..=200_000).map(|i| format!("L{i:06}\n")).collect();
    w.put("big.txt", original.as_bytes());
    let out = w.read("big.txt").unwrap();
    let t = out.structured()["tag"].as_str().unwrap().to_string();
    assert_eq!(
        t,
        hashedit_core::TagScheme::Rho
            .tag_of(original.as_bytes())
            .to_string()
    );
    assert_eq!(out.structured()["total_lines"], 200_000);
    w.edit(&format!("[big.txt#{t}]\nPUT 199999:\n+X")).unwrap();
    let expected = original.replace("L199999\n", "X\n");
    assert_eq!(w.bytes("big.txt"), expected.as_bytes());
}

#[test]
fn d08_utf16_is_refused() {
    let w = Ws::new();
    let original = b"\xFF\xFEh\x00i\x00\n\x00";
    w.put("w.txt", original);
    assert_eq!(kind(w.read("w.txt")), ErrorKind::UnsupportedEncoding);
    let grep = w.grep("hi").unwrap();
    assert!(!grep.text.contains("[w.txt#"), "{}", grep.text);
    assert_eq!(
        kind(w.edit("[w.txt#ABCD]\nPUT 1:\n+x")),
        ErrorKind::UnsupportedEncoding
    );
    assert_eq!(w.bytes("w.txt"), original);
}

#[test]
fn d09_whitespace_only_drift_applies_to_live_bytes() {
    let w = Ws::new();
    w.put("f.txt", b"a\r\nb\r\n");
    let t = w.tag("f.txt");
    w.put("f.txt", b"a\nb\n");
    assert_eq!(w.tag("f.txt"), t);
    w.edit(&format!("[f.txt#{t}]\nPUT 1:\n+X")).unwrap();
    assert_eq!(w.bytes("f.txt"), b"X\nb\n");
    w.put("g.txt", b"a\nb\n");
    let t = w.tag("g.txt");
    w.put("g.txt", b"a  \nb\t\n");
    w.edit(&format!("[g.txt#{t}]\nPUT 1:\n+X")).unwrap();
    assert_eq!(w.bytes("g.txt"), b"X\nb\t\n");
}

#[test]
fn d10_overlaps_fail_and_shared_anchors_keep_order() {
    let w = Ws::new();
    w.put("f.txt", b"1\n2\n3\n4\n");
    let t = w.tag("f.txt");
    assert_eq!(
        kind(w.edit(&format!("[f.txt#{t}]\nPUT 2.=3:\n+X\nCUT 3.=4"))),
        ErrorKind::OverlappingOps
    );
    assert_eq!(
        kind(w.edit(&format!("[f.txt#{t}]\nPUT 2:\n+A\nPUT 2:\n+B"))),
        ErrorKind::OverlappingOps
    );
    assert_eq!(w.bytes("f.txt"), b"1\n2\n3\n4\n");
    w.edit(&format!("[f.txt#{t}]\nPUT >2:\n+a\nPUT >2:\n+b"))
        .unwrap();
    assert_eq!(w.bytes("f.txt"), b"1\n2\na\nb\n3\n4\n");
}

#[test]
fn d11_out_of_range_and_degenerate_ops() {
    let w = Ws::new();
    w.put("f.txt", b"a\nb\nc\n");
    let t = w.tag("f.txt");
    for (ops, expected) in [
        ("PUT 0:\n+x", ErrorKind::ParseError),
        ("PUT 4:\n+x", ErrorKind::LineOutOfRange),
        ("CUT 3.=2", ErrorKind::ParseError),
        ("PUT 2:", ErrorKind::ParseError),
    ] {
        assert_eq!(
            kind(w.edit(&format!("[f.txt#{t}]\n{ops}"))),
            expected,
            "{ops}"
        );
        assert_eq!(w.bytes("f.txt"), b"a\nb\nc\n");
    }
    w.edit(&format!("[f.txt#{t}]\nPUT >3:\n+d")).unwrap();
    assert_eq!(w.bytes("f.txt"), b"a\nb\nc\nd\n");
}

#[test]
fn d14_write_is_literal_and_refuses_pasted_views() {
    let w = Ws::new();
    let out = w.write("config.toml", "[server]\nport = 1\n").unwrap();
    assert_eq!(w.bytes("config.toml"), b"[server]\nport = 1\n");
    let t = w.tag("config.toml");
    assert!(
        out.text.contains(&format!("[config.toml#{t}]")),
        "{}",
        out.text
    );
    w.put("a.md", b"# Title\n");
    assert_eq!(
        kind(w.write_after_read("a.md", "[a.md#1A2B]\n1:# Title\n2:text\n")),
        ErrorKind::LooksLikeReadOutput
    );
    assert_eq!(w.bytes("a.md"), b"# Title\n");
}

// Regressions from the first new-user trial.

#[test]
fn trial_previews_keep_the_new_header_when_rows_do_not_fit() {
    let w = Ws::new();
    let long = "y".repeat(100_000);
    let original = format!("{long}\nsecond\n");
    w.put("l.txt", original.as_bytes());
    let t = hashedit_core::TagScheme::Rho.tag_of(original.as_bytes());
    let out = w.edit(&format!("[l.txt#{t}]\nPUT 2:\n+S2")).unwrap();
    let new_tag = hashedit_core::TagScheme::Rho.tag_of(format!("{long}\nS2\n").as_bytes());
    assert_eq!(
        out.text,
        format!(
            "PUT 2: (1 → 1 line)\n[l.txt#{new_tag}]\n…\n2:S2\n\n[line 1 not shown: 100000 bytes long; \
             read_file with offset: 1, limit: 1 shows it only under an output budget of at least 100176 \
             bytes, more than this one of 64000 (the server's --max-output-bytes); grep for the part you \
             need]"
        )
    );
    // Rows that each fit but together exceed the budget: the header stays.
    let rows: String = (0..40)
        .map(|i| format!("{i:02}{}\n", "z".repeat(4000)))
        .collect();
    w.put("m.txt", rows.as_bytes());
    let t = hashedit_core::TagScheme::Rho.tag_of(rows.as_bytes());
    let ops = "PUT 5:\n+a\nPUT 15:\n+b\nPUT 25:\n+c\nPUT 35:\n+d";
    let out = w.edit(&format!("[m.txt#{t}]\n{ops}")).unwrap();
    assert!(out.text.starts_with("PUT 5: (1 → 1 line); PUT 15: (1 → 1 line); PUT 25: (1 → 1 line); PUT 35: (1 → 1 line)\n[m.txt#"));
    assert!(
        out.text.ends_with(
            "\n\n[the preview rows do not fit the output budget; read the file to see them]"
        ),
        "{}",
        &out.text[..200]
    );
    // write: the same for its snapshot.
    let out = w.write("w.txt", &rows).unwrap();
    assert!(out.text.ends_with(
        "\n\n[the snapshot rows do not fit the output budget; read the file to see them]"
    ));
    assert!(out.text.contains("[w.txt#"));
}

#[test]
fn trial_thousands_of_ops_still_chain() {
    let w = Ws::new();
    let original: String = (1..=20_000).map(|i| format!("{i}\n")).collect();
    w.put("s.txt", original.as_bytes());
    let t = hashedit_core::TagScheme::Rho.tag_of(original.as_bytes());
    let mut doc = format!("[s.txt#{t}]\n");
    for i in (1..6000).step_by(2) {
        doc.push_str(&format!("PUT {i}:\n+L{i}\n"));
    }
    let out = w.edit(&doc).unwrap();
    let first = out.text.lines().next().unwrap();
    assert!(first.ends_with("; … and 2976 more ops"), "{first}");
    let after = String::from_utf8(w.bytes("s.txt")).unwrap();
    let new_tag = hashedit_core::TagScheme::Rho.tag_of(after.as_bytes());
    assert!(
        out.text.contains(&format!("\n[s.txt#{new_tag}]\n")),
        "{}",
        &out.text[..200]
    );
}

#[test]
fn trial_write_of_binary_content_issues_no_tag() {
    let w = Ws::new();
    let out = w.write("n.txt", "a\0b\n").unwrap();
    assert_eq!(
        out.text,
        "created n.txt (4 bytes). The content is not editable text (binary file (NUL byte at offset 1)), so no \
         snapshot tag is issued; read_file and edit will refuse this file"
    );
    assert_eq!(out.structured()["tag"], serde_json::Value::Null);
    assert_eq!(w.bytes("n.txt"), b"a\0b\n");
    // Pasted grep output is refused like pasted read output.
    w.put("a.md", b"# Title\n");
    assert_eq!(
        kind(w.write_after_read("a.md", "[a.md#1A2B]\n1 | # Title\n")),
        ErrorKind::LooksLikeReadOutput
    );
}

#[test]
fn trial_omp_scheme_refuses_files_with_lone_carriage_returns() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("o.txt"), "a\rb\nc\n").unwrap();
    let ws = Workspace::new(dir.path())
        .unwrap()
        .with_tag_scheme(hashedit_core::TagScheme::Omp);
    let cx = ToolContext::new(&ws);
    // Same omp tag as "a\nb\nc\n", whose line 2 is "b"; here line 2 is "c".
    let tag = hashedit_core::TagScheme::Omp.tag_of(b"a\nb\nc\n");
    assert_eq!(tag, hashedit_core::TagScheme::Omp.tag_of(b"a\rb\nc\n"));
    let err = hashedit_tools::edit(
        &cx,
        &EditArgs::new(format!("[o.txt#{tag}]\nPUT 2:\n+B")),
        EditMode::Apply,
    )
    .unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnsupportedEncoding);
    assert_eq!(fs::read(dir.path().join("o.txt")).unwrap(), b"a\rb\nc\n");
}

#[test]
fn f01_a_line_starting_with_feff_is_never_turned_into_a_bom() {
    // Found by the apply fuzz target: `CUT 1` left line 2, which starts
    // with U+FEFF, at byte 0, where the file gained a BOM the preview hid.
    let w = Ws::new();
    let bytes = "\n\u{FEFF}x\ny\n".as_bytes();
    w.put("f.txt", bytes);
    let read = w.read("f.txt").unwrap();
    let t = w.tag("f.txt");
    assert_eq!(read.text, format!("[f.txt#{t}]\n1:\n2:\u{FEFF}x\n3:y"));
    let err = w.edit(&format!("[f.txt#{t}]\nCUT 1")).unwrap_err();
    assert_eq!(err.kind, ErrorKind::ParseError);
    assert!(
        err.message.starts_with(
            "f.txt: CUT 1 (document line 2) would make line 2 the file's first line, but line 2 \
             starts with U+FEFF (zero width no-break space)"
        ),
        "{}",
        err.message
    );
    assert_eq!(w.bytes("f.txt"), bytes);
    // With line 1 replaced instead, the U+FEFF stays content of line 2.
    w.edit(&format!("[f.txt#{t}]\nPUT 1:\n+top")).unwrap();
    assert_eq!(w.bytes("f.txt"), "top\n\u{FEFF}x\ny\n".as_bytes());
}
