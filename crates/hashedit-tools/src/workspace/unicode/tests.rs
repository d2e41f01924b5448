use super::*;

const NFC: &str = "caf\u{e9}.md";
const NFD: &str = "cafe\u{301}.md";

#[test]
fn the_one_twin_is_found_either_way() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(NFD), b"x").unwrap();
    assert_eq!(twin(dir.path(), OsStr::new(NFC)), Some(OsString::from(NFD)));
    assert_eq!(twin(dir.path(), OsStr::new("cafe.md")), None);
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join(NFC), b"x").unwrap();
    assert_eq!(
        twin(other.path(), OsStr::new(NFD)),
        Some(OsString::from(NFC))
    );
}

#[test]
fn two_twins_are_ambiguous() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(NFD), b"x").unwrap();
    std::fs::write(dir.path().join(NFC), b"x").unwrap();
    // Written in a third, mixed spelling: NFC and NFD both match.
    let mixed = "cafe\u{301}\u{e9}.md";
    std::fs::write(dir.path().join("caf\u{e9}\u{e9}.md"), b"x").unwrap();
    std::fs::write(dir.path().join("cafe\u{301}e\u{301}.md"), b"x").unwrap();
    assert_eq!(twin(dir.path(), OsStr::new(mixed)), None);
}

#[test]
fn the_note_names_both_spellings() {
    assert_eq!(
        twins_note(
            &[(NFC.into(), NFD.into())],
            super::super::Resolve::MayCreate
        )
        .as_deref(),
        Some(
            "note: 'caf\u{e9}.md' (NFC) is stored as 'cafe\u{301}.md' (NFD); the same name under Unicode \
             normalisation, so that existing entry was used (no second, look-alike name was created)"
        )
    );
    // A read creates nothing, so it does not say so.
    assert_eq!(
        twins_note(&[(NFC.into(), NFD.into())], super::super::Resolve::Existing).as_deref(),
        Some(
            "note: 'caf\u{e9}.md' (NFC) is stored as 'cafe\u{301}.md' (NFD); the same name under Unicode \
             normalisation, so that existing entry was used"
        )
    );
}

#[test]
fn creating_a_third_look_alike_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("caf\u{e9}\u{e9}.md"), b"x").unwrap();
    std::fs::write(dir.path().join("cafe\u{301}e\u{301}.md"), b"x").unwrap();
    let ws = crate::workspace::Workspace::new(dir.path()).unwrap();
    let mixed = "cafe\u{301}\u{e9}.md";
    let error = ws
        .resolve(mixed, crate::workspace::Resolve::MayCreate)
        .unwrap_err();
    assert_eq!(error.kind, crate::error::ErrorKind::InvalidArguments);
    assert!(
        error.message.starts_with(&format!(
            "{mixed} does not exist, and creating it would add a look-alike of "
        )),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("'caf\u{e9}\u{e9}.md' (NFC)") && error.message.contains("(NFD)")
    );
}
