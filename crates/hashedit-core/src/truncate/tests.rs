use super::*;

#[test]
fn cuts_at_char_boundaries() {
    assert_eq!(truncate_to_budget("abcdef".into(), 10), "abcdef");
    assert_eq!(truncate_to_budget("abcdef".into(), 3), "abc\n[truncated]");
    assert_eq!(truncate_to_budget("aé".into(), 2), "a\n[truncated]");
}

#[test]
fn truncates_chars() {
    // Rho's pinned case 54.
    assert_eq!(truncate_chars("🦀🦀🦀🦀", 2), "🦀🦀…");
    assert_eq!(truncate_chars("ab", 2), "ab");
    let long = "x".repeat(221);
    assert_eq!(truncate_chars(&long, 200).chars().count(), 201);
}

#[test]
fn never_cuts_a_snapshot_header() {
    // Break-it pass: `--max-output-bytes 10` printed `[big.txt#8`.
    let text = "[big.txt#89B2]\n1:1\n2:2".to_string();
    assert_eq!(
        truncate_to_budget(text.clone(), 10),
        "[big.txt#89B2]\n[truncated]"
    );
    assert_eq!(truncate_to_budget(text, 15), "[big.txt#89B2]\n[truncated]");
    // A later header cut in half is left out whole.
    let two = "[a#0001]\n1:x\n[b#0002]\n1:y".to_string();
    assert_eq!(truncate_to_budget(two, 15), "[a#0001]\n1:x\n[truncated]");
    // Prose before the first header is cut as before; the header stays whole.
    let write = "created w.txt\n\n[w.txt#1234]\n1:a".to_string();
    assert_eq!(truncate_to_budget(write.clone(), 5), "creat\n[truncated]");
    assert_eq!(
        truncate_to_budget(write, 20),
        "created w.txt\n\n[w.txt#1234]\n[truncated]"
    );
}

#[test]
fn recognises_snapshot_headers() {
    assert!(is_snapshot_header("[a.txt#89B2]"));
    assert!(is_snapshot_header("[dir/a#b.txt#89b2]"));
    assert!(!is_snapshot_header("[a.txt#89B]"));
    assert!(!is_snapshot_header("[#89B2]"));
    assert!(!is_snapshot_header("[lines 1-6 of 100 shown]"));
}
