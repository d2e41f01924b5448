use super::{looks_like_read_output, looks_like_read_rows};

#[test]
fn detects_pasted_read_output() {
    assert!(looks_like_read_output("[a.md#1A2B]\n1:# Title\n2:text\n"));
    assert!(looks_like_read_output("[a.md#1a2b]"));
    assert!(looks_like_read_output("[a.md#1A2B]\n1 | # Title\n"));
    assert!(!looks_like_read_output("[server]\nport = 1\n"));
    assert!(!looks_like_read_output("[a#b]\n1:x"));
    assert!(!looks_like_read_output("[notes#ABCD]\ntext"));
    assert!(!looks_like_read_output("1:00 lunch\n2:00 meeting\n"));
}

#[test]
fn detects_numbered_rows_without_their_header() {
    // Break-it pass: exactly what read prints, minus the header.
    assert!(looks_like_read_rows("1:foo\n2:bar\n"));
    assert!(looks_like_read_rows("10:x\n11:\n12:y"));
    assert!(looks_like_read_rows(
        "1:a\n2:b\n\n[lines 1-2 of 9 shown; pass offset/limit to read the rest]\n"
    ));
    // Not counting up, a line without a number, a single row, line 0.
    assert!(!looks_like_read_rows("1:a\n3:b\n"));
    assert!(!looks_like_read_rows("1:a\nb\n2:c\n"));
    assert!(!looks_like_read_rows("1:a\n"));
    assert!(!looks_like_read_rows("0:a\n1:b\n"));
    assert!(!looks_like_read_rows("1 | a\n2 | b\n"));
    assert!(!looks_like_read_rows(""));
}
