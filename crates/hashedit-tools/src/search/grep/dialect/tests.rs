use super::*;

#[test]
fn bre_alternation_is_named_with_the_rust_spelling() {
    assert_eq!(
        note("json\\|tool").as_deref(),
        Some(
            "note: in this regex syntax (Rust's) \\| matches a literal '|', it is not alternation as in \
             grep's basic syntax; for either side write 'json|tool', or set literal for the text as written"
        )
    );
}

#[test]
fn empty_alternatives_are_named() {
    assert_eq!(
        note("a || b").as_deref(),
        Some(
            "note: 'a || b' has an empty alternative (as in '||' or a leading or trailing '|'), which \
             matches every line; for either side write 'a|b', or set literal to search for the text as written"
        )
    );
    for pattern in ["|x", "x|", "(|x)", "(x|)", "a||b"] {
        assert!(note(pattern).is_some(), "{pattern}");
    }
}

#[test]
fn ordinary_patterns_have_no_note() {
    for pattern in ["a|b", "(a|b)c", "[|]", "fn main", "a[||]b"] {
        assert_eq!(note(pattern), None, "{pattern}");
    }
}
