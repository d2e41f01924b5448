//! The registry across calls: what is loaded, what is appended.

use super::*;
use hashedit_core::{TagCheck, TagScheme};

#[test]
fn round_trips_fingerprints_and_catches_a_collision_across_calls() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::at(dir.path().join("reg"));
    let first = Session::new();
    let served = TagScheme::Rho.fingerprint(b"alpha\nbeta\n");
    let odd = Path::new("/w/we\\ird\nname.txt");
    first.record(Path::new("/w/f.txt"), served, Some(b"alpha\nbeta\n"));
    first.record(odd, served, None);
    first.mark_consumed(odd, served, served.tag);
    registry.save(&first, &[]).unwrap();
    // A later call (a new process) loads what was served.
    let second = Session::new();
    let loaded = registry.load_into(&second);
    assert_eq!(loaded.len(), 2);
    let collider = TagScheme::Rho.fingerprint(b"// build 075ab-002d6\nalpha\nbeta\n");
    assert_eq!(collider.tag, served.tag);
    assert_eq!(
        second.check(Path::new("/w/f.txt"), collider),
        TagCheck::Collision
    );
    assert_eq!(
        second.check(Path::new("/w/f.txt"), served),
        TagCheck::Confirmed
    );
    assert!(
        second
            .export_fingerprints()
            .iter()
            .any(|(p, _, consumed)| p == odd && *consumed)
    );
    // Texts are never stored.
    assert_eq!(second.served_text(Path::new("/w/f.txt"), served.tag), None);
}

#[test]
fn a_call_appends_only_the_files_whose_snapshots_changed() {
    let dir = tempfile::tempdir().unwrap();
    let registry = Registry::at(dir.path().join("reg"));
    let one = TagScheme::Rho.fingerprint(b"one\n");
    let two = TagScheme::Rho.fingerprint(b"two\n");
    let first = Session::new();
    first.record(Path::new("/w/a.txt"), one, None);
    first.record(Path::new("/w/b.txt"), one, None);
    registry.save(&first, &[]).unwrap();
    // An edit call: loads, then changes b.txt only.
    let second = Session::new();
    let loaded = registry.load_into(&second);
    second.mark_consumed(Path::new("/w/b.txt"), one, one.tag);
    second.record(Path::new("/w/b.txt"), two, None);
    registry.save(&second, &loaded).unwrap();
    let b = |fingerprint, consumed| Entry {
        path: PathBuf::from("/w/b.txt"),
        fingerprint,
        consumed,
    };
    let a = Entry {
        path: PathBuf::from("/w/a.txt"),
        fingerprint: one,
        consumed: false,
    };
    assert_eq!(
        log::read(registry.path()),
        [a.clone(), b(one, false), b(one, true), b(two, false)]
    );
    // Replaying the log gives back what the second call remembered.
    let third = Session::new();
    assert_eq!(registry.load_into(&third), [a, b(one, true), b(two, false)]);
}

#[test]
fn a_damaged_registry_loads_what_is_intact() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reg");
    let session = Session::new();
    std::fs::write(&path, "not a registry\n").unwrap();
    assert_eq!(Registry::at(&path).load_into(&session), []);
    let good = Entry {
        path: PathBuf::from("/y"),
        fingerprint: TagScheme::Rho.fingerprint(b"y\n"),
        consumed: true,
    };
    let line = good.encode().unwrap();
    std::fs::write(
        &path,
        format!("{}\nZZZZ 00 0 /x\n{line}{}", log::MAGIC, &line[..20]),
    )
    .unwrap();
    assert_eq!(Registry::at(&path).load_into(&session), [good]);
}

#[test]
fn an_unwritable_location_is_an_error_for_the_caller_to_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reg");
    std::fs::create_dir(&path).unwrap();
    let session = Session::new();
    session.record(Path::new("/w/a"), TagScheme::Rho.fingerprint(b"a\n"), None);
    let error = Registry::at(&path).save(&session, &[]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "it is a directory; name a file (in it or elsewhere) instead"
    );
    // A regular file where a directory of the path should be is named
    // (the system's own word is "File exists").
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let error = Registry::at(blocker.join("reg"))
        .save(&session, &[])
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "its directory {} is a file, not a directory",
            blocker.display()
        )
    );
}
