use super::*;

#[test]
fn cuts_at_char_boundaries() {
    assert_eq!(truncate_to_budget("abcdef".into(), 10), "abcdef");
    assert_eq!(truncate_to_budget("abcdef".into(), 3), "abc\n[truncated]");
    assert_eq!(truncate_to_budget("aé".into(), 2), "a\n[truncated]");
}

#[test]
fn truncates_chars() {
    // reference-rho.md §11 case 54.
    assert_eq!(truncate_chars("🦀🦀🦀🦀", 2), "🦀🦀…");
    assert_eq!(truncate_chars("ab", 2), "ab");
    let long = "x".repeat(221);
    assert_eq!(truncate_chars(&long, 200).chars().count(), 201);
}
