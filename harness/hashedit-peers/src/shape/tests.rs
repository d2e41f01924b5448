use super::*;

#[test]
fn parses_a_windowed_read() {
    let shape = parse(
        "[a.txt#8935]\n2:two\n3:three\n\n[lines 2-3 of 4 shown; re-read with a different offset]",
    );
    assert_eq!(
        shape.items,
        vec![
            Item::Header {
                path: "a.txt".into(),
                tag: "8935".into()
            },
            Item::Row {
                n: 2,
                text: "two".into()
            },
            Item::Row {
                n: 3,
                text: "three".into()
            },
            Item::Notice(vec![2, 3, 4]),
        ]
    );
}

#[test]
fn keeps_rows_gaps_and_summaries_and_drops_prose() {
    let shape = parse(
        "a.txt: the tag is stale\n\nLive snapshot:\n[d#1/a.txt#ABCD]\n1:x\n…\n9:\r\n\nPUT 2.=3: (2 → 1 line(s)); CUT 4 (1 line)",
    );
    assert_eq!(shape.headers(), vec![("d#1/a.txt", "ABCD")]);
    assert_eq!(shape.rows(), vec![(1, "x"), (9, "\r")]);
    assert!(shape.items.contains(&Item::Gap));
    assert!(shape.items.contains(&Item::Summary(vec![2, 3, 2, 1, 4, 1])));
}

#[test]
fn a_forced_no_op_summary_is_a_summary() {
    let shape = parse("left unchanged, nothing written: PUT 1: (1 → 1 line)\n[a.txt#6CDD]\n1:");
    assert_eq!(shape.items[0], Item::Summary(vec![1, 1, 1]));
}

#[test]
fn rejects_lookalikes() {
    assert_eq!(parse_header("[a.txt#ABC]"), None);
    assert_eq!(parse_header("[#ABCD]"), None);
    assert_eq!(parse_row("0:x"), None);
    assert_eq!(parse_row("12 | x"), None);
    assert_eq!(parse_match("12 | x"), Some((12, "x")));
    assert_eq!(parse_row("12:"), Some((12, "")));
}
