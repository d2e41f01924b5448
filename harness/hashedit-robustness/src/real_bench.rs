//! Running the real-edit corpus through the engines.
//!
//! Every edit is valid: its author published it. So each engine should
//! apply every document exactly, silently; a refusal or a warning there is
//! a false alarm of the guard that raised it ([`crate::signal`]). Each
//! engine gets the edit in its form ([`RealEdit::sent`]), after the reads
//! of one [`Reads`] mode: the whole file, or windows around the hunks.

use std::time::{Duration, Instant};

use crate::engine::{Attempt, Engine, Reply};
use crate::hunks::Lines;
use crate::real::RealEdit;
use crate::score::{Outcome, verdict};
use crate::signal::Signal;
use crate::views::{Reads, plan, unshown};

/// One engine's verdict on one real edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RealRecord {
    /// Index of the edit in the run.
    pub edit: usize,
    /// Engine index.
    pub engine: usize,
    /// The verdict (applied as intended means exactly the new file).
    pub outcome: Outcome,
    /// Whether the reply carried warnings.
    pub warned: bool,
    /// Whether the engine could write the whole edit (a final newline's
    /// change needs a spelling for it).
    pub expressible: bool,
    /// Whether the edit reaches lines no read displayed.
    pub unshown: bool,
    /// The refusal or warnings, labelled.
    pub signals: Vec<Signal>,
}

/// What a run over real edits produced.
#[derive(Debug, Clone, Default)]
pub struct RealResults {
    /// Engine names, in column order.
    pub engines: Vec<String>,
    /// Per edit, its package (`lang/name`).
    pub edits: Vec<String>,
    /// Every verdict.
    pub records: Vec<RealRecord>,
    /// Time spent in each engine.
    pub elapsed: Vec<Duration>,
}

/// A real edit's verdict, as the tables count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RealClass {
    /// Applied exactly, no warning.
    Exact,
    /// Applied exactly, with a warning: a false alarm.
    Warned,
    /// Refused, with an actionable error: a false alarm.
    Refused,
    /// Refused without an actionable error.
    RefusedOther,
    /// Applied to other bytes, with a warning.
    WrongWarned,
    /// Applied to other bytes, silently.
    WrongSilent,
}

impl RealClass {
    /// Every class, in table order.
    pub const ALL: [RealClass; 6] = [
        RealClass::Exact,
        RealClass::Warned,
        RealClass::Refused,
        RealClass::RefusedOther,
        RealClass::WrongWarned,
        RealClass::WrongSilent,
    ];

    /// The class of a record.
    pub fn of(record: &RealRecord) -> RealClass {
        RealClass::classify(record.outcome, record.warned)
    }

    /// The class of a verdict on a reply that did or did not warn.
    pub fn classify(outcome: Outcome, warned: bool) -> RealClass {
        match outcome {
            Outcome::Intended if warned => RealClass::Warned,
            Outcome::Intended => RealClass::Exact,
            Outcome::RefusedActionable => RealClass::Refused,
            Outcome::RefusedOther => RealClass::RefusedOther,
            Outcome::WrongWarned => RealClass::WrongWarned,
            Outcome::WrongSilent => RealClass::WrongSilent,
        }
    }

    /// Column heading.
    pub fn heading(self) -> &'static str {
        match self {
            RealClass::Exact => "exact",
            RealClass::Warned => "exact, warned",
            RealClass::Refused => "refused, actionable",
            RealClass::RefusedOther => "refused, not actionable",
            RealClass::WrongWarned => "wrong, warned",
            RealClass::WrongSilent => "wrong, silent",
        }
    }
}

impl RealResults {
    /// Counts per class of `engine`'s records that `pick` keeps.
    pub fn counts(&self, engine: usize, pick: impl Fn(&RealRecord) -> bool) -> [usize; 6] {
        let mut counts = [0; 6];
        for r in self
            .records
            .iter()
            .filter(|r| r.engine == engine && pick(r))
        {
            let class = RealClass::of(r);
            counts[RealClass::ALL
                .iter()
                .position(|&c| c == class)
                .expect("listed")] += 1;
        }
        counts
    }
}

/// Judges one reply to a real edit meant to give `intended`.
pub fn judge_real(reply: &Reply, edit: &RealEdit, intended: &Lines, live_tag: &str) -> Outcome {
    let live = edit.old.text();
    verdict(
        reply,
        &edit.path(),
        live.as_bytes(),
        intended.text().as_bytes(),
        live_tag,
    )
}

/// Runs every edit through every engine after whole-file reads;
/// `on_reply` sees each reply with (edit index, engine index), `progress`
/// each edit done.
pub fn run_real(
    edits: &[RealEdit],
    engines: &mut [Box<dyn Engine>],
    on_reply: impl FnMut(usize, usize, &Reply, Outcome),
    progress: impl FnMut(usize, usize),
) -> RealResults {
    run_real_reading(edits, engines, Reads::WholeFile, on_reply, progress)
}

/// Runs every edit through every engine whose form can write it, each
/// after the reads `reads` plans (made in the engine's session, if it
/// keeps one).
pub fn run_real_reading(
    edits: &[RealEdit],
    engines: &mut [Box<dyn Engine>],
    reads: Reads,
    mut on_reply: impl FnMut(usize, usize, &Reply, Outcome),
    mut progress: impl FnMut(usize, usize),
) -> RealResults {
    let mut results = RealResults {
        engines: engines.iter().map(|e| e.name().to_string()).collect(),
        elapsed: vec![Duration::ZERO; engines.len()],
        edits: edits.iter().map(|e| e.package.clone()).collect(),
        ..RealResults::default()
    };
    for (i, edit) in edits.iter().enumerate() {
        let old = edit.old.text();
        let path = edit.path();
        let views = plan(&edit.old, &edit.hunks, reads);
        let unshown = !unshown(&edit.old, &edit.hunks, &views).is_empty();
        for (e, engine) in engines.iter_mut().enumerate() {
            let Some(sent) = edit.sent(engine.form(), engine.spells_final_newline()) else {
                continue;
            };
            let attempt = Attempt {
                path: &path,
                served: old.as_bytes(),
                live: old.as_bytes(),
                call: &sent.call,
                views: &views,
            };
            let started = Instant::now();
            let reply = engine.run(&attempt);
            results.elapsed[e] += started.elapsed();
            let live_tag = engine.scheme().tag_of(old.as_bytes()).to_string();
            let outcome = judge_real(&reply, edit, &sent.intended, &live_tag);
            on_reply(i, e, &reply, outcome);
            results.records.push(RealRecord {
                edit: i,
                engine: e,
                outcome,
                warned: !reply.warnings.is_empty(),
                expressible: sent.expressible,
                unshown,
                signals: reply.signals.clone(),
            });
        }
        progress(i + 1, edits.len());
    }
    results
}
