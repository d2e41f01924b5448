use super::*;

fn edit(lang: Lang, changed: usize, counts: &[(Payload, usize)]) -> EditTokens {
    EditTokens {
        describe: format!("{} edit of {changed}", lang.name()),
        lang,
        changed,
        counts: counts.iter().map(|&(p, n)| (p, [n, n + 1])).collect(),
        guard: None,
    }
}

fn run() -> TokenRun {
    TokenRun {
        edits: vec![
            edit(
                Lang::Rust,
                2,
                &[
                    (Payload::PutCut, 30),
                    (Payload::Cheapest, 20),
                    (Payload::StrReplace, 40),
                ],
            ),
            edit(
                Lang::Python,
                50,
                &[
                    (Payload::PutCut, 300),
                    (Payload::Cheapest, 300),
                    (Payload::StrReplace, 100),
                ],
            ),
        ],
        ..TokenRun::default()
    }
}

#[test]
fn quantiles_are_nearest_rank() {
    assert_eq!(quantile(&mut [5, 1, 3, 2], 0.5), 2);
    assert_eq!(quantile(&mut [5, 1, 3, 2], 0.9), 5);
    assert_eq!(quantile(&mut [], 0.5), 0);
    assert_eq!(thousands(1234567), "1,234,567");
    assert_eq!(thousands(12), "12");
}

#[test]
fn ratios_per_edit_and_of_totals() {
    let table = token_ratios(&run());
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[2],
        "| **cheapest line-addressed** (PUT/CUT, SUB or mixed) | 2 | 0.50 | 3.00 | 3.00 | 1 | 2.29 |"
    );
    assert_eq!(
        lines[3],
        "| PUT/CUT document | 2 | 0.75 | 3.00 | 3.00 | 1 | 2.36 |"
    );
    let worst = worst_ratios(&run(), 1);
    assert_eq!(
        worst.lines().nth(2),
        Some("| python edit of 50 | 50 | 300 | 300 | 100 | 3.00 |")
    );
    let json = token_json(&run());
    assert_eq!(json["best_line_addressed_vs_str_replace"]["over_2x"], 1);
    assert_eq!(json["payloads"]["put_cut"]["cl100k"]["total"], 332);
}

#[test]
fn groups_by_size_and_language() {
    let sizes = token_by_size(&run());
    assert!(
        sizes
            .contains("| 1–2 lines | 1 | 30 / 30 / 30 | 20 / 20 / 20 | 40 / 40 / 40 | 0 / 0 / 0 |"),
        "{sizes}"
    );
    assert!(sizes.contains("| 21–100 lines | 1 |"), "{sizes}");
    assert!(!sizes.contains("3–6"), "{sizes}");
    let langs = token_by_language(&run());
    assert!(
        langs.contains("| python | 1 | 300 / 300 / 300 |"),
        "{langs}"
    );
}
