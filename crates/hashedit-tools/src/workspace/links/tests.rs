use std::fs;

use super::*;
use crate::error::ErrorKind;
use crate::workspace::{Resolve, Workspace};

/// A workspace with `.git/config`, `secrets/key` and `notes.txt`.
fn repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join(".git")).unwrap();
    fs::create_dir_all(dir.path().join("secrets")).unwrap();
    fs::write(dir.path().join(".git/config"), "[core]\n").unwrap();
    fs::write(dir.path().join("secrets/key"), "k\n").unwrap();
    fs::write(dir.path().join("notes.txt"), "n\n").unwrap();
    dir
}

fn writable(ws: &Workspace, path: &str) -> Result<(), (ErrorKind, String)> {
    let resolved = ws.resolve(path, Resolve::Existing).unwrap();
    ws.check_writable(&resolved)
        .map_err(|e| (e.kind, e.message.clone()))
}

#[test]
fn a_hard_link_of_a_version_control_file_is_refused_like_the_file() {
    // Break-it pass: `ln .git/config hl`, then `write hl` rewrote
    // .git/config in place.
    let dir = repo();
    fs::hard_link(dir.path().join(".git/config"), dir.path().join("hl")).unwrap();
    let ws = Workspace::new(dir.path()).unwrap();
    assert_eq!(
        writable(&ws, "hl"),
        Err((
            ErrorKind::ProtectedPath,
            "hl is a hard link of .git/config (one file under two names; a write through either changes \
             both), and .git/config is inside .git/, version-control internals, which hashedit never \
             writes (a hook or config written there can run code); nothing was written. Reading it is \
             allowed; to change hl alone, a person can break the link by hand (cp hl tmp && mv tmp hl)"
                .to_string()
        ))
    );
    // A repository the file is nested in counts as well.
    fs::create_dir_all(dir.path().join("sub/deep")).unwrap();
    fs::hard_link(
        dir.path().join(".git/config"),
        dir.path().join("sub/deep/x"),
    )
    .unwrap();
    assert_eq!(
        writable(&ws, "sub/deep/x").map_err(|(kind, _)| kind),
        Err(ErrorKind::ProtectedPath)
    );
    // --allow-protected allows it, as it allows .git/config itself.
    let open = Workspace::new(dir.path())
        .unwrap()
        .with_protection(Protection::default().without_defaults());
    assert_eq!(writable(&open, "hl"), Ok(()));
}

#[test]
fn a_hard_link_of_a_file_matched_by_a_protect_glob_is_refused() {
    let dir = repo();
    fs::hard_link(dir.path().join("secrets/key"), dir.path().join("k2")).unwrap();
    let ws = Workspace::new(dir.path())
        .unwrap()
        .with_protection(Protection::with_globs(&["secrets"]).unwrap());
    let (kind, message) = writable(&ws, "k2").unwrap_err();
    assert_eq!(kind, ErrorKind::ProtectedPath);
    assert!(
        message.starts_with(
            "k2 is a hard link of secrets/key (one file under two names; a write through either \
             changes both), and secrets/key is protected by --protect secrets; nothing was written."
        ),
        "{message}"
    );
    // Without the glob the same link is an ordinary file.
    assert_eq!(writable(&Workspace::new(dir.path()).unwrap(), "k2"), Ok(()));
}

#[test]
fn hard_links_between_unprotected_names_stay_writable() {
    let dir = repo();
    fs::hard_link(dir.path().join("notes.txt"), dir.path().join("n2")).unwrap();
    let ws = Workspace::new(dir.path()).unwrap();
    assert_eq!(writable(&ws, "n2"), Ok(()));
    assert_eq!(writable(&ws, "notes.txt"), Ok(()));
    assert_eq!(
        protected_other_name(
            &fs::canonicalize(dir.path()).unwrap(),
            &fs::canonicalize(dir.path().join("n2")).unwrap(),
            &Protection::default()
        ),
        None
    );
}
