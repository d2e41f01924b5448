//! The per-guard table: for each refusal or warning an engine gave, the
//! wrong writes it prevented or flagged among the mutated documents, and
//! the valid real edits it refused or warned about (false alarms).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::bench::Results;
use crate::mistakes::Mistake;
use crate::real_bench::RealResults;
use crate::signal::Signal;

/// What one signal did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GuardRow {
    /// Mutated documents refused whose literal result is wrong: wrong
    /// writes prevented.
    pub stopped: usize,
    /// Mutated documents refused whose literal result is the intended one.
    pub refused_right: usize,
    /// Mutated documents refused that have no literal reading.
    pub refused_unreadable: usize,
    /// Mutated documents warned about and applied wrongly.
    pub warned_wrong: usize,
    /// Mutated documents warned about and applied as intended.
    pub warned_intended: usize,
    /// Per mistake kind, the mutated documents it fired on.
    pub kinds: BTreeMap<Mistake, usize>,
    /// Real edits it fired on (every one a false alarm).
    pub real: usize,
}

/// The rows of `engine` (by name), one per signal, over both corpora.
pub fn guard_rows(
    mutation: Option<&Results>,
    real: Option<&RealResults>,
    engine: &str,
) -> BTreeMap<Signal, GuardRow> {
    let mut rows: BTreeMap<Signal, GuardRow> = BTreeMap::new();
    if let Some(results) = mutation
        && let Some(e) = results.engines.iter().position(|n| n == engine)
    {
        for r in results.records.iter().filter(|r| r.engine == e) {
            for signal in distinct(&r.signals) {
                let row = rows.entry(signal.clone()).or_default();
                *row.kinds.entry(r.mistake).or_default() += 1;
                match (signal.refusal, r.literal_wrong, r.outcome.is_wrong()) {
                    (true, Some(true), _) => row.stopped += 1,
                    (true, Some(false), _) => row.refused_right += 1,
                    (true, None, _) => row.refused_unreadable += 1,
                    (false, _, true) => row.warned_wrong += 1,
                    (false, _, false) => row.warned_intended += 1,
                }
            }
        }
    }
    if let Some(results) = real
        && let Some(e) = results.engines.iter().position(|n| n == engine)
    {
        for r in results.records.iter().filter(|r| r.engine == e) {
            for signal in distinct(&r.signals) {
                rows.entry(signal.clone()).or_default().real += 1;
            }
        }
    }
    rows
}

/// Each signal of a reply once (a reply may warn twice alike).
fn distinct(signals: &[Signal]) -> Vec<&Signal> {
    let mut seen: Vec<&Signal> = Vec::new();
    for s in signals {
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen
}

/// Most mistake kinds named per row.
const TOP_KINDS: usize = 3;

/// The per-guard table of `engine`, with the real-edit document count for
/// the rate of false alarms.
pub fn guards(mutation: Option<&Results>, real: Option<&RealResults>, engine: &str) -> String {
    let rows = guard_rows(mutation, real, engine);
    let real_docs = real.map_or(0, |r| r.edits.len());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| signal | mutated: stopped a wrong write | refused, literal right | refused, no literal reading | warned, applied wrongly | warned, applied as intended | fired most on | real edits: fired (of {real_docs}) |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---|---:|");
    for (signal, row) in &rows {
        let mut kinds: Vec<(&Mistake, &usize)> = row.kinds.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let top: Vec<String> = kinds
            .iter()
            .take(TOP_KINDS)
            .map(|(m, n)| format!("{} {n}", m.name()))
            .collect();
        let real_cell = if real.is_some() {
            row.real.to_string()
        } else {
            "–".to_string()
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {real_cell} |",
            signal.describe(),
            row.stopped,
            row.refused_right,
            row.refused_unreadable,
            row.warned_wrong,
            row.warned_intended,
            top.join(", ")
        );
    }
    out
}
