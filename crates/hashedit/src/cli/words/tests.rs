use super::*;

#[test]
fn prose_lines_take_cli_names() {
    assert_eq!(
        cli_words("src/a.rs is a file, not a directory; read it with read_file"),
        "src/a.rs is a file, not a directory; read it with read"
    );
    assert_eq!(
        cli_words("x does not exist; check the path with glob or list_dir"),
        "x does not exist; check the path with glob or ls"
    );
    assert_eq!(
        cli_words(
            "[f.txt#1A2B]\n1:a\n\n[lines 1-1 of 9 shown; pass offset/limit to read the rest]"
        ),
        "[f.txt#1A2B]\n1:a\n\n[lines 1-1 of 9 shown; pass --offset/--limit to read the rest]"
    );
    assert_eq!(
        cli_words("1 file cut at max_per_file; raise max_per_file or narrow the pattern"),
        "1 file cut at --max-per-file; raise --max-per-file or narrow the pattern"
    );
}

#[test]
fn content_lines_stay_exact() {
    let text = "[a.py#1A2B]\n3:read_file(x)\n4 | list_dir()\n+read_file\ntry: PUT 2:\n  2 | max_results\n-list_dir\n";
    assert_eq!(cli_words(text), text);
    // Part of a longer word: not a name.
    assert_eq!(cli_words("my_read_file_x"), "my_read_file_x");
    assert_eq!(
        cli_words("files_cut_by_max_per_file"),
        "files_cut_by_max_per_file"
    );
}

#[test]
fn grep_dialect_notes_name_the_literal_flag() {
    assert_eq!(
        cli_words(
            "note: in this regex syntax (Rust's) \\| matches a literal '|', it is not alternation as in \
             grep's basic syntax; for either side write 'a|b', or set literal for the text as written"
        ),
        "note: in this regex syntax (Rust's) \\| matches a literal '|', it is not alternation as in \
         grep's basic syntax; for either side write 'a|b', or pass -F for the text as written"
    );
    assert_eq!(
        cli_words(
            "note: 'a || b' has an empty alternative (as in '||' or a leading or trailing '|'), which \
             matches every line; for either side write 'a|b', or set literal to search for the text as written"
        ),
        "note: 'a || b' has an empty alternative (as in '||' or a leading or trailing '|'), which \
         matches every line; for either side write 'a|b', or pass -F to search for the text as written"
    );
}

#[test]
fn read_window_errors_name_the_read_flags() {
    assert_eq!(
        cli_words("offset starts at 1 (line numbers are 1-based)"),
        "--offset starts at 1 (line numbers are 1-based)"
    );
    assert_eq!(
        cli_words("limit must be at least 1 row"),
        "--limit must be at least 1 row"
    );
    assert_eq!(
        cli_words("big.txt: offset 300000 is beyond the last line: the file has 200000 lines"),
        "big.txt: --offset 300000 is beyond the last line: the file has 200000 lines"
    );
    assert_eq!(
        cli_words("offset 5 is beyond the last line: the file has 2 lines"),
        "--offset 5 is beyond the last line: the file has 2 lines"
    );
    assert_eq!(
        cli_words("[4 of 5 lines shown; pass offset/limit to read_file for the rest]"),
        "[4 of 5 lines shown; run read with --offset/--limit for the rest]"
    );
    // Other offsets are byte offsets, not the flag.
    assert_eq!(
        cli_words(
            "a.bin is not valid UTF-8 (first invalid byte at offset 3); read_file shows UTF-8 text only"
        ),
        "a.bin is not valid UTF-8 (first invalid byte at offset 3); read shows UTF-8 text only"
    );
    assert_eq!(
        cli_words("setoffset 5 is beyond the last line"),
        "setoffset 5 is beyond the last line"
    );
}

#[test]
fn the_second_break_it_pass_finds_no_mcp_words_in_write_and_image_lines() {
    // `write --tag 0000` of a changed file said "write again with tag 147A".
    assert_eq!(
        cli_words(
            "p.py: snapshot tag 0000 is stale: the file's tag is now 147A (…); nothing was written. \
             Check the live snapshot below, then write again with tag 147A if you still mean to replace it:\n"
        ),
        "p.py: snapshot tag 0000 is stale: the file's tag is now 147A (…); nothing was written. \
         Check the live snapshot below, then write again with --tag 147A if you still mean to replace it:\n"
    );
    // The CLI never shows an image, so the budget clause is MCP's alone.
    assert_eq!(
        cli_words(
            "image/png image (9004832 bytes; not shown: 12006444 bytes as base64, over the output budget of \
             64000 bytes)"
        ),
        "image/png image (9004832 bytes)"
    );
    assert_eq!(
        cli_words("image/gif image (28 bytes)"),
        "image/gif image (28 bytes)"
    );
}

#[test]
fn an_empty_register_in_the_cli_says_the_cut_must_be_in_the_same_document() {
    // Second break-it pass: `CUT 1 @x` in one call, `PUT >$ @x` in the
    // next: "CUT … @x first", which the user had done.
    assert_eq!(
        cli_words(
            "a.txt: PUT >$ (document line 2): register @x holds nothing; no named register exists yet: \
             CUT … @x first. Nothing was written."
        ),
        "a.txt: PUT >$ (document line 2): register @x holds nothing; no named register exists yet: \
         CUT … @x first in the same document (the CLI keeps named registers only within one document; \
         an earlier command's cuts are gone). Nothing was written."
    );
}
