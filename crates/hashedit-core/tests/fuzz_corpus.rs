//! Every input kept in `fuzz/corpus/<target>/` runs through the property its
//! fuzz target checks (`fuzz/checks/mod.rs`), so a corpus input that once
//! failed stays a regression test under `cargo test`, without cargo-fuzz.

use std::path::{Path, PathBuf};

use hashedit_core::stages::{PlanError, lower, plan};
use hashedit_core::{Registers, Text, parse};

#[path = "../../../fuzz/checks/mod.rs"]
mod checks;

/// The inputs kept for `target`, sorted by file name, with their bytes.
fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries.map(|e| e.expect("corpus entry").path()).collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("corpus input");
            (path, bytes)
        })
        .collect()
}

/// Runs `check` on every kept input of `target`; returns how many ran.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let kept = inputs(target);
    for (path, bytes) in &kept {
        let outcome = std::panic::catch_unwind(|| check(bytes));
        assert!(outcome.is_ok(), "{} fails its property", path.display());
    }
    kept.len()
}

#[test]
fn parse_corpus_holds() {
    replay("parse", checks::parse);
}

#[test]
fn view_corpus_holds() {
    replay("view", checks::view);
}

#[test]
fn apply_corpus_holds_and_keeps_f01() {
    let ran = replay("apply", checks::apply);
    assert!(ran >= 1, "fuzz/corpus/apply lost its inputs (F01 at least)");
}

/// Handed case F01: the fuzzer's input whose `cut 1` sections would have
/// made line 2's leading U+FEFF the BOM of a file without one. Each of
/// those sections is refused as `LineWouldBecomeBom` naming line 2; the
/// sections that cut other lines plan, and keep the file BOM-less.
#[test]
fn f01_input_is_refused_naming_line_2() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus/apply/f01-content-became-bom");
    let data = std::fs::read(path).expect("F01 is kept in the corpus");
    let split = data
        .iter()
        .position(|&b| b == 0)
        .expect("file and document");
    let text = Text::decode(&data[..split]).expect("F01's file is text");
    assert!(!text.has_bom());
    let document = String::from_utf8_lossy(&data[split + 1..]);
    let parsed = parse(&document).expect("F01's document parses");
    let mut registers = Registers::default();
    let mut outcomes = Vec::new();
    for section in &parsed.sections {
        let Ok(lowered) = lower(section, "f.rs", &text, None, &mut registers) else {
            outcomes.push("not lowered".to_string());
            continue;
        };
        outcomes.push(match plan(&lowered.hunks, &text) {
            Err(PlanError::LineWouldBecomeBom { line, .. }) => format!("refused: line {line}"),
            Err(other) => format!("refused otherwise: {other}"),
            Ok(planned) => {
                let bytes = planned.apply(&text).bytes;
                let applied = Text::decode(&bytes).expect("an applied result is text");
                assert!(!applied.has_bom(), "a section gave the file a BOM");
                "planned".to_string()
            }
        });
    }
    assert_eq!(outcomes, EXPECTED_F01);
}

/// What each of F01's sections does, in order.
const EXPECTED_F01: [&str; 7] = [
    "planned",
    "planned",
    "planned",
    "refused: line 2",
    "planned",
    "planned",
    "refused: line 2",
];
