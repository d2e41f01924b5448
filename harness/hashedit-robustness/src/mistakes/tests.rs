use super::*;
use crate::mutate::{Lang, Mutation};

fn task(original: &str, target: &str) -> Task {
    let original = Lines::parse(original);
    let target = Lines::parse(target);
    let hunks = crate::hunks::diff(&original, &target);
    Task {
        index: 0,
        path: "a.rs".into(),
        lang: Lang::Rust,
        mutation: Mutation::OperatorSwap,
        description: String::new(),
        original,
        target,
        hunks,
    }
}

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn every_mistake_keeps_its_promise() {
    let original = numbered(20);
    let target = original
        .replace("line 10\n", "LINE 10\n")
        .replace("line 15\n", "");
    let t = task(&original, &target);
    for mistake in Mistake::ALL {
        for seed in 0..20 {
            let Some(v) = variant(&t, mistake, &mut Rng::new(seed)) else {
                continue;
            };
            assert_eq!(v.mistake, mistake);
            // Every variant but a drift means exactly the target.
            if !matches!(mistake, Mistake::StaleDrift | Mistake::StaleWhitespace) {
                assert_eq!(v.intended, t.target, "{}", mistake.name());
                assert_eq!(v.live, t.original);
            } else {
                assert_ne!(v.live, t.original);
            }
        }
    }
}

#[test]
fn off_by_one_never_equals_the_target() {
    let t = task(&numbered(12), &numbered(12).replace("line 6\n", "six\n"));
    for seed in 0..50 {
        let v = variant(&t, Mistake::OffByOne, &mut Rng::new(seed)).unwrap();
        assert_ne!(v.doc.ops[0].header, "PUT 6:");
    }
}

#[test]
fn drift_intends_the_edit_on_the_drifted_file() {
    let t = task(
        &numbered(30),
        &numbered(30).replace("line 20\n", "twenty\n"),
    );
    for seed in 0..30 {
        let v = variant(&t, Mistake::StaleDrift, &mut Rng::new(seed)).unwrap();
        let text = v.intended.text();
        assert!(text.contains("twenty\n") && !text.contains("line 20\n"));
        assert_eq!(v.intended.len() as isize - v.live.len() as isize, 0);
    }
}

#[test]
fn literal_readings() {
    let t = task(&numbered(12), &numbered(12).replace("line 6\n", "six\n"));
    let wrong = |m| variant(&t, m, &mut Rng::new(1)).map(|v| v.literal_is_wrong());
    assert_eq!(wrong(Mistake::Oracle), Some(Some(false)));
    assert_eq!(wrong(Mistake::WidenedRange), Some(Some(false)));
    assert_eq!(wrong(Mistake::OffByOne), Some(Some(true)));
    assert_eq!(wrong(Mistake::EchoNeighbour), Some(Some(true)));
    assert_eq!(wrong(Mistake::PastedPrefixPlus), Some(Some(true)));
    assert_eq!(wrong(Mistake::MissingPlus), Some(None));
    assert_eq!(wrong(Mistake::CodeFence), Some(None));
    assert_eq!(wrong(Mistake::PutDotColon), Some(None));
}

#[test]
fn widened_ranges_retype_kept_lines() {
    let t = task(&numbered(12), &numbered(12).replace("line 6\n", "six\n"));
    let v = variant(&t, Mistake::WidenedRange, &mut Rng::new(1)).unwrap();
    let rows = &v.doc.ops[0].rows;
    assert!(rows.contains(&"+six".to_string()) && rows.len() >= 2);
}
