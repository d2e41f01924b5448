use super::*;

#[test]
fn diff_of_one_changed_line() {
    assert_eq!(
        unified_diff("f.txt", b"a\nb\nc\n", b"a\nB\nc\n"),
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    );
    assert_eq!(unified_diff("f.txt", b"a\n", b"a\n"), "");
}
