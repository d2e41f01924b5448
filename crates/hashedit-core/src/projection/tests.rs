use super::*;

fn op(line: usize, header: &str, summary: &str, rows: &[&str], state: OpState) -> ProjectedOp {
    ProjectedOp {
        line,
        header: header.to_string(),
        summary: summary.to_string(),
        rows: rows.iter().map(|r| r.to_string()).collect(),
        state,
    }
}

fn tag(text: &str) -> Option<SnapshotTag> {
    SnapshotTag::parse(text)
}

#[test]
fn a_whole_document_projects_every_op_with_its_rows() {
    let doc = "[src/app.py#A1B2]\nPUT 2:\n+print(\"hi\")\n+\nput 4-6:\n+x = 1\nCUT 9..10 @old\nPUT >$ @old\n\
               [b.rs#00FF]\nMV c.rs\nEOF NO NEWLINE\n";
    let projection = project(doc);
    assert!(!projection.cut);
    assert_eq!(
        projection.sections,
        vec![
            ProjectedSection {
                path: "src/app.py".into(),
                tag: tag("A1B2"),
                line: 1,
                ops: vec![
                    op(
                        2,
                        "PUT 2:",
                        "replace line 2",
                        &["print(\"hi\")", ""],
                        OpState::Complete
                    ),
                    op(
                        5,
                        "PUT 4.=6:",
                        "replace lines 4-6",
                        &["x = 1"],
                        OpState::Complete
                    ),
                    op(
                        7,
                        "CUT 9.=10 @old",
                        "delete lines 9-10 into @old",
                        &[],
                        OpState::Complete
                    ),
                    op(
                        8,
                        "PUT >$ @old",
                        "paste @old at the end",
                        &[],
                        OpState::Complete
                    ),
                ],
            },
            ProjectedSection {
                path: "b.rs".into(),
                tag: tag("00FF"),
                line: 9,
                ops: vec![
                    op(
                        10,
                        "MV c.rs",
                        "move the file to c.rs",
                        &[],
                        OpState::Complete
                    ),
                    op(
                        11,
                        "EOF NO NEWLINE",
                        "end the file without a line break",
                        &[],
                        OpState::Complete
                    ),
                ],
            },
        ]
    );
}

#[test]
fn a_cut_op_line_is_partial_not_a_shorter_op() {
    let projection = project("[a.txt#1234]\nPUT 1:\n+one\nPUT >12");
    assert!(projection.cut);
    let ops = &projection.sections[0].ops;
    assert_eq!(
        ops[0],
        op(2, "PUT 1:", "replace line 1", &["one"], OpState::Complete)
    );
    assert_eq!(ops[1], op(4, "PUT >12", "", &[], OpState::Partial));
    // The same line, whole, is a paste of the unnamed register.
    let whole = project("[a.txt#1234]\nPUT >12\n");
    assert_eq!(
        whole.sections[0].ops[0],
        op(
            2,
            "PUT >12",
            "paste the cut lines after line 12",
            &[],
            OpState::Complete
        )
    );
}

#[test]
fn a_cut_body_row_shows_as_far_as_it_came() {
    let projection = project("[a.txt#1234]\nPUT <3:\n+first\n+    sec");
    assert_eq!(
        projection.sections[0].ops[0],
        op(
            2,
            "PUT <3:",
            "insert before line 3",
            &["first", "    sec"],
            OpState::Complete
        )
    );
    assert!(projection.cut);
}

#[test]
fn a_cut_header_keeps_its_path_and_no_tag_until_four_digits() {
    let projection = project("[src/ma");
    assert_eq!(
        projection.sections,
        vec![ProjectedSection {
            path: "src/ma".into(),
            tag: None,
            line: 1,
            ops: vec![],
        }]
    );
    assert_eq!(project("[src/main.rs#3F").sections[0].tag, None);
    assert_eq!(project("[src/main.rs#3F0A]").sections[0].tag, tag("3F0A"));
    assert_eq!(
        project("[src/main.rs#3F0A]").sections[0].path,
        "src/main.rs"
    );
}

#[test]
fn unreadable_lines_are_kept_as_written_and_stray_rows_dropped() {
    let projection =
        project("+stray\nPUT 1:\n[a.txt#1234]\nREPLACE 3 WITH\n+kept\n\nCUT 2\n+dropped\n");
    assert_eq!(
        projection.sections[0].ops,
        vec![
            op(4, "REPLACE 3 WITH", "", &["kept"], OpState::Unrecognised),
            op(7, "CUT 2", "delete line 2", &[], OpState::Complete),
        ]
    );
}

#[test]
fn fences_envelopes_and_crlf_are_read_through() {
    let projection = project(
        "```\r\n*** Begin Patch\r\n[a.txt#1234]\r\nPUT >2*:\r\n+x\r\n*** End Patch\r\n```\r\n",
    );
    assert_eq!(
        projection.sections[0].ops,
        vec![op(
            4,
            "PUT >2*:",
            "insert after the block at line 2",
            &["x"],
            OpState::Complete
        )]
    );
    assert_eq!(project(""), Projection::default());
}

#[test]
fn every_op_kind_has_words() {
    let cases = [
        ("PUT 3*:", "replace the block at line 3"),
        ("PUT >7:", "insert after line 7"),
        ("CUT 4*", "delete the block at line 4"),
        ("PUT <1 @a", "paste @a before line 1"),
        ("PUT 2.=3 @a", "replace lines 2-3 with @a"),
        ("REM", "delete the file"),
        ("EOF NEWLINE", "end the file with a line break"),
    ];
    for (line, words) in cases {
        let body = if line.ends_with(':') { "+x\n" } else { "" };
        let projection = project(&format!("[a#1234]\n{line}\n{body}"));
        assert_eq!(projection.sections[0].ops[0].summary, words, "{line}");
    }
}
