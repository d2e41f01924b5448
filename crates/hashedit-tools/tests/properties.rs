//! Property tests through the tools, on real files: every edit either lands
//! exactly as the reference model says or fails and leaves every file
//! byte-identical (issue 2 scope item 5 (c); FORMAT.md §5.8).

use std::fs;

use hashedit_tools::{EditArgs, EditMode, ToolContext, Workspace};
use proptest::prelude::*;

/// One random op over a file of up to `n` lines, valid or not: numbers
/// may be 0 or past the end, ranges may overlap, rows may lack `+`.
fn op_text() -> impl Strategy<Value = String> {
    let line = 0usize..9;
    let row = prop_oneof![
        "\\+[a-z ]{0,4}",
        "[a-z]{1,3}",
        Just("+".to_string()),
        Just(String::new())
    ];
    let rows = proptest::collection::vec(row, 0..3).prop_map(|r| r.join("\n"));
    prop_oneof![
        (line.clone(), rows.clone()).prop_map(|(n, r)| format!("PUT {n}:\n{r}")),
        (line.clone(), line.clone(), rows.clone())
            .prop_map(|(a, b, r)| format!("PUT {a}.={b}:\n{r}")),
        (line.clone(), rows.clone()).prop_map(|(n, r)| format!("PUT <{n}:\n{r}")),
        (line.clone(), rows.clone()).prop_map(|(n, r)| format!("PUT >{n}:\n{r}")),
        rows.prop_map(|r| format!("PUT >$:\n{r}")),
        (line.clone(), line).prop_map(|(a, b)| format!("CUT {a}.={b}")),
    ]
}

fn file_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(("[a-c]{0,2}", prop_oneof![Just("\n"), Just("\r\n")]), 0..8)
        .prop_map(|lines| lines.into_iter().map(|(t, e)| format!("{t}{e}")).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn failing_documents_leave_every_file_identical(
        a in file_text(),
        b in file_text(),
        ops_a in proptest::collection::vec(op_text(), 1..4),
        ops_b in proptest::collection::vec(op_text(), 0..3),
        stale_b in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("a.txt"), &a).unwrap();
        fs::write(dir.path().join("b.txt"), &b).unwrap();
        let ws = Workspace::new(dir.path()).unwrap();
        let cx = ToolContext::new(&ws);
        let tag = |s: &str| hashedit_core::TagScheme::Rho.tag_of(s.as_bytes()).to_string();
        let mut doc = format!("[a.txt#{}]\n{}\n", tag(&a), ops_a.join("\n"));
        if !ops_b.is_empty() {
            let tb = if stale_b { "0000".to_string() } else { tag(&b) };
            doc.push_str(&format!("[b.txt#{tb}]\n{}\n", ops_b.join("\n")));
        }
        let result = hashedit_tools::edit(&cx, &EditArgs::new(doc.clone()), EditMode::Apply);
        let after_a = fs::read_to_string(dir.path().join("a.txt")).unwrap();
        let after_b = fs::read_to_string(dir.path().join("b.txt")).unwrap();
        match result {
            Err(_) => {
                prop_assert_eq!(&after_a, &a, "a.txt changed by a failing edit:\n{}", doc);
                prop_assert_eq!(&after_b, &b, "b.txt changed by a failing edit:\n{}", doc);
            }
            Ok(out) => {
                // The reply's preview tag is the tag of what is on disk.
                prop_assert!(out.text.contains(&format!("[a.txt#{}]", tag(&after_a))), "{}", out.text);
                if ops_b.is_empty() {
                    prop_assert_eq!(&after_b, &b);
                }
            }
        }
        // No temp or backup file is ever left behind.
        let names: Vec<String> = fs::read_dir(dir.path()).unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        prop_assert_eq!(names.len(), 2, "{:?}", names);
    }
}
