use super::*;

fn put(root: &Path, path: &str, text: &[u8]) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

#[test]
fn pairs_consecutive_versions_file_by_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    put(
        d,
        "MANIFEST",
        b"# c\nrust crates.io demo 1.0.0 1.0.1 1.1.0\n",
    );
    put(d, "rust/demo/1.0.0/src/lib.rs", b"fn a() {}\nfn b() {}\n");
    put(d, "rust/demo/1.0.0/src/same.rs", b"fn s() {}\n");
    put(d, "rust/demo/1.0.0/src/gone.rs", b"fn g() {}\n");
    put(d, "rust/demo/1.0.0/notes.txt", b"a\n");
    put(d, "rust/demo/1.0.1/src/lib.rs", b"fn a() {}\nfn b2() {}\n");
    put(d, "rust/demo/1.0.1/src/same.rs", b"fn s() {}\n");
    put(d, "rust/demo/1.0.1/notes.txt", b"b\n");
    put(d, "rust/demo/1.1.0/src/lib.rs", b"fn a() {}\nfn b2() {}");
    put(d, "rust/demo/1.1.0/src/same.rs", b"fn s() {}\r\n");
    let corpus = RealCorpus::load(d).unwrap();
    let found: Vec<(String, bool)> = corpus
        .edits
        .iter()
        .map(|e| (e.describe(), e.changes_final_newline()))
        .collect();
    assert_eq!(
        found,
        [
            ("rust/demo 1.0.0→1.0.1 src/lib.rs".to_string(), false),
            ("rust/demo 1.0.1→1.1.0 src/lib.rs".to_string(), true),
        ]
    );
    assert_eq!(
        corpus.skipped,
        Skipped {
            too_long: 0,
            not_plain: 1
        }
    );
    let e = &corpus.edits[0];
    assert_eq!(e.path(), "rust/demo/src/lib.rs");
    assert_eq!(e.doc(true), e.doc(false));
    assert_eq!(e.doc(false).ops[0].header, "PUT 2:");
    // A final-newline change is written where it can be, else it
    // means the rest of the edit.
    let nl = &corpus.edits[1];
    assert_eq!(
        nl.doc(true).render(hashedit_core::SnapshotTag(0x1234)),
        "[rust/demo/src/lib.rs#1234]\nEOF NO NEWLINE\n"
    );
    assert_eq!(nl.intended(true).text(), "fn a() {}\nfn b2() {}");
    assert_eq!(nl.doc(false).ops, vec![]);
    assert_eq!(nl.intended(false).text(), "fn a() {}\nfn b2() {}\n");
    assert!(nl.expressible(true) && !nl.expressible(false));
    assert_eq!(corpus.slice(1), vec![corpus.edits[0].clone()]);
}

#[test]
fn a_missing_version_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    put(dir.path(), "MANIFEST", b"python PyPI p 1 2\n");
    put(dir.path(), "python/p/1/p.py", b"x = 1\n");
    let e = RealCorpus::load(dir.path()).unwrap_err();
    assert!(
        e.ends_with("python/p/2 is missing: run scripts/real-edits-corpus"),
        "{e}"
    );
    let missing = dir.path().join("none");
    assert_eq!(
        RealCorpus::load(&missing).unwrap_err(),
        format!(
            "no real-edit corpus at {}: run scripts/real-edits-corpus first",
            missing.display()
        )
    );
}
