use super::looks_like_read_output;

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
