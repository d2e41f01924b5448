//! Parser tests: Rho's pinned cases (Rho's behaviour cases
//! 22–28), omp's spellings (oh-my-pi's behaviour, §4.1) and the handed
//! cases about rows without `+`.

use super::*;
use crate::document::{FinalNewline, LineRange, Register};
use crate::tag::SnapshotTag;

fn ops(doc: &str) -> Vec<OpKind> {
    parse(doc)
        .unwrap()
        .sections
        .into_iter()
        .flat_map(|s| s.ops.into_iter().map(|o| o.kind))
        .collect()
}

fn fails(doc: &str) -> ParseError {
    parse(doc).unwrap_err()
}

fn range(start: usize, end: usize) -> LineRange {
    LineRange { start, end }
}

fn body(rows: &[&str]) -> Vec<String> {
    rows.iter().map(|s| s.to_string()).collect()
}

#[test]
fn parses_core_ops() {
    // Rho's pinned case 22.
    let doc = "[a.txt#E178]\nPUT 1.=2:\n+alpha\n+beta\nPUT >2:\n+gamma\nCUT 4.=4\nPUT >$:\n+tail\n";
    assert_eq!(
        ops(doc),
        vec![
            OpKind::Replace {
                target: Target::Lines(range(1, 2)),
                body: body(&["alpha", "beta"])
            },
            OpKind::Insert {
                at: Gap::After(2),
                body: body(&["gamma"])
            },
            OpKind::Cut {
                target: Target::Lines(range(4, 4)),
                register: Register::Anonymous
            },
            OpKind::Insert {
                at: Gap::End,
                body: body(&["tail"])
            },
        ]
    );
    let parsed = parse(doc).unwrap();
    assert_eq!(parsed.sections[0].path, "a.txt");
    assert_eq!(parsed.sections[0].tag, SnapshotTag(0xE178));
    assert_eq!(parsed.sections[0].ops[1].line, 5);
}

#[test]
fn accepts_every_rho_locator_spelling() {
    // Rho's grammar and pinned cases 24 and 28.
    for spelling in ["3.=5", "3-5", "3..5", " 3 .= 5 ", "3 - 5"] {
        assert_eq!(
            ops(&format!("[a#ABCD]\nPUT {spelling}:\n+x")),
            vec![OpKind::Replace {
                target: Target::Lines(range(3, 5)),
                body: body(&["x"])
            }],
            "{spelling}"
        );
    }
    assert_eq!(ops("[a#ABCD]\nPUT 3:\n+x"), ops("[a#ABCD]\nPUT 3.=3:\n+x"));
    assert_eq!(
        ops("[a#abcd]\nput 1-2:\n+x\ncut 3-3\nPuT < 2:\n+y\nCUT 7\nPUT > $:\n+z"),
        vec![
            OpKind::Replace {
                target: Target::Lines(range(1, 2)),
                body: body(&["x"])
            },
            OpKind::Cut {
                target: Target::Lines(range(3, 3)),
                register: Register::Anonymous
            },
            OpKind::Insert {
                at: Gap::Before(2),
                body: body(&["y"])
            },
            OpKind::Cut {
                target: Target::Lines(range(7, 7)),
                register: Register::Anonymous
            },
            OpKind::Insert {
                at: Gap::End,
                body: body(&["z"])
            },
        ]
    );
}

#[test]
fn headers_split_at_the_last_hash_and_allow_spaces() {
    let doc = parse("  [ p.txt # e178 ]  \nCUT 1\n[dir#1/p.txt#0001]\nCUT 2").unwrap();
    assert_eq!(doc.sections[0].path, "p.txt");
    assert_eq!(doc.sections[0].tag, SnapshotTag(0xE178));
    assert_eq!(doc.sections[1].path, "dir#1/p.txt");
}

#[test]
fn quoted_display_paths_keep_their_quotes() {
    // The tools quote names with control characters, quotes or edge
    // whitespace (`["tab\tx.txt"#…]`); those quotes carry the name, so the
    // path reaches the workspace whole and without a warning. Plain quotes
    // are still dropped, with a warning.
    for header in [
        r#""tab\tx.txt""#,
        r#""\"q\"""#,
        r#"" lead.txt""#,
        r#""a/b\\c""#,
    ] {
        let doc = parse(&format!("[{header}#ABCD]\nCUT 1")).unwrap();
        assert_eq!(doc.sections[0].path, header);
        assert!(doc.warnings.is_empty(), "{header}: {:?}", doc.warnings);
    }
    let doc = parse("[\"src/a.rs\"#ABCD]\nCUT 1").unwrap();
    assert_eq!(doc.sections[0].path, "src/a.rs");
    assert_eq!(doc.warnings.len(), 1);
    assert_eq!(
        ops("[g.txt#ABCD]\nMV \"new\\tname.txt\""),
        vec![OpKind::Move {
            dest: "\"new\\tname.txt\"".into()
        }]
    );
}

#[test]
fn body_rows_are_literal() {
    // Rho's pinned case 26; handed cases B03 (2) and B04.
    assert_eq!(
        ops("[a#ABCD]\nPUT 1:\n+keep trailing  \n+\tkeep tab\t\n+\n+  \r\n"),
        vec![OpKind::Replace {
            target: Target::Lines(range(1, 1)),
            body: body(&["keep trailing  ", "\tkeep tab\t", "", "  "])
        }]
    );
    assert_eq!(
        ops("[f.txt#ABCD]\nPUT 2:\n+12:30 standup"),
        vec![OpKind::Replace {
            target: Target::Lines(range(2, 2)),
            body: body(&["12:30 standup"])
        }]
    );
    assert_eq!(
        ops("[f.txt#ABCD]\nPUT 2:\n+- [x] done\n+- [ ] next\n++1"),
        vec![OpKind::Replace {
            target: Target::Lines(range(2, 2)),
            body: body(&["- [x] done", "- [ ] next", "+1"])
        }]
    );
    // A body row that spells an op is text (handed case B01 (1) relative).
    assert_eq!(
        ops("[f#ABCD]\nPUT 1:\n+CUT 3"),
        vec![OpKind::Replace {
            target: Target::Lines(range(1, 1)),
            body: body(&["CUT 3"])
        }]
    );
}

#[test]
fn locator_errors_name_the_line_and_fix() {
    let e = fails("[a#ABCD]\nPUT 3.:\n+x");
    assert_eq!(e.line, 2);
    assert_eq!(e.problem, Problem::BadLocator(LocatorProblem::Truncated));
    assert_eq!(e.fix.as_deref(), Some("PUT 3:"));
    assert_eq!(
        e.to_string(),
        "edit document line 2: the range ends after 'N.': write N for one line or N.=M for a range\n  2 | PUT 3.:\ntry: PUT 3:"
    );
    assert_eq!(
        fails("[a#ABCD]\nPUT 3.=:\n+x").problem,
        Problem::BadLocator(LocatorProblem::MissingEnd)
    );
    assert_eq!(
        fails("[a#ABCD]\nPUT .=5:\n+x").problem,
        Problem::BadLocator(LocatorProblem::MissingStart)
    );
    assert_eq!(
        fails("[a#ABCD]\nCUT 3.").problem,
        Problem::BadLocator(LocatorProblem::Truncated)
    );
    let e = fails("[a#ABCD]\nPUT 3.=5x:\n+x");
    assert_eq!(e.problem, Problem::BadLocator(LocatorProblem::BadSeparator));
    assert_eq!(
        fails("[a#ABCD]\nCUT 5.=3").problem,
        Problem::BadLocator(LocatorProblem::Reversed)
    );
    assert_eq!(
        fails("[a#ABCD]\nPUT 0:\n+x").problem,
        Problem::BadLocator(LocatorProblem::Zero)
    );
    assert_eq!(
        fails("[a#ABCD]\nCUT -1").problem,
        Problem::BadLocator(LocatorProblem::NotANumber)
    );
    assert_eq!(
        fails("[a#ABCD]\nPUT <$:\n+x").problem,
        Problem::BadLocator(LocatorProblem::DollarBefore)
    );
    assert_eq!(
        fails("[a#ABCD]\nCUT 99999999999999999999999").problem,
        Problem::BadLocator(LocatorProblem::TooLarge)
    );
}

#[test]
fn op_shape_errors() {
    let e = fails("[a#ABCD]\nPUT 3\n+x");
    assert_eq!(e.problem, Problem::PutWithoutColon);
    assert_eq!(e.fix.as_deref(), Some("PUT 3:"));
    let e = fails("[a#ABCD]\nPUT >3\n+x");
    assert_eq!((e.line, e.problem), (3, Problem::PasteWithBody));
    assert_eq!(
        fails("[a#ABCD]\nPUT :\n+x").problem,
        Problem::MissingLocator
    );
    assert_eq!(fails("[a#ABCD]\nPUT").problem, Problem::MissingLocator);
    assert_eq!(fails("[a#ABCD]\nCUT").problem, Problem::MissingLocator);
    let e = fails("[a#ABCD]\nCUT 3:\n+x");
    assert_eq!((e.line, e.problem), (3, Problem::CutWithBody));
    let e = fails("[a#ABCD]\nPUT 1.=2:\nCUT 3");
    assert_eq!((e.line, e.problem), (2, Problem::EmptyBody));
    assert_eq!(e.fix.as_deref(), Some("CUT 1.=2"));
    assert_eq!(fails("[a#ABCD]\nPUT <2:").problem, Problem::EmptyBody);
    assert_eq!(fails("[a#ABCD]\nPUT >$:\n").problem, Problem::EmptyBody);
    assert_eq!(fails("[a#ABCD]\nPUTX 1:").problem, Problem::UnknownLine);
}

#[test]
fn document_level_errors() {
    assert_eq!(fails("").problem, Problem::NoSections);
    assert_eq!(fails("\n\n").problem, Problem::NoSections);
    let e = fails("PUT 1:\n+x");
    assert_eq!((e.line, e.problem), (1, Problem::OutsideSection));
    let e = fails("[p.txt#E178]\n");
    assert_eq!((e.line, e.problem), (1, Problem::EmptySection));
    let e = fails("[p.txt]\nCUT 1");
    assert_eq!(e.problem, Problem::HeaderWithoutTag);
    assert_eq!(e.fix.as_deref(), Some("[p.txt#TAG]"));
    assert_eq!(fails("[#E178]\nCUT 1").problem, Problem::HeaderEmptyPath);
    assert_eq!(fails("[p.txt#ABC]\nCUT 1").problem, Problem::HeaderBadTag);
    assert_eq!(
        fails("[a#ABCD]\nCUT 1\nREM").problem,
        Problem::RemoveWithOps
    );
    assert_eq!(fails("[a#ABCD]\nFOO 1").problem, Problem::UnknownLine);
}

#[test]
fn rows_without_plus_are_errors_never_content() {
    // Handed case B03 (1): a pasted read row.
    let e = fails("[f.txt#ABCD]\nPUT 2:\n2:B");
    assert_eq!(
        (e.line, e.problem.clone()),
        (3, Problem::BareRow(RowShape::NumberedRow))
    );
    assert_eq!(e.fix.as_deref(), Some("+B"));
    // Handed case B01 (2): a bare keyword is a CUT without a range.
    let e = fails("[f.txt#ABCD]\nPUT 2.=3:\nCUT");
    assert_eq!(e.line, 2);
    assert_eq!(e.problem, Problem::EmptyBody);
    let e = fails("[f#ABCD]\nPUT 1:\n+a\nb");
    assert_eq!(
        (e.line, e.problem.clone()),
        (4, Problem::BareRow(RowShape::Plain))
    );
    assert_eq!(e.fix.as_deref(), Some("+b"));
    // A `-` row after the `+` rows of a one-line range is kept for the
    // edit to check against the snapshot; elsewhere it is an error.
    assert!(matches!(
        parse("[f#ABCD]\nPUT 1:\n+a\n-old").unwrap().sections[0].ops[0].pasted,
        Some(Pasted::MinusRows { .. })
    ));
    assert_eq!(
        fails("[f#ABCD]\nPUT >1:\n+a\n-old").problem,
        Problem::BareRow(RowShape::DiffMinus)
    );
    assert_eq!(
        fails("[f#ABCD]\nPUT 1:\n```\n+a").problem,
        Problem::BareRow(RowShape::Fence)
    );
    let e = fails("[f#ABCD]\nPUT 1:\n+a\n\n+b");
    assert_eq!(
        (e.line, e.problem.clone()),
        (4, Problem::BareRow(RowShape::Blank))
    );
    // A blank line after a body, before the next op, is a separator.
    assert_eq!(ops("[f#ABCD]\nPUT 1:\n+a\n\nCUT 3\n").len(), 2);
}

#[test]
fn crlf_documents_parse_like_lf() {
    assert_eq!(
        ops("[f#ABCD]\r\nPUT 1:\r\n+a\r\nCUT 2\r\n"),
        ops("[f#ABCD]\nPUT 1:\n+a\nCUT 2\n")
    );
}

fn warnings(doc: &str) -> Vec<String> {
    parse(doc)
        .unwrap()
        .warnings
        .into_iter()
        .map(|w| w.to_string())
        .collect()
}

#[test]
fn omp_separators_are_read_with_a_warning() {
    // oh-my-pi's case 2.
    for spelling in ["2.3", "2=3", "2…3", "2..=3"] {
        let doc = format!("[a#ABCD]\nCUT {spelling}");
        assert_eq!(
            ops(&doc),
            vec![OpKind::Cut {
                target: Target::Lines(range(2, 3)),
                register: Register::Anonymous
            }],
            "{spelling}"
        );
        assert_eq!(warnings(&doc).len(), 1, "{spelling}");
    }
    // Rho's own spellings need no warning.
    for spelling in ["2.=3", "2-3", "2..3", "2 - 3", "2 .. 3"] {
        assert!(
            warnings(&format!("[a#ABCD]\nCUT {spelling}")).is_empty(),
            "{spelling}"
        );
    }
    assert_eq!(
        warnings("[a#ABCD]\nCUT 2…3"),
        vec!["warning: document line 2: read the range separator '…' in '2…3' as '.='; write 2.=3"]
    );
}

#[test]
fn dangling_separators_are_refused_not_guessed() {
    // omp collapses these to one line; a truncated range is ambiguous, so
    // we fail closed with the single-line fix (the seed page says the same).
    for (doc, problem) in [
        ("PUT 7.=:\n+x", LocatorProblem::MissingEnd),
        ("PUT 7.:\n+x", LocatorProblem::Truncated),
        ("CUT 7-", LocatorProblem::MissingEnd),
        ("PUT 7.. @r", LocatorProblem::MissingEnd),
    ] {
        assert_eq!(
            fails(&format!("[a#ABCD]\n{doc}")).problem,
            Problem::BadLocator(problem),
            "{doc}"
        );
    }
}

#[test]
fn envelopes_and_header_noise() {
    // oh-my-pi's behaviour, §4.1 P1–P3, §7 cases 12 and 35.
    let doc = parse(
        "*** Begin Patch\n[*** Update File: my dir/f.ts#9c0d]\nPUT 1:\n+x\n*** End Patch\n\n",
    )
    .unwrap();
    assert_eq!(doc.sections.len(), 1);
    assert_eq!(doc.sections[0].path, "my dir/f.ts");
    assert_eq!(doc.sections[0].tag, SnapshotTag(0x9C0D));
    let texts: Vec<String> = doc.warnings.iter().map(|w| w.kind.to_string()).collect();
    assert_eq!(
        texts,
        vec![
            "ignored the '*** Begin Patch' envelope line; it is not needed",
            "read the header as [my dir/f.ts#9C0D] (dropped the apply_patch prefix)",
            "read the tag as 9C0D; tags are printed in capitals",
        ]
    );
    // Lines after the end marker: applying only the part before it could
    // drop ops the author meant (tester report; omp ignores them silently).
    let e = fails("[f#ABCD]\nPUT 2:\n+x\n*** End Patch\n[f#ABCD]\nPUT 4:\n+y\n");
    assert_eq!(e.problem, Problem::AfterEnvelopeEnd { rest: 3, next: 5 });
    assert_eq!(
        e.to_string(),
        "edit document line 4: '*** End Patch' ends the document, but 3 more lines follow (from line 5); \
         nothing was applied. Delete this line if they belong to the edit, or delete them\n  4 | *** End Patch"
    );
    assert_eq!(
        fails("[f#ABCD]\nPUT 1:\n+x\n*** End Patch\n+y").problem,
        Problem::AfterEnvelopeEnd { rest: 1, next: 5 }
    );
    // `*** Abort` abandons the whole document (oh-my-pi's case 35
    // applies what came before it; we apply nothing).
    let e = fails("[*** Begin Patch]\n[\"a b.rs\"#ABCD]\nCUT 1\n*** Abort\n[x#0000]\nCUT 2");
    assert_eq!(e.problem, Problem::Aborted);
    assert_eq!(e.line, 4);
    for bad in [
        "[f.ts#9C0D trailing words]",
        "[f.ts#9C0D:7]",
        "[f.ts#9C0]",
        "[f.ts#9C0G]",
        "[f.ts#9C0D1]",
    ] {
        assert_eq!(
            fails(&format!("{bad}\nCUT 1")).problem,
            Problem::HeaderBadTag,
            "{bad}"
        );
    }
}

#[test]
fn lowercase_keywords_are_read_with_one_warning() {
    let w = warnings("[a#ABCD]\nput 1:\n+x\ncut 3");
    assert_eq!(
        w,
        vec!["warning: document line 2: read the keyword as PUT; ops are written in capitals"]
    );
}

#[test]
fn block_and_register_locators() {
    assert_eq!(
        ops(
            "[a#ABCD]\nPUT 5*:\n+x\nCUT 9* @fn\nPUT >12*:\n+y\nPUT >20*\nPUT 3.=4 @fn\nPUT 7* @fn\nPUT <1 @fn\nPUT >$"
        ),
        vec![
            OpKind::Replace {
                target: Target::Block(5),
                body: body(&["x"])
            },
            OpKind::Cut {
                target: Target::Block(9),
                register: Register::Named("fn".into())
            },
            OpKind::Insert {
                at: Gap::AfterBlock(12),
                body: body(&["y"])
            },
            OpKind::Paste {
                at: Gap::AfterBlock(20),
                register: Register::Anonymous
            },
            OpKind::PasteOver {
                target: Target::Lines(range(3, 4)),
                register: "fn".into()
            },
            OpKind::PasteOver {
                target: Target::Block(7),
                register: "fn".into()
            },
            OpKind::Paste {
                at: Gap::Before(1),
                register: Register::Named("fn".into())
            },
            OpKind::Paste {
                at: Gap::End,
                register: Register::Anonymous
            },
        ]
    );
    // `<N*` is `<N`, with a warning (oh-my-pi's behaviour).
    assert_eq!(
        ops("[a#ABCD]\nPUT <4*:\n+x"),
        vec![OpKind::Insert {
            at: Gap::Before(4),
            body: body(&["x"])
        }]
    );
    assert_eq!(
        fails("[a#ABCD]\nCUT 5.=9*").problem,
        Problem::BadLocator(LocatorProblem::BlockAfterRange)
    );
    assert_eq!(
        fails("[a#ABCD]\nPUT >$*:\n+x").problem,
        Problem::BadLocator(LocatorProblem::BlockAfterRange)
    );
    let e = fails("[a#ABCD]\nPUT 3 @r:\n+x");
    assert_eq!(
        (e.problem, e.fix.as_deref()),
        (Problem::ColonOnRegister, Some("PUT 3 @r"))
    );
    assert_eq!(
        fails("[a#ABCD]\nCUT 3 @bad name").problem,
        Problem::BadRegister
    );
    assert_eq!(fails("[a#ABCD]\nCUT 3 @").problem, Problem::BadRegister);
    let long = "x".repeat(65);
    assert_eq!(
        fails(&format!("[a#ABCD]\nCUT 3 @{long}")).problem,
        Problem::BadRegister
    );
}

#[test]
fn cut_colon_is_tolerated_but_not_a_body() {
    // oh-my-pi's case 21.
    let doc = "[a#ABCD]\nCUT 2-3:";
    assert_eq!(
        ops(doc),
        vec![OpKind::Cut {
            target: Target::Lines(range(2, 3)),
            register: Register::Anonymous
        }]
    );
    assert_eq!(
        warnings(doc),
        vec!["warning: document line 2: ignored the ':' after CUT; write CUT 2.=3"]
    );
}

#[test]
fn file_ops() {
    assert_eq!(ops("[a#ABCD]\nREM"), vec![OpKind::Remove]);
    assert_eq!(
        ops("[a#ABCD]\nPUT 1:\n+x\nMV \"new dir/b.rs\""),
        vec![
            OpKind::Replace {
                target: Target::Lines(range(1, 1)),
                body: body(&["x"])
            },
            OpKind::Move {
                dest: "new dir/b.rs".into()
            },
        ]
    );
    assert_eq!(
        fails("[a#ABCD]\nREM\nCUT 1").problem,
        Problem::RemoveWithOps
    );
    assert_eq!(fails("[a#ABCD]\nMV b\nREM").problem, Problem::TwoFileOps);
    assert_eq!(fails("[a#ABCD]\nMV").problem, Problem::BadFileOp);
    assert_eq!(fails("[a#ABCD]\nREM now").problem, Problem::BadFileOp);
    assert_eq!(fails("[a#ABCD]\nMV b\n+x").problem, Problem::BadFileOp);
}

#[test]
fn foreign_patch_lines_and_missing_verbs() {
    // oh-my-pi's case 14, 15, 19, 31.
    assert_eq!(
        fails("[a#ABCD]\n*** Update File: a.ts\nPUT 1:\n+x").problem,
        Problem::ForeignPatch(ForeignShape::ApplyPatch)
    );
    assert_eq!(
        fails("[a#ABCD]\n@@ -1,3 +1,3 @@\n+x").problem,
        Problem::ForeignPatch(ForeignShape::UnifiedDiffHunk)
    );
    let e = fails("[a#ABCD]\n2.=3:\n+X");
    assert_eq!(e.problem, Problem::MissingVerb);
    assert_eq!(
        e.fix.as_deref(),
        Some("PUT 2.=3:  (then + rows)  or  CUT 2.=3")
    );
    assert_eq!(fails("[a#ABCD]\n2\n+B").problem, Problem::MissingVerb);
    assert_eq!(fails("[a#ABCD]\n2 3\n+X").problem, Problem::MissingVerb);
    assert_eq!(fails("CUT 3-4").problem, Problem::OutsideSection);
    assert_eq!(
        fails("+const X = 1;").problem,
        Problem::BareRow(RowShape::OrphanPlus)
    );
}

#[test]
fn duplicated_hunks() {
    // An exact repeat of a span op is applied once, with a warning.
    let doc = "[a#ABCD]\nPUT 2:\n+x\nPUT 2:\n+x";
    assert_eq!(ops(doc).len(), 1);
    assert_eq!(
        warnings(doc),
        vec![
            "warning: document line 4: PUT 2: repeats document line 2 exactly; it was applied once"
        ]
    );
    // So is an exact repeat of an insert: one body at one gap says it once.
    let doc = "[a#ABCD]\nPUT >2:\n+x\nPUT >2:\n+x";
    assert_eq!(ops(doc).len(), 1);
    assert_eq!(warnings(doc).len(), 1);
    // Two different inserts at one gap both stay.
    assert_eq!(ops("[a#ABCD]\nPUT >2:\n+x\nPUT >2:\n+y").len(), 2);
}

#[test]
fn an_outer_code_fence_is_read_without_its_fence_lines() {
    for fence in ["```", "```hashline", "~~~", "```diff"] {
        let close = &fence[..3];
        let doc = format!("{fence}\n[a#ABCD]\nPUT 2:\n+x\n{close}\n");
        let parsed = parse(&doc).unwrap();
        // Lines keep their numbers: the op is still on line 3.
        assert_eq!(parsed.sections[0].ops[0].line, 3, "{fence}");
        assert_eq!(
            ops(&doc),
            vec![OpKind::Replace {
                target: Target::Lines(range(2, 2)),
                body: body(&["x"])
            }]
        );
        assert_eq!(
            warnings(&doc),
            vec![
                "warning: document line 1: read the document without the Markdown code fence around it \
                 (lines 1 and 5); send it as plain text, starting with its header"
            ]
        );
    }
    // A fence that does not wrap the whole document is still an error.
    assert_eq!(
        fails("[a#ABCD]\nPUT 2:\n+x\n```").problem,
        Problem::BareRow(RowShape::Fence)
    );
    assert_eq!(
        fails("```rust\n[a#ABCD]\nPUT 2:\n+x").problem,
        Problem::BareRow(RowShape::Fence)
    );
    // So is a fence inside a fenced document.
    assert_eq!(
        fails("```\n[a#ABCD]\nPUT 2:\n```\n+x\n```").problem,
        Problem::BareRow(RowShape::Fence)
    );
    // A fenced line written as a row stays content.
    assert_eq!(
        ops("[a#ABCD]\nPUT 2:\n+```"),
        vec![OpKind::Replace {
            target: Target::Lines(range(2, 2)),
            body: body(&["```"])
        }]
    );
}

/// The pasted rows the parser kept on the first op of `doc`.
fn pasted(doc: &str) -> Pasted {
    parse(doc).unwrap().sections[0].ops[0]
        .pasted
        .clone()
        .expect("pasted rows kept")
}

#[test]
fn diff_minus_rows_are_kept_for_the_edit_to_verify_with_the_op_without_them() {
    let doc = "[a#ABCD]\nPUT 2.=3:\n-old two\n-old three\n+new\nCUT 5";
    let Pasted::MinusRows { rows, refusal } = pasted(doc) else {
        panic!("not minus rows");
    };
    assert_eq!(
        rows,
        [(3, "old two".to_string()), (4, "old three".to_string())]
    );
    // The refusal, if the snapshot does not prove them.
    assert_eq!(refusal.line, 3);
    assert_eq!(refusal.problem, Problem::BareRow(RowShape::DiffMinus));
    assert_eq!(refusal.fix.as_deref(), Some("PUT 2.=3:\n+new"));
    assert_eq!(
        ops(doc)[0],
        OpKind::Replace {
            target: Target::Lines(range(2, 3)),
            body: body(&["new"])
        }
    );
    // Only '-' rows: a deletion, refused at once.
    let e = fails("[a#ABCD]\nPUT 4:\n-gone");
    assert_eq!(e.fix.as_deref(), Some("CUT 4"));
    // An insert or a block names no lines to check them against.
    assert_eq!(
        fails("[a#ABCD]\nPUT >4:\n-x\n+y").problem,
        Problem::BareRow(RowShape::DiffMinus)
    );
    assert_eq!(
        fails("[a#ABCD]\nPUT 4*:\n-x\n+y").problem,
        Problem::BareRow(RowShape::DiffMinus)
    );
}

#[test]
fn bodies_numbered_like_a_read_are_kept_for_the_edit_to_verify() {
    let doc = "[a#ABCD]\nPUT 12.=13:\n+12:    let a = 1;\n+13:    let b = 2;";
    let Pasted::Numbered {
        stripped,
        first,
        refusal,
    } = pasted(doc)
    else {
        panic!("not numbered rows");
    };
    assert_eq!(stripped, body(&["    let a = 1;", "    let b = 2;"]));
    assert_eq!(first, 12);
    assert_eq!(refusal.problem, Problem::NumberedBody);
    assert_eq!(
        refusal.fix.as_deref(),
        Some("PUT 12.=13:\n+    let a = 1;\n+    let b = 2;")
    );
    // The body is kept as written until the snapshot says otherwise.
    assert_eq!(
        ops(doc)[0],
        OpKind::Replace {
            target: Target::Lines(range(12, 13)),
            body: body(&["12:    let a = 1;", "13:    let b = 2;"])
        }
    );
    // Inserts name no replaced lines: kept for the edit stage, which
    // refuses them with the rows unnumbered as the fix, or writes them as
    // sent under force.
    let Pasted::Numbered { refusal, first, .. } = pasted("[a#ABCD]\nPUT >7:\n+8:x") else {
        panic!("not numbered rows");
    };
    assert_eq!((refusal.fix.as_deref(), first), (Some("PUT >7:\n+x"), 0));
    // At the end, several rows counting up are kept so, one row is content.
    let Pasted::Numbered { refusal, .. } = pasted("[a#ABCD]\nPUT >$:\n+41:x\n+42:y") else {
        panic!("not numbered rows");
    };
    assert_eq!(refusal.fix.as_deref(), Some("PUT >$:\n+x\n+y"));
    assert_eq!(
        ops("[a#ABCD]\nPUT >$:\n+12:30 standup"),
        vec![OpKind::Insert {
            at: Gap::End,
            body: body(&["12:30 standup"])
        }]
    );
    // Numbers that are not the op's lines are content (handed case B03).
    let doc = "[a#ABCD]\nPUT 2:\n+12:30 standup";
    assert_eq!(parse(doc).unwrap().sections[0].ops[0].pasted, None);
    // So are rows of which only some are numbered.
    let doc = "[a#ABCD]\nPUT 2.=3:\n+2:a\n+b";
    assert_eq!(parse(doc).unwrap().sections[0].ops[0].pasted, None);
}

#[test]
fn op_shaped_body_rows_are_literal_with_a_warning() {
    // oh-my-pi's case 18.
    let doc = "[a#ABCD]\nPUT >1:\n+go();\n+CUT 8.=9";
    assert_eq!(
        ops(doc),
        vec![OpKind::Insert {
            at: Gap::After(1),
            body: body(&["go();", "CUT 8.=9"])
        }]
    );
    assert_eq!(
        warnings(doc),
        vec![
            "warning: document line 4: the body row '+CUT 8.=9' spells an op; it is written to the file as text"
        ]
    );
}

#[test]
fn reversed_ranges_are_explained_not_guessed() {
    // oh-my-pi's behaviour: the value after .= is a line, not a count.
    let e = fails("[a#ABCD]\nCUT 5-2");
    assert_eq!(e.problem, Problem::BadLocator(LocatorProblem::Reversed));
    // `5.=6` (a count) or `2.=5` (swapped)? No fix is guessed.
    assert_eq!(e.fix, None);
}

mod fuzz {
    use super::*;
    use crate::lower::{Registers, lower};
    use crate::plan::plan;
    use crate::text::Text;
    use proptest::prelude::*;

    /// Document-ish lines: headers, ops in every spelling, rows, noise.
    fn doc_line() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("[f#0000]".to_string()),
            "\\[[a-z#]{0,4}#[0-9A-Fa-f]{0,5}\\]",
            "(PUT|CUT|put|REM|MV|Cut) ?[<>]?[0-9$]{0,2}[-.=… ]{0,3}[0-9]{0,2}\\*?( ?@[a-z]{0,2})?:?",
            "\\+[ -~]{0,6}",
            "[ -~]{0,8}",
            Just(String::new()),
            Just("*** Begin Patch".to_string()),
            Just("*** End Patch".to_string()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// No input makes the parser or the pipeline panic.
        #[test]
        fn arbitrary_documents_never_panic(
            lines in proptest::collection::vec(doc_line(), 0..12),
            file in "[a-z\n\r]{0,30}",
        ) {
            let doc = lines.join("\n");
            let text = Text::decode(file.as_bytes()).unwrap();
            if let Ok(parsed) = parse(&doc) {
                let mut registers = Registers::default();
                for section in &parsed.sections {
                    if let Ok(lowered) = lower(section, "f", &text, None, &mut registers)
                        && let Ok(p) = plan(&lowered.hunks, &text)
                    {
                        let _ = p.apply(&text);
                    }
                }
            }
        }

        /// Raw bytes (as lossy text) never panic the parser.
        #[test]
        fn arbitrary_text_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = parse(&String::from_utf8_lossy(&bytes));
        }
    }
}

#[test]
fn trial_findings_get_actionable_errors() {
    // MV with a destination that reads like lines (a line move written as
    // a file move) is refused; a quoted one is taken as a name.
    for doc in ["MV 2 >4", "MV 5", "MV >$", "MV <3"] {
        assert_eq!(
            fails(&format!("[g.txt#ABCD]\n{doc}")).problem,
            Problem::MoveLooksLikeLines,
            "{doc}"
        );
    }
    assert_eq!(
        ops("[g.txt#ABCD]\nMV \"5\""),
        vec![OpKind::Move { dest: "5".into() }]
    );
    // A numbered row outside a body: the fix is a whole op.
    let e = fails("[f.txt#2A47]\n1:a\nPUT 2:\n+B");
    assert_eq!(e.problem, Problem::BareRow(RowShape::NumberedRow));
    assert_eq!(
        e.to_string(),
        "edit document line 2: this row has no leading '+' and looks copied from a read or grep (N:text / \
         N | text); body rows are '+' then the exact line text, without line numbers\n  2 | 1:a\ntry:\n  PUT 1:\n  +a"
    );
    // Our own footers and gap rows pasted back are ignored, with a warning.
    let doc = "[f.txt#2A47]\n[lines 1-3 of 3 shown; pass offset/limit to read the rest]\n…\nPUT 2:\n+B\n[12 of 80 lines shown; x]";
    assert_eq!(ops(doc).len(), 1);
    assert_eq!(warnings(doc).len(), 3);
    // Whitespace before '+': no guessed fix.
    let e = fails("[f.txt#2A47]\nPUT 2:\n+B\n  +C");
    assert_eq!(
        (e.problem, e.fix),
        (Problem::BareRow(RowShape::IndentedPlus), None)
    );
    // Body on the header line.
    let e = fails("[f.txt#2A47]\nPUT 2: +B");
    assert_eq!(e.problem, Problem::BodyOnHeaderLine);
    assert_eq!(e.fix.as_deref(), Some("PUT 2:\n+B"));
    // Headers without a tag or without brackets.
    let e = fails("[f.txt#]\nCUT 1");
    assert_eq!(
        (e.problem, e.fix.as_deref()),
        (Problem::HeaderBadTag, Some("[f.txt#TAG]"))
    );
    let e = fails("f.txt#2a47\nCUT 1");
    assert_eq!(
        (e.problem, e.fix.as_deref()),
        (Problem::HeaderWithoutBrackets, Some("[f.txt#2A47]"))
    );
    // A plain bare row outside any body gets no guessed fix.
    assert_eq!(fails("[f.txt#2A47]\nhello").fix, None);
}

#[test]
fn second_trial_findings() {
    // A lower-case `mv` row inside a body is a row without '+', never a
    // file move (nor are cut/put/rem there).
    for row in [
        "mv build/out dist",
        "cut -d, -f1 x",
        "rem note",
        "put it back",
    ] {
        let e = fails(&format!("[run.sh#ABCD]\nPUT 2:\n+set -eu\n{row}"));
        assert_eq!(e.line, 4, "{row}");
        assert!(
            matches!(e.problem, Problem::BareRow(_)),
            "{row}: {:?}",
            e.problem
        );
    }
    // REM and MV must be capitals even between ops.
    assert_eq!(fails("[a#ABCD]\nrem").problem, Problem::UnknownLine);
    assert_eq!(fails("[a#ABCD]\nmv b.rs").problem, Problem::UnknownLine);
    assert_eq!(ops("[a#ABCD]\nPUT 1:\n+x\ncut 3").len(), 2);
    // An elision inside a body is refused, not dropped as tool output.
    let e = fails("[f.py#ABCD]\nPUT 1.=3:\n+def f(a, b):\n...");
    assert_eq!(
        (e.line, e.problem),
        (4, Problem::BareRow(RowShape::Ellipsis))
    );
    let e = fails("[f.py#ABCD]\nPUT 1.=3:\n+def f(a, b):\n    …");
    assert_eq!(e.problem, Problem::BareRow(RowShape::Ellipsis));
    // Our bracketed footers right after a body are still only tool output.
    assert_eq!(
        ops("[f#ABCD]\nPUT 1:\n+a\n[lines 1-3 of 3 shown; x]").len(),
        1
    );
    // Copyable fixes where the trial found none.
    assert_eq!(
        fails("[f#ABCD]\nPUT 7.=:\n+x").fix.as_deref(),
        Some("PUT 7:")
    );
    assert_eq!(fails("[f#ABCD]\nCUT 2.=").fix.as_deref(), Some("CUT 2"));
    assert_eq!(
        fails("[f#ABCD]\nPUT 1:\n+a\n\n+b").fix.as_deref(),
        Some("+")
    );
    let e = fails("[f#ABCD]\nPUT <2\n+x");
    assert_eq!(
        (e.problem, e.fix.as_deref()),
        (Problem::PasteWithBody, Some("PUT <2:"))
    );
    // No guessed fixes where the meaning is unclear.
    for doc in ["CUT 3,5", "CUT 5-2"] {
        assert_eq!(fails(&format!("[f#ABCD]\n{doc}")).fix, None, "{doc}");
    }
    // `3 5`: a range or two lines? Refused.
    for doc in ["CUT 3 5", "PUT 3 5:\n+x"] {
        assert_eq!(
            fails(&format!("[f#ABCD]\n{doc}")).problem,
            Problem::BadLocator(LocatorProblem::SpaceSeparator),
            "{doc}"
        );
    }
    // MV with a register is refused.
    assert_eq!(
        fails("[g.txt#ABCD]\nMV g.txt @a").problem,
        Problem::BadFileOp
    );
    // Headers with decoration around them.
    for line in [
        "[f.txt#7437] (from read)",
        "`[f.txt#7437]`",
        "**[f.txt#7437]**",
        "## [f.txt#7437]",
        "[f.txt#7437]:",
    ] {
        let e = fails(&format!("{line}\nPUT 1:\n+x"));
        assert_eq!(
            (e.problem, e.fix.as_deref()),
            (Problem::HeaderWithJunk, Some("[f.txt#7437]")),
            "{line}"
        );
    }
    // An envelope marker in brackets before the header.
    let doc = parse("[*** Begin Patch] [f.txt#7437]\nCUT 1").unwrap();
    assert_eq!(doc.sections[0].path, "f.txt");
}

#[test]
fn near_miss_ops_get_a_line_to_copy() {
    // Tester report: these were refused with nothing to copy.
    let fix = |doc: &str| fails(doc).fix;
    // The first row on the header line, without `+`.
    assert_eq!(
        fix("[a#ABCD]\nPUT 2: x = 1"),
        Some("PUT 2:\n+x = 1".to_string())
    );
    assert_eq!(
        fails("[a#ABCD]\nPUT 2: x").problem,
        Problem::BodyOnHeaderLine
    );
    // A register paste written with the body colon.
    let e = fails("[a#ABCD]\nPUT >3: @r");
    assert_eq!(e.problem, Problem::ColonOnRegister);
    assert_eq!(e.fix.as_deref(), Some("PUT >3 @r"));
    // Line 0 is before line 1.
    assert_eq!(fix("[a#ABCD]\nPUT 0:\n+x"), Some("PUT <1:".to_string()));
    assert_eq!(fix("[a#ABCD]\nCUT 0"), None);
    // Other words for CUT, and file ops in lower case.
    assert_eq!(fix("[a#ABCD]\nDEL 2"), Some("CUT 2".to_string()));
    assert_eq!(fix("[a#ABCD]\ndelete 2.=4"), Some("CUT 2.=4".to_string()));
    assert_eq!(fix("[a#ABCD]\nrem"), Some("REM".to_string()));
    assert_eq!(fix("[a#ABCD]\nmv b.rs"), Some("MV b.rs".to_string()));
    // Prose stays an unknown line with no guess.
    assert_eq!(fix("[a#ABCD]\nremove the old helper"), None);
    // Inside a body, such lines are rows without `+` (their own fix).
    assert_eq!(
        fails("[a#ABCD]\nPUT 2:\n+x\nDEL 2").problem,
        Problem::BareRow(RowShape::Plain)
    );
}

#[test]
fn eof_sets_the_final_newline() {
    assert_eq!(
        ops("[a#ABCD]\nPUT 1:\n+x\nEOF NEWLINE"),
        vec![
            OpKind::Replace {
                target: Target::Lines(range(1, 1)),
                body: body(&["x"])
            },
            OpKind::FinalNewline(FinalNewline::Present)
        ]
    );
    assert_eq!(
        ops("[a#ABCD]\nEOF NO NEWLINE"),
        vec![OpKind::FinalNewline(FinalNewline::Absent)]
    );
    // Other spellings are read with a warning.
    for spelling in ["EOF no newline", "EOF NO-NEWLINE"] {
        let doc = format!("[a#ABCD]\n{spelling}");
        assert_eq!(
            ops(&doc),
            vec![OpKind::FinalNewline(FinalNewline::Absent)],
            "{spelling}"
        );
        assert!(!warnings(&doc).is_empty(), "{spelling}");
    }
    // Like REM and MV, the keyword is only read in capitals.
    assert_eq!(
        parse("[a#ABCD]\neof no newline").unwrap_err().to_string(),
        "edit document line 2: expected a [path#TAG] header, an op (PUT, CUT, SUB, REM, MV), or a + \
         body row under a PUT header\n  2 | eof no newline"
    );
    // Said twice, it is one op.
    assert_eq!(ops("[a#ABCD]\nEOF NEWLINE\nEOF NEWLINE").len(), 1);
    let e = fails("[a#ABCD]\nEOF");
    assert_eq!(
        e.to_string(),
        "edit document line 2: EOF says how the file ends: EOF NEWLINE makes its last line end with a \
         line break, EOF NO NEWLINE removes that line break\n  2 | EOF\ntry: EOF NEWLINE"
    );
    assert_eq!(
        fails("[a#ABCD]\nEOF without a newline").fix.as_deref(),
        Some("EOF NO NEWLINE")
    );
}
