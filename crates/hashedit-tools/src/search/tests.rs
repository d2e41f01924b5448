use super::*;

#[test]
fn caps_default_and_are_never_lowered() {
    assert_eq!(clamp_cap(None, 200), 200);
    assert_eq!(clamp_cap(Some(0), 200), 1);
    // A cap the caller raised is honoured (code_puppy #903: it was clamped
    // at 1000 while the footer still said to raise it).
    assert_eq!(clamp_cap(Some(5000), 200), 5000);
    assert_eq!(clamp_cap(Some(7), 10), 7);
}

#[test]
fn paths_join_and_escape() {
    assert_eq!(workspace_path(".", "a/b.rs"), "a/b.rs");
    assert_eq!(workspace_path("src", "a.rs"), "src/a.rs");
    assert_eq!(workspace_path("src/a.rs", ""), "src/a.rs");
    assert_eq!(
        budget_reason(10, "x"),
        "output budget of 10 bytes reached; narrow x to see the rest"
    );
    assert_eq!(unreadable_dirs_reason(0), None);
    assert_eq!(
        unreadable_dirs_reason(2).unwrap(),
        "2 unreadable directories skipped"
    );
    assert_eq!(plural(1, "match", "matches"), "1 match");
    assert_eq!(plural(0, "file", "files"), "0 files");
}

#[test]
fn explicit_threads_win() {
    let options = SearchOptions {
        threads: Some(3),
        ..SearchOptions::default()
    };
    assert_eq!(options.thread_count(), 3);
    let zero = SearchOptions {
        threads: Some(0),
        ..SearchOptions::default()
    };
    assert_eq!(zero.thread_count(), 1);
}
