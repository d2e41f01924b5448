//! Planner and applier tests: Rho's pinned cases (Rho's behaviour
//! cases 30–36, §12), the handed cases about endings, BOMs and ranges, and
//! a property test against a separate reference model.

use super::*;
use crate::hunk::Aim;
use crate::lower::{Registers, lower};
use crate::parse::parse;
use proptest::prelude::*;

/// The hunks of a parsed one-section document.
fn hunks_of(doc: &crate::document::Document, text: &Text) -> Vec<Hunk> {
    lower(
        &doc.sections[0],
        "f.txt",
        text,
        None,
        &mut Registers::default(),
    )
    .expect("test ops lower")
    .hunks
}

/// Applies the ops of a one-section document (tag not checked).
fn run(file: &str, ops: &str) -> Result<String, PlanError> {
    let doc = parse(&format!("[f.txt#0000]\n{ops}")).expect("test document parses");
    let text = Text::decode(file.as_bytes()).expect("test file is text");
    let hunks = hunks_of(&doc, &text);
    let plan = plan(&hunks, &text)?;
    Ok(String::from_utf8(plan.apply(&text).bytes).expect("utf8"))
}

fn focus(file: &str, ops: &str) -> Vec<usize> {
    let doc = parse(&format!("[f.txt#0000]\n{ops}")).unwrap();
    let text = Text::decode(file.as_bytes()).unwrap();
    let hunks = hunks_of(&doc, &text);
    plan(&hunks, &text).unwrap().apply(&text).focus
}

fn kind(result: Result<String, PlanError>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(PlanError::OutOfRange { .. }) => "out_of_range",
        Err(PlanError::EmptyFile { .. }) => "empty_file",
        Err(PlanError::InsertIntoEmpty { .. }) => "insert_into_empty",
        Err(PlanError::Overlap { .. }) => "overlap",
        Err(PlanError::InsertInsideSpan { .. }) => "inside_span",
        Err(PlanError::RowWithLineBreak { .. }) => "row_with_line_break",
        Err(PlanError::RowWithNul { .. }) => "row_with_nul",
        Err(PlanError::RowWithBom { .. }) => "row_with_bom",
        Err(PlanError::LineWouldBecomeBom { .. }) => "line_would_become_bom",
    }
}

#[test]
fn mixed_ops_use_original_numbers() {
    // Rho's pinned case 30.
    let ops = "PUT 2:\n+TWO\nPUT >3:\n+3.5\nCUT 4";
    assert_eq!(
        run("one\ntwo\nthree\nfour\n", ops).unwrap(),
        "one\nTWO\nthree\n3.5\n"
    );
    assert_eq!(focus("one\ntwo\nthree\nfour\n", ops), vec![2, 4, 4, 5]);
}

#[test]
fn a_deletion_focuses_the_first_original_line_after_rows_inserted_after_it() {
    // Line 2 is cut and rows go after it: the next neighbour of the gap is
    // line 3 ("c", now row 4), past the inserted rows, as Rho counts it.
    let ops = "PUT >2:\n+x\n+y\nCUT 2";
    assert_eq!(run("a\nb\nc\nd\n", ops).unwrap(), "a\nx\ny\nc\nd\n");
    assert_eq!(focus("a\nb\nc\nd\n", ops), vec![1, 4, 2, 3]);
    // Rows inserted before the next line are that neighbour themselves.
    let ops = "PUT <3:\n+z\nCUT 2";
    assert_eq!(run("a\nb\nc\nd\n", ops).unwrap(), "a\nz\nc\nd\n");
    assert_eq!(focus("a\nb\nc\nd\n", ops), vec![1, 2, 2]);
}

#[test]
fn overlapping_spans_fail() {
    // Rho's pinned case 32; handed case D10 (1) and (2).
    assert_eq!(kind(run("a\nb\nc\n", "PUT 1.=2:\n+x\nCUT 2.=3")), "overlap");
    assert_eq!(
        kind(run("1\n2\n3\n4\n", "PUT 2.=3:\n+X\nCUT 3.=4")),
        "overlap"
    );
    assert_eq!(
        kind(run("1\n2\n3\n4\n", "PUT 2:\n+A\nPUT 2:\n+B")),
        "overlap"
    );
    assert_eq!(kind(run("1\n2\n3\n4\n", "CUT 1\nPUT 1:\n+x")), "overlap");
    let err = run("1\n2\n3\n4\n", "PUT 2.=3:\n+X\nCUT 3.=4").unwrap_err();
    assert_eq!(
        err.to_string(),
        "CUT 3.=4 (document line 4) overlaps PUT 2.=3: (document line 2); each line may be \
         replaced or deleted by one op only, so merge them into one op"
    );
}

#[test]
fn inserts_inside_a_span_fail() {
    // Rho's pinned case 33.
    for insert in ["PUT >3:\n+x", "PUT <3:\n+x", "PUT >2:\n+x", "PUT <4:\n+x"] {
        let ops = format!("PUT 2.=4:\n+R\n{insert}");
        assert_eq!(
            kind(run("a\nb\nc\nd\ne\n", &ops)),
            "inside_span",
            "{insert}"
        );
    }
    let err = run("a\nb\nc\nd\ne\n", "PUT 2.=4:\n+R\nPUT >3:\n+x").unwrap_err();
    assert_eq!(
        err.to_string(),
        "PUT >3: (document line 4) inserts inside PUT 2.=4: (document line 2), which removes \
         lines 2-4; anchor the insert at <2 or >4, or put its rows in that body"
    );
}

#[test]
fn inserts_at_span_edges_are_allowed() {
    // Rho's pinned case 34.
    assert_eq!(
        run(
            "a\nb\nc\nd\ne\n",
            "PUT <2:\n+head\nCUT 2.=4\nPUT >5:\n+tail"
        )
        .unwrap(),
        "a\nhead\ne\ntail\n"
    );
    // FORMAT.md §4.3: `>E` on the last line of a span follows the
    // replacement (Rho rejects it).
    assert_eq!(
        run("a\nb\nc\nd\ne\n", "PUT 2.=4:\n+R\nPUT >4:\n+after").unwrap(),
        "a\nR\nafter\ne\n"
    );
    // §12: `PUT 3:` with `PUT >3:`; `CUT 3` with `PUT >3:` / `PUT <3:`.
    assert_eq!(
        run("1\n2\n3\n4\n", "PUT 3:\n+X\nPUT >3:\n+Y").unwrap(),
        "1\n2\nX\nY\n4\n"
    );
    assert_eq!(
        run("1\n2\n3\n4\n", "CUT 3\nPUT >3:\n+Y").unwrap(),
        "1\n2\nY\n4\n"
    );
    assert_eq!(
        run("1\n2\n3\n4\n", "CUT 3\nPUT <3:\n+Y").unwrap(),
        "1\n2\nY\n4\n"
    );
    // `<S` before a replacement shows first.
    assert_eq!(
        run("1\n2\n3\n", "PUT 2:\n+X\nPUT <2:\n+B").unwrap(),
        "1\nB\nX\n3\n"
    );
}

#[test]
fn shared_anchors_keep_document_order() {
    // Rho's pinned case 35; handed case D10 (3).
    assert_eq!(
        run("a\nb\n", "PUT >1:\n+first\nPUT >1:\n+second").unwrap(),
        "a\nfirst\nsecond\nb\n"
    );
    assert_eq!(
        run("1\n2\n3\n4\n", "PUT >2:\n+a\nPUT >2:\n+b").unwrap(),
        "1\n2\na\nb\n3\n4\n"
    );
    // After(N) rows come before Before(N+1) rows whatever the order.
    assert_eq!(
        run("1\n2\n", "PUT <2:\n+before2\nPUT >1:\n+after1").unwrap(),
        "1\nafter1\nbefore2\n2\n"
    );
    // `>$` rows follow `>N` rows on the last line.
    assert_eq!(
        run("1\n2\n", "PUT >$:\n+end\nPUT >2:\n+after2").unwrap(),
        "1\n2\nafter2\nend\n"
    );
}

#[test]
fn library_rows_cannot_hold_line_breaks() {
    let text = Text::decode(b"a\n").unwrap();
    for row in ["x\ny", "x\r"] {
        let ops = vec![Hunk {
            line: 2,
            header: "PUT 1:".into(),
            aim: Aim::Lines,
            kind: HunkKind::Replace {
                range: LineRange { start: 1, end: 1 },
                body: vec![row.to_string()],
            },
        }];
        assert!(matches!(
            plan(&ops, &text),
            Err(PlanError::RowWithLineBreak { .. })
        ));
    }
}

#[test]
fn rows_that_would_change_the_encoding_are_refused() {
    // Found by the apply fuzz target (issue 5): a NUL in a body row made
    // the result binary, and a leading U+FEFF gave the file a BOM the
    // preview did not show. Every position, every op kind.
    for (file, bom) in [("one\ntwo\n", false), ("\u{FEFF}one\ntwo\n", true)] {
        for ops in [
            "PUT 1:\n+a\u{0}b",
            "PUT <1:\n+\u{0}",
            "PUT >$:\n+x\n+tail\u{0}",
            "PUT 1:\n+\u{FEFF}one",
            "PUT <1:\n+\u{FEFF}",
            "PUT >1:\n+\u{FEFF}mid",
        ] {
            let result = run(file, ops);
            let expected = if ops.contains('\u{0}') {
                "row_with_nul"
            } else {
                "row_with_bom"
            };
            assert_eq!(kind(result), expected, "{ops:?} on a file with BOM {bom}");
        }
    }
    let text = Text::decode(b"one\n").unwrap();
    let ops = vec![Hunk {
        line: 2,
        header: "PUT 1:".into(),
        aim: Aim::Lines,
        kind: HunkKind::Replace {
            range: LineRange { start: 1, end: 1 },
            body: vec!["a\u{0}".to_string()],
        },
    }];
    assert_eq!(
        plan(&ops, &text).unwrap_err().to_string(),
        "PUT 1: (document line 2) has a body row containing a NUL byte, which would make this text file binary; remove it (write replaces a file with any bytes)"
    );
    let ops = vec![Hunk {
        line: 3,
        header: "PUT <1:".into(),
        aim: Aim::Lines,
        kind: HunkKind::Insert {
            at: InsertAt::Before(1),
            body: vec!["\u{FEFF}x".to_string()],
        },
    }];
    assert_eq!(
        plan(&ops, &text).unwrap_err().to_string(),
        "PUT <1: (document line 3) has a body row starting with U+FEFF (a byte order mark); hashedit keeps a file's own BOM and never adds one, so remove it from the row"
    );
    // A U+FEFF inside a row is an ordinary character.
    assert_eq!(run("one\n", "PUT 1:\n+a\u{FEFF}b").unwrap(), "a\u{FEFF}b\n");
}

#[test]
fn handed_f01_a_line_starting_with_feff_never_becomes_a_bom() {
    // Found by the apply fuzz target: deleting line 1 left line 2, which
    // starts with U+FEFF, at byte 0, where it read as a BOM the file never
    // had. Refused, naming the character and the line; nothing applies.
    let f01 = "\n\u{FEFF}x\ny\n";
    assert_eq!(
        run(f01, "CUT 1").unwrap_err().to_string(),
        "CUT 1 (document line 2) would make line 2 the file's first line, but line 2 starts with \
         U+FEFF (zero width no-break space); at byte 0 that character reads as a byte order mark, \
         which this file does not have, so line 2 would lose it; keep a line above it, or replace \
         line 2 with its text after the U+FEFF"
    );
    // Several deletions in a row: the one that removes the line above it
    // is named.
    let file = "a\nb\n\u{FEFF}c\nd\n";
    assert_eq!(
        run(file, "CUT 1\nCUT 2"),
        Err(PlanError::LineWouldBecomeBom {
            op: OpRef {
                line: 3,
                header: "CUT 2".into()
            },
            line: 3
        })
    );
    assert_eq!(kind(run(file, "CUT 1.=2")), "line_would_become_bom");
    // Anything written above the line keeps it content: every op kind.
    for (ops, want) in [
        ("CUT 1\nPUT <2:\n+top", "top\n\u{FEFF}x\ny\n"),
        ("CUT 1\nPUT >1:\n+top", "top\n\u{FEFF}x\ny\n"),
        ("PUT <1:\n+top\nCUT 1", "top\n\u{FEFF}x\ny\n"),
        ("PUT 1:\n+top", "top\n\u{FEFF}x\ny\n"),
        ("CUT 1\nPUT 2:\n+x", "x\ny\n"),
        ("CUT 1.=2", "y\n"),
        ("CUT 1.=3", ""),
        ("CUT 1.=3\nPUT >$:\n+z", "z\n"),
        ("CUT 3", "\n\u{FEFF}x\n"),
    ] {
        assert_eq!(run(f01, ops).as_deref(), Ok(want), "{ops:?}");
    }
    // A file with a BOM keeps its own at byte 0, so a U+FEFF line after it
    // stays content: the bytes read back as the same line.
    let with_bom = "\u{FEFF}\n\u{FEFF}x\ny\n";
    assert_eq!(run(with_bom, "CUT 1").unwrap(), "\u{FEFF}\u{FEFF}x\ny\n");
    let text = Text::decode("\u{FEFF}\u{FEFF}x\ny\n".as_bytes()).unwrap();
    assert_eq!(text.line(1), "\u{FEFF}x");
    // U+FEFF later in the line, or on a line that does not come first.
    assert_eq!(run("\nx\u{FEFF}\n", "CUT 1").unwrap(), "x\u{FEFF}\n");
    assert_eq!(run("a\nb\n\u{FEFF}c\n", "CUT 1").unwrap(), "b\n\u{FEFF}c\n");
}

#[test]
fn empty_file_rules() {
    // Rho's pinned case 36; handed case D01.
    assert_eq!(
        run("", "PUT <1:\n+first\nPUT >$:\n+second").unwrap(),
        "first\nsecond\n"
    );
    assert_eq!(
        run("", "PUT >$:\n+second\nPUT <1:\n+first").unwrap(),
        "second\nfirst\n"
    );
    assert_eq!(run("", "PUT >$:\n+hello").unwrap(), "hello\n");
    assert_eq!(kind(run("", "PUT 1:\n+x")), "empty_file");
    assert_eq!(kind(run("", "CUT 1")), "empty_file");
    assert_eq!(kind(run("", "PUT <2:\n+x")), "insert_into_empty");
    assert_eq!(kind(run("", "PUT >1:\n+x")), "insert_into_empty");
}

#[test]
fn ranges_past_the_end_fail() {
    // Handed case D11; Rho's behaviour.
    assert_eq!(kind(run("a\nb\nc\n", "PUT 4:\n+x")), "out_of_range");
    assert_eq!(kind(run("a\nb\nc\n", "CUT 2.=4")), "out_of_range");
    assert_eq!(kind(run("a\nb\nc\n", "PUT <4:\n+x")), "out_of_range");
    assert_eq!(kind(run("a\nb\nc\n", "PUT >4:\n+x")), "out_of_range");
    assert_eq!(run("a\nb\nc\n", "PUT >3:\n+d").unwrap(), "a\nb\nc\nd\n");
    assert_eq!(
        run("a\nb\nc\n", "PUT 4:\n+x").unwrap_err().to_string(),
        "PUT 4: (document line 2) names line 4, but the file has 3 lines; copy line numbers \
         from the snapshot below"
    );
}

#[test]
fn deleting_lines_keeps_the_final_newline_state() {
    // Handed cases D01 (b) and D03.
    assert_eq!(run("x\n", "CUT 1.=1").unwrap(), "");
    assert_eq!(run("x\n", "PUT 1:\n+").unwrap(), "\n");
    assert_eq!(run("a\nb", "CUT 2.=2").unwrap(), "a");
    assert_eq!(run("a\nb\n", "CUT 2.=2").unwrap(), "a\n");
    assert_eq!(run("a\nb", "CUT 1.=2").unwrap(), "");
    assert_eq!(run("a\nb\n", "CUT 1.=2").unwrap(), "");
    // Appending to a file without a final newline keeps it without one.
    assert_eq!(run("a\nb", "PUT >$:\n+c").unwrap(), "a\nb\nc");
}

#[test]
fn mixed_endings_stay_byte_identical() {
    // Handed case B10.
    assert_eq!(run("a\r\nb\nc", "PUT 3:\n+C").unwrap(), "a\r\nb\nC");
    assert_eq!(
        run("a\r\nb\nc", "PUT 2:\n+B1\n+B2").unwrap(),
        "a\r\nB1\nB2\nc"
    );
    // Handed case B11.
    assert_eq!(
        run("one\r\ntwo\r\nthree\r\n", "PUT >1:\n+inserted").unwrap(),
        "one\r\ninserted\r\ntwo\r\nthree\r\n"
    );
    // Replacing a span with equal rows reproduces its bytes.
    assert_eq!(
        run("a\r\nb\nc\r\n", "PUT 1.=3:\n+a\n+b\n+c").unwrap(),
        "a\r\nb\nc\r\n"
    );
    // A CR-only file is one line; rows added to it get a real line break.
    assert_eq!(run("a\rb\r", "PUT >$:\n+x").unwrap(), "a\rb\nx\r");
}

#[test]
fn bom_stays_at_byte_zero() {
    // Handed case B12.
    let file = "\u{FEFF}hello\n中文\n";
    assert_eq!(
        run(file, "PUT 1:\n+hello2").unwrap(),
        "\u{FEFF}hello2\n中文\n"
    );
    assert_eq!(
        run(file, "PUT <1:\n+# top").unwrap(),
        "\u{FEFF}# top\nhello\n中文\n"
    );
    assert_eq!(run("hello\n", "PUT <1:\n+# top").unwrap(), "# top\nhello\n");
}

#[test]
fn blank_last_line_survives_edits() {
    // Handed case B15: repeating the edit never shrinks the tail.
    let mut file = "alpha\nbeta\n\n".to_string();
    for _ in 0..3 {
        file = run(&file, "PUT 1:\n+ALPHA").unwrap();
        assert_eq!(file, "ALPHA\nbeta\n\n");
    }
}

#[test]
fn literal_bodies_are_written_as_sent() {
    // Handed cases B01 (1), B02, B04, D05.
    assert_eq!(
        run(
            "keep\nold-a\nold-b\nkeep\n",
            "PUT 2.=3:\n+keep\n+new-a\n+new-b\n+keep"
        )
        .unwrap(),
        "keep\nkeep\nnew-a\nnew-b\nkeep\nkeep\n"
    );
    assert_eq!(
        run("aaa\nbbb\nccc\n", "PUT >2:\n+bbb\n+NEW").unwrap(),
        "aaa\nbbb\nbbb\nNEW\nccc\n"
    );
    assert_eq!(
        run("aaa\nbbb\nccc\n", "PUT <2:\n+NEW\n+bbb").unwrap(),
        "aaa\nNEW\nbbb\nbbb\nccc\n"
    );
    assert_eq!(
        run("# todo\nold\n", "PUT 2:\n+- [x] done\n+- [ ] next\n++1").unwrap(),
        "# todo\n- [x] done\n- [ ] next\n+1\n"
    );
    assert_eq!(
        run("line one  \nline two\n", "PUT 2:\n+line 2  ").unwrap(),
        "line one  \nline 2  \n"
    );
}

#[test]
fn structural_threshold_is_forty_lines() {
    let file: String = (1..=50).map(|i| format!("{i}\n")).collect();
    let text = Text::decode(file.as_bytes()).unwrap();
    let doc39 = parse("[f#0000]\nPUT 10.=48:\n+x").unwrap();
    assert!(
        !plan(&hunks_of(&doc39, &text), &text)
            .unwrap()
            .is_structural()
    );
    let doc40 = parse("[f#0000]\nPUT 10.=49:\n+x").unwrap();
    assert!(
        plan(&hunks_of(&doc40, &text), &text)
            .unwrap()
            .is_structural()
    );
    let big_insert = format!("[f#0000]\nPUT >1:\n{}", "+x\n".repeat(100));
    let doc = parse(&big_insert).unwrap();
    assert!(!plan(&hunks_of(&doc, &text), &text).unwrap().is_structural());
}

#[test]
fn summary_shapes() {
    let doc = parse(
        "[f#0000]\nPUT 2.=5:\n+a\n+b\nPUT 7:\n+c\nCUT 9\nCUT 10.=12\nPUT <1:\n+h\nPUT >$:\n+t\n+u",
    )
    .unwrap();
    let file = "x\n".repeat(12);
    let text = Text::decode(file.as_bytes()).unwrap();
    let lowered = lower(
        &doc.sections[0],
        "f",
        &text,
        None,
        &mut Registers::default(),
    )
    .unwrap();
    assert_eq!(
        lowered.summary.join("; "),
        "PUT 2.=5: (4 → 2 lines); PUT 7: (1 → 1 line); CUT 9 (1 line); CUT 10.=12 (3 lines); \
         PUT <1: (+1 line); PUT >$: (+2 lines)"
    );
}

/// A generated op for the property tests.
#[derive(Debug, Clone, PartialEq, Eq)]
enum GenOp {
    Replace(usize, usize, Vec<String>),
    Delete(usize, usize),
    Before(usize, Vec<String>),
    After(usize, Vec<String>),
    End(Vec<String>),
}

fn gen_file() -> impl Strategy<Value = (Vec<(String, &'static str)>, bool)> {
    let line = ("[a-c ]{0,3}", prop_oneof![Just("\n"), Just("\r\n")]);
    (proptest::collection::vec(line, 0..12), any::<bool>())
}

fn gen_body() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec("[x-z]{0,2}", 1..3)
}

/// Valid ops for a file of `n` lines: disjoint spans, inserts at gaps that
/// are not inside a span.
fn gen_ops(n: usize) -> BoxedStrategy<Vec<GenOp>> {
    let candidates =
        proptest::collection::vec((0usize..6, 1usize..=n.max(1), 0usize..3, gen_body()), 0..6);
    candidates
        .prop_map(move |raw| {
            let mut taken = vec![false; n + 2];
            let mut spans: Vec<(usize, usize)> = Vec::new();
            let mut ops = Vec::new();
            for (kind, start, len, body) in raw {
                match kind {
                    0 | 1 if n > 0 => {
                        let end = (start + len).min(n);
                        if (start..=end).any(|l| taken[l]) {
                            continue;
                        }
                        (start..=end).for_each(|l| taken[l] = true);
                        spans.push((start, end));
                        ops.push(if kind == 0 {
                            GenOp::Replace(start, end, body)
                        } else {
                            GenOp::Delete(start, end)
                        });
                    }
                    2 if n > 0 => ops.push(GenOp::Before(start, body)),
                    3 if n > 0 => ops.push(GenOp::After(start, body)),
                    4 => ops.push(GenOp::End(body)),
                    _ => ops.push(GenOp::Before(1, body)),
                }
            }
            // Drop inserts whose gap falls inside a span.
            ops.retain(|op| {
                let gap = match op {
                    GenOp::Before(l, _) => l - 1,
                    GenOp::After(l, _) => *l,
                    _ => return true,
                };
                !spans.iter().any(|&(s, e)| gap >= s && gap < e)
            });
            ops
        })
        .boxed()
}

fn doc_of(ops: &[GenOp]) -> String {
    let mut doc = "[f.txt#0000]\n".to_string();
    let rows = |body: &Vec<String>| body.iter().map(|r| format!("+{r}\n")).collect::<String>();
    for op in ops {
        match op {
            GenOp::Replace(s, e, b) => doc += &format!("PUT {s}.={e}:\n{}", rows(b)),
            GenOp::Delete(s, e) => doc += &format!("CUT {s}.={e}\n"),
            GenOp::Before(l, b) => doc += &format!("PUT <{l}:\n{}", rows(b)),
            GenOp::After(l, b) => doc += &format!("PUT >{l}:\n{}", rows(b)),
            GenOp::End(b) => doc += &format!("PUT >$:\n{}", rows(b)),
        }
    }
    doc
}

/// The reference model: splice ops into a vector from the back, so earlier
/// positions never move. Each element remembers the original line it came
/// from, if any.
fn model(lines: &[String], ops: &[GenOp]) -> Vec<(String, Option<usize>)> {
    let n = lines.len();
    let mut out: Vec<(String, Option<usize>)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| (l.clone(), Some(i + 1)))
        .collect();
    let fresh = |body: &Vec<String>| body.iter().map(|r| (r.clone(), None)).collect::<Vec<_>>();
    // (position, rank, document index): larger applies first.
    let mut order: Vec<(usize, u8, usize)> = ops
        .iter()
        .enumerate()
        .map(|(i, op)| match op {
            GenOp::End(_) => (n, 3, i),
            GenOp::Replace(s, _, _) | GenOp::Delete(s, _) => (s - 1, 2, i),
            GenOp::Before(l, _) if n == 0 => (l - 1, 3, i),
            GenOp::Before(l, _) => (l - 1, 1, i),
            GenOp::After(l, _) => (*l, 0, i),
        })
        .collect();
    order.sort_unstable_by(|a, b| b.cmp(a));
    // An insert that repeats an earlier one exactly is applied once.
    order.retain(|&(_, _, i)| {
        !matches!(ops[i], GenOp::Before(..) | GenOp::After(..) | GenOp::End(_))
            || !ops[..i].contains(&ops[i])
    });
    for (pos, _, i) in order {
        match &ops[i] {
            GenOp::Replace(s, e, b) => {
                out.splice(s - 1..*e, fresh(b));
            }
            GenOp::Delete(s, e) => {
                out.splice(s - 1..*e, []);
            }
            GenOp::Before(_, b) | GenOp::After(_, b) | GenOp::End(b) => {
                out.splice(pos..pos, fresh(b));
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// (a) applying a valid document equals the reference model, and
    /// (b) untouched lines keep their exact bytes.
    #[test]
    fn apply_matches_the_reference_model(
        (file, final_newline) in gen_file(),
        seed_ops in any::<u64>(),
    ) {
        let mut body: String = file.iter().map(|(t, e)| format!("{t}{e}")).collect();
        if !final_newline && body.ends_with('\n') {
            body.pop();
            if body.ends_with('\r') { body.pop(); }
        }
        let text = Text::decode(body.as_bytes()).unwrap();
        let lines: Vec<String> = text.lines().map(|(t, _)| t.to_string()).collect();
        let n = lines.len();
        let ops = {
            use proptest::strategy::ValueTree;
            use proptest::test_runner::{Config, TestRunner, RngSeed};
            let mut runner = TestRunner::new_with_rng(
                Config::default(),
                proptest::test_runner::TestRng::from_seed(
                    proptest::test_runner::RngAlgorithm::ChaCha,
                    &{ let mut s = [0u8; 32]; s[..8].copy_from_slice(&seed_ops.to_le_bytes()); s },
                ),
            );
            let _ = RngSeed::Random;
            gen_ops(n).new_tree(&mut runner).unwrap().current()
        };
        let doc = parse(&doc_of(&ops));
        if ops.is_empty() {
            let problem = doc.map_err(|e| (e.line, e.problem));
            prop_assert_eq!(problem.err(), Some((1, crate::parse::Problem::EmptySection)));
            return Ok(());
        }
        let doc = doc.unwrap();
        let hunks = hunks_of(&doc, &text);
        let planned = plan(&hunks, &text);
        let planned = match planned {
            Ok(p) => p,
            // Empty-file spans and anchors are legitimately refused.
            Err(PlanError::InsertIntoEmpty { .. }) | Err(PlanError::EmptyFile { .. }) if n == 0 => return Ok(()),
            Err(e) => return Err(TestCaseError::fail(format!("valid ops refused: {e}"))),
        };
        let applied = planned.apply(&text);
        let result = Text::decode(&applied.bytes).unwrap();
        let expected = model(&lines, &ops);
        let got: Vec<&str> = result.lines().map(|(t, _)| t).collect();
        let want: Vec<&str> = expected.iter().map(|(t, _)| t.as_str()).collect();
        prop_assert_eq!(&got, &want);
        prop_assert_eq!(result.has_bom(), text.has_bom());
        // An empty last row needs a line break to exist at all.
        if !expected.is_empty() && n > 0 && !expected[expected.len() - 1].0.is_empty() {
            prop_assert_eq!(result.ends_with_newline(), text.ends_with_newline());
        }
        // Untouched lines keep their ending unless they were or became last.
        let last_out = expected.len();
        for (i, (_, origin)) in expected.iter().enumerate() {
            if let Some(o) = origin
                && *o != n
                && i + 1 != last_out
            {
                prop_assert_eq!(result.ending(i + 1), text.ending(*o), "line {} from {}", i + 1, o);
            }
        }
    }
}

#[test]
fn the_last_kept_line_keeps_its_own_ending() {
    // The new last line is an untouched line: its CRLF stays, whatever
    // ending the deleted last line had.
    assert_eq!(run("a\r\nb\n", "CUT 2").unwrap(), "a\r\n");
    assert_eq!(run("a\nb\r\n", "CUT 2").unwrap(), "a\n");
    // A row replacing a CRLF line keeps CRLF at the end of an LF-ended file.
    assert_eq!(run("a\r\nb\n", "PUT 1:\n+A\nCUT 2").unwrap(), "A\r\n");
}

#[test]
fn placed_says_where_each_hunks_rows_landed() {
    let doc = parse("[f.txt#0000]\nPUT >1:\n+x\n+y\nPUT 3:\n+C\nCUT 2").unwrap();
    let text = Text::decode(b"a\nb\nc\nd\n").unwrap();
    let hunks = hunks_of(&doc, &text);
    let applied = plan(&hunks, &text).unwrap().apply(&text);
    assert_eq!(applied.bytes, b"a\nx\ny\nC\nd\n");
    // Document lines 2, 5 and 7: the insert's rows are lines 2-3, the
    // replacement is line 4, and after the deletion of b comes line 4.
    let placed: Vec<(usize, usize, usize)> = applied
        .placed
        .iter()
        .map(|p| (p.line, p.first, p.rows))
        .collect();
    assert_eq!(placed, [(2, 2, 2), (7, 4, 0), (5, 4, 1)]);
}

#[test]
fn replacement_rows_take_the_endings_of_the_lines_they_replace() {
    // A body shorter than its span: the last row ends as the span's last
    // line (CRLF), not as the line it stands on (LF).
    assert_eq!(
        run("a\r\nb\nc\r\nd\n", "PUT 1.=3:\n+X\n+Y").unwrap(),
        "X\r\nY\r\nd\n"
    );
    // A body longer than its span: rows past the span end as its last line.
    assert_eq!(
        run("a\nb\r\nc\nd\n", "PUT 2.=3:\n+X\n+Y\n+Z").unwrap(),
        "a\nX\r\nY\nZ\nd\n"
    );
}

#[test]
fn a_deletion_focuses_its_neighbours_past_rows_inserted_at_other_gaps() {
    // Deleting line 1: no row before it, so only the first line after it.
    assert_eq!(focus("a\nb\nc\n", "CUT 1"), [1]);
    // Rows inserted after line 1 and after the deleted span (new file a, x,
    // y, d): x is line 2; the deletion focuses x before it and d (line 4)
    // after the one row inserted at its own gap; y is line 3.
    assert_eq!(
        focus("a\nb\nc\nd\n", "PUT >1:\n+x\nCUT 2.=3\nPUT >3:\n+y"),
        [2, 2, 4, 3]
    );
}
