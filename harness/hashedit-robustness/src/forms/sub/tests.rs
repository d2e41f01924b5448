use super::*;

fn op(locator: Option<(usize, usize)>, old: &[&str], new: &[&str]) -> SubOp {
    SubOp {
        locator,
        old: old.iter().map(|s| s.to_string()).collect(),
        new: new.iter().map(|s| s.to_string()).collect(),
    }
}

#[test]
fn resolves_as_text_substitution() {
    let t = Text::new(&Lines::parse(
        "fn a() {\n    x(1);\n}\nfn b() {\n    x(1);\n}\n",
    ));
    assert_eq!(
        resolve(&t, &op(Some((2, 2)), &["1"], &["2"])),
        Ok(Hunk::Replace {
            start: 2,
            end: 2,
            rows: vec!["    x(2);".into()]
        })
    );
    // Across lines, and with rows that add a line.
    assert_eq!(
        resolve(
            &t,
            &op(
                Some((1, 3)),
                &["{", "    x(1);"],
                &["{", "    y();", "    x(1);"]
            )
        ),
        Ok(Hunk::Replace {
            start: 1,
            end: 2,
            rows: vec!["fn a() {".into(), "    y();".into(), "    x(1);".into()]
        })
    );
    // Whole lines and no `+` row: the lines go.
    assert_eq!(
        resolve(&t, &op(Some((4, 6)), &["fn b() {", "    x(1);", "}"], &[])),
        Ok(Hunk::Delete { start: 4, end: 6 })
    );
    // One empty row keeps an empty line.
    assert_eq!(
        resolve(&t, &op(Some((3, 3)), &["}"], &[""])),
        Ok(Hunk::Replace {
            start: 3,
            end: 3,
            rows: vec![String::new()]
        })
    );
    assert_eq!(
        resolve(&t, &op(None, &["x(1);"], &["y"])),
        Err(SubError::Ambiguous)
    );
    assert_eq!(
        resolve(&t, &op(None, &["z"], &["y"])),
        Err(SubError::NotFound)
    );
    assert_eq!(
        resolve(&t, &op(Some((5, 9)), &["x"], &[])),
        Err(SubError::OutOfRange)
    );
    assert_eq!(
        resolve(&t, &op(None, &[""], &["y"])),
        Err(SubError::NoOldText)
    );
    assert_eq!(op(Some((4, 6)), &[], &[]).header(), "SUB 4.=6:");
    assert_eq!(op(None, &[], &[]).header(), "SUB:");
}

#[test]
fn neighbouring_hunks_that_need_one_line_become_one_op() {
    let old = Lines::parse("a\n\nb\n\nc\n");
    let new = Lines::parse("a\nb\nc\n");
    let hunks = crate::hunks::diff(&old, &new);
    assert_eq!(hunks.len(), 2);
    let groups = sub_ops(&old, &hunks, SubStyle::WholeLines).unwrap();
    let ops: Vec<String> = groups
        .iter()
        .map(|g| {
            format!(
                "{:?} {} {:?} {:?}",
                g.hunks,
                g.op.header(),
                g.op.old,
                g.op.new
            )
        })
        .collect();
    assert_eq!(
        ops,
        [
            r#"0..1 SUB 2.=3: ["", "b"] ["b"]"#,
            r#"1..2 SUB 4.=5: ["", "c"] ["c"]"#
        ]
    );
}
