use super::*;

#[test]
fn todays_warnings_get_names() {
    let echo = "warning: src/a.rs: PUT 3 (document line 2): the first body row repeats line 2, which \
                stays in the file; they are written twice as sent.";
    assert_eq!(warning_label(echo), "echo");
    let shift = "warning: a.rs: PUT 4 (document line 2): the first body row reads as an edited copy \
                 of line 3 just above the range";
    assert_eq!(warning_label(shift), "shift");
    let long = "warning: a.rs: PUT 4.=5 (document line 2): the body rows are edits of line 4, in \
                order, and nothing replaces line 5, so it is deleted";
    assert_eq!(warning_label(long), "range-too-long");
    let dup =
        "warning: document line 4: PUT 3: repeats document line 2 exactly; it was applied once";
    assert_eq!(warning_label(dup), "duplicate-op");
}

#[test]
fn refusals_keep_precise_kinds_and_refine_the_rest() {
    assert_eq!(
        refusal_label(Some("stale_tag"), "src/a.rs: snapshot tag 1A2B is stale"),
        "stale_tag"
    );
    let fence = "edit document line 1: the document is wrapped in a Markdown code fence (this line \
                 and line 5)";
    assert_eq!(
        refusal_label(Some("parse_error"), fence),
        "parse_error: code-fence"
    );
    assert_eq!(
        refusal_label(
            Some("parse_error"),
            "edit document line 3: PUT needs at least one + body row"
        ),
        "parse_error: PUT needs at least one +"
    );
    assert_eq!(
        refusal_label(None, "Unknown op 'FOO' at 12"),
        "Unknown op … at N"
    );
}

#[test]
fn a_refusal_names_every_finding_of_its_first_line() {
    let message = "a.rs: PUT 3: (document line 2): the first body row repeats line 2, which \
                   stays in the file: written as sent, the file would hold it twice. Also, the \
                   file parses now, and written as sent it would have a syntax error near line \
                   4. Nothing was written.\nIt would have written:\n3:fn echo() {}";
    let labels: Vec<String> = Signal::refusals(Some("echoed_rows"), message)
        .iter()
        .map(Signal::describe)
        .collect();
    assert_eq!(labels, ["refused: echoed_rows", "refused: broken_syntax"]);
    let odd = "a.rs: PUT 3: (document line 2): the first body row repeats line 2. Also, a \
               strange thing on line 9. Nothing was written.";
    let labels: Vec<String> = Signal::refusals(Some("echoed_rows"), odd)
        .iter()
        .map(Signal::describe)
        .collect();
    assert_eq!(
        labels,
        [
            "refused: echoed_rows",
            "refused: also: a strange thing on line N"
        ]
    );
    assert_eq!(
        Signal::refusals(None, "tag mismatch\n1:a").len(),
        1,
        "one finding, one signal"
    );
}

#[test]
fn unknown_messages_fall_back_to_their_first_words() {
    assert_eq!(
        first_words("warning: lib/x.py: PUT 10.=12 (document line 7): rows 3-4 look odd; check"),
        "rows N-N look odd; check"
    );
    assert_eq!(first_words("note: \n"), "(empty message)");
    let s = Signal::refusal(Some("suspect_edit"), "a.rs: the body elides lines 4-9");
    assert_eq!(
        s.describe(),
        "refused: suspect_edit: the body elides lines N-N"
    );
    let s = Signal::refusal(None, "Edit rejected for src/a/b.py: file changed");
    assert_eq!(
        s.describe(),
        "refused: Edit rejected for PATH: file changed"
    );
    // Code quoted in the message, or below its first line, never names it.
    let s = Signal::refusal(
        None,
        "row '// ... existing code ...' bad\n1:// a placeholder",
    );
    assert_eq!(s.describe(), "refused: row … bad");
    assert_eq!(Signal::warning_of_kind("echo").describe(), "warned: echo");
}
