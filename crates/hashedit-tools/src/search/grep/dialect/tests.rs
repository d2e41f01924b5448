use super::*;

/// The note as the MCP surface words it.
fn note(pattern: &str) -> Option<String> {
    super::note(pattern, Surface::Mcp)
}

#[test]
fn bre_alternation_is_named_with_the_rust_spelling() {
    assert_eq!(
        note("json\\|tool").as_deref(),
        Some(
            "note: in this regex syntax (Rust's) \\| matches a literal '|', not alternation as in grep's \
             basic syntax; for alternation write 'json|tool', or set literal for the text as written"
        )
    );
}

#[test]
fn a_bre_rewrite_that_would_match_every_line_is_not_suggested() {
    // Break-it pass: `json\|` was told to write 'json|', an empty
    // alternative that matches every line.
    assert_eq!(
        note("json\\|").as_deref(),
        Some(
            "note: in this regex syntax (Rust's) \\| matches a literal '|', not alternation as in grep's \
             basic syntax (read that way, this pattern would match every line)"
        )
    );
}

#[test]
fn bre_groups_and_one_or_more_are_named() {
    assert_eq!(
        note("\\(json\\)").as_deref(),
        Some(
            "note: in this regex syntax (Rust's) \\( matches a literal '(', \\) matches a literal ')', \
             not a group as in grep's basic syntax; for a group write '(json)', or set literal for the \
             text as written"
        )
    );
    assert_eq!(
        note("x\\+").as_deref(),
        Some(
            "note: in this regex syntax (Rust's) \\+ matches a literal '+', not 'one or more' as in \
             grep's basic syntax; for 'one or more' write 'x+', or set literal for the text as written"
        )
    );
    // An escaped backslash before the character is no BRE escape.
    assert_eq!(note("a\\\\+"), None);
}

#[test]
fn a_top_level_empty_alternative_offers_both_readings() {
    assert_eq!(
        note("a || b").as_deref(),
        Some(
            "note: 'a || b' has an empty alternative (as in '||' or a leading or trailing '|'), which \
             matches the empty string and so every line; write 'a | b' for either side as written, or \
             'a|b' for either side without the spaces (a logical or), or set literal to search for the \
             text as written"
        )
    );
    assert_eq!(
        note("a||b").as_deref(),
        Some(
            "note: 'a||b' has an empty alternative (as in '||' or a leading or trailing '|'), which \
             matches the empty string and so every line; write 'a|b' for either side as written, or set \
             literal to search for the text as written"
        )
    );
    assert_eq!(
        note("(|x)").as_deref(),
        Some(
            "note: '(|x)' has an empty alternative (as in '||' or a leading or trailing '|'), which \
             matches the empty string and so every line; write '(x)' for either side as written, or set \
             literal to search for the text as written"
        )
    );
    assert_eq!(
        note("|").as_deref(),
        Some(
            "note: '|' has an empty alternative (as in '||' or a leading or trailing '|'), which matches \
             the empty string and so every line; drop the stray '|', or set literal to search for the text \
             as written"
        )
    );
    for pattern in ["|x", "x|", "(x|)"] {
        assert!(note(pattern).is_some(), "{pattern}");
    }
}

#[test]
fn an_empty_alternative_inside_a_group_only_makes_it_optional() {
    // Break-it pass: `colou(r|)` was said to match every line.
    for pattern in ["colou(r|)", "a(|b)c", "x(y||z)"] {
        assert_eq!(note(pattern), None, "{pattern}");
    }
}

#[test]
fn ordinary_patterns_have_no_note() {
    for pattern in ["a|b", "(a|b)c", "[|]", "fn main", "a[||]b", "\\\\|x"] {
        assert_eq!(note(pattern), None, "{pattern}");
    }
}
