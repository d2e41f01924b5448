//! `SUB` ops through the whole edit (FORMAT.md §5.9): what they write,
//! byte for byte, and what a miss says.

use crate::parse::parse;
use crate::{
    EditSettings, FailureClass, FileEdit, FileEditError, FileInput, NoHistory, Registers,
    TagScheme, edit_file,
};

/// Applies `ops` under the live header of `file` (as `f.txt`).
fn edit(file: &str, ops: &str) -> Result<FileEdit, Box<FileEditError>> {
    let tag = TagScheme::Rho.tag_of(file.as_bytes());
    let doc = parse(&format!("[f.txt#{tag}]\n{ops}")).unwrap();
    let input = FileInput {
        section: &doc.sections[0],
        display: "f.txt",
        result_display: "f.txt",
        bytes: file.as_bytes(),
    };
    edit_file(
        &input,
        &EditSettings::new(TagScheme::Rho),
        &NoHistory,
        &mut Registers::default(),
    )
}

/// The new file of `ops` on `file`.
fn written(file: &str, ops: &str) -> String {
    let edit = edit(file, ops).unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8(edit.bytes).unwrap()
}

/// The error of `ops` on `file`: its class and its text.
fn missed(file: &str, ops: &str) -> (FailureClass, String) {
    let error = edit(file, ops).unwrap_err();
    (error.failure.class(), error.to_string())
}

const FILE: &str = "fn a() {\n    if (count > 10) {\n        go();\n    }\n}\n";

#[test]
fn old_text_inside_a_line_is_replaced_and_the_rest_of_the_line_kept() {
    assert_eq!(
        written(FILE, "SUB 2:\n-count > 10\n+count >= 10\n"),
        "fn a() {\n    if (count >= 10) {\n        go();\n    }\n}\n"
    );
    // Range spellings as PUT takes them, and the whole file.
    for locator in ["SUB 1.=3:", "SUB 1-3:", "SUB 1..3:", "SUB:"] {
        assert_eq!(
            written(FILE, &format!("{locator}\n-> 10\n+>= 10\n")),
            "fn a() {\n    if (count >= 10) {\n        go();\n    }\n}\n",
            "{locator}"
        );
    }
}

#[test]
fn several_old_rows_span_lines_and_keep_the_text_around_them() {
    assert_eq!(
        written(
            FILE,
            "SUB 2.=4:\n-go();\n-    }\n+stop();\n+        go();\n+    }\n"
        ),
        "fn a() {\n    if (count > 10) {\n        stop();\n        go();\n    }\n}\n"
    );
    // Old text ending on a line break joins the next line to the rows.
    assert_eq!(
        written(FILE, "SUB:\n-{\n-        go();\n+{ go();\n"),
        "fn a() {\n    if (count > 10) { go();\n    }\n}\n"
    );
}

#[test]
fn no_new_rows_delete_the_old_text_and_whole_lines_it_spans() {
    assert_eq!(
        written(FILE, "SUB 2:\n- > 10\n"),
        "fn a() {\n    if (count) {\n        go();\n    }\n}\n"
    );
    let edit = edit(FILE, "SUB 3:\n-        go();\n").unwrap();
    assert_eq!(
        String::from_utf8(edit.bytes).unwrap(),
        "fn a() {\n    if (count > 10) {\n    }\n}\n"
    );
    assert_eq!(edit.summary, "SUB 3: (found on line 3: 1 → 0 lines)");
    // A lone + row writes an empty line instead.
    assert_eq!(
        written(FILE, "SUB 3:\n-        go();\n+\n"),
        "fn a() {\n    if (count > 10) {\n\n    }\n}\n"
    );
}

#[test]
fn crlf_lines_match_without_their_endings_and_keep_them() {
    let file = "a\r\nbb\r\ncc\r\n";
    assert_eq!(written(file, "SUB 2.=3:\n-bb\n-cc\n+x\n"), "a\r\nx\r\n");
    assert_eq!(written(file, "SUB 2.=3:\n-b\n-c\n+-\n"), "a\r\nb-c\r\n");
    assert_eq!(
        written(file, "SUB 1:\n-a\n+a1\n+a2\n"),
        "a1\r\na2\r\nbb\r\ncc\r\n"
    );
}

#[test]
fn a_byte_order_mark_stays_and_is_not_text_to_match() {
    let file = "\u{FEFF}one\ntwo\n";
    assert_eq!(written(file, "SUB 1:\n-one\n+ONE\n"), "\u{FEFF}ONE\ntwo\n");
    assert_eq!(
        missed(file, "SUB 1:\n-\u{FEFF}one\n+ONE\n").0,
        FailureClass::NoMatch
    );
}

#[test]
fn old_text_not_found_names_the_nearest_near_match_and_the_difference() {
    let (class, text) = missed(FILE, "SUB 2:\n-count >= 10\n+count > 11\n");
    assert_eq!(class, FailureClass::NoMatch);
    assert_eq!(
        text,
        "f.txt: SUB 2: (document line 2): the old text is not in line 2; the nearest near-match \
         is on line 2, where the old text has \"count >= 10\" and the file has \"count > 10\". A \
         SUB matches its - rows exactly: copy them from the live snapshot below; nothing was \
         written\n\nLive snapshot (copy this header and these line numbers to retry):\n\
         [f.txt#9D9B]\n1:fn a() {\n2:    if (count > 10) {\n3:        go();\n4:    }\n\n\
         [4 of 5 lines shown; pass offset/limit to read_file for the rest]"
    );
    // Whitespace is matched exactly too.
    let (_, text) = missed(FILE, "SUB 3:\n-\tgo();\n+\tstop();\n");
    assert!(
        text.contains(
            "the nearest near-match is on line 3, where the old text has \"\\tgo();\" and the \
             file has \"        go();\""
        ),
        "{text}"
    );
    let (_, text) = missed(FILE, "SUB 1.=2:\n-zzzzzzzz\n+y\n");
    assert!(
        text.contains("the old text is not in lines 1-2, and nothing in the file comes near it."),
        "{text}"
    );
}

#[test]
fn whole_lines_restated_one_line_off_are_refused_naming_where_they_are() {
    // The verified replace: the - rows restate lines 2-3.
    assert_eq!(
        written(
            FILE,
            "SUB 2.=3:\n-    if (count > 10) {\n-        go();\n+    if (ready) {\n+        run();\n"
        ),
        "fn a() {\n    if (ready) {\n        run();\n    }\n}\n"
    );
    // The same rows under a range one line off: refused, not written.
    let (class, text) = missed(
        FILE,
        "SUB 3.=4:\n-    if (count > 10) {\n-        go();\n+    if (ready) {\n+        run();\n",
    );
    assert_eq!(class, FailureClass::NoMatch);
    assert_eq!(
        text,
        "f.txt: SUB 3.=4: (document line 2): the old text is not in lines 3-4; it is on lines \
         2-3, outside the lines searched (SUB 2.=3: names them, if that is the text you meant); \
         nothing was written\n\nLive snapshot (copy this header and these line numbers to \
         retry):\n[f.txt#9D9B]\n1:fn a() {\n2:    if (count > 10) {\n3:        go();\n4:    }\n\
         5:}"
    );
}

#[test]
fn old_text_found_more_than_once_is_refused_listing_each_line() {
    let (class, text) = missed(FILE, "SUB:\n-    \n+  \n");
    assert_eq!(class, FailureClass::AmbiguousMatch);
    assert_eq!(
        text,
        "f.txt: SUB: (document line 2): the old text occurs 7 times in the file, starting on \
         lines 2, 3, 4; a SUB replaces one occurrence: give a locator holding only the one you \
         mean (SUB N: or SUB N.=M:), or more of its text; nothing was written\n\nLive snapshot \
         (copy this header and these line numbers to retry):\n[f.txt#9D9B]\n1:fn a() {\n2:    \
         if (count > 10) {\n3:        go();\n4:    }\n5:}"
    );
    // A narrower locator picks one.
    assert_eq!(
        written(FILE, "SUB 4:\n-    \n+  \n"),
        "fn a() {\n    if (count > 10) {\n        go();\n  }\n}\n"
    );
}

#[test]
fn occurrences_on_one_line_ask_for_more_text_not_a_locator() {
    let (class, text) = missed("a = [1, 1];\n", "SUB 1:\n-1\n+2\n");
    assert_eq!(class, FailureClass::AmbiguousMatch);
    assert!(
        text.starts_with(
            "f.txt: SUB 1: (document line 2): the old text occurs 2 times, all on line 1; a SUB \
             replaces one occurrence: give more of its text, enough to hold only the one you mean; \
             nothing was written"
        ),
        "{text}"
    );
}

#[test]
fn sub_mixes_with_put_and_cut_on_the_original_lines() {
    let edit = edit(
        FILE,
        "SUB 2:\n-count\n+total\nCUT 3\nPUT >5:\n+// end\nPUT <1:\n+// start\n",
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(edit.bytes.clone()).unwrap(),
        "// start\nfn a() {\n    if (total > 10) {\n    }\n}\n// end\n"
    );
    assert!(
        edit.preview
            .starts_with(&format!("[f.txt#{}]\n", TagScheme::Rho.tag_of(&edit.bytes))),
        "{}",
        edit.preview
    );
    // Two ops on one line: refused as an overlap, nothing written.
    let (class, _) = missed(FILE, "SUB 2:\n-count\n+total\nPUT 2:\n+x\n");
    assert_eq!(class, FailureClass::OverlappingOps);
    // A SUB whose match reaches a line another op cuts overlaps it too.
    let (class, _) = missed(FILE, "SUB 2.=3:\n-{\n-  \n+{\nCUT 3\n");
    assert_eq!(class, FailureClass::OverlappingOps);
}

#[test]
fn a_locator_past_the_end_is_out_of_range() {
    let (class, text) = missed(FILE, "SUB 4.=9:\n-}\n+]\n");
    assert_eq!(class, FailureClass::LineOutOfRange);
    assert!(
        text.starts_with(
            "f.txt: SUB 4.=9: (document line 2) names line 9, but the file has 5 lines; nothing \
             was written"
        ),
        "{text}"
    );
    assert_eq!(missed("", "SUB:\n-a\n+b\n").0, FailureClass::NoMatch);
}

#[test]
fn sub_documents_that_do_not_parse_say_why() {
    let error = |doc: &str| parse(doc).unwrap_err().to_string();
    assert_eq!(
        error("[f#1A2B]\nSUB 2\n-a\n+b\n"),
        "edit document line 2: SUB ends with ':' and is followed by - rows (the old text) and + \
         rows (the new text): SUB N:, SUB N.=M:, or SUB: to search the whole file\n  2 | SUB 2\n\
         try: SUB 2:"
    );
    assert_eq!(
        error("[f#1A2B]\nSUB 2:\n+b\n"),
        "edit document line 2: SUB needs its old text as - rows right after the header (at \
         least one character; several - rows span lines), then the new text as + rows\n  2 | SUB 2:"
    );
    assert_eq!(
        error("[f#1A2B]\nSUB:\n-\n+b\n"),
        "edit document line 2: SUB needs its old text as - rows right after the header (at \
         least one character; several - rows span lines), then the new text as + rows\n  2 | SUB:"
    );
    assert_eq!(
        error("[f#1A2B]\nSUB 2:\n-a\n+b\n-c\n"),
        "edit document line 5: a SUB's - rows (the old text) all come before its + rows (the \
         new text)\n  5 | -c"
    );
    assert_eq!(
        error("[f#1A2B]\nSUB <2:\n-a\n+b\n"),
        "edit document line 2: expected a line number (digits)\n  2 | SUB <2:"
    );
}

#[test]
fn the_guards_of_a_ranges_aim_leave_a_sub_alone() {
    let file = "a\nb\nc\n";
    // As PUT, the last row repeats line 3 below the range: an echo.
    assert_eq!(missed(file, "PUT 2:\n+b\n+c\n").0, FailureClass::EchoedRows);
    // As SUB, line 2 was found by its text: the rows are meant.
    assert_eq!(written(file, "SUB 2:\n-b\n+b\n+c\n"), "a\nb\nc\nc\n");
    // The guards that look at the rows themselves still speak.
    let (class, _) = missed(
        "fn a() {\n    x();\n}\n",
        "SUB 2:\n-    x();\n+\tx();\n+\ty();\n",
    );
    assert_eq!(class, FailureClass::IndentationMismatch);
}

#[test]
fn a_sub_in_a_long_line_previews_the_line_around_the_change_only() {
    let file = format!("{}needle{}\nz\n", "x".repeat(5000), "y".repeat(5000));
    let edit = edit(&file, "SUB 1:\n-needle\n+NEEDLE\n").unwrap();
    let line = format!("{}NEEDLE{}", "x".repeat(5000), "y".repeat(5000));
    assert_eq!(
        String::from_utf8(edit.bytes.clone()).unwrap(),
        format!("{line}\nz\n")
    );
    let tag = TagScheme::Rho.tag_of(&edit.bytes);
    assert_eq!(
        edit.preview,
        format!(
            "[f.txt#{tag}]\n…\n2:z\n\n[line 1 not shown: 10006 bytes long; read_file with offset: \
             1, limit: 1 shows it]\n[line 1 around the change: bytes 4881-5126 of its 10006]\n\
             {}NEEDLE{}",
            "x".repeat(120),
            "y".repeat(120)
        )
    );
}

#[test]
fn new_rows_numbered_as_a_read_prints_them_are_refused_unnumbered() {
    let (class, text) = missed("a\nfoo\nc\n", "SUB 2:\n-foo\n+2:bar\n");
    assert_eq!(class, FailureClass::ParseError);
    assert_eq!(
        text,
        "f.txt: edit document line 2: every body row starts with a line number, as copied from a \
         read (N:text), and the snapshot cannot confirm them as the replaced lines'; a + row holds \
         only the line's text, so rows copied from a read are written as below. If the text really \
         starts with those numbers, send the same document again with force set: force writes \
         every row exactly as sent, numbers included\n  2 | SUB 2:\ntry:\n  SUB 2:\n  -foo\n  \
         +bar\nNothing was written.\n\nLive snapshot (copy this header and these line numbers to \
         retry):\n[f.txt#6DA1]\n1:a\n2:foo\n3:c"
    );
    // Old text numbered too: the file's own text is numbered so.
    assert_eq!(
        written("1:x\n2:foo\n", "SUB 2:\n-2:foo\n+2:bar\n"),
        "1:x\n2:bar\n"
    );
    // One row numbered otherwise (a time, not the line's number) is text.
    assert_eq!(
        written("a\nfoo\nc\n", "SUB 2:\n-foo\n+12:30 standup\n"),
        "a\n12:30 standup\nc\n"
    );
}
