use std::path::Path;

use super::*;

fn check(protection: &Protection, path: &str) -> Option<Protected> {
    protection.check(Path::new(path))
}

#[test]
fn version_control_internals_are_protected_by_default_in_any_case() {
    let p = Protection::default();
    for (path, name) in [
        (".git/config", ".git"),
        (".git", ".git"),
        ("sub/.hg/hgrc", ".hg"),
        (".svn/entries", ".svn"),
        (".jj/repo/store", ".jj"),
        (".GIT/hooks/pre-commit", ".GIT"),
        ("vendor/.Git/config", ".Git"),
    ] {
        assert_eq!(
            check(&p, path),
            Some(Protected::VersionControl(name.to_string())),
            "{path}"
        );
    }
    for path in [
        "src/git/a.rs",
        ".gitignore",
        ".github/workflows/ci.yml",
        "a.git",
        "x/.gitkeep",
    ] {
        assert_eq!(check(&p, path), None, "{path}");
    }
}

#[test]
fn without_defaults_nothing_is_protected_but_globs_stay() {
    let p = Protection::with_globs(&["*.pem"])
        .unwrap()
        .without_defaults();
    assert_eq!(check(&p, ".git/config"), None);
    assert_eq!(
        check(&p, "keys/server.PEM"),
        Some(Protected::Glob("*.pem".into()))
    );
}

#[test]
fn globs_with_a_slash_match_the_path_or_an_ancestor() {
    let p = Protection::with_globs(&["deploy/keys/", "config/*.toml", "secrets"]).unwrap();
    assert_eq!(
        check(&p, "deploy/keys/id_rsa"),
        Some(Protected::Glob("deploy/keys/".into()))
    );
    assert_eq!(
        check(&p, "config/app.toml"),
        Some(Protected::Glob("config/*.toml".into()))
    );
    assert_eq!(check(&p, "config/sub/app.toml"), None);
    assert_eq!(
        check(&p, "a/secrets/b.txt"),
        Some(Protected::Glob("secrets".into()))
    );
    assert_eq!(check(&p, "deploy/other"), None);
    // The defaults are still on.
    assert_eq!(
        check(&p, ".jj/x"),
        Some(Protected::VersionControl(".jj".into()))
    );
}

#[test]
fn a_bad_glob_is_an_argument_error_naming_it() {
    let error = Protection::with_globs(&["a[b"]).unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidArguments);
    assert_eq!(
        error.message,
        "--protect a[b: not a glob pattern (unclosed character class; missing ']')"
    );
}
