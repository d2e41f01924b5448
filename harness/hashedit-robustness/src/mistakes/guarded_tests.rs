//! The kinds added for issue 13's guards: exact documents, and their
//! literal results differ from the target.

use super::*;
use crate::mutate::{Lang, Mutation};

fn task(lang: Lang, original: &str, target: &str) -> Task {
    let original = Lines::parse(original);
    let target = Lines::parse(target);
    let hunks = crate::hunks::diff(&original, &target);
    Task {
        index: 0,
        path: "a.rs".into(),
        lang,
        mutation: Mutation::OperatorSwap,
        description: String::new(),
        original,
        target,
        hunks,
    }
}

/// The ops of `mistake`'s variant as text, its form, and whether its
/// literal result is wrong.
fn made(t: &Task, mistake: Mistake, seed: u64) -> Option<(String, &'static str, Option<bool>)> {
    let v = variant(t, mistake, &mut Rng::new(seed))?;
    assert_eq!(v.intended, t.target);
    let ops = v
        .doc
        .ops
        .iter()
        .flat_map(|op| std::iter::once(op.header.clone()).chain(op.rows.iter().cloned()))
        .collect::<Vec<_>>()
        .join("\n");
    Some((ops, v.form, v.literal_is_wrong()))
}

const BLOCK: &str = "fn f() {\n    let a = 1;\n    let b = 2;\n}\n";

#[test]
fn echoes_at_both_edges_and_of_the_closer() {
    let t = task(Lang::Rust, BLOCK, &BLOCK.replace("b = 2", "b = 20"));
    assert_eq!(
        made(&t, Mistake::EchoBothEdges, 1).unwrap(),
        (
            "PUT 3:\n+    let a = 1;\n+    let b = 20;\n+}".to_string(),
            "replace",
            Some(true)
        )
    );
    assert_eq!(
        made(&t, Mistake::EchoedCloser, 1).unwrap(),
        (
            "PUT 3:\n+    let b = 20;\n+}".to_string(),
            "brace",
            Some(true)
        )
    );
    // The line below line 2 is not a closer.
    let t = task(Lang::Rust, BLOCK, &BLOCK.replace("a = 1", "a = 10"));
    assert_eq!(made(&t, Mistake::EchoedCloser, 1), None);
}

#[test]
fn inserts_restate_their_anchor_on_either_side() {
    let t = task(Lang::Rust, "a\nb\nc\n", "a\nb\nx\nc\n");
    let mut seen: Vec<(String, &str)> = (0..20)
        .filter_map(|seed| made(&t, Mistake::EchoInInsert, seed))
        .map(|(ops, form, wrong)| {
            assert_eq!(wrong, Some(true));
            (ops, form)
        })
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(
        seen,
        [
            ("PUT <3:\n+x\n+c".to_string(), "before-last-row"),
            ("PUT >2:\n+b\n+x".to_string(), "after-first-row"),
        ]
    );
    // No insert, no variant.
    let t = task(Lang::Rust, BLOCK, &BLOCK.replace("a = 1", "a = 10"));
    assert_eq!(made(&t, Mistake::EchoInInsert, 1), None);
}

#[test]
fn dropped_indentation_strips_every_body_row() {
    let t = task(
        Lang::Rust,
        BLOCK,
        &BLOCK.replace("    let b = 2;\n", "    let b = 2;\n\tlet c = 3;\n"),
    );
    assert_eq!(
        made(&t, Mistake::DroppedIndentation, 1).unwrap(),
        ("PUT >3:\n+let c = 3;".to_string(), "all-bodies", Some(true))
    );
    let flat = task(Lang::Rust, "a\nb\n", "a\nB\n");
    assert_eq!(made(&flat, Mistake::DroppedIndentation, 1), None);
}

#[test]
fn elision_keeps_the_window_edges_and_hides_kept_lines() {
    let original: String = (1..=12).map(|i| format!("  line {i}\n")).collect();
    let t = task(
        Lang::Python,
        &original,
        &original.replace("line 6\n", "six\n"),
    );
    assert_eq!(
        made(&t, Mistake::ElisionPlaceholder, 3).unwrap(),
        (
            "PUT 5.=10:\n+  line 5\n+  six\n+  # ... rest unchanged ...\n+  line 10".to_string(),
            "rest-unchanged",
            Some(true)
        )
    );
    let t = task(
        Lang::Rust,
        &original,
        &original.replace("line 6\n", "six\n"),
    );
    let (ops, form, wrong) = made(&t, Mistake::ElisionPlaceholder, 1).unwrap();
    assert_eq!(
        (ops.as_str(), form, wrong),
        (
            "PUT 2.=7:\n+  line 2\n+  /* … */\n+  six\n+  line 7",
            "block-ellipsis",
            Some(true)
        )
    );
}

#[test]
fn a_short_range_leaves_the_last_line() {
    let t = task(
        Lang::Rust,
        BLOCK,
        &BLOCK.replace("1;\n    let b = 2", "10;\n    let b = 20"),
    );
    assert_eq!(
        made(&t, Mistake::RangeOneShort, 1).unwrap(),
        (
            "PUT 2:\n+    let a = 10;\n+    let b = 20;".to_string(),
            "last-line",
            Some(true)
        )
    );
    // A single-line replacement has no shorter range.
    let t = task(Lang::Rust, BLOCK, &BLOCK.replace("a = 1", "a = 10"));
    assert_eq!(made(&t, Mistake::RangeOneShort, 1), None);
}

#[test]
fn hunks_without_a_long_replacement_merge_into_one_short_range() {
    // Two lines swapped: Myers writes a deletion and an insert.
    let t = task(Lang::Rust, "a\nb\nc\nd\n", "a\nc\nb\nd\n");
    assert_eq!(
        made(&t, Mistake::RangeOneShort, 1).unwrap(),
        ("PUT 2:\n+c\n+b".to_string(), "merged-last-line", Some(true))
    );
}

#[test]
fn a_deletion_task_read_backwards_gives_an_insert_to_echo() {
    let t = task(Lang::Rust, "a\nb\nx\nc\n", "a\nb\nc\n");
    let v = variant(&t, Mistake::EchoInInsert, &mut Rng::new(1)).unwrap();
    assert_eq!(
        (v.served.text(), v.live.text()),
        ("a\nb\nc\n".into(), "a\nb\nc\n".into())
    );
    assert_eq!(v.intended.text(), "a\nb\nx\nc\n");
    let ops: Vec<&str> = v
        .doc
        .ops
        .iter()
        .flat_map(|o| std::iter::once(o.header.as_str()).chain(o.rows.iter().map(String::as_str)))
        .collect();
    assert_eq!(
        (ops, v.form),
        (vec!["PUT <3:", "+x", "+c"], "before-last-row")
    );
    assert_eq!(v.literal_is_wrong(), Some(true));
}
