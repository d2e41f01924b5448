use super::*;

#[test]
fn keeps_only_usable_files() {
    let body = "x\n".repeat(40);
    assert!(usable(&body));
    assert!(!usable(&"x\n".repeat(10)));
    assert!(!usable(&"x\n".repeat(900)));
    assert!(!usable(&body.replace('\n', "\r\n")));
    assert!(!usable(body.trim_end()));
}

#[test]
fn loads_a_small_tree() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("rust").join("demo-1.0.0").join("src");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(pkg.join("lib.rs"), "fn f() {}\n".repeat(40)).unwrap();
    std::fs::write(pkg.join("tiny.rs"), "fn f() {}\n").unwrap();
    std::fs::write(pkg.join("notes.txt"), "x\n".repeat(40)).unwrap();
    std::fs::write(
        dir.path().join("MANIFEST"),
        "# c\nrust crates.io demo 1.0.0\n",
    )
    .unwrap();
    let corpus = Corpus::load(dir.path()).unwrap();
    assert_eq!(corpus.len(), 1);
    assert_eq!(corpus.files[0].1[0].path, "rust/demo-1.0.0/src/lib.rs");
    assert_eq!(
        corpus.manifest,
        vec!["rust crates.io demo 1.0.0".to_string()]
    );
}
