use super::*;

const DOC: &str = "[a.rs#ABCD]\nPUT 2:\n-old\n+new\n";

#[test]
fn a_try_line_with_a_document_line_is_actionable() {
    let msg = "edit document line 3: diff rows…\n  3 | -old\ntry: +new";
    assert!(actionable(msg, DOC, "a.rs", "1234").is_actionable());
}

#[test]
fn a_live_snapshot_is_actionable() {
    let msg = "a.rs: snapshot tag ABCD is stale\n[a.rs#1234]\n1:fn x() {}\n2:new";
    let a = actionable(msg, DOC, "a.rs", "1234");
    assert!(a.live_snapshot && a.is_actionable());
    // The stale tag is not the live one.
    assert!(!actionable(msg, DOC, "a.rs", "ABCD").live_snapshot);
}

#[test]
fn prose_alone_is_not_actionable() {
    let msg = "edit document line 1: remove the code fence";
    let a = actionable(msg, DOC, "a.rs", "1234");
    assert!(a.locates && !a.is_actionable());
    let msg = "unrecognized line";
    assert!(!actionable(msg, DOC, "b.rs", "1234").locates);
    // A generic example is not a fix for this document; a specific one is.
    let msg = "range looks truncated (example: PUT 3:)";
    assert!(!actionable(msg, DOC, "a.rs", "1234").corrected_line);
    let msg = "range looks truncated (example: PUT 2:)";
    assert!(actionable(msg, DOC, "a.rs", "1234").corrected_line);
    let msg = "edit document line 2: bad\ntry:\n  PUT 2:\n  +new";
    assert!(actionable(msg, DOC, "a.rs", "1234").is_actionable());
}

#[test]
fn outcomes_rest_on_bytes() {
    let yes = |_: &str| Actionability {
        locates: true,
        live_snapshot: true,
        corrected_line: false,
    };
    let no = |_: &str| Actionability::default();
    assert_eq!(
        score(true, "", 0, Some(b"x"), b"o", b"x", no),
        Outcome::Intended
    );
    assert_eq!(
        score(true, "", 1, Some(b"y"), b"o", b"x", no),
        Outcome::WrongWarned
    );
    assert_eq!(
        score(true, "", 0, Some(b"o"), b"o", b"x", no),
        Outcome::WrongSilent
    );
    assert_eq!(
        score(false, "", 0, Some(b"o"), b"o", b"x", yes),
        Outcome::RefusedActionable
    );
    assert_eq!(
        score(false, "", 0, Some(b"o"), b"o", b"x", no),
        Outcome::RefusedOther
    );
    assert_eq!(
        score(false, "", 0, Some(b"y"), b"o", b"x", yes),
        Outcome::WrongSilent
    );
}
