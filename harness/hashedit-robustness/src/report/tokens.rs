//! The token tables: every payload's median, p90 and total under both
//! tokenizers; each written form against `str_replace`, per edit; by edit
//! size and language; the long-line case; and the same as JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::mutate::Lang;
use crate::token_bench::{EditTokens, Payload, TokenRun};
use crate::tokens::Tokenizer;

/// Nearest-rank quantile `q` of `values` (sorted here); 0 when empty.
fn quantile(values: &mut [usize], q: f64) -> usize {
    if values.is_empty() {
        return 0;
    }
    values.sort_unstable();
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

/// Nearest-rank quantile of ratios.
fn quantile_f(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

/// The counts of `payload` under tokenizer `t` (index) over `edits`.
fn values<'a>(
    edits: impl Iterator<Item = &'a EditTokens>,
    payload: Payload,
    t: usize,
) -> Vec<usize> {
    edits
        .filter_map(|e| e.counts.get(&payload).map(|c| c[t]))
        .collect()
}

/// Median, p90 and total of `payload` under tokenizer `t`.
fn stats(edits: &[EditTokens], payload: Payload, t: usize) -> (usize, usize, usize, usize) {
    let mut v = values(edits.iter(), payload, t);
    let total = v.iter().sum();
    (v.len(), quantile(&mut v, 0.5), quantile(&mut v, 0.9), total)
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Every payload: edits counted, median, p90 and total per tokenizer.
pub fn token_summary(run: &TokenRun) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| payload | edits | o200k median | o200k p90 | o200k total | cl100k median | cl100k p90 | cl100k total |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for payload in Payload::ALL {
        let (n, m, p, t) = stats(&run.edits, payload, 0);
        let (_, cm, cp, ct) = stats(&run.edits, payload, 1);
        let _ = writeln!(
            out,
            "| {} | {n} | {m} | {p} | {} | {cm} | {cp} | {} |",
            payload.name(),
            thousands(t),
            thousands(ct)
        );
    }
    out
}

/// Per edit, the ratio `payload` / minimal `str_replace` (o200k).
fn ratios<'a>(
    edits: impl IntoIterator<Item = &'a EditTokens>,
    payload: impl Fn(&EditTokens) -> Option<usize>,
) -> Vec<f64> {
    edits
        .into_iter()
        .filter_map(|e| {
            let ours = payload(e)? as f64;
            let theirs = e.o200k(Payload::StrReplace)? as f64;
            Some(ours / theirs)
        })
        .collect()
}

/// Each written form against minimal `str_replace` calls, per edit: the
/// median, p90 and largest ratio, the edits over 2×, and the ratio of
/// totals.
pub fn token_ratios(run: &TokenRun) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| form | edits | median ratio | p90 | max | edits over 2× | total / str_replace total |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
    let str_total: usize = run
        .edits
        .iter()
        .filter_map(|e| e.o200k(Payload::StrReplace))
        .sum();
    let mut row = |name: &str, pick: &dyn Fn(&EditTokens) -> Option<usize>| {
        let mut r = ratios(&run.edits, pick);
        let over = r.iter().filter(|&&x| x > 2.0).count();
        let total: usize = run
            .edits
            .iter()
            .filter(|e| e.o200k(Payload::StrReplace).is_some())
            .filter_map(pick)
            .sum();
        let _ = writeln!(
            out,
            "| {name} | {} | {:.2} | {:.2} | {:.2} | {over} | {:.2} |",
            r.len(),
            quantile_f(&mut r, 0.5),
            quantile_f(&mut r, 0.9),
            quantile_f(&mut r, 1.0),
            total as f64 / str_total as f64
        );
    };
    row(
        "**cheapest line-addressed** (PUT/CUT, SUB or mixed)",
        &EditTokens::best_line_addressed,
    );
    for payload in Payload::WRITTEN {
        if payload != Payload::StrReplace {
            row(payload.name(), &|e: &EditTokens| e.o200k(payload));
        }
    }
    out
}

/// Size buckets: lines removed plus lines added.
const SIZES: [(usize, usize, &str); 5] = [
    (1, 2, "1–2"),
    (3, 6, "3–6"),
    (7, 20, "7–20"),
    (21, 100, "21–100"),
    (101, usize::MAX, "> 100"),
];

/// The payloads the grouped tables show.
const GROUPED: [Payload; 7] = [
    Payload::PutCut,
    Payload::Cheapest,
    Payload::StrReplace,
    Payload::StrReplaceLines,
    Payload::ApplyPatch,
    Payload::WholeFile,
    Payload::ReadView,
];

fn grouped(groups: Vec<(String, Vec<&EditTokens>)>, heading: &str) -> String {
    let mut out = String::new();
    let mut head = format!("| {heading} | edits |");
    let mut rule = "|---|---:|".to_string();
    for p in GROUPED {
        let _ = write!(head, " {} |", p.name());
        rule.push_str("---:|");
    }
    let _ = writeln!(out, "{head} cheapest / str_replace (median) |\n{rule}---:|");
    for (label, edits) in groups {
        if edits.is_empty() {
            continue;
        }
        let mut row = format!("| {label} | {} |", edits.len());
        for p in GROUPED {
            let mut v = values(edits.iter().copied(), p, 0);
            let total: usize = v.iter().sum();
            let _ = write!(
                row,
                " {} / {} / {} |",
                quantile(&mut v, 0.5),
                quantile(&mut v, 0.9),
                thousands(total)
            );
        }
        let mut r = ratios(edits.iter().copied(), EditTokens::best_line_addressed);
        let _ = writeln!(row, " {:.2} |", quantile_f(&mut r, 0.5));
        out.push_str(&row);
    }
    out
}

/// Median / p90 / total (o200k) of the main payloads by edit size.
pub fn token_by_size(run: &TokenRun) -> String {
    let groups = SIZES
        .iter()
        .map(|&(lo, hi, label)| {
            let edits = run
                .edits
                .iter()
                .filter(|e| (lo..=hi).contains(&e.changed))
                .collect();
            (format!("{label} lines"), edits)
        })
        .collect();
    grouped(groups, "lines changed")
}

/// Median / p90 / total (o200k) of the main payloads by language.
pub fn token_by_language(run: &TokenRun) -> String {
    let groups = Lang::ALL
        .iter()
        .map(|&lang| {
            let edits = run.edits.iter().filter(|e| e.lang == lang).collect();
            (lang.name().to_string(), edits)
        })
        .collect();
    grouped(groups, "language")
}

/// The long-line case: every payload, both tokenizers, and each against
/// minimal `str_replace`.
pub fn long_line(case: &EditTokens) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| payload | o200k | cl100k | o200k / str_replace |\n|---|---:|---:|---:|"
    );
    let theirs = case.o200k(Payload::StrReplace);
    for payload in Payload::ALL {
        let Some(c) = case.counts.get(&payload) else {
            let _ = writeln!(out, "| {} | – | – | – |", payload.name());
            continue;
        };
        let ratio = theirs.map_or("–".to_string(), |t| {
            format!("{:.1}×", c[0] as f64 / t as f64)
        });
        let _ = writeln!(
            out,
            "| {} | {} | {} | {ratio} |",
            payload.name(),
            thousands(c[0]),
            thousands(c[1])
        );
    }
    out
}

/// The edits whose cheapest line-addressed form costs most against
/// minimal `str_replace`: up to `n`, worst first.
pub fn worst_ratios(run: &TokenRun, n: usize) -> String {
    let mut rows: Vec<(f64, &EditTokens)> = run
        .edits
        .iter()
        .filter_map(|e| {
            let r = e.best_line_addressed()? as f64 / e.o200k(Payload::StrReplace)? as f64;
            Some((r, e))
        })
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| edit | lines changed | cheapest line-addressed | PUT/CUT | str_replace (minimal) | ratio |\n|---|---:|---:|---:|---:|---:|"
    );
    for (r, e) in rows.into_iter().take(n) {
        let cell = |p| e.o200k(p).map_or("–".to_string(), |v| v.to_string());
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {r:.2} |",
            e.describe,
            e.changed,
            e.best_line_addressed().unwrap_or_default(),
            cell(Payload::PutCut),
            cell(Payload::StrReplace)
        );
    }
    out
}

/// Which guard's refusal each edit's "guard refusal" reply is.
pub fn guard_kinds(run: &TokenRun) -> String {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for e in &run.edits {
        *kinds
            .entry(e.guard.as_deref().unwrap_or("(no guard refused)"))
            .or_default() += 1;
    }
    let parts: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    parts.join(", ")
}

/// The generator checks: per written payload, made, landed, not
/// writable; then every failure.
pub fn token_checks(run: &TokenRun) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| payload | generated | landed exactly | form cannot write it |\n|---|---:|---:|---:|"
    );
    for (payload, made) in &run.generated {
        let failed = run
            .failures
            .iter()
            .filter(|f| f.payload == *payload)
            .count();
        let _ = writeln!(
            out,
            "| {} | {made} | {} | {} |",
            payload.name(),
            made - failed,
            run.unwritten.get(payload).copied().unwrap_or(0)
        );
    }
    for f in &run.failures {
        let _ = writeln!(
            out,
            "\nFAILED {}: {}: {}",
            f.payload.name(),
            f.describe,
            f.why
        );
    }
    out
}

/// The run as JSON: per payload and tokenizer the edits, median, p90 and
/// total; the ratio figures; the long-line case; the checks.
pub fn token_json(run: &TokenRun) -> Value {
    let mut payloads = serde_json::Map::new();
    for payload in Payload::ALL {
        let mut per = serde_json::Map::new();
        for (t, tokenizer) in Tokenizer::ALL.iter().enumerate() {
            let (n, median, p90, total) = stats(&run.edits, payload, t);
            per.insert(
                tokenizer.name().to_string(),
                json!({ "edits": n, "median": median, "p90": p90, "total": total }),
            );
        }
        payloads.insert(payload.key().to_string(), Value::Object(per));
    }
    let mut best = ratios(&run.edits, EditTokens::best_line_addressed);
    let over = best.iter().filter(|&&r| r > 2.0).count();
    let long = run.long_line.as_ref().map(|c| {
        let counts: serde_json::Map<String, Value> = c
            .counts
            .iter()
            .map(|(p, v)| {
                (
                    p.key().to_string(),
                    json!({ "o200k": v[0], "cl100k": v[1] }),
                )
            })
            .collect();
        json!({ "edit": c.describe, "counts": counts })
    });
    json!({
        "edits": run.edits.len(),
        "payloads": payloads,
        "best_line_addressed_vs_str_replace": {
            "median": quantile_f(&mut best, 0.5),
            "p90": quantile_f(&mut best, 0.9),
            "max": quantile_f(&mut best, 1.0),
            "over_2x": over,
        },
        "long_line": long,
        "generated": run.generated.iter().map(|(p, n)| (p.key().to_string(), json!(n))).collect::<serde_json::Map<_, _>>(),
        "failures": run.failures.iter().map(|f| json!({"edit": f.describe, "payload": f.payload.key(), "why": f.why})).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests;
