use super::*;

#[test]
fn plain_paths_are_shown_unchanged() {
    for raw in [
        "a.txt",
        "src/a b.rs",
        "café/ü.md",
        "\"half",
        "x\"",
        "\"",
        "a\\b",
    ] {
        assert!(matches!(display_path(raw), Cow::Borrowed(_)), "{raw}");
        assert_eq!(parse_quoted(raw), None, "{raw}");
        assert_eq!(raw_path(raw), raw);
    }
}

#[test]
fn control_characters_and_quoted_looking_names_are_escaped() {
    for (raw, shown) in [
        ("tab\tx.txt", r#""tab\tx.txt""#),
        ("new\nline.txt", r#""new\nline.txt""#),
        ("cr\r", r#""cr\r""#),
        ("esc\u{1b}[1m", r#""esc\u{1b}[1m""#),
        ("del\u{7f}", r#""del\u{7f}""#),
        ("nel\u{85}", r#""nel\u{85}""#),
        ("ls\u{2028}ps\u{2029}", r#""ls\u{2028}ps\u{2029}""#),
        ("dir/a\tb\\c\"d", r#""dir/a\tb\\c\"d""#),
        ("\"x\"", r#""\"x\"""#),
        ("\"\"", r#""\"\"""#),
        ("a/\"b\"", r#""a/\"b\"""#),
        (" lead.txt", r#"" lead.txt""#),
        ("trail.txt\u{3000}", "\"trail.txt\u{3000}\""),
    ] {
        assert_eq!(display_path(raw), shown, "{raw:?}");
        assert_eq!(parse_quoted(shown).as_deref(), Some(raw), "{shown}");
        assert_eq!(raw_path(shown), raw, "{shown}");
        assert!(!shown.contains('\n') && !shown.contains('\r'));
    }
    // The same spelling as Rust's Debug for the common cases.
    assert_eq!(display_path("a\nb\t\"c\\"), format!("{:?}", "a\nb\t\"c\\"));
}

#[test]
fn quoted_spellings_are_read_back() {
    assert_eq!(parse_quoted(r#""abc""#).as_deref(), Some("abc"));
    assert_eq!(parse_quoted(r#""""#).as_deref(), Some(""));
    assert_eq!(parse_quoted(r#""\u{41}\u{1F980}""#).as_deref(), Some("A🦀"));
    assert_eq!(parse_quoted(r#""\0""#).as_deref(), Some("\0"));
    assert_eq!(
        parse_quoted(r#"src/"a\tb"/"c\nd.rs""#).as_deref(),
        Some("src/a\tb/c\nd.rs")
    );
    // Not one quoted whole (an unescaped quote inside), but two quoted
    // components.
    assert_eq!(parse_quoted(r#""a"/"b\tc""#).as_deref(), Some("a/b\tc"));
    for bad in [
        r#""\q""#,
        r#""\""#,
        r#""a"b""#,
        r#""\u{}""#,
        r#""\u{1234567}""#,
        r#""\u{d800}""#,
        r#""\u{110000}""#,
        r#""\u41""#,
        r#""\u{41""#,
        r#""\u{4g}""#,
        r#"src/"bad\q""#,
    ] {
        assert_eq!(parse_quoted(bad), None, "{bad}");
        assert_eq!(raw_path(bad), bad);
    }
}

#[test]
fn every_name_round_trips() {
    let alphabet = [
        'a', '"', '\\', '\t', '\n', '\u{1}', '\u{2028}', 'é', '/', 'u', '{', ' ',
    ];
    // Every string of up to 4 characters from the alphabet.
    let mut stack = vec![String::new()];
    while let Some(s) = stack.pop() {
        let shown = display_path(&s);
        assert!(!shown.contains('\n'), "{s:?}");
        assert_eq!(raw_path(&shown), s, "{s:?} shown as {shown}");
        if shown != s {
            assert_eq!(parse_quoted(&shown).as_deref(), Some(s.as_str()), "{s:?}");
        }
        if s.chars().count() < 4 {
            for c in alphabet {
                let mut next = s.clone();
                next.push(c);
                stack.push(next);
            }
        }
    }
}
