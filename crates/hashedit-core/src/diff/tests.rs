use super::*;

#[test]
fn diff_of_one_changed_line() {
    assert_eq!(
        unified_diff("f.txt", b"a\nb\nc\n", b"a\nB\nc\n"),
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    );
    assert_eq!(unified_diff("f.txt", b"a\n", b"a\n"), "");
}

#[test]
fn a_lone_cr_is_content_not_a_line_end() {
    // Two lines in the line model ("a\rb" and "c"): the hunk says 2, and
    // the CR stays inside its line (the diff was malformed: 3 lines).
    assert_eq!(
        unified_diff("cr.txt", b"a\rb\nc\n", b"a\rb\nC\n"),
        "--- a/cr.txt\n+++ b/cr.txt\n@@ -1,2 +1,2 @@\n a\rb\n-c\n+C\n"
    );
    // No final newline: the marker still follows the last line.
    assert_eq!(
        unified_diff("f", b"x\ry", b"x\rz"),
        "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\ry\n\\ No newline at end of file\n+x\rz\n\\ No newline at end of file\n"
    );
}

#[test]
fn moved_and_deleted_files_are_headed_as_git_heads_them() {
    assert_eq!(
        unified_diff_between(
            DiffSide::Path("a.txt"),
            DiffSide::Path("b/new.txt"),
            b"x\n",
            b"y\n"
        ),
        "--- a/a.txt\n+++ b/b/new.txt\n@@ -1 +1 @@\n-x\n+y\n"
    );
    assert_eq!(
        unified_diff_between(DiffSide::Path("g.txt"), DiffSide::Absent, b"x\n", b""),
        "--- a/g.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    );
}

#[test]
fn texts_without_a_lone_cr_are_diffed_as_they_are() {
    // CRLF lines end at their LF and keep their CR.
    assert_eq!(
        unified_diff("w.txt", b"a\r\nb\r\n", b"a\r\nB\r\n"),
        "--- a/w.txt\n+++ b/w.txt\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n"
    );
    // The stand-in character is plain content when no CR needs hiding.
    assert_eq!(
        unified_diff(
            "n.txt",
            "x\u{FDD0}\ny\n".as_bytes(),
            "x\u{FDD0}\nz\n".as_bytes()
        ),
        "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n x\u{FDD0}\n-y\n+z\n"
    );
    // Invalid UTF-8 is shown lossily on both sides.
    assert_eq!(
        unified_diff("b.txt", b"\xff\nq\n", b"\xff\nr\n"),
        "--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n \u{FFFD}\n-q\n+r\n"
    );
}
