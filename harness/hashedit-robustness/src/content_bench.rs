//! Running the content-addressed variants through the engines.
//!
//! Each engine gets each variant in its own form ([`crate::forms::Form`]),
//! when the variant has that form; a form that cannot carry a mistake
//! leaves that engine's cell empty. Verdicts are the mutation benchmark's
//! ([`crate::score`]).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::bench::tasks;
use crate::content::{ReplaceMistake, ReplaceVariant, replace_variant};
use crate::corpus::Corpus;
use crate::engine::{Attempt, Engine, Reply};
use crate::mutate::Task;
use crate::rng;
use crate::score::{Outcome, verdict};

/// A task and its content-addressed variants.
#[derive(Debug, Clone)]
pub struct ReplaceCase {
    /// The task.
    pub task: Task,
    /// One variant per mistake kind that fits it.
    pub variants: Vec<ReplaceVariant>,
}

/// The tasks of `corpus` for `count` and `seed` (the mutation
/// benchmark's), each with its variants.
pub fn generate_replace(corpus: &Corpus, count: usize, seed: u64) -> Vec<ReplaceCase> {
    tasks(corpus, count, seed)
        .into_iter()
        .map(|task| {
            let variants = ReplaceMistake::ALL
                .iter()
                .enumerate()
                .filter_map(|(m, &mistake)| {
                    let mut rng = rng::stream(seed ^ (0xC0DE_0000 + m as u64), task.index as u64);
                    replace_variant(&task, mistake, &mut rng)
                })
                .collect();
            ReplaceCase { task, variants }
        })
        .collect()
}

/// One engine's verdict on one variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplaceRecord {
    /// Task index.
    pub task: usize,
    /// The mistake kind.
    pub mistake: ReplaceMistake,
    /// Engine index.
    pub engine: usize,
    /// The verdict.
    pub outcome: Outcome,
    /// Whether the reply carried warnings.
    pub warned: bool,
}

/// What a content-addressed run produced.
#[derive(Debug, Clone, Default)]
pub struct ReplaceResults {
    /// Engine names, in column order.
    pub engines: Vec<String>,
    /// Per mistake, the variants made.
    pub variants: BTreeMap<ReplaceMistake, usize>,
    /// Every verdict.
    pub records: Vec<ReplaceRecord>,
    /// Time spent in each engine.
    pub elapsed: Vec<Duration>,
}

impl ReplaceResults {
    /// Counts of each outcome for (`mistake`, `engine`).
    pub fn counts(&self, mistake: ReplaceMistake, engine: usize) -> BTreeMap<Outcome, usize> {
        let mut counts: BTreeMap<Outcome, usize> = Outcome::ALL.iter().map(|&o| (o, 0)).collect();
        for r in &self.records {
            if r.mistake == mistake && r.engine == engine {
                *counts.entry(r.outcome).or_default() += 1;
            }
        }
        counts
    }
}

/// Runs every variant through every engine that has its form;
/// `on_reply` sees (case, variant index, engine index, reply, verdict),
/// `progress` each case done.
pub fn run_replace(
    cases: &[ReplaceCase],
    engines: &mut [Box<dyn Engine>],
    mut on_reply: impl FnMut(&ReplaceCase, usize, usize, &Reply, Outcome),
    mut progress: impl FnMut(usize, usize),
) -> ReplaceResults {
    let mut results = ReplaceResults {
        engines: engines.iter().map(|e| e.name().to_string()).collect(),
        elapsed: vec![Duration::ZERO; engines.len()],
        ..ReplaceResults::default()
    };
    for (done, case) in cases.iter().enumerate() {
        let path = &case.task.path;
        for (v, variant) in case.variants.iter().enumerate() {
            *results.variants.entry(variant.mistake).or_default() += 1;
            let (served, live) = (variant.served.text(), variant.live.text());
            let intended = variant.intended.text();
            for (e, engine) in engines.iter_mut().enumerate() {
                let Some(call) = variant.calls.get(&engine.form()) else {
                    continue;
                };
                let attempt = Attempt {
                    path,
                    served: served.as_bytes(),
                    live: live.as_bytes(),
                    call,
                    views: &[],
                };
                let started = Instant::now();
                let reply = engine.run(&attempt);
                results.elapsed[e] += started.elapsed();
                let live_tag = engine.scheme().tag_of(live.as_bytes()).to_string();
                let outcome = verdict(
                    &reply,
                    path,
                    live.as_bytes(),
                    intended.as_bytes(),
                    &live_tag,
                );
                on_reply(case, v, e, &reply, outcome);
                results.records.push(ReplaceRecord {
                    task: case.task.index,
                    mistake: variant.mistake,
                    engine: e,
                    outcome,
                    warned: !reply.warnings.is_empty(),
                });
            }
        }
        progress(done + 1, cases.len());
    }
    results
}
