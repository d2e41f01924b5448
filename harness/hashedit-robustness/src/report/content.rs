//! The content-addressed tables: per mistake kind every engine side by
//! side, then each engine's counts.

use std::fmt::Write as _;

use crate::content::ReplaceMistake;
use crate::content_bench::ReplaceResults;
use crate::score::Outcome;

use super::outcome_shares;

/// Per mistake and engine: applied as intended · refused · applied
/// wrongly (a count, bold when not zero); `–` where the engine's form
/// cannot carry the mistake. For a kind whose right answer is a refusal,
/// "ok" counts nothing written.
pub fn replace_summary(results: &ReplaceResults) -> String {
    let mut out = String::new();
    let mut head = "| mistake | variants |".to_string();
    let mut rule = "|---|---:|".to_string();
    for name in &results.engines {
        let _ = write!(head, " {name}: ok · refused · wrong |");
        rule.push_str("---|");
    }
    let _ = writeln!(out, "{head}\n{rule}");
    for mistake in ReplaceMistake::ALL {
        let Some(&made) = results.variants.get(&mistake) else {
            continue;
        };
        let mut row = format!("| {} | {made} |", mistake.name());
        for e in 0..results.engines.len() {
            let c = results.counts(mistake, e);
            let n: usize = c.values().sum();
            if n == 0 {
                row.push_str(" – |");
            } else {
                let _ = write!(row, " {} ({n}) |", outcome_shares(&c));
            }
        }
        let _ = writeln!(out, "{row}");
    }
    out
}

/// One engine's counts: every outcome per mistake kind.
pub fn replace_detail(results: &ReplaceResults, engine: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| mistake | sent | applied as intended | refused, actionable | refused, not actionable | wrong, warned | wrong, silent |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
    let mut totals = [0usize; 5];
    for mistake in ReplaceMistake::ALL {
        let c = results.counts(mistake, engine);
        let n: usize = c.values().sum();
        if n == 0 {
            continue;
        }
        let mut row = format!("| {} | {n} |", mistake.name());
        for (i, outcome) in Outcome::ALL.iter().enumerate() {
            totals[i] += c[outcome];
            let _ = write!(row, " {} |", c[outcome]);
        }
        let _ = writeln!(out, "{row}");
    }
    let n: usize = totals.iter().sum();
    let _ = writeln!(
        out,
        "| **all** | {n} | {} | {} | {} | {} | {} |",
        totals[0], totals[1], totals[2], totals[3], totals[4]
    );
    out
}
