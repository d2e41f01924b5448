use super::*;

#[test]
fn an_edit_spans_only_what_changed() {
    let edit = input_edit("fn a() {}\nfn b() {}\n", "fn a() {}\nfn bc() {}\n");
    assert_eq!(edit.start_byte, 14);
    assert_eq!(edit.old_end_byte, 14);
    assert_eq!(edit.new_end_byte, 15);
    assert_eq!(edit.start_position, Point { row: 1, column: 4 });
    assert_eq!(edit.old_end_position, Point { row: 1, column: 4 });
    assert_eq!(edit.new_end_position, Point { row: 1, column: 5 });
}

#[test]
fn an_edit_across_lines_counts_rows_and_columns() {
    let edit = input_edit("a\nb\nc\n", "a\nxx\nyy\nc\n");
    assert_eq!(
        (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
        (2, 3, 7)
    );
    assert_eq!(edit.start_position, Point { row: 1, column: 0 });
    assert_eq!(edit.old_end_position, Point { row: 1, column: 1 });
    assert_eq!(edit.new_end_position, Point { row: 2, column: 2 });
}

#[test]
fn an_edit_never_splits_a_character() {
    // "é" and "è" share their first byte (0xC3): the change starts before it.
    let edit = input_edit("aé", "aè");
    assert_eq!(
        (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
        (1, 3, 3)
    );
    let edit = input_edit("éa", "èa");
    assert_eq!(
        (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
        (0, 2, 2)
    );
}

#[test]
fn identical_and_appended_texts() {
    let edit = input_edit("abc", "abc");
    assert_eq!(
        (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
        (3, 3, 3)
    );
    let edit = input_edit("abc", "abcd");
    assert_eq!(
        (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
        (3, 3, 4)
    );
    let edit = input_edit("aaaa", "aa");
    assert_eq!(
        (edit.start_byte, edit.old_end_byte, edit.new_end_byte),
        (2, 4, 2)
    );
}
