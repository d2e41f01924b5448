use super::*;

fn lines(text: &str) -> Lines {
    Lines::parse(text)
}

#[test]
fn line_model_round_trips() {
    for text in ["", "a", "a\n", "a\nb\n", "a\n\nb", "\n"] {
        assert_eq!(lines(text).text(), text, "{text:?}");
    }
    assert_eq!(lines("a\nb\n").len(), 2);
    assert_eq!(lines("\n").lines, vec![String::new()]);
}

#[test]
fn diff_then_apply_gives_the_target() {
    let cases = [
        ("a\nb\nc\n", "a\nB\nc\n"),
        ("a\nb\nc\n", "a\nc\n"),
        ("a\nb\nc\n", "b\na\nc\n"),
        ("a\nb\nc\n", "x\na\nb\nc\ny\n"),
        ("a\nb\nc\nd\ne\n", "a\nc\nb\nd\nE\n"),
        ("}\n}\n}\n", "}\n}\n"),
    ];
    for (old, new) in cases {
        let (old, new) = (lines(old), lines(new));
        let hunks = diff(&old, &new);
        assert_eq!(apply(&old, &hunks).unwrap(), new, "{hunks:?}");
    }
}

#[test]
fn inserts_follow_a_span_ending_at_their_line() {
    let file = lines("a\nb\nc\n");
    let hunks = [
        Hunk::Insert {
            after: 2,
            rows: vec!["i".into()],
        },
        Hunk::Replace {
            start: 2,
            end: 2,
            rows: vec!["B".into()],
        },
        Hunk::Insert {
            after: 0,
            rows: vec!["h".into()],
        },
    ];
    assert_eq!(apply(&file, &hunks).unwrap().text(), "h\na\nB\ni\nc\n");
}

#[test]
fn refuses_overlaps_and_out_of_range() {
    let file = lines("a\nb\nc\n");
    let span = |start, end| Hunk::Delete { start, end };
    assert_eq!(
        apply(&file, &[span(1, 2), span(2, 3)]),
        Err(ApplyError::Overlap)
    );
    assert_eq!(apply(&file, &[span(3, 4)]), Err(ApplyError::OutOfRange));
    let inside = Hunk::Insert {
        after: 1,
        rows: vec![],
    };
    assert_eq!(
        apply(&file, &[span(1, 2), inside]),
        Err(ApplyError::Overlap)
    );
}
