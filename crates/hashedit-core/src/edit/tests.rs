//! Tests of the edit pipeline: tag rule, advice and refusals.

use super::*;
use crate::parse::parse;

/// Applies `ops` under a correct header to `file` as `display`, without
/// history or block grammar.
fn edit_as(display: &str, file: &str, ops: &str) -> Result<FileEdit, Box<FileEditError>> {
    let tag = TagScheme::Rho.tag_of(file.as_bytes());
    let doc = parse(&format!("[{display}#{tag}]\n{ops}")).unwrap();
    let input = FileInput {
        section: &doc.sections[0],
        display,
        result_display: display,
        bytes: file.as_bytes(),
    };
    edit_file(
        &input,
        &EditSettings::new(TagScheme::Rho),
        &NoHistory,
        &mut Registers::default(),
    )
}

/// The warnings of an edit, as the reply words them.
fn said(out: &FileEdit) -> Vec<String> {
    out.advice.iter().map(ToString::to_string).collect()
}

fn edit(file: &str, ops: &str) -> Result<FileEdit, Box<FileEditError>> {
    edit_as("f.go", file, ops)
}

#[test]
fn echoes_are_written_with_a_warning_on_every_side() {
    // An insert after line 1 whose last row repeats line 2 (found by the
    // robustness benchmark: it used to pass without a warning).
    let out = edit("a\nb\nc\n", "PUT >1:\n+x\n+b").unwrap();
    assert_eq!(out.bytes, b"a\nx\nb\nb\nc\n");
    assert_eq!(
        said(&out),
        vec![
            "PUT >1: (document line 2): the last body row repeats line 2, which stays in the file; they \
             are written twice as sent. If that was not meant, CUT the extra rows"
        ]
    );
    let out = edit("a\nb\nc\n", "PUT <3:\n+b\n+x").unwrap();
    assert_eq!(out.bytes, b"a\nb\nb\nx\nc\n");
    assert_eq!(out.advice.len(), 1);
    assert!(said(&out)[0].contains("the first body row repeats line 2"));
    // Several rows (reference-omp.md §7 case 32).
    let out = edit(
        "// one\n// two\nold();\n",
        "PUT 3:\n+// one\n+// two\n+new();",
    )
    .unwrap();
    assert_eq!(
        said(&out),
        vec![
            "PUT 3: (document line 2): the first 2 body rows repeat lines 1-2, which stay in the file; \
             they are written twice as sent. If that was not meant, CUT the extra rows"
        ]
    );
}

#[test]
fn a_replacement_aimed_one_line_off_is_warned() {
    let file = "fn f() {\n    let total = 0;\n    let count = items.len();\n    total\n}\n";
    // Meant for line 3, sent to line 2: line 3 stays, line 2 is lost.
    let out = edit(file, "PUT 2:\n+    let count = items.len() + 1;").unwrap();
    assert_eq!(
        out.bytes,
        b"fn f() {\n    let count = items.len() + 1;\n    let count = items.len();\n    total\n}\n"
    );
    assert_eq!(
        said(&out),
        vec![
            "PUT 2: (document line 2): the last body row reads as an edited copy of line 3 just below \
             the range, which stays, more than any line it replaces (line 2); it was written as sent. \
             If the range is off by one, fix it from the preview"
        ]
    );
    // Sent to line 4 instead: the first row copies line 3 above.
    let out = edit(file, "PUT 4:\n+    let count = items.len() + 1;").unwrap();
    assert_eq!(out.advice.len(), 1);
    assert!(
        said(&out)[0].contains("first body row reads as an edited copy of line 3 just above"),
        "{:?}",
        out.advice
    );
    // Aimed right: the row resembles the line it replaces; no warning.
    let out = edit(file, "PUT 3:\n+    let count = items.len() + 1;").unwrap();
    assert!(out.advice.is_empty(), "{:?}", out.advice);
    // One line too many: the row edits line 2 and line 3 is lost.
    let out = edit(file, "PUT 2.=3:\n+    let total = 1;").unwrap();
    assert_eq!(
        said(&out),
        vec![
            "PUT 2.=3: (document line 2): the body rows are edits of line 2, in order, and nothing \
             replaces line 3, so it is deleted; it was written as sent. If the range is one line too \
             long, fix it from the preview"
        ]
    );
    // A deletion written with its kept neighbour retyped is meant.
    let out = edit(file, "PUT 2.=3:\n+    let total = 0;").unwrap();
    assert!(out.advice.is_empty(), "{:?}", out.advice);
    // Replacing two unlike lines with one new line is an ordinary edit.
    let out = edit(file, "PUT 2.=3:\n+    let sum: u32 = items.iter().sum();").unwrap();
    assert!(out.advice.is_empty(), "{:?}", out.advice);
    // Short rows like a closing brace never count.
    let out = edit("a();\n}\nlet x = 1;\n", "PUT 3:\n+};").unwrap();
    assert!(out.advice.is_empty(), "{:?}", out.advice);
}

#[test]
fn lines_another_op_removes_are_not_echoes() {
    // Second trial: moving line 3 to the end is not an echo of line 3.
    let out = edit_as("f", "l1\nl2\nl3\n", "CUT 1 @x\nCUT 3 @y\nPUT >$ @y").unwrap();
    assert_eq!(out.bytes, b"l2\nl3\n");
    assert!(out.advice.is_empty(), "{:?}", out.advice);
}

#[test]
fn rows_in_the_other_indentation_style_are_refused() {
    let file = "func f() {\n\tlet a = 1\n\treturn a\n}\n";
    let err = edit(file, "PUT 2:\n+    let a = 2").unwrap_err();
    assert_eq!(
        err.failure.to_string(),
        "PUT 2: (document line 2): body row 1 indents with spaces, but the lines around it indent with \
         tabs; write the rows with the file's indentation (the live snapshot below shows it); nothing \
         was written"
    );
    assert_eq!(
        err.failure,
        EditFailure::Indentation(IndentMismatch {
            op: crate::plan::OpRef {
                line: 2,
                header: "PUT 2:".into()
            },
            row: 1,
            file: Indent::Tabs,
        })
    );
    assert!(err.to_string().contains("\n2:\tlet a = 1\n"));
    assert_eq!(
        edit(file, "PUT 2:\n+\tlet a = 2").unwrap().bytes,
        file.replace("1", "2").as_bytes()
    );
    // Spaces among spaces, and unindented rows, are fine; so is a file
    // whose neighbourhood mixes both styles.
    assert!(edit("def f():\n    a = 1\n", "PUT 2:\n+    a = 2").is_ok());
    assert!(edit("def f():\n    a = 1\n", "PUT >2:\n+b = 3").is_ok());
    assert!(edit("x:\n\ta\n  b\n", "PUT 2:\n+  c").is_ok());
    // The reverse: tabs among spaces.
    let err = edit("def f():\n    a = 1\n    b = 2\n", "PUT >2:\n+\tc = 3").unwrap_err();
    assert!(matches!(err.failure, EditFailure::Indentation(_)));
}

#[test]
fn tabs_that_are_syntax_or_data_are_not_indentation() {
    // Tester report: a Makefile recipe (which must start with a tab)
    // among space-indented continuation lines was refused, and the
    // advised fix would have broken the Makefile.
    let makefile = "OBJS = a.o \\\n       b.o\n";
    let recipe = "PUT >$:\n+all: $(OBJS)\n+\tcc -o prog $(OBJS)";
    for name in ["Makefile", "sub/GNUmakefile", "rules.mk"] {
        let out = edit_as(name, makefile, recipe).unwrap();
        assert_eq!(
            out.bytes, b"OBJS = a.o \\\n       b.o\nall: $(OBJS)\n\tcc -o prog $(OBJS)\n",
            "{name}"
        );
    }
    // Spaces where a Makefile's recipes use tabs are still refused:
    // make rejects them.
    let tabbed = "all:\n\tcc a.c\n\tcc b.c\n";
    let err = edit_as("Makefile", tabbed, "PUT 2:\n+    cc c.c").unwrap_err();
    assert!(matches!(err.failure, EditFailure::Indentation(_)));
    // A tab-separated table is data: a leading tab is an empty field.
    let tsv = "a  b\n  c\n";
    assert!(edit_as("t.tsv", tsv, "PUT >2:\n+\tc\td").is_ok());
    // The same rows in a source file are refused.
    assert!(edit_as("m.py", makefile, recipe).is_err());
}
