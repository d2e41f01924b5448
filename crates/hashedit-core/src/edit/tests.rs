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

/// `edit_as` with the guards waived (`force`).
fn forced_as(display: &str, file: &str, ops: &str) -> FileEdit {
    let tag = TagScheme::Rho.tag_of(file.as_bytes());
    let doc = parse(&format!("[{display}#{tag}]\n{ops}")).unwrap();
    let input = FileInput {
        section: &doc.sections[0],
        display,
        result_display: display,
        bytes: file.as_bytes(),
    };
    let settings = EditSettings {
        guards: Guards::WriteAsSent,
        ..EditSettings::new(TagScheme::Rho)
    };
    edit_file(&input, &settings, &NoHistory, &mut Registers::default()).unwrap()
}

/// The refusal of `ops` on `file` (as `f.go`), as the model reads it.
fn refused(file: &str, ops: &str) -> String {
    let error = edit(file, ops).unwrap_err();
    assert!(
        matches!(error.failure, EditFailure::Refused(_)),
        "{:?}",
        error.failure
    );
    error.to_string()
}

/// What the guards found in a refusal of `ops` on `file`.
fn suspected(file: &str, ops: &str) -> Vec<Suspicion> {
    match edit(file, ops).unwrap_err().failure {
        EditFailure::Refused(refusal) => refusal.suspicions,
        other => panic!("not a refusal: {other:?}"),
    }
}

#[test]
fn b01_a_body_restating_both_neighbours_is_refused_with_both_readings() {
    let file = "keep\nold-a\nold-b\nkeep\n";
    let doc = "PUT 2.=3:\n+keep\n+new-a\n+new-b\n+keep";
    let tag = TagScheme::Rho.tag_of(file.as_bytes());
    assert_eq!(
        refused(file, doc),
        format!(
            "f.go: PUT 2.=3: (document line 2): the first body row repeats line 1, which stays in the \
             file: written as sent, the file would hold it twice. Also, PUT 2.=3: (document line 2): \
             the last body row repeats line 4, which stays in the file: written as sent, the file \
             would hold it twice. Nothing was written.\n\
             It would have written (post-edit lines):\n\
             1:keep\n2:keep\n3:new-a\n4:new-b\n5:keep\n6:keep\n\
             if the repeated rows were context, leave them out:\n\
             try: PUT 2.=3:\n+new-a\n+new-b\n\
             if you do mean the lines twice, restate them inside a widened range:\n\
             try: PUT 1.=4:\n+keep\n+keep\n+new-a\n+new-b\n+keep\n+keep\n\
             If the document is right as it is, send it again with force set to write it exactly as sent.\n\
             \n\
             Live snapshot (copy this header and these line numbers to retry):\n\
             [f.go#{tag}]\n1:keep\n2:old-a\n3:old-b\n4:keep"
        )
    );
    // Forced, the body is applied literally.
    let out = forced_as("f.go", file, doc);
    assert_eq!(out.bytes, b"keep\nkeep\nnew-a\nnew-b\nkeep\nkeep\n");
    assert_eq!(
        said(&out),
        [
            "PUT 2.=3: (document line 2): the first body row repeats line 1, which stays in the file, \
             so the file now holds it twice (written as sent)",
            "PUT 2.=3: (document line 2): the last body row repeats line 4, which stays in the file, \
             so the file now holds it twice (written as sent)"
        ]
    );
    // The readings land as meant.
    assert_eq!(
        edit(file, "PUT 2.=3:\n+new-a\n+new-b").unwrap().bytes,
        b"keep\nnew-a\nnew-b\nkeep\n"
    );
    assert_eq!(
        edit(
            file,
            "PUT 1.=4:\n+keep\n+keep\n+new-a\n+new-b\n+keep\n+keep"
        )
        .unwrap()
        .bytes,
        b"keep\nkeep\nnew-a\nnew-b\nkeep\nkeep\n"
    );
}

#[test]
fn b02_inserts_restating_their_anchor_are_refused_with_both_readings() {
    let file = "aaa\nbbb\nccc\n";
    let after = refused(file, "PUT >2:\n+bbb\n+NEW");
    assert!(
        after.contains(
            "if the repeated rows were context, leave them out:\ntry: PUT >2:\n+NEW\n\
             if you do mean the lines twice, restate them inside a widened range:\n\
             try: PUT 2:\n+bbb\n+bbb\n+NEW\n"
        ),
        "{after}"
    );
    let before = refused(file, "PUT <2:\n+NEW\n+bbb");
    assert!(
        before.contains(
            "the last body row repeats line 2, which stays in the file: written as sent, the file \
             would hold it twice"
        ),
        "{before}"
    );
    assert!(
        before.contains(
            "try: PUT <2:\n+NEW\n\
             if you do mean the lines twice, restate them inside a widened range:\n\
             try: PUT 2:\n+NEW\n+bbb\n+bbb\n"
        ),
        "{before}"
    );
    assert_eq!(
        forced_as("f.go", file, "PUT >2:\n+bbb\n+NEW").bytes,
        b"aaa\nbbb\nbbb\nNEW\nccc\n"
    );
    assert_eq!(
        forced_as("f.go", file, "PUT <2:\n+NEW\n+bbb").bytes,
        b"aaa\nNEW\nbbb\nbbb\nccc\n"
    );
    // Both readings of each land as meant.
    assert_eq!(
        edit(file, "PUT 2:\n+bbb\n+bbb\n+NEW").unwrap().bytes,
        b"aaa\nbbb\nbbb\nNEW\nccc\n"
    );
    assert_eq!(
        edit(file, "PUT 2:\n+NEW\n+bbb\n+bbb").unwrap().bytes,
        b"aaa\nNEW\nbbb\nbbb\nccc\n"
    );
}

#[test]
fn echoes_of_several_rows_blank_rows_and_closers() {
    // Several rows (oh-my-pi's case 32).
    assert_eq!(
        suspected(
            "// one\n// two\nold();\n",
            "PUT 3:\n+// one\n+// two\n+new();"
        ),
        [Suspicion::Echo(Echo {
            op: crate::plan::OpRef {
                line: 2,
                header: "PUT 3:".into()
            },
            edge: Edge::First,
            first: 1,
            rows: 2,
            adjacent: true,
        })]
    );
    // Blank rows and closers repeat their neighbours by nature.
    assert!(edit("a\n\nb\n", "PUT >2:\n+\n+x").is_ok());
    assert!(edit("f() {\n}\n}\n", "PUT >2:\n+}").is_ok());
    assert!(edit("a\nend\n", "PUT <2:\n+x\n+end").is_ok());
}

#[test]
fn a_replacement_aimed_one_line_off_is_refused_with_the_aimed_op() {
    let file = "fn f() {\n    let total = 0;\n    let count = items.len();\n    total\n}\n";
    // Meant for line 3, sent to line 2: line 3 would stay, line 2 be lost.
    let message = refused(file, "PUT 2:\n+    let count = items.len() + 1;");
    assert!(
        message.starts_with(
            "f.go: PUT 2: (document line 2): the last body row reads as an edited copy of line 3 just \
             below the range, which stays, more than of any line it replaces (line 2): written as \
             sent, line 3 would keep its old text and line 2 would be overwritten. Nothing was \
             written.\n"
        ),
        "{message}"
    );
    assert!(
        message.contains(
            "if the range is off by one, aim it at the lines the rows edit:\ntry: PUT 3:\n\
             +    let count = items.len() + 1;\n"
        ),
        "{message}"
    );
    // Sent to line 4 instead: the first row copies line 3 above.
    let message = refused(file, "PUT 4:\n+    let count = items.len() + 1;");
    assert!(message.contains("try: PUT 3:\n"), "{message}");
    // Aimed right: the row resembles the line it replaces.
    assert!(edit(file, "PUT 3:\n+    let count = items.len() + 1;").is_ok());
    // One line too many: the row edits line 2 and line 3 is deleted. Real
    // edits do that all the time (a line deleted next to an edited one),
    // so it is written as sent.
    assert!(edit(file, "PUT 2.=3:\n+    let total = 1;").is_ok());
    // One line short: the last row edits line 3, which would stay.
    let message = refused(
        file,
        "PUT 2:\n+    let total = 1;\n+    let count = items.len() + 1;",
    );
    assert!(
        message.contains(
            "if the range is one line short, include the line the row edits:\ntry: PUT 2.=3:\n"
        ),
        "{message}"
    );
    // A deletion written with its kept neighbour retyped is meant.
    assert!(edit(file, "PUT 2.=3:\n+    let total = 0;").is_ok());
    // Replacing two unlike lines with one new line is an ordinary edit.
    assert!(edit(file, "PUT 2.=3:\n+    let sum: u32 = items.iter().sum();").is_ok());
    // Short rows like a closing brace never count.
    assert!(edit("a();\n}\nlet x = 1;\n", "PUT 3:\n+};").is_ok());
}

#[test]
fn lines_merged_into_the_rows_are_not_dropped() {
    // Two use lines merged into one; an argument inlined: the deleted
    // line's words live on in the row (false alarms of the old warning on
    // real edits).
    let file = "use std::io::Read;\nuse std::io::Write;\nfn main() {}\n";
    assert!(edit(file, "PUT 1.=2:\n+use std::io::{Read, Write};").is_ok());
    let file = "    let width = 80;\n    println!(\"{}\", width);\n";
    assert!(edit(file, "PUT 1.=2:\n+    println!(\"{}\", 80 /* width */);").is_ok());
}

#[test]
fn placeholder_comments_standing_in_for_lines_are_refused() {
    let file = "fn f() {\n    a();\n    b();\n    c();\n}\n";
    let message = refused(
        file,
        "PUT 1.=5:\n+fn f() {\n+    // ... existing code ...\n+    d();\n+}",
    );
    assert!(
        message.starts_with(
            "f.go: PUT 1.=5: (document line 2): body row 2 (// ... existing code ...) is a placeholder \
             for lines, not code: written as sent, the lines it stands for would be deleted and the \
             placeholder stored in their place."
        ),
        "{message}"
    );
    // A placeholder the lines already hold is a real comment.
    let file = "x = 1\n# ...\ny = 2\n";
    assert!(edit_as("f.py", file, "PUT 1.=2:\n+x = 3\n+# ...").is_ok());
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
        suspected(file, "PUT 2:\n+    let a = 2")[0].to_string(),
        "PUT 2: (document line 2): body row 1 indents with spaces, but the lines around it indent with \
         tabs; write the rows with the file's indentation (the live snapshot below shows it)"
    );
    assert_eq!(
        suspected(file, "PUT 2:\n+    let a = 2"),
        [Suspicion::Indentation(IndentMismatch {
            op: crate::plan::OpRef {
                line: 2,
                header: "PUT 2:".into()
            },
            row: 1,
            file: Indent::Tabs,
        })]
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
    assert!(matches!(err.failure, EditFailure::Refused(_)));
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
    assert!(matches!(err.failure, EditFailure::Refused(_)));
    // A tab-separated table is data: a leading tab is an empty field.
    let tsv = "a  b\n  c\n";
    assert!(edit_as("t.tsv", tsv, "PUT >2:\n+\tc\td").is_ok());
    // The same rows in a source file are refused.
    let err = edit_as("m.py", makefile, recipe).unwrap_err();
    assert!(matches!(err.failure, EditFailure::Refused(_)));
    assert!(
        err.failure.to_string().starts_with(
            "PUT >$: (document line 2): body row 2 indents with tabs, but the lines around it \
             indent with spaces;"
        ),
        "{}",
        err.failure
    );
}

#[test]
fn a_diff_pasted_as_a_body_is_repaired_when_its_minus_rows_are_the_replaced_lines() {
    let file = "a\nold one\nold two\nd\n";
    let out = edit(file, "PUT 2.=3:\n-old one\n-old two\n+new one\n+new two").unwrap();
    assert_eq!(out.bytes, b"a\nnew one\nnew two\nd\n");
    assert_eq!(
        said(&out),
        [
            "PUT 2.=3: (document line 2): the - rows restate lines 2-3, which the op replaces, as a \
          diff shows them; they were left out (body rows start with +, and only the new lines are \
          written)"
        ]
    );
    // Trailing whitespace aside, as tags ignore it.
    assert!(edit(file, "PUT 2:\n-old one  \n+new").is_ok());
    // `-` rows that are not the replaced lines: refused as the parser
    // would, with the op without them and a live snapshot.
    let error = edit(file, "PUT 2.=3:\n-old one\n-something else\n+new").unwrap_err();
    assert!(matches!(error.failure, EditFailure::UnverifiedPaste(_)));
    let tag = TagScheme::Rho.tag_of(file.as_bytes());
    assert_eq!(
        error.to_string(),
        format!(
            "f.go: edit document line 3: diff '-' rows are not part of the format: delete lines with \
             CUT N.=M, or write '+-…' for a line that starts with '-'\n  3 | -old one\ntry:\n  \
             PUT 2.=3:\n  +new\nNothing was written.\n\nLive snapshot (copy this header and these \
             line numbers to retry):\n[f.go#{tag}]\n1:a\n2:old one\n3:old two\n4:d"
        )
    );
    // Fewer `-` rows than replaced lines prove nothing either.
    let err = edit(file, "PUT 2.=3:\n-old one\n+new").unwrap_err();
    assert!(matches!(err.failure, EditFailure::UnverifiedPaste(_)));
    assert_eq!(
        err.failure.to_string(),
        "edit document line 3: diff '-' rows are not part of the format: delete lines with CUT \
         N.=M, or write '+-…' for a line that starts with '-'\n  3 | -old one\ntry:\n  PUT \
         2.=3:\n  +new\nNothing was written."
    );
}

#[test]
fn rows_pasted_with_their_read_numbers_are_repaired_when_they_number_the_replaced_lines() {
    let file = "a\nb\nc\nd\n";
    let out = edit(file, "PUT 2.=3:\n+2:B\n+3:C").unwrap();
    assert_eq!(out.bytes, b"a\nB\nC\nd\n");
    assert_eq!(
        said(&out),
        [
            "PUT 2.=3: (document line 2): every row started with its number as a read shows lines \
          2-3 (N:text); the numbers were left out (a + row holds only the line's text; if the lines \
          really begin with those numbers, send the document again with force set, which writes rows \
          exactly as sent)"
        ]
    );
    // More rows than lines: the numbers are not the replaced lines'.
    let error = edit(file, "PUT 2.=3:\n+2:B\n+3:C\n+4:X").unwrap_err();
    assert!(matches!(error.failure, EditFailure::UnverifiedPaste(_)));
    assert!(
        error.to_string().contains(
            "send the same document again with force set: force writes every row exactly as sent"
        ),
        "{error}"
    );
    // With force, they are written as sent: a row that starts with its own
    // number can always be written.
    assert_eq!(
        forced_as("f.go", file, "PUT 2.=3:\n+2:B\n+3:C").bytes,
        b"a\n2:B\n3:C\nd\n"
    );
}

#[test]
fn numbered_rows_of_an_insert_are_refused_with_both_spellings_and_written_under_force() {
    // opencrabs #573: the refusal offered force, and force was refused too
    // (the parser refused numbered inserts before force was known).
    let file = "a\nb\n";
    let error = edit(file, "PUT >1:\n+2:x").unwrap_err();
    let text = error.to_string();
    assert!(
        matches!(error.failure, EditFailure::UnverifiedPaste(_)),
        "{text}"
    );
    assert!(text.contains("try:\n  PUT >1:\n  +x\n"), "{text}");
    assert!(
        text.contains("send the same document again with force set: force writes every row exactly as sent, numbers included"),
        "{text}"
    );
    assert_eq!(
        forced_as("f.txt", file, "PUT >1:\n+2:x").bytes,
        b"a\n2:x\nb\n"
    );
    assert_eq!(
        forced_as("f.txt", file, "PUT >$:\n+3:x\n+4:y").bytes,
        b"a\nb\n3:x\n4:y\n"
    );
}

#[test]
fn a_file_whose_lines_start_with_their_numbers_keeps_numbered_rows_literal() {
    // opencrabs #573: line 2's real text is `2:b`; replacing it with `2:c`
    // must write `2:c`, not `c`.
    let file = "1:a\n2:b\n3:c\n";
    assert_eq!(
        edit(file, "PUT 2:\n+2:c").unwrap().bytes,
        b"1:a\n2:c\n3:c\n"
    );
    let out = edit(file, "PUT 2:\n+2:c").unwrap();
    assert!(out.advice.is_empty(), "{:?}", out.advice);
}

#[test]
fn a_row_repeating_the_line_past_one_another_op_deletes_is_an_echo() {
    // Two lines swapped as "insert B before A, delete B", with the CUT one
    // line off: it deletes A, and the inserted B sits on top of B.
    let file = "x();\nalpha_line();\nbeta_line();\ny();\n";
    let suspicions = suspected(file, "PUT >1:\n+beta_line();\nCUT 2");
    assert_eq!(
        suspicions,
        [Suspicion::Echo(Echo {
            op: crate::plan::OpRef {
                line: 2,
                header: "PUT >1:".into()
            },
            edge: Edge::Last,
            first: 3,
            rows: 1,
            adjacent: false,
        })]
    );
    // Only the drop reading: a widened range would overlap the CUT.
    let message = refused(file, "PUT >1:\n+beta_line();\nCUT 2");
    assert!(message.contains("leave them out: drop the op"), "{message}");
    assert!(!message.contains("widened range"), "{message}");
    // The swap as meant is no echo.
    assert_eq!(
        edit(file, "PUT >1:\n+beta_line();\nCUT 3").unwrap().bytes,
        b"x();\nbeta_line();\nalpha_line();\ny();\n"
    );
    // A block whose last row is its own last line retyped, the block above
    // ending the same way (an HTML section replaced whole): not short.
    let file =
        "<main>\n  <section id=\"a\">\n  </section>\n  <section id=\"b\">\n  </section>\n</main>\n";
    assert_eq!(
        edit(file, "PUT 4.=5:\n+  <section id=\"c\">\n+  </section>").unwrap().bytes,
        b"<main>\n  <section id=\"a\">\n  </section>\n  <section id=\"c\">\n  </section>\n</main>\n"
    );
}

#[test]
fn eof_adds_or_removes_the_final_newline() {
    let out = edit("a\nb", "EOF NEWLINE").unwrap();
    assert_eq!(out.bytes, b"a\nb\n");
    assert_eq!(
        out.summary,
        "EOF NEWLINE (the last line ends with a line break)"
    );
    assert_eq!(edit("a\nb\n", "EOF NO NEWLINE").unwrap().bytes, b"a\nb");
    // With other ops; the added break is the file's own ending.
    assert_eq!(
        edit("a\r\nb", "PUT 2:\n+B\nEOF NEWLINE").unwrap().bytes,
        b"a\r\nB\r\n"
    );
    assert_eq!(
        edit("a\r\nb\r\n", "EOF NO NEWLINE").unwrap().bytes,
        b"a\r\nb"
    );
    assert_eq!(
        edit("\u{feff}a", "EOF NEWLINE").unwrap().bytes,
        "\u{feff}a\n".as_bytes()
    );
    // Already so: the section changes nothing and is refused.
    assert!(matches!(
        edit("a\n", "EOF NEWLINE").unwrap_err().failure,
        EditFailure::Refused(_)
    ));
    // No last line to end, and an empty last line that would vanish.
    let error = edit("a\n", "CUT 1\nEOF NEWLINE").unwrap_err();
    assert_eq!(
        error.failure.to_string(),
        "EOF NEWLINE (document line 3): the file would have no lines, so there is no last line to \
         end; add rows (PUT >$:) first; nothing was written"
    );
    let error = edit("a\n\n", "EOF NO NEWLINE").unwrap_err();
    assert_eq!(
        error.failure.to_string(),
        "EOF NO NEWLINE (document line 2): the last line is empty, so removing its line break would \
         remove the line; CUT it instead; nothing was written"
    );
}

#[test]
fn a_row_that_copies_its_neighbour_with_the_arguments_swapped_is_a_shift() {
    // Meant for line 2, sent to line 1: the same words in another order
    // edit line 2 whatever the characters' alignment says.
    let file = "let first_value = compute(alpha);\nlet t = TypeVar(\"Name\", bound=Type[Base]);\n";
    let message = refused(
        file,
        "PUT 1:\n+let t = TypeVar(bound=Type[Base], \"Name\");",
    );
    assert!(message.contains("try: PUT 2:\n"), "{message}");
}

#[test]
fn rows_mixing_both_styles_are_the_authors_own_indentation() {
    // Real edit (immer 10.1.x): a tab-indented row followed by rows aligned
    // with spaces, among tab-indented lines. A model re-typing indentation
    // converts every row; a mix is what the author wrote.
    let file = "function f() {\n\tif (x) {\n\t\tg()\n\t}\n}\n";
    assert!(
        edit_as(
            "f.ts",
            file,
            "PUT 3:\n+\t\th({\n+                a: 1,\n+\t\t})"
        )
        .is_ok()
    );
    // Every row in the other style is still refused.
    let err = edit_as("f.ts", file, "PUT 3:\n+        h()").unwrap_err();
    assert!(matches!(err.failure, EditFailure::Refused(_)));
    assert!(
        err.failure.to_string().starts_with(
            "PUT 3: (document line 2): body row 1 indents with spaces, but the lines around it \
             indent with tabs;"
        ),
        "{}",
        err.failure
    );
}

#[test]
fn rows_that_lost_their_indentation_are_refused_with_the_rows_reindented() {
    let file = "fn f() {\n    let a = 1;\n    let b = 2;\n}\n";
    let message = refused(file, "PUT 2:\n+let a = 3;");
    assert!(
        message.starts_with(
            "f.go: PUT 2: (document line 2): no body row is indented, but the lines it replaces and the \
             lines around it are (with 4 spaces): written as sent, the rows would land at the top \
             level inside an indented block. Nothing was written."
        ),
        "{message}"
    );
    assert!(
        message.contains("try: PUT 2:\n+    let a = 3;\n"),
        "{message}"
    );
    // An insert between indented lines.
    assert!(refused(file, "PUT >2:\n+let c = 4;").contains("try: PUT >2:\n+    let c = 4;"));
    // Top-level code, and rows that keep some indentation, are fine.
    assert!(edit("a();\nb();\n", "PUT 1:\n+c();").is_ok());
    assert!(edit(file, "PUT 2:\n+    let a = 3;").is_ok());
    // A block dedented with its header in the range is a real refactor.
    let file = "x();\nif (y) {\n    z();\n}\n";
    assert!(edit(file, "PUT 2.=4:\n+z();").is_ok());
    // A lone closer between indented lines closes a block (immer's
    // finalize.ts, a real edit): plain rows carry no indentation evidence.
    let file = "\tif (a) {\n\t\treturn\n\t}\n\n\tif (b) {\n";
    assert_eq!(
        edit(file, "PUT >3:\n+}").unwrap().bytes,
        b"\tif (a) {\n\t\treturn\n\t}\n}\n\n\tif (b) {\n"
    );
}

#[test]
fn rows_that_lost_their_indentation_inside_a_block_with_unindented_edges_are_refused() {
    // The whole body of a block replaced one for one, between its opener
    // and its closer: the neighbours are not indented, the block is.
    let file = "fn f() {\n    let a = 1;\n    let b = 2;\n}\n";
    let message = refused(file, "PUT 2.=3:\n+let a = 3;\n+let b = 2;");
    assert!(
        message.starts_with(
            "f.go: PUT 2.=3: (document line 2): no body row is indented, but the lines it replaces, \
             which the rows edit one for one, are (with 4 spaces): written as sent"
        ),
        "{message}"
    );
    assert!(
        message.contains("try: PUT 2.=3:\n+    let a = 3;\n+    let b = 2;\n"),
        "{message}"
    );
    // An insert right after the opener, before the block's first line.
    let message = refused(file, "PUT >1:\n+let c = 0;");
    assert!(
        message.starts_with(
            "f.go: PUT >1: (document line 2): no body row is indented, but it goes into the block \
             the line above opens, whose lines are (with 4 spaces)"
        ),
        "{message}"
    );
    assert!(
        message.contains("try: PUT >1:\n+    let c = 0;\n"),
        "{message}"
    );
    // Real edit (itertools 0.12 peeking_take_while.rs): a continuation line
    // of a macro call dedented, after a line that opens nothing, at the end
    // of the file. Written as sent.
    let file =
        "peeking_next_by_clone! { [I: Clone]\n                         ::std::iter::Rev<I> }\n";
    assert_eq!(
        edit(file, "PUT 2:\n+::std::iter::Rev<I> }").unwrap().bytes,
        b"peeking_next_by_clone! { [I: Clone]\n::std::iter::Rev<I> }\n"
    );
}

#[test]
fn two_lines_swapped_in_a_one_line_range_are_refused_with_the_range_widened() {
    let file = "x();\nalpha_line();\nbeta_line();\ny();\n";
    let message = refused(file, "PUT 2:\n+beta_line();\n+alpha_line();");
    assert!(
        message.starts_with(
            "f.go: PUT 2: (document line 2): the first body row repeats line 3 just below the range, \
             which stays: written as sent, the file would hold line 3 twice. Nothing was written."
        ),
        "{message}"
    );
    assert!(
        message.contains("try: PUT 2.=3:\n+beta_line();\n+alpha_line();\n"),
        "{message}"
    );
    assert_eq!(
        edit(file, "PUT 2.=3:\n+beta_line();\n+alpha_line();")
            .unwrap()
            .bytes,
        b"x();\nbeta_line();\nalpha_line();\ny();\n"
    );
    // A block whose last row is its own last line retyped, the block above
    // ending the same way (an HTML section replaced whole): not short.
    let file =
        "<main>\n  <section id=\"a\">\n  </section>\n  <section id=\"b\">\n  </section>\n</main>\n";
    assert_eq!(
        edit(file, "PUT 4.=5:\n+  <section id=\"c\">\n+  </section>").unwrap().bytes,
        b"<main>\n  <section id=\"a\">\n  </section>\n  <section id=\"c\">\n  </section>\n</main>\n"
    );
}

#[test]
fn a_range_one_line_too_long_over_a_blank_line_is_refused_with_the_range_shortened() {
    let file = "fn f() {\n    let total = 1;\n\n    let count = 2;\n}\n";
    let message = refused(file, "PUT 3.=4:\n+    let count = 3;");
    assert!(
        message.starts_with(
            "f.go: PUT 3.=4: (document line 2): the body rows edit line 4, one for one, and nothing \
             replaces line 3, which is blank: written as sent, the blank line would be deleted. \
             Nothing was written."
        ),
        "{message}"
    );
    assert!(
        message.contains(
            "if the blank line should stay, leave it out of the range:\ntry: PUT 4:\n+    let count = 3;\n"
        ),
        "{message}"
    );
    // The blank line at the range's end is read the same way.
    assert!(
        refused(file, "PUT 2.=3:\n+    let total = 5;")
            .contains("try: PUT 2:\n+    let total = 5;")
    );
    // Rows that retype the other lines delete the blank line on purpose,
    // trailing whitespace aside (itertools' free.rs, a real edit).
    assert_eq!(
        edit("a();\n\nlet b = 1; \n", "PUT 2.=3:\n+let b = 1;")
            .unwrap()
            .bytes,
        b"a();\nlet b = 1;\n"
    );
    // Rows that are not close edits of their lines are a rewrite.
    assert!(edit(file, "PUT 3.=4:\n+    return compute_everything();").is_ok());
    // Forced, it is written as sent with the finding as a warning.
    let out = forced_as("f.go", file, "PUT 3.=4:\n+    let count = 3;");
    assert_eq!(
        out.bytes,
        b"fn f() {\n    let total = 1;\n    let count = 3;\n}\n"
    );
}

#[test]
fn a_no_op_only_once_unnumbered_says_force_writes_the_numbers() {
    // Second break-it pass: line 3 of a file is `c`; `PUT 3:` `+3:c` was
    // refused as a no-op that force "still leaves as it is", though force
    // writes `3:c` as sent.
    let file = "a\nb\nc\n";
    let tag = TagScheme::Rho.tag_of(file.as_bytes());
    assert_eq!(
        refused(file, "PUT 3:\n+3:c"),
        format!(
            "f.go: PUT 3: (document line 2): every row starts with its number as a read shows line 3 \
             (N:text); read as pasted numbers and left out, the rows equal the lines they replace, so \
             the ops leave the file exactly as it is. If those lines really begin with the numbers, \
             the rows are right as sent. Nothing was written.\n\
             It would have written (post-edit lines):\n2:b\n3:c\n\
             If the document is right as it is, send it again with force set to write it exactly as \
             sent.\n\
             \n\
             Live snapshot (copy this header and these line numbers to retry):\n\
             [f.go#{tag}]\n1:a\n2:b\n3:c"
        )
    );
    let out = forced_as("f.go", file, "PUT 3:\n+3:c");
    assert_eq!(out.bytes, b"a\nb\n3:c\n");
}

#[test]
fn a_no_op_refusal_says_what_force_would_do() {
    let file = "a\nb\n";
    let tag = TagScheme::Rho.tag_of(file.as_bytes());
    assert_eq!(
        refused(file, "PUT 1:\n+a"),
        format!(
            "f.go: the ops leave the file exactly as it is (each body equals the lines it replaces), \
             so they cannot be the change you meant; check their line numbers and rows against the \
             live snapshot. Nothing was written.\n\
             Sent again with force set, the document still leaves this file as it is; that only \
             lets its other sections, if any, be written without this one.\n\
             \n\
             Live snapshot (copy this header and these line numbers to retry):\n\
             [f.go#{tag}]\n1:a\n2:b"
        )
    );
}

#[test]
fn a_tag_of_the_other_scheme_is_named_as_such() {
    // Second break-it pass: a snapshot read under rho, edited under omp,
    // was "stale: it changed since that snapshot, or the tag was mistyped".
    let file = "a\nb\n";
    let omp = TagScheme::Omp.tag_of(file.as_bytes());
    let rho = TagScheme::Rho.tag_of(file.as_bytes());
    let doc = parse(&format!("[f.go#{omp}]\nPUT 1:\n+x\n")).unwrap();
    let input = FileInput {
        section: &doc.sections[0],
        display: "f.go",
        result_display: "f.go",
        bytes: file.as_bytes(),
    };
    let settings = EditSettings::new(TagScheme::Rho);
    let error = edit_file(&input, &settings, &NoHistory, &mut Registers::default()).unwrap_err();
    assert_eq!(
        error.failure,
        EditFailure::OtherSchemeTag {
            expected: omp,
            live: rho,
            other: TagScheme::Omp
        }
    );
    assert!(
        error.to_string().starts_with(&format!(
            "f.go: snapshot tag {omp} is this file's tag under the omp tag scheme, but this hashedit \
             tags with rho (the file's tag is {rho}): the snapshot came from a tool using the other \
             scheme; nothing was written. Retry with the header and line numbers of the live snapshot \
             below, or run hashedit with --tag-scheme omp to match that tool"
        )),
        "{error}"
    );
}

#[test]
fn a_new_key_beside_its_sibling_is_not_a_shift() {
    // Issue 23's real edit: a new object key written on the line after
    // the kept key it parallels, with the line it replaces edited too.
    let file = "const fixes = {\n  addUFlag: (node) => fixer.insertTextAfter(node, \"u\"),\n  \
                removeFlag: (node) => fixer.remove(node),\n};\n";
    let out = edit_as(
        "fixes.js",
        file,
        "PUT 3:\n+  addVFlag: (node) => fixer.insertTextAfter(node, \"v\"),\n+  removeFlag: \
         (node, flag) => fixer.remove(node, flag),",
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out.bytes.clone()).unwrap(),
        "const fixes = {\n  addUFlag: (node) => fixer.insertTextAfter(node, \"u\"),\n  addVFlag: \
         (node) => fixer.insertTextAfter(node, \"v\"),\n  removeFlag: (node, flag) => \
         fixer.remove(node, flag),\n};\n"
    );
    assert_eq!(said(&out), Vec::<String>::new());
}

#[test]
fn a_typedef_replacing_the_line_below_its_sibling_is_not_a_shift() {
    // Issue 23's other real edit: two `@typedef {import(…)} X` lines.
    let file = "/**\n * @typedef {import('./compiler/types').ParseOptions} ParseOptions\n * @param \
                {string} source\n */\n";
    let out = edit_as(
        "types.js",
        file,
        "PUT 3:\n+ * @typedef {import('./compiler/types').ParseResult} ParseResult",
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out.bytes.clone()).unwrap(),
        "/**\n * @typedef {import('./compiler/types').ParseOptions} ParseOptions\n * @typedef \
         {import('./compiler/types').ParseResult} ParseResult\n */\n"
    );
    assert_eq!(said(&out), Vec::<String>::new());
}

#[test]
fn an_edited_value_of_the_key_above_is_still_a_shift() {
    // The same neighbour with its value edited, sent one line low: the
    // kept key would keep its old value.
    let file =
        "const limits = {\n  maxRetries: retries(30),\n  onFailure: (error) => log(error),\n};\n";
    let message = refused(file, "PUT 3:\n+  maxRetries: retries(31),");
    assert_eq!(
        message.lines().next().unwrap(),
        "f.go: PUT 3: (document line 2): the first body row reads as an edited copy of line 2 just \
         above the range, which stays, more than of any line it replaces (line 3): written as sent, \
         line 2 would keep its old text and line 3 would be overwritten. Nothing was written."
    );
    assert!(
        message.contains("try: PUT 2:\n+  maxRetries: retries(31),"),
        "{message}"
    );
}
