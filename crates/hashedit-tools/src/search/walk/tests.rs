use super::*;
use crate::search::SearchOptions;
use crate::search::testutil::Ws;
use std::time::Duration;

fn walk(target: &Path, hidden: bool, options: &SearchOptions) -> (Vec<String>, Option<Stop>) {
    let limits = Limits::start(options);
    let mut files = Vec::new();
    let stop = visit_files(target, hidden, &limits, |item| {
        if let WalkItem::File(f) = item {
            files.push(f.relative);
        }
        ControlFlow::Continue(())
    });
    (files, stop)
}

fn names(target: &Path, hidden: bool) -> Vec<String> {
    walk(target, hidden, &SearchOptions::default()).0
}

#[test]
fn sorts_per_directory_and_interleaves_files_and_dirs() {
    let ws = Ws::new(&[
        ("top.rs", b"x"),
        ("src/nested/c.rs", b"x"),
        ("src/b.rs", b"x"),
        ("src/a.rs", b"x"),
    ]);
    assert_eq!(
        names(&ws.root, false),
        ["src/a.rs", "src/b.rs", "src/nested/c.rs", "top.rs"]
    );
}

#[test]
fn order_is_bytewise() {
    let ws = Ws::new(&[
        ("b", b""),
        ("B", b""),
        ("a.rs", b""),
        ("a", b""),
        ("é", b""),
    ]);
    assert_eq!(names(&ws.root, false), ["B", "a", "a.rs", "b", "é"]);
}

#[test]
fn honours_gitignore_without_a_repository_and_skips_dot_git() {
    let ws = Ws::new(&[
        (".gitignore", b"ignored.txt\nbuild/\n"),
        ("ignored.txt", b"x"),
        ("build/out.txt", b"x"),
        ("kept.txt", b"x"),
        (".ignore", b"also.txt\n"),
        ("also.txt", b"x"),
        (".git/config", b"x"),
        ("sub/.git/HEAD", b"x"),
        (".hidden/h.txt", b"x"),
    ]);
    assert_eq!(names(&ws.root, false), ["kept.txt"]);
    assert_eq!(
        names(&ws.root, true),
        [".gitignore", ".hidden/h.txt", ".ignore", "kept.txt"]
    );
}

#[test]
fn hashedit_temp_leftovers_are_skipped_unless_every_hidden_entry_is_asked_for() {
    let ws = Ws::new(&[
        (".hashedit-0123456789abcdef.tmp", b"x"),
        ("src/.hashedit-fedcba9876543210.tmp", b"x"),
        ("src/.hashedit-fedcba9876543210.bak", b"x"),
        (".hashedit-notes.tmp", b"x"),
        ("src/a.rs", b"x"),
    ]);
    assert_eq!(names(&ws.root, false), ["src/a.rs"]);
    // With hidden entries asked for, what a killed process left is shown
    // so it can be found (and deleted).
    assert_eq!(
        names(&ws.root, true),
        [
            ".hashedit-0123456789abcdef.tmp",
            ".hashedit-notes.tmp",
            "src/.hashedit-fedcba9876543210.bak",
            "src/.hashedit-fedcba9876543210.tmp",
            "src/a.rs"
        ]
    );
    // Named as the target, a leftover is still yielded: the caller
    // asked for it.
    assert_eq!(
        names(&ws.path(".hashedit-0123456789abcdef.tmp"), false),
        [""]
    );
}

#[test]
fn parent_gitignore_applies_to_a_narrowed_walk() {
    let ws = Ws::new(&[
        (".gitignore", b"*.log\n"),
        ("src/a.log", b"x"),
        ("src/a.rs", b"x"),
    ]);
    assert_eq!(names(&ws.path("src"), false), ["a.rs"]);
}

#[test]
fn walks_a_root_named_dot_git() {
    let ws = Ws::new(&[(".git/HEAD", b"ref"), (".git/refs/x", b"y")]);
    assert_eq!(names(&ws.path(".git"), false), ["HEAD", "refs/x"]);
}

#[test]
fn hidden_root_is_entered() {
    let ws = Ws::new(&[(".config/a.toml", b"x")]);
    assert_eq!(names(&ws.path(".config"), false), ["a.toml"]);
}

#[cfg(unix)]
#[test]
fn never_follows_symlinks_and_names_them_apart() {
    let outside = Ws::new(&[("secret.txt", b"host"), ("dir/inner.txt", b"host")]);
    let ws = Ws::new(&[("real.txt", b"x")]);
    std::os::unix::fs::symlink(outside.path("secret.txt"), ws.path("leak")).unwrap();
    std::os::unix::fs::symlink(outside.path("dir"), ws.path("out")).unwrap();
    std::os::unix::fs::symlink(ws.path("real.txt"), ws.path("inside-link")).unwrap();
    assert_eq!(names(&ws.root, true), ["real.txt"]);
    let limits = Limits::start(&SearchOptions::default());
    let mut links = Vec::new();
    visit_files(&ws.root, true, &limits, |item| {
        if let WalkItem::Symlink(f) = item {
            links.push(f.relative);
        }
        ControlFlow::Continue(())
    });
    assert_eq!(links, ["inside-link", "leak", "out"]);
}

#[test]
fn a_file_target_is_yielded_alone_even_if_ignored() {
    let ws = Ws::new(&[(".gitignore", b"*.log\n"), ("x.log", b"x")]);
    let (files, stop) = walk(&ws.path("x.log"), false, &SearchOptions::default());
    assert_eq!(files, [""]);
    assert_eq!(stop, None);
}

#[test]
fn stops_at_the_entry_limit_and_deadline() {
    let ws = Ws::new(&[("a", b""), ("b", b""), ("c", b"")]);
    let options = SearchOptions {
        max_entries: 3,
        ..SearchOptions::default()
    };
    // Root, a, b are the first three entries; c would be the fourth.
    let (files, stop) = walk(&ws.root, false, &options);
    assert_eq!(files, ["a", "b"]);
    assert_eq!(stop, Some(Stop::ScanLimit));

    let late = SearchOptions {
        time_limit: Duration::ZERO,
        ..SearchOptions::default()
    };
    let (files, stop) = walk(&ws.root, false, &late);
    assert!(files.is_empty());
    assert_eq!(stop, Some(Stop::TimeLimit));
}

#[cfg(unix)]
#[test]
fn special_files_are_yielded_apart_and_never_opened() {
    let ws = Ws::new(&[("a.txt", b"x"), ("z.txt", b"x")]);
    let fifo = ws.path("m.fifo");
    rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::RUSR).unwrap();
    let limits = Limits::start(&SearchOptions::default());
    let mut items = Vec::new();
    let stop = visit_files(&ws.root, false, &limits, |item| {
        items.push(match item {
            WalkItem::File(f) => format!("file {}", f.relative),
            WalkItem::Special(f) => format!("special {}", f.relative),
            WalkItem::Symlink(f) => format!("symlink {}", f.relative),
            WalkItem::Hidden(f) => format!("hidden {}", f.relative),
            WalkItem::Unreadable { directory } => format!("unreadable {directory}"),
        });
        ControlFlow::Continue(())
    });
    assert_eq!(stop, None);
    assert_eq!(items, ["file a.txt", "special m.fifo", "file z.txt"]);
}

#[cfg(unix)]
#[test]
fn targets_other_than_files_and_directories_are_refused() {
    let ws = Ws::new(&[("a.txt", b"x")]);
    let fifo = ws.path("p");
    rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::RUSR).unwrap();
    assert!(check_target(&ws.root, ".").is_ok());
    assert!(check_target(&ws.path("a.txt"), "a.txt").is_ok());
    let error = check_target(&fifo, "p").unwrap_err();
    assert_eq!(error.kind, crate::ErrorKind::NotARegularFile);
    assert!(
        error.message.starts_with("p is a FIFO"),
        "{}",
        error.message
    );
    let error = check_target(&ws.path("gone"), "gone").unwrap_err();
    assert_eq!(error.kind, crate::ErrorKind::NotFound);
}

#[test]
fn walk_errors_name_their_path_through_wrappers() {
    let ws = Ws::new(&[("d/a.txt", b"x")]);
    let io = || ignore::Error::Io(std::io::Error::from(std::io::ErrorKind::PermissionDenied));
    let wrapped = ignore::Error::WithPath {
        path: ws.path("d"),
        err: Box::new(ignore::Error::WithDepth {
            depth: 1,
            err: Box::new(io()),
        }),
    };
    assert_eq!(error_path(&wrapped), Some(ws.path("d").as_path()));
    let deep = ignore::Error::WithDepth {
        depth: 2,
        err: Box::new(ignore::Error::WithPath {
            path: ws.path("d/a.txt"),
            err: Box::new(io()),
        }),
    };
    assert_eq!(error_path(&deep), Some(ws.path("d/a.txt").as_path()));
    assert_eq!(error_path(&io()), None);
}

#[test]
fn visitor_can_stop_the_walk() {
    let ws = Ws::new(&[("a", b""), ("b", b"")]);
    let limits = Limits::start(&SearchOptions::default());
    let mut seen = Vec::new();
    let stop = visit_files(&ws.root, false, &limits, |item| {
        if let WalkItem::File(f) = item {
            seen.push(f.relative);
        }
        ControlFlow::Break(Stop::ResultLimit)
    });
    assert_eq!(seen, ["a"]);
    assert_eq!(stop, Some(Stop::ResultLimit));
}
