use super::*;
use std::os::unix::fs::symlink;
use tempfile::TempDir;

/// `<tmp>/proj` (the workspace) and `<tmp>/proj-evil` (a prefix
/// sibling, with `x` in it).
struct Fixture {
    _dir: TempDir,
    base: PathBuf,
    ws: Workspace,
}

fn fixture() -> Fixture {
    let dir = TempDir::new().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(base.join("proj")).unwrap();
    std::fs::create_dir(base.join("proj-evil")).unwrap();
    std::fs::write(base.join("proj-evil/x"), "secret\n").unwrap();
    std::fs::write(base.join("proj/a.txt"), "a\n").unwrap();
    std::fs::create_dir(base.join("proj/sub")).unwrap();
    std::fs::write(base.join("proj/sub/b.txt"), "b\n").unwrap();
    let ws = Workspace::new(base.join("proj")).unwrap();
    Fixture {
        _dir: dir,
        base,
        ws,
    }
}

fn kind(result: ToolResult<ResolvedPath>) -> ErrorKind {
    result.unwrap_err().kind
}

#[test]
fn new_canonicalises_and_sets_defaults() {
    let f = fixture();
    assert_eq!(f.ws.root(), f.base.join("proj"));
    assert_eq!(f.ws.max_output_bytes(), 64_000);
    assert_eq!(f.ws.tag_scheme(), TagScheme::Rho);
    let ws = Workspace::new(f.base.join("proj/sub/..")).unwrap();
    assert_eq!(ws.root(), f.base.join("proj"));
    let ws = ws.with_max_output_bytes(0).with_tag_scheme(TagScheme::Omp);
    assert_eq!(ws.max_output_bytes(), 1);
    assert_eq!(ws.tag_scheme(), TagScheme::Omp);
}

#[test]
fn new_refuses_missing_file_and_empty_roots() {
    let f = fixture();
    let missing = Workspace::new(f.base.join("nope")).unwrap_err();
    assert_eq!(missing.kind, ErrorKind::NotFound);
    assert!(
        missing.message.contains("does not exist"),
        "{}",
        missing.message
    );
    let file = Workspace::new(f.base.join("proj/a.txt")).unwrap_err();
    assert_eq!(file.kind, ErrorKind::NotARegularFile);
    assert_eq!(
        Workspace::new("").unwrap_err().kind,
        ErrorKind::InvalidArguments
    );
}

#[test]
fn relative_and_dotted_paths() {
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    for (written, display, target) in [
        ("a.txt", "a.txt", "a.txt"),
        ("./a.txt", "a.txt", "a.txt"),
        ("sub/./b.txt", "sub/b.txt", "sub/b.txt"),
        ("sub//b.txt", "sub/b.txt", "sub/b.txt"),
        ("sub/", "sub", "sub"),
    ] {
        let resolved = f.ws.resolve(written, Resolve::Existing).unwrap();
        assert_eq!(resolved.display, display, "{written}");
        assert_eq!(resolved.target, root.join(target), "{written}");
        assert!(resolved.exists);
    }
    for written in [".", "./", "sub/.."] {
        let resolved = f.ws.resolve(written, Resolve::Existing).unwrap();
        assert_eq!(resolved.display, ".", "{written}");
        assert_eq!(resolved.target, root, "{written}");
    }
}

#[test]
fn empty_and_nul_paths_are_invalid() {
    let f = fixture();
    assert_eq!(
        kind(f.ws.resolve("", Resolve::Existing)),
        ErrorKind::InvalidArguments
    );
    assert_eq!(
        kind(f.ws.resolve("a\0b", Resolve::MayCreate)),
        ErrorKind::InvalidArguments
    );
}

#[test]
fn absolute_paths_inside_display_relative() {
    let f = fixture();
    let absolute = f.ws.root().join("sub/b.txt");
    let resolved =
        f.ws.resolve(absolute.to_str().unwrap(), Resolve::Existing)
            .unwrap();
    assert_eq!(resolved.display, "sub/b.txt");
    assert_eq!(resolved.target, absolute);
    let root = f.ws.root().to_str().unwrap().to_string();
    assert_eq!(f.ws.resolve(&root, Resolve::Existing).unwrap().display, ".");
    let dotted = format!("{root}/./a.txt");
    assert_eq!(
        f.ws.resolve(&dotted, Resolve::Existing).unwrap().display,
        "a.txt"
    );
}

#[test]
fn absolute_paths_through_an_alias_of_the_root_display_relative() {
    let f = fixture();
    symlink(f.base.join("proj"), f.base.join("alias")).unwrap();
    let ws = Workspace::new(f.base.join("alias")).unwrap();
    assert_eq!(ws.root(), f.base.join("proj"));
    let written = f.base.join("alias/sub/b.txt");
    let resolved = ws
        .resolve(written.to_str().unwrap(), Resolve::Existing)
        .unwrap();
    assert_eq!(resolved.display, "sub/b.txt");
    assert_eq!(resolved.target, f.base.join("proj/sub/b.txt"));
}

#[test]
fn absolute_paths_outside_are_refused() {
    let f = fixture();
    let error =
        f.ws.resolve("/etc/hostname", Resolve::Existing)
            .unwrap_err();
    assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace);
    assert_eq!(
        error.message,
        format!(
            "/etc/hostname leads outside the workspace root {}; paths must stay inside the workspace root",
            f.ws.root().display()
        )
    );
    let sibling = f.base.join("proj-evil/x");
    assert_eq!(
        kind(f.ws.resolve(sibling.to_str().unwrap(), Resolve::Existing)),
        ErrorKind::PathOutsideWorkspace
    );
    assert_eq!(
        kind(f.ws.resolve("/", Resolve::Existing)),
        ErrorKind::PathOutsideWorkspace
    );
}

#[test]
fn parent_traversal_escapes_are_refused_without_probing() {
    let f = fixture();
    for written in [
        "..",
        "../proj-evil/x",
        "../proj-evil/missing",
        "sub/../../proj-evil/x",
        "../../x",
    ] {
        for mode in [Resolve::Existing, Resolve::MayCreate] {
            let error = f.ws.resolve(written, mode).unwrap_err();
            assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace, "{written}");
            assert!(error.message.starts_with(written), "{}", error.message);
        }
    }
}

#[test]
fn parent_traversal_that_stays_inside_displays_canonically() {
    let f = fixture();
    let resolved = f.ws.resolve("sub/../a.txt", Resolve::Existing).unwrap();
    assert_eq!(resolved.display, "a.txt");
    assert_eq!(resolved.target, f.ws.root().join("a.txt"));
    let resolved =
        f.ws.resolve("../proj/sub/b.txt", Resolve::Existing)
            .unwrap();
    assert_eq!(resolved.display, "sub/b.txt");
    let resolved = f.ws.resolve("sub/../new.txt", Resolve::MayCreate).unwrap();
    assert_eq!(resolved.display, "new.txt");
    assert!(!resolved.exists);
}

#[test]
fn parent_after_a_missing_component_is_invalid() {
    let f = fixture();
    let error =
        f.ws.resolve("nope/../a.txt", Resolve::MayCreate)
            .unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert!(error.message.contains("'..'"), "{}", error.message);
    assert_eq!(
        kind(f.ws.resolve("nope/../a.txt", Resolve::Existing)),
        ErrorKind::NotFound
    );
}

#[test]
fn missing_paths() {
    let f = fixture();
    let error =
        f.ws.resolve("sub/missing.txt", Resolve::Existing)
            .unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound);
    assert_eq!(
        error.message,
        "sub/missing.txt does not exist; check the path with glob or list_dir"
    );
    let resolved =
        f.ws.resolve("new/deeper/c.txt", Resolve::MayCreate)
            .unwrap();
    assert_eq!(resolved.display, "new/deeper/c.txt");
    assert_eq!(resolved.target, f.ws.root().join("new/deeper/c.txt"));
    assert!(!resolved.exists);
    let existing = f.ws.resolve("a.txt", Resolve::MayCreate).unwrap();
    assert!(existing.exists);
    assert_eq!(
        kind(f.ws.resolve("newdir/", Resolve::MayCreate)),
        ErrorKind::InvalidArguments
    );
}

#[test]
fn a_file_used_as_a_directory_is_refused() {
    let f = fixture();
    assert_eq!(
        kind(f.ws.resolve("a.txt/x", Resolve::MayCreate)),
        ErrorKind::NotARegularFile
    );
    assert_eq!(
        kind(f.ws.resolve("a.txt/..", Resolve::Existing)),
        ErrorKind::NotARegularFile
    );
    assert_eq!(
        kind(f.ws.resolve("a.txt/", Resolve::Existing)),
        ErrorKind::NotARegularFile
    );
}

#[test]
fn symlinked_file_inside_keeps_its_display_name() {
    // Handed case B17: `[link.txt#T]`, writes go to real.txt.
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    std::fs::write(root.join("real.txt"), "x\n").unwrap();
    symlink("real.txt", root.join("link.txt")).unwrap();
    let resolved = f.ws.resolve("link.txt", Resolve::Existing).unwrap();
    assert_eq!(resolved.display, "link.txt");
    assert_eq!(resolved.target, root.join("real.txt"));
    symlink("sub", root.join("sublink")).unwrap();
    let resolved = f.ws.resolve("./sublink/b.txt", Resolve::Existing).unwrap();
    assert_eq!(resolved.display, "sublink/b.txt");
    assert_eq!(resolved.target, root.join("sub/b.txt"));
    // `..` applies after following the link, as the OS does.
    symlink("sub/b.txt", root.join("deep")).unwrap();
    symlink(root.join("sub"), root.join("abs-sub")).unwrap();
    let resolved = f.ws.resolve("abs-sub/../a.txt", Resolve::Existing).unwrap();
    assert_eq!(resolved.target, root.join("a.txt"));
    assert_eq!(resolved.display, "a.txt");
}

#[test]
fn symlinks_to_outside_are_refused() {
    // Handed case B19.
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    symlink("/etc/hostname", root.join("leak")).unwrap();
    symlink(f.base.join("proj-evil/x"), root.join("leak2")).unwrap();
    symlink("../proj-evil", root.join("out")).unwrap();
    symlink("/tmp", root.join("tmpdir")).unwrap();
    for (written, mode) in [
        ("leak", Resolve::Existing),
        ("leak2", Resolve::MayCreate),
        ("out/x", Resolve::Existing),
        ("out/new.txt", Resolve::MayCreate),
        ("tmpdir/new.txt", Resolve::MayCreate),
        ("tmpdir", Resolve::Existing),
    ] {
        let error = f.ws.resolve(written, mode).unwrap_err();
        assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace, "{written}");
        assert!(
            error.message.contains("through the symlink"),
            "{}",
            error.message
        );
    }
}

#[test]
fn dangling_links() {
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    symlink("sub/made.txt", root.join("dangling")).unwrap();
    let resolved = f.ws.resolve("dangling", Resolve::MayCreate).unwrap();
    assert_eq!(resolved.target, root.join("sub/made.txt"));
    assert_eq!(resolved.display, "dangling");
    assert!(!resolved.exists);
    let error = f.ws.resolve("dangling", Resolve::Existing).unwrap_err();
    assert_eq!(error.kind, ErrorKind::NotFound);
    assert!(
        error.message.contains("symlink dangling"),
        "{}",
        error.message
    );
    symlink("../proj-evil/new", root.join("dangling-out")).unwrap();
    assert_eq!(
        kind(f.ws.resolve("dangling-out", Resolve::MayCreate)),
        ErrorKind::PathOutsideWorkspace
    );
    symlink("", root.join("empty")).unwrap_or(());
    if std::fs::symlink_metadata(root.join("empty")).is_ok() {
        assert_eq!(
            kind(f.ws.resolve("empty", Resolve::MayCreate)),
            ErrorKind::NotFound
        );
    }
}

#[test]
fn symlink_loops_are_invalid_arguments() {
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    symlink("loop-b", root.join("loop-a")).unwrap();
    symlink("loop-a", root.join("loop-b")).unwrap();
    symlink("self", root.join("self")).unwrap();
    for written in ["loop-a", "self", "self/x"] {
        for mode in [Resolve::Existing, Resolve::MayCreate] {
            let error = f.ws.resolve(written, mode).unwrap_err();
            assert_eq!(error.kind, ErrorKind::InvalidArguments, "{written}");
            assert!(error.message.contains("symlink loop"), "{}", error.message);
        }
    }
}

#[test]
fn non_utf8_names_resolve_exactly_and_display_escaped() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    let name = OsStr::from_bytes(b"caf\xe9.txt");
    if let Err(e) = std::fs::write(root.join(name), "x") {
        return hashedit_skip::skip(
            "non_utf8_names_resolve_exactly_and_display_escaped",
            "a non-UTF-8 file name",
            &format!("the file system refuses it ({e})"),
        );
    }
    symlink(name, root.join("to-cafe")).unwrap();
    std::fs::create_dir(root.join("d")).unwrap();
    let resolved = f.ws.resolve("d/../to-cafe", Resolve::Existing).unwrap();
    assert_eq!(resolved.target, root.join(name));
    // Shown escaped, never lossily: the spelling resolves back to it.
    assert_eq!(resolved.display, "\"caf\\xe9.txt\"");
    let back = f.ws.resolve(&resolved.display, Resolve::Existing).unwrap();
    assert_eq!(back.target, root.join(name));
}

#[test]
fn quoted_spellings_resolve_to_the_unescaped_name() {
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    std::fs::write(root.join("tab\tx.txt"), "t\n").unwrap();
    std::fs::write(root.join("sub/new\nline.txt"), "n\n").unwrap();
    for (written, target, display) in [
        ("tab\tx.txt", "tab\tx.txt", r#""tab\tx.txt""#),
        (r#""tab\tx.txt""#, "tab\tx.txt", r#""tab\tx.txt""#),
        (r#""tab\u{9}x.txt""#, "tab\tx.txt", r#""tab\tx.txt""#),
        (
            r#""sub/new\nline.txt""#,
            "sub/new\nline.txt",
            r#""sub/new\nline.txt""#,
        ),
        (
            r#"sub/"new\nline.txt""#,
            "sub/new\nline.txt",
            r#""sub/new\nline.txt""#,
        ),
        (r#""sub"/"b\u{2e}txt""#, "sub/b.txt", "sub/b.txt"),
        (r#""a.txt""#, "a.txt", "a.txt"),
    ] {
        let resolved = f.ws.resolve(written, Resolve::Existing).unwrap();
        assert_eq!(resolved.target, root.join(target), "{written}");
        assert_eq!(resolved.display, display, "{written}");
        assert_eq!(raw_path(&resolved.display), target, "{written}");
    }
    // Paths to create: the unescaped name.
    let resolved =
        f.ws.resolve(r#""made\there.txt""#, Resolve::MayCreate)
            .unwrap();
    assert_eq!(resolved.target, root.join("made\there.txt"));
    assert_eq!(resolved.display, r#""made\there.txt""#);
    assert!(!resolved.exists);
}

#[test]
fn a_literal_quoted_name_is_used_only_when_the_unescaped_one_is_missing() {
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    std::fs::write(root.join("\"q\""), "literal\n").unwrap();
    let resolved = f.ws.resolve("\"q\"", Resolve::Existing).unwrap();
    assert_eq!(resolved.target, root.join("\"q\""));
    assert_eq!(resolved.display, r#""\"q\"""#);
    // With Resolve::MayCreate too: the existing literal file wins over
    // creating `q`.
    let resolved = f.ws.resolve("\"q\"", Resolve::MayCreate).unwrap();
    assert_eq!(resolved.target, root.join("\"q\""));
    std::fs::write(root.join("q"), "plain\n").unwrap();
    assert_eq!(
        f.ws.resolve("\"q\"", Resolve::Existing).unwrap().target,
        root.join("q")
    );
    // The display spelling always names the literal file.
    let resolved = f.ws.resolve(r#""\"q\"""#, Resolve::Existing).unwrap();
    assert_eq!(resolved.target, root.join("\"q\""));
    // An unknown escape makes the spelling literal.
    std::fs::write(root.join(r#""a\qb""#), "x").unwrap();
    let resolved = f.ws.resolve(r#""a\qb""#, Resolve::Existing).unwrap();
    assert_eq!(resolved.target, root.join(r#""a\qb""#));
    // Errors other than a missing path are not retried literally.
    assert_eq!(
        kind(f.ws.resolve(r#""../proj-evil/x""#, Resolve::Existing)),
        ErrorKind::PathOutsideWorkspace
    );
    assert_eq!(
        kind(f.ws.resolve(r#""a\0b""#, Resolve::Existing)),
        ErrorKind::InvalidArguments
    );
}

#[test]
fn messages_spell_paths_on_one_line() {
    let f = fixture();
    let root = f.ws.root().to_path_buf();
    for written in ["no\nsuch.txt", r#""no\nsuch.txt""#] {
        let error = f.ws.resolve(written, Resolve::Existing).unwrap_err();
        assert_eq!(error.kind, ErrorKind::NotFound);
        assert_eq!(
            error.message,
            r#""no\nsuch.txt" does not exist; check the path with glob or list_dir"#
        );
    }
    symlink("/etc/hostname", root.join("le\nak")).unwrap();
    let error = f.ws.resolve("le\nak", Resolve::Existing).unwrap_err();
    assert_eq!(error.kind, ErrorKind::PathOutsideWorkspace);
    assert!(!error.message.contains('\n'), "{}", error.message);
    assert!(
        error.message.ends_with(
            r#"through the symlink "le\nak"; paths must stay inside the workspace root"#
        ),
        "{}",
        error.message
    );
}

#[test]
fn the_root_itself_is_allowed() {
    let f = fixture();
    let resolved = f.ws.resolve(".", Resolve::Existing).unwrap();
    assert_eq!(resolved.target, f.ws.root());
    assert!(resolved.exists);
}

#[test]
fn overlong_names_and_paths_are_refused_clearly() {
    // Issue 5: a 256-byte name failed as a bare OS error (kind io), and
    // write created paths over PATH_MAX that read and edit could then
    // not resolve ("File name too long").
    let f = fixture();
    let name = "n".repeat(256);
    for mode in [Resolve::Existing, Resolve::MayCreate] {
        let error = f.ws.resolve(&format!("sub/{name}"), mode).unwrap_err();
        assert_eq!(error.kind, ErrorKind::InvalidArguments);
        assert_eq!(
            error.message,
            format!(
                "sub/{}… has a name of 256 bytes ({}…), over the 255-byte limit of file systems; use a shorter name",
                "n".repeat(56),
                "n".repeat(60)
            )
        );
    }
    assert!(f.ws.resolve(&"n".repeat(255), Resolve::MayCreate).is_ok());
    // Deeper than PATH_MAX, to create.
    let segment = "d".repeat(100);
    let deep = vec![segment.as_str(); 41].join("/") + "/f.txt";
    let error = f.ws.resolve(&deep, Resolve::MayCreate).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert!(
        error.message.contains(&format!(
            "bytes long as an absolute path (the workspace root {} included), over the {MAX_PATH_BYTES}-byte limit of the system; use a shorter path",
            f.ws.root().display()
        )),
        "{}",
        error.message
    );
    // And existing: made by descriptor, as another program could.
    let mut dir = rustix::fs::openat(
        rustix::fs::CWD,
        f.ws.root(),
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
        rustix::fs::Mode::empty(),
    )
    .unwrap();
    for _ in 0..41 {
        rustix::fs::mkdirat(
            &dir,
            segment.as_str(),
            rustix::fs::Mode::from_raw_mode(0o755),
        )
        .unwrap();
        dir = rustix::fs::openat(
            &dir,
            segment.as_str(),
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
    }
    let error = f.ws.resolve(&deep, Resolve::Existing).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments, "{}", error.message);
    assert!(error.message.contains("over the"), "{}", error.message);
    // A path just within the limit still resolves.
    let room = MAX_PATH_BYTES - f.ws.root().as_os_str().len() - 1;
    let fits: String = "x".repeat(room.min(255));
    assert!(f.ws.resolve(&fits, Resolve::MayCreate).is_ok());
}
