use super::*;

#[test]
fn closers_are_lines_of_closing_brackets_or_end() {
    assert_eq!(closer("    }"), Some("brace"));
    assert_eq!(closer("\t});"), Some("brace"));
    assert_eq!(closer("  ),"), Some("paren"));
    assert_eq!(closer("]"), Some("bracket"));
    assert_eq!(closer("end"), Some("end"));
    assert_eq!(closer("} else {"), None);
    assert_eq!(closer(";"), None);
    assert_eq!(closer(""), None);
}
