//! The line format: round trips, escapes, and every way a line is refused.

use super::*;
use hashedit_core::TagScheme;
use xxhash_rust::xxh32::xxh32;

fn entry(path: &str, consumed: bool) -> Entry {
    Entry {
        path: PathBuf::from(path),
        fingerprint: TagScheme::Rho.fingerprint(b"alpha\nbeta\n"),
        consumed,
    }
}

#[test]
fn lines_round_trip_with_escaped_paths() {
    for (path, consumed) in [
        ("/w/f.txt", false),
        ("/w/with space/and\\back\\slash", true),
        ("/w/new\nline\rreturn.txt", false),
    ] {
        let entry = entry(path, consumed);
        let line = entry.encode().unwrap();
        assert!(line.ends_with('\n'));
        assert_eq!(line.matches('\n').count(), 1, "{line:?}");
        assert_eq!(Entry::decode(line.trim_end_matches('\n')), Some(entry));
    }
}

#[test]
fn the_line_spells_every_field() {
    let entry = entry("/w/a b.txt", true);
    let digest = entry.fingerprint.digest.0;
    let check = xxh32(format!("ADF9 {digest:032x} 1 /w/a b.txt").as_bytes(), 0);
    assert_eq!(
        entry.encode().unwrap(),
        format!("ADF9 {digest:032x} 1 {check:08x} /w/a b.txt\n")
    );
}

#[test]
fn a_torn_or_altered_line_is_refused() {
    let line = entry("/w/project/src/main.rs", false).encode().unwrap();
    let line = line.trim_end_matches('\n');
    // Every cut, including one inside the path, fails the checksum.
    for cut in 0..line.len() {
        assert_eq!(Entry::decode(&line[..cut]), None, "cut at {cut}");
    }
    let altered = line.replace("main.rs", "mains.rs");
    assert_eq!(Entry::decode(&altered), None);
    let flipped = line.replacen(" 0 ", " 1 ", 1);
    assert_eq!(Entry::decode(&flipped), None);
}

#[test]
fn malformed_fields_are_refused_even_with_a_matching_checksum() {
    let with_check = |fields: [&str; 4]| {
        let check = checksum(fields);
        let [tag, digest, consumed, path] = fields;
        format!("{tag} {digest} {consumed} {check:08x} {path}")
    };
    let digest = "0123456789abcdef0123456789abcdef";
    assert!(Entry::decode(&with_check(["ADF9", digest, "0", "/p"])).is_some());
    assert_eq!(
        Entry::decode(&with_check(["ZZZZ", digest, "0", "/p"])),
        None
    );
    assert_eq!(
        Entry::decode(&with_check(["ADF9", "0123", "0", "/p"])),
        None
    );
    assert_eq!(
        Entry::decode(&with_check(["ADF9", digest, "2", "/p"])),
        None
    );
    assert_eq!(
        Entry::decode(&with_check(["ADF9", digest, "0", "/bad\\q"])),
        None
    );
    assert_eq!(Entry::decode(""), None);
}

#[test]
fn paths_that_are_not_utf8_are_not_encoded() {
    use std::os::unix::ffi::OsStrExt;
    let entry = Entry {
        path: PathBuf::from(std::ffi::OsStr::from_bytes(b"/w/\xff.txt")),
        ..entry("/w/x", false)
    };
    assert_eq!(entry.encode(), None);
}
