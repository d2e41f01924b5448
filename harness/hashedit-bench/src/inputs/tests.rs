use super::*;

/// The bytes `doc` (one section, correct tag) makes of `bytes`.
fn apply(display: &str, bytes: &[u8], doc: &str) -> Vec<u8> {
    use hashedit_core::{EditSettings, FileInput, NoHistory, edit_file};
    let parsed = hashedit_core::parse(doc).unwrap();
    let input = FileInput {
        section: &parsed.sections[0],
        display,
        result_display: display,
        bytes,
    };
    let settings = EditSettings::new(TagScheme::Rho);
    let mut registers = hashedit_core::Registers::default();
    edit_file(&input, &settings, &NoHistory, &mut registers)
        .unwrap()
        .bytes
}

/// The inputs every seed stands for: PERFORMANCE.md's figures were
/// measured on them, so they must never change.
#[test]
fn inputs_are_pinned() {
    let text = source_text(200, 7);
    assert_eq!(text.len(), 7254);
    assert_eq!(
        TagScheme::Rho.fingerprint(&text).digest.0,
        0x522f_bc4b_3f23_ee01_55c2_475f_39e9_6525
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("log");
    assert_eq!(write_log(&path, 5000, 3).unwrap(), 5084);
    let log = std::fs::read(&path).unwrap();
    assert_eq!(
        TagScheme::Rho.fingerprint(&log).digest.0,
        0xd7a0_5fcd_17bc_22ab_603c_a150_a983_3699
    );
}

#[test]
fn inputs_are_deterministic_and_well_formed() {
    let a = source_text(100, 7);
    assert_eq!(a, source_text(100, 7));
    assert_ne!(a, source_text(100, 8));
    assert_eq!(line_count(&a), 100);
    assert!(std::str::from_utf8(&a).is_ok());
}

#[test]
fn source_parses_as_rust_before_and_after_an_edit() {
    use hashedit_core::BlockResolver;
    let blocks = hashedit_blocks::TreeSitterBlocks::new();
    let bytes = source_text(2000, 3);
    let text = std::str::from_utf8(&bytes).unwrap();
    let index = blocks.index("f.rs", text).unwrap();
    assert_eq!(
        index.syntax(),
        Some(None),
        "generated source has a syntax error"
    );
    let doc = edit_document("f.rs", &bytes, TagScheme::Rho, 100, "");
    let edited = apply("f.rs", &bytes, &doc);
    let after = std::str::from_utf8(&edited).unwrap();
    assert_eq!(blocks.index("f.rs", after).unwrap().syntax(), Some(None));
}

#[test]
fn documents_apply_to_their_file() {
    let bytes = source_text(1000, 1);
    let doc = edit_document("f.rs", &bytes, TagScheme::Rho, 100, "");
    let parsed = hashedit_core::parse(&doc).unwrap();
    assert_eq!(parsed.sections[0].ops.len(), 100);
    assert_eq!(line_count(&apply("f.rs", &bytes, &doc)), 1000);
}

#[test]
fn logs_have_the_asked_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.log");
    let n = write_log(&path, 10_000, 1).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes.len() as u64, n);
    assert!((10_000..10_400).contains(&n));
    assert!(bytes.ends_with(b"\n"));
}
