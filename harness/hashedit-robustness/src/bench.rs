//! Generating tasks and variants, running engines, collecting results.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::corpus::Corpus;
use crate::engine::{Attempt, Engine, Reply};
use crate::forms::Call;
use crate::mistakes::{Mistake, Variant, off_by_one_through_sub, variant};
use crate::mutate::{Lang, Mutation, Task, make_task};
use crate::rng;
use crate::score::{Outcome, verdict};
use crate::signal::Signal;
use crate::tokens;

/// How many files a task tries before moving to the next mutation kind.
const FILE_TRIES: usize = 40;

/// A task and the documents made for it.
#[derive(Debug, Clone)]
pub struct Case {
    /// The task.
    pub task: Task,
    /// One variant per mistake kind that fits the task.
    pub variants: Vec<Variant>,
}

/// Makes `count` tasks from `corpus` with `seed`, and their variants.
///
/// Task `i` takes language `i mod L` and mutation `(i / L) mod 9` (so
/// both are balanced), then draws a file of that language that has a site
/// for the mutation; when none of `FILE_TRIES` draws has one, the next
/// mutation kind is tried. Every task and variant draws from its own
/// stream, so task 17 is the same in a run of 20 tasks and of 2000.
pub fn generate(corpus: &Corpus, count: usize, seed: u64) -> Vec<Case> {
    tasks(corpus, count, seed)
        .into_iter()
        .map(|task| {
            let variants = Mistake::ALL
                .iter()
                .enumerate()
                .filter_map(|(m, &mistake)| {
                    let mut rng = rng::stream(seed ^ (0x5EED_0000 + m as u64), task.index as u64);
                    variant(&task, mistake, &mut rng)
                })
                .collect();
            Case { task, variants }
        })
        .collect()
}

/// [`generate`]'s cases with only the [`Mistake::OffByOne`] variant,
/// restated through `SUB` ops ([`off_by_one_through_sub`]): the same
/// hunk moved the same way as in a run of [`generate`] with `seed`.
pub fn generate_off_by_one_sub(corpus: &Corpus, count: usize, seed: u64) -> Vec<Case> {
    let m = Mistake::ALL
        .iter()
        .position(|&m| m == Mistake::OffByOne)
        .expect("a mistake kind");
    tasks(corpus, count, seed)
        .into_iter()
        .map(|task| {
            let mut rng = rng::stream(seed ^ (0x5EED_0000 + m as u64), task.index as u64);
            let variants = off_by_one_through_sub(&task, &mut rng)
                .into_iter()
                .collect();
            Case { task, variants }
        })
        .collect()
}

/// The tasks of [`generate`], without their variants: task `i` of a seed
/// is the same here and there.
pub fn tasks(corpus: &Corpus, count: usize, seed: u64) -> Vec<Task> {
    let langs = corpus.files.len();
    (0..count)
        .filter_map(|i| {
            let mut rng = rng::stream(seed, i as u64);
            let (_, files) = &corpus.files[i % langs];
            let first = (i / langs) % Mutation::ALL.len();
            (0..Mutation::ALL.len()).find_map(|k| {
                let mutation = Mutation::ALL[(first + k) % Mutation::ALL.len()];
                (0..FILE_TRIES).find_map(|_| make_task(i, rng.pick(files), mutation, &mut rng))
            })
        })
        .collect()
}

/// One engine's verdict on one variant.
#[derive(Debug, Clone)]
pub struct Record {
    /// Task index.
    pub task: usize,
    /// Index of the variant in its case.
    pub variant: usize,
    /// The mistake kind.
    pub mistake: Mistake,
    /// Engine index.
    pub engine: usize,
    /// The verdict.
    pub outcome: Outcome,
    /// Whether the reply carried warnings.
    pub warned: bool,
    /// Whether the document applied as written gives other bytes than
    /// meant (`None`: it has no literal reading).
    pub literal_wrong: Option<bool>,
    /// The refusal or warnings, labelled.
    pub signals: Vec<Signal>,
}

/// Everything a run produced.
#[derive(Debug, Clone, Default)]
pub struct Results {
    /// Engine names, in column order.
    pub engines: Vec<String>,
    /// Every verdict.
    pub records: Vec<Record>,
    /// Time spent in each engine.
    pub elapsed: Vec<Duration>,
    /// Per mistake kind: (documents, bytes, o200k tokens) summed over the
    /// documents as rendered for the first engine.
    pub payload: BTreeMap<Mistake, (usize, usize, usize)>,
    /// Bytes and tokens of writing each task's whole target file instead,
    /// summed over tasks: (tasks, bytes, tokens).
    pub whole_file: (usize, usize, usize),
    /// Per language, tasks; per mutation, tasks.
    pub mix: (BTreeMap<Lang, usize>, BTreeMap<Mutation, usize>),
}

impl Results {
    /// Counts of each outcome for (`mistake`, `engine`).
    pub fn counts(&self, mistake: Mistake, engine: usize) -> BTreeMap<Outcome, usize> {
        let mut counts: BTreeMap<Outcome, usize> = Outcome::ALL.iter().map(|&o| (o, 0)).collect();
        for r in &self.records {
            if r.mistake == mistake && r.engine == engine {
                *counts.entry(r.outcome).or_default() += 1;
            }
        }
        counts
    }

    /// Documents of (`mistake`, `engine`) applied as intended whose reply
    /// still carried a warning.
    pub fn intended_with_warnings(&self, mistake: Mistake, engine: usize) -> usize {
        self.records
            .iter()
            .filter(|r| {
                r.mistake == mistake
                    && r.engine == engine
                    && r.warned
                    && r.outcome == Outcome::Intended
            })
            .count()
    }

    /// Records of `engine` whose outcome satisfies `pick`.
    pub fn select(&self, engine: usize, pick: impl Fn(&Record) -> bool) -> Vec<&Record> {
        self.records
            .iter()
            .filter(|r| r.engine == engine && pick(r))
            .collect()
    }
}

/// Judges one reply.
pub fn judge(reply: &Reply, variant: &Variant, path: &str, live: &[u8], live_tag: &str) -> Outcome {
    verdict(
        reply,
        path,
        live,
        variant.intended.text().as_bytes(),
        live_tag,
    )
}

/// Runs every variant of every case through every engine (each takes
/// hashline documents: [`crate::forms::Form::Document`]). `progress` is
/// called after each case with (cases done, total).
pub fn run(
    cases: &[Case],
    engines: &mut [Box<dyn Engine>],
    mut on_reply: impl FnMut(&Case, usize, usize, &Reply, Outcome),
    mut progress: impl FnMut(usize, usize),
) -> Results {
    let mut results = Results {
        engines: engines.iter().map(|e| e.name().to_string()).collect(),
        elapsed: vec![Duration::ZERO; engines.len()],
        ..Results::default()
    };
    for (done, case) in cases.iter().enumerate() {
        let task = &case.task;
        *results.mix.0.entry(task.lang).or_default() += 1;
        *results.mix.1.entry(task.mutation).or_default() += 1;
        let target = task.target.text();
        let w = &mut results.whole_file;
        *w = (w.0 + 1, w.1 + target.len(), w.2 + tokens::o200k(&target));
        for (v, variant) in case.variants.iter().enumerate() {
            let served = variant.served.text();
            let live = variant.live.text();
            let call = Call::Document(variant.doc.clone());
            let attempt = Attempt {
                path: &task.path,
                served: served.as_bytes(),
                live: live.as_bytes(),
                call: &call,
                views: &[],
            };
            for (e, engine) in engines.iter_mut().enumerate() {
                let started = Instant::now();
                let reply = engine.run(&attempt);
                results.elapsed[e] += started.elapsed();
                let live_tag = engine.scheme().tag_of(live.as_bytes()).to_string();
                let outcome = judge(&reply, variant, &task.path, live.as_bytes(), &live_tag);
                if e == 0 {
                    let p = results.payload.entry(variant.mistake).or_default();
                    *p = (
                        p.0 + 1,
                        p.1 + reply.document.len(),
                        p.2 + tokens::o200k(&reply.document),
                    );
                }
                on_reply(case, v, e, &reply, outcome);
                results.records.push(Record {
                    task: task.index,
                    variant: v,
                    mistake: variant.mistake,
                    engine: e,
                    outcome,
                    warned: !reply.warnings.is_empty(),
                    literal_wrong: variant.literal_is_wrong(),
                    signals: reply.signals.clone(),
                });
            }
        }
        progress(done + 1, cases.len());
    }
    results
}
