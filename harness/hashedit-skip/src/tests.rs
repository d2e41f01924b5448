use super::*;

#[test]
fn the_current_privilege_follows_the_kernels_own_check() {
    // Whether this process may read a file whose mode grants nobody
    // anything is what the privilege is about.
    let probe = std::env::temp_dir().join(format!("hashedit-skip-{}", std::process::id()));
    std::fs::write(&probe, b"x").unwrap();
    let mut permissions = std::fs::metadata(&probe).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o000);
    std::fs::set_permissions(&probe, permissions).unwrap();
    let readable = std::fs::read(&probe).is_ok();
    std::fs::remove_file(&probe).unwrap();
    let expected = if readable {
        Privilege::Root
    } else {
        Privilege::Unprivileged
    };
    assert_eq!(Privilege::current(), expected);
    assert!(runs_as(expected, "t", "x"));
    let other = match expected {
        Privilege::Root => Privilege::Unprivileged,
        Privilege::Unprivileged => Privilege::Root,
    };
    assert!(!runs_as(other, "t", "x"));
}

/// Set in the child process that [`skip_fails_only_under_require_all`]
/// starts: the test then only calls [`skip`].
const PROBE: &str = "HASHEDIT_SKIP_PROBE";

#[test]
fn skip_fails_only_under_require_all() {
    if std::env::var_os(PROBE).is_some() {
        skip("probe", "a thing", "it is missing");
        return;
    }
    let run = |require: &str| {
        std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "tests::skip_fails_only_under_require_all",
                "--nocapture",
            ])
            .env(PROBE, "1")
            .env(REQUIRE_ALL, require)
            .output()
            .unwrap()
    };
    let skipped = run("0");
    let stderr = String::from_utf8_lossy(&skipped.stderr);
    assert!(skipped.status.success(), "{stderr}");
    assert!(
        stderr.contains("SKIPPED in probe: not checked: a thing\nbecause it is missing"),
        "{stderr}"
    );
    let failed = run("1");
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "probe: cannot check a thing: it is missing (HASHEDIT_REQUIRE_ALL=1 forbids skipping)"
        ),
        "{stderr}"
    );
}
