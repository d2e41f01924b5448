use super::*;
use crate::document::DocOp;

fn doc(ops: &[(&str, &[&str])]) -> DocSpec {
    let ops = ops
        .iter()
        .map(|(header, rows)| DocOp {
            header: header.to_string(),
            rows: rows.iter().map(|r| r.to_string()).collect(),
        })
        .collect();
    DocSpec::new("a.rs", ops)
}

#[test]
fn reads_every_canonical_op() {
    let live = Lines::parse("a\nb\nc\nd\n");
    let d = doc(&[
        ("PUT <1:", &["+h"]),
        ("PUT 2:", &["+B", "++x"]),
        ("CUT 3", &[]),
        ("PUT <4:", &["+before d"]),
        ("PUT >4:", &["+"]),
    ]);
    assert_eq!(
        literal(&d, &live).unwrap().text(),
        "h\na\nB\n+x\nbefore d\nd\n\n"
    );
    let d = doc(&[("PUT 1.=2:", &["+ab"]), ("CUT 3.=4", &[])]);
    assert_eq!(literal(&d, &live).unwrap().text(), "ab\n");
}

#[test]
fn anything_but_plain_hashline_has_no_reading() {
    let live = Lines::parse("a\nb\n");
    assert_eq!(literal(&doc(&[("PUT 1:", &["x"])]), &live), None);
    assert_eq!(literal(&doc(&[("PUT 1.:", &["+x"])]), &live), None);
    assert_eq!(literal(&doc(&[("PUT 1:", &[])]), &live), None);
    assert_eq!(literal(&doc(&[("CUT 1", &["+x"])]), &live), None);
    assert_eq!(literal(&doc(&[("PUT 3:", &["+x"])]), &live), None);
    let twice = doc(&[("CUT 1", &[]), ("CUT 1", &[])]);
    assert_eq!(literal(&twice, &live), None);
    let mut fenced = doc(&[("PUT 1:", &["+x"])]);
    fenced.fence = Some("```".into());
    assert_eq!(literal(&fenced, &live), None);
}
