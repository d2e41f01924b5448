use super::*;

#[test]
fn lines_and_offsets() {
    let t = Text::from_string("ab\n\ncd".to_string());
    assert_eq!(t.lines(), 3);
    assert_eq!((t.line_start(2), t.line_end(2)), (3, 3));
    assert_eq!((t.line_start(3), t.line_end(3)), (4, 6));
    assert_eq!(t.span(1, 3), "ab\n\ncd");
    // A line break belongs to the line it ends; a line start to its line.
    assert_eq!([0, 2, 3, 4, 6].map(|p| t.line_at(p)), [1, 1, 2, 3, 3]);
    let t = Text::new(&Lines::parse("x\n"));
    assert_eq!((t.lines(), t.line_end(1), t.text.as_str()), (1, 1, "x\n"));
    assert_eq!(Text::from_string(String::new()).lines(), 0);
}

#[test]
fn regions_trim_align_and_widen() {
    let text = "let count = a + b;";
    let r = Region {
        start: 0,
        end: text.len(),
        new: "let count = a - b;".into(),
    };
    let core = r.trimmed(text);
    assert_eq!((core.old(text), core.new.as_str()), ("+", "-"));
    let r = Region {
        start: 4,
        end: 5,
        new: "C".into(),
    };
    let aligned = r.word_aligned(text);
    assert_eq!(
        (aligned.old(text), aligned.new.as_str()),
        ("count", "Count")
    );
    // `+` occurs once already.
    let unique = |s: usize, e: usize| occurrences(text, &text[s..e], 2) == 1;
    let widened = widen_by_units(text, &core, 0, text.len(), unique).unwrap();
    assert_eq!(widened.old(text), "+");
    let doubled = "a + b + c";
    let plus = Region {
        start: 2,
        end: 3,
        new: "-".into(),
    };
    let unique = |s: usize, e: usize| occurrences(doubled, &doubled[s..e], 2) == 1;
    let widened = widen_by_units(doubled, &plus, 0, doubled.len(), unique).unwrap();
    assert_eq!((widened.old(doubled), widened.new.as_str()), ("+ b", "- b"));
    // A word grown at its end takes the whole word.
    let grown = Region {
        start: 1,
        end: 1,
        new: "_next".into(),
    };
    let aligned = grown.word_aligned("f(1)");
    assert_eq!((aligned.old("f(1)"), aligned.new.as_str()), ("f", "f_next"));
}

#[test]
fn occurrences_overlap() {
    assert_eq!(occurrences("aaa", "aa", 5), 2);
    assert_eq!(occurrences("aaa", "aa", 1), 1);
    assert_eq!(occurrences("é é", "é", 5), 2);
    assert_eq!(occurrences("abc", "x", 5), 0);
}

#[test]
fn hunks_as_regions() {
    let t = Text::new(&Lines::parse("a\nb\nc\n"));
    let region = |h: Hunk| {
        let r = hunk_region(&t, &h);
        (r.old(&t.text).to_string(), r.new)
    };
    assert_eq!(
        region(Hunk::Delete { start: 2, end: 2 }),
        ("b\n".into(), String::new())
    );
    assert_eq!(
        region(Hunk::Delete { start: 3, end: 3 }),
        ("\nc".into(), String::new())
    );
    assert_eq!(
        region(Hunk::Insert {
            after: 0,
            rows: vec!["top".into()]
        }),
        (String::new(), "top\n".into())
    );
    let insert = Hunk::Insert {
        after: 1,
        rows: vec!["x".into()],
    };
    assert_eq!(region(insert.clone()), (String::new(), "\nx".into()));
    let before = insert_before(&t, &insert).unwrap();
    assert_eq!((before.start, before.new.as_str()), (2, "x\n"));
}
