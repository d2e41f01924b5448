use super::*;
use crate::search::testutil::Ws;
use serde_json::json;

fn ls(ws: &Ws, target: &str, budget: usize) -> ToolResult<Outcome> {
    let path = ws.path(target);
    list_dir(&ws.scope(&path, target), budget)
}

#[test]
fn lists_sorted_entries_with_dir_slashes_including_hidden_and_ignored() {
    let ws = Ws::new(&[
        (".gitignore", b"ignored.txt\n"),
        ("ignored.txt", b""),
        ("b.txt", b""),
        ("a/inner.txt", b""),
        ("a.txt", b""),
        (".git/HEAD", b""),
    ]);
    let out = ls(&ws, ".", 64_000).unwrap();
    // "a.txt" < "a/" byte-wise ('.' is 0x2E, '/' is 0x2F).
    assert_eq!(out.text, ".git/\n.gitignore\na.txt\na/\nb.txt\nignored.txt");
    assert_eq!(out.structured()["total"], json!(6));
    assert_eq!(
        out.structured()["entries"][1],
        json!({"name": ".gitignore", "kind": "file"})
    );
    assert_eq!(
        out.structured()["entries"][3],
        json!({"name": "a", "kind": "dir"})
    );
    assert_eq!(out.structured()["truncated"], json!(false));
    assert_eq!(ls(&ws, "a", 64_000).unwrap().text, "inner.txt");
}

#[test]
fn hashedit_temp_leftovers_are_not_listed_but_backups_are() {
    let ws = Ws::new(&[
        (".hashedit-0123456789abcdef.tmp", b"x"),
        (".hashedit-fedcba9876543210.bak", b"x"),
        (".hashedit-notes.tmp", b""),
        ("a.txt", b""),
    ]);
    let out = ls(&ws, ".", 64_000).unwrap();
    assert_eq!(
        out.text,
        ".hashedit-fedcba9876543210.bak\n.hashedit-notes.tmp\na.txt\n\n(1 hidden entry not shown: \
         unfinished temp file of a killed write; include_hidden=true shows it)"
    );
    assert_eq!(out.structured()["total"], json!(3));
    assert_eq!(out.structured()["hidden"], json!(1));
    // Break-it pass: only leftovers read as "(empty directory)", no hint.
    std::fs::create_dir(ws.path("d")).unwrap();
    ws.write("d/.hashedit-00000000000000ff.tmp", b"");
    ws.write("d/.hashedit-00000000000000fe.tmp", b"");
    assert_eq!(
        ls(&ws, "d", 64_000).unwrap().text,
        "(empty directory)\n\n(2 hidden entries not shown: unfinished temp files of a killed write; \
         include_hidden=true shows them)"
    );
}

#[test]
fn empty_directory_says_so() {
    let ws = Ws::new(&[]);
    std::fs::create_dir(ws.path("empty")).unwrap();
    let out = ls(&ws, "empty", 64_000).unwrap();
    assert_eq!(out.text, "(empty directory)");
    assert_eq!(out.structured()["entries"], json!([]));
}

#[test]
fn a_file_is_refused() {
    let ws = Ws::new(&[("src/a.rs", b"x")]);
    let err = ls(&ws, "src/a.rs", 64_000).unwrap_err();
    assert_eq!(err.kind, ErrorKind::NotARegularFile);
    assert_eq!(
        err.message,
        "src/a.rs is a file, not a directory; read it with read_file"
    );
}

#[cfg(unix)]
#[test]
fn symlinks_are_plain_names_and_newlines_are_escaped() {
    let ws = Ws::new(&[("real", b"")]);
    std::fs::create_dir(ws.path("dir")).unwrap();
    std::os::unix::fs::symlink(ws.path("dir"), ws.path("dirlink")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", ws.path("leak")).unwrap();
    ws.write("bad\nname", b"");
    let out = ls(&ws, ".", 64_000).unwrap();
    assert_eq!(out.text, "\"bad\\nname\"\ndir/\ndirlink\nleak\nreal");
    assert_eq!(
        out.structured()["entries"][2],
        json!({"name": "dirlink", "kind": "symlink"})
    );
    assert_eq!(
        out.structured()["entries"][0],
        json!({"name": "bad\nname", "kind": "file"})
    );
}

/// Regression (tester report): a long listing was cut mid-name with
/// `[truncated]`; it now stops at a whole entry and says how many are
/// shown.
#[test]
fn long_listings_stop_at_whole_entries() {
    let ws = Ws::new(&[]);
    let names: Vec<String> = (0..12).map(|i| format!("entry-number-{i:02}")).collect();
    for name in &names {
        ws.write(name, b"");
    }
    let full = names.join("\n");
    assert_eq!(ls(&ws, ".", full.len()).unwrap().text, full);
    let notice = |budget: usize, k: usize| {
        let rows: String = names[..k].iter().map(|n| format!("{n}\n")).collect();
        let sep = if k > 0 { "\n" } else { "" };
        format!(
            "{rows}{sep}{k} of 12 entries shown (output budget of {budget} bytes reached; \
             narrow the listing with glob to see the rest)"
        )
    };
    for budget in notice(100, 0).len()..full.len() {
        let expected = (0..12)
            .rev()
            .map(|k| notice(budget, k))
            .find(|text| text.len() <= budget)
            .unwrap();
        let out = ls(&ws, ".", budget).unwrap();
        assert_eq!(out.text, expected, "budget {budget}");
        let shown = out.structured()["entries"].as_array().unwrap().len();
        assert!(expected.starts_with(&names[..shown].join("\n")));
        assert_eq!(out.structured()["truncated"], json!(true));
        assert_eq!(out.structured()["total"], json!(12));
    }
    let out = ls(&ws, ".", 150).unwrap();
    assert_eq!(
        out.text,
        format!(
            "{}\n\n2 of 12 entries shown (output budget of 150 bytes reached; \
             narrow the listing with glob to see the rest)",
            names[..2].join("\n")
        )
    );
    // A budget too small for the notice: the last-resort cut.
    let out = ls(&ws, ".", 9).unwrap();
    assert_eq!(out.text, "0 of 12 e\n[truncated]");
    assert_eq!(out.structured()["entries"], json!([]));
}
