//! The tables: per mistake kind, every engine side by side; the real-edit
//! corpus per engine ([`real_summary`], [`real_detail`]); per guard,
//! what it prevented and what it stopped wrongly ([`guards`]); and the
//! token benchmark ([`token_summary`] and the tables after it).

use std::collections::BTreeMap;
use std::fmt::Write as _;

mod content;
mod guards;
mod real;
mod tokens;

pub use content::{replace_detail, replace_summary};
pub use guards::{GuardRow, guard_rows, guards};
pub use real::{real_detail, real_summary};
pub use tokens::{
    guard_kinds, long_line, token_by_language, token_by_size, token_checks, token_json,
    token_ratios, token_summary, worst_ratios,
};

use crate::bench::Results;
use crate::mistakes::Mistake;
use crate::score::Outcome;

fn pct(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "–".to_string();
    }
    let p = 100.0 * part as f64 / whole as f64;
    if part == whole {
        "100%".to_string()
    } else if part == 0 {
        "0%".to_string()
    } else if p >= 99.95 {
        // Never round a miss up to 100%.
        "99.9%".to_string()
    } else {
        format!("{p:.1}%")
    }
}

/// `ok% · refused% · wrong` of one cell's counts: the shares applied as
/// intended and refused, and the count applied wrongly (bold unless 0).
fn outcome_shares(c: &BTreeMap<Outcome, usize>) -> String {
    let n: usize = c.values().sum();
    let refused = c[&Outcome::RefusedActionable] + c[&Outcome::RefusedOther];
    let wrong = c[&Outcome::WrongWarned] + c[&Outcome::WrongSilent];
    let wrong = if wrong == 0 {
        "0".to_string()
    } else {
        format!("**{wrong}**")
    };
    format!(
        "{} · {} · {wrong}",
        pct(c[&Outcome::Intended], n),
        pct(refused, n)
    )
}

/// The summary table: for each mistake kind and engine, the share applied
/// as intended, refused (actionable + other) and the count applied wrongly.
pub fn summary(results: &Results) -> String {
    let mut out = String::new();
    let mut head = "| mistake | docs |".to_string();
    let mut rule = "|---|---:|".to_string();
    for name in &results.engines {
        let _ = write!(head, " {name}: ok · refused · wrong |");
        rule.push_str("---|");
    }
    let _ = writeln!(out, "{head}\n{rule}");
    for mistake in Mistake::ALL {
        let docs = results.payload.get(&mistake).map_or(0, |p| p.0);
        if docs == 0 {
            continue;
        }
        let mut row = format!("| {} | {docs} |", mistake.name());
        for e in 0..results.engines.len() {
            let _ = write!(row, " {} |", outcome_shares(&results.counts(mistake, e)));
        }
        let _ = writeln!(out, "{row}");
    }
    out
}

/// One engine's detailed table: every outcome as a count.
pub fn detail(results: &Results, engine: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| mistake | docs | applied as intended | (of which warned) | refused, actionable | refused, not actionable | wrong, warned | wrong, silent |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut totals = [0usize; 5];
    let mut warned_total = 0;
    for mistake in Mistake::ALL {
        let c = results.counts(mistake, engine);
        let n: usize = c.values().sum();
        if n == 0 {
            continue;
        }
        let mut row = format!("| {} | {n} |", mistake.name());
        let warned = results.intended_with_warnings(mistake, engine);
        warned_total += warned;
        for (i, outcome) in Outcome::ALL.iter().enumerate() {
            totals[i] += c[outcome];
            let _ = write!(row, " {} |", c[outcome]);
            if i == 0 {
                let _ = write!(row, " {warned} |");
            }
        }
        let _ = writeln!(out, "{row}");
    }
    let n: usize = totals.iter().sum();
    let _ = writeln!(
        out,
        "| **all** | {n} | {} | {warned_total} | {} | {} | {} | {} |",
        totals[0], totals[1], totals[2], totals[3], totals[4]
    );
    out
}

/// Payload size per mistake kind, as sent to the first engine.
pub fn payload(results: &Results) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| document | docs | mean bytes | mean tokens (o200k) |\n|---|---:|---:|---:|"
    );
    let mean = |sum: usize, n: usize| {
        if n == 0 { 0.0 } else { sum as f64 / n as f64 }
    };
    for mistake in Mistake::ALL {
        if let Some(&(n, bytes, toks)) = results.payload.get(&mistake) {
            let _ = writeln!(
                out,
                "| {} | {n} | {:.0} | {:.1} |",
                mistake.name(),
                mean(bytes, n),
                mean(toks, n)
            );
        }
    }
    let (n, bytes, toks) = results.whole_file;
    let _ = writeln!(
        out,
        "| *whole target file (a `write` instead)* | {n} | {:.0} | {:.1} |",
        mean(bytes, n),
        mean(toks, n)
    );
    out
}

/// The task mix: languages and mutations.
pub fn mix(results: &Results) -> String {
    let langs: Vec<String> = results
        .mix
        .0
        .iter()
        .map(|(l, n)| format!("{} {n}", l.name()))
        .collect();
    let mutations: Vec<String> = results
        .mix
        .1
        .iter()
        .map(|(m, n)| format!("{} {n}", m.name()))
        .collect();
    format!(
        "languages: {}\nmutations: {}\n",
        langs.join(", "),
        mutations.join(", ")
    )
}
