//! CI guard: a fixed slice of the real-edit corpus (real human changes
//! between consecutive published versions of packages, each changed file
//! one minimal document; see `scripts/real-edits-corpus`) through hashedit
//! with a session (as the MCP server runs) and without (as the CLI runs).
//!
//! Every one of these edits is valid, so hashedit should apply each
//! exactly and silently: a warning or a refusal is a false alarm of the
//! guard that raised it. The figures are pinned exactly, so a guard that
//! starts to fire on real code (a regression) or stops (an improvement)
//! both change [`PINS`]. To regenerate them: run
//! `cargo test -p hashedit-robustness --test ci_real_edits -- --nocapture`
//! and copy the `PINS` it prints; the signals behind the alarms are
//! printed above them.
//!
//! Without the corpus the test is skipped loudly, unless
//! `HASHEDIT_REQUIRE_CORPUS=1` (scripts/test sets it) or
//! `HASHEDIT_REQUIRE_ALL=1`: then it fails.

use std::collections::BTreeMap;

use hashedit_robustness::engine::{Engine, Ours};
use hashedit_robustness::real::RealCorpus;
use hashedit_robustness::real_bench::{RealClass, RealResults, run_real};

/// Documents in the slice, spread evenly over the corpus.
const DOCS: usize = 150;

/// Per engine (with a session, without), over the slice's edits it can
/// express (all, since it spells the final newline): exact, exact but
/// warned, refused with an actionable error, refused without one, applied
/// wrongly (warned or not); then the edits it cannot express, whatever
/// became of them.
const PINS: [[usize; 6]; 2] = [[150, 0, 0, 0, 0, 0], [150, 0, 0, 0, 0, 0]];

/// A run's figures in [`PINS`]'s shape.
fn figures(results: &RealResults, engine: usize) -> [usize; 6] {
    let c = results.counts(engine, |r| r.expressible);
    let position = |class| RealClass::ALL.iter().position(|&c| c == class).unwrap();
    let count = |class| c[position(class)];
    let final_newline = results
        .records
        .iter()
        .filter(|r| r.engine == engine && !r.expressible)
        .count();
    [
        count(RealClass::Exact),
        count(RealClass::Warned),
        count(RealClass::Refused),
        count(RealClass::RefusedOther),
        count(RealClass::WrongWarned) + count(RealClass::WrongSilent),
        final_newline,
    ]
}

#[test]
fn real_edits_land_exactly_as_pinned() {
    let dir = RealCorpus::default_dir();
    let corpus = match RealCorpus::load(&dir) {
        Ok(corpus) => corpus,
        Err(e) if std::env::var("HASHEDIT_REQUIRE_CORPUS").is_ok_and(|v| v == "1") => {
            panic!("{e} (HASHEDIT_REQUIRE_CORPUS=1)")
        }
        Err(e) => {
            hashedit_skip::skip(
                "real_edits_land_exactly_as_pinned",
                "the real-edit slice",
                &e.to_string(),
            );
            return;
        }
    };
    let edits = corpus.slice(DOCS);
    assert_eq!(
        edits.len(),
        DOCS,
        "the corpus has fewer edits than the slice"
    );
    let mut engines: Vec<Box<dyn Engine>> = vec![
        Box::new(Ours::with_session().unwrap()),
        Box::new(Ours::without_session().unwrap()),
    ];
    let mut alarms: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let results = run_real(
        &edits,
        &mut engines,
        |i, e, reply, _| {
            if e != 0 {
                return;
            }
            let mut said: Vec<String> = reply.signals.iter().map(|s| s.describe()).collect();
            said.sort();
            said.dedup();
            for signal in said {
                alarms.entry(signal).or_default().push(edits[i].describe());
            }
        },
        |_, _| {},
    );
    for (signal, edits) in &alarms {
        println!("{signal}: {} ({})", edits.len(), edits.join("; "));
    }
    let got = [figures(&results, 0), figures(&results, 1)];
    let source = format!("const PINS: [[usize; 6]; 2] = {got:?};");
    println!("{source}");
    assert_eq!(
        got, PINS,
        "the real-edit figures moved; new pins:\n{source}"
    );
}
