//! CI guard for the edit forms and the reads before an edit, on the
//! real-edit corpus (`scripts/real-edits-corpus`) and the mutation corpus
//! (`scripts/robustness-corpus`):
//!
//! * every real edit, written by each generator of `forms` (`PUT`/`CUT`,
//!   `SUB` minimal and whole lines, the cheapest mix, `str_replace`
//!   minimal and whole lines, `apply_patch`), lands exactly by the form's
//!   reference reading;
//! * a slice of real edits lands exactly through Rho's `str_replace` and
//!   `apply_patch` tools, and through hashedit after windowed reads;
//! * every real edit lands exactly through hashedit as a `SUB` document
//!   restating the lines it replaces;
//! * the content-addressed mistakes through Rho's tools and hashedit give
//!   pinned figures, and ranges one line off restated through `SUB` are
//!   refused (or land as meant), never written wrongly.
//!
//! Figures are pinned exactly; each test prints the new pins when they
//! move. Without a corpus a test is skipped loudly, unless
//! `HASHEDIT_REQUIRE_CORPUS=1` (scripts/test sets it).

use std::collections::BTreeMap;

use hashedit_robustness::bench::{generate_off_by_one_sub, run, tasks};
use hashedit_robustness::content::ReplaceMistake;
use hashedit_robustness::content_bench::{generate_replace, run_replace};
use hashedit_robustness::corpus::Corpus;
use hashedit_robustness::engine::{Engine, Ours};
use hashedit_robustness::forms::str_replace::OldString;
use hashedit_robustness::forms::sub::SubStyle;
use hashedit_robustness::forms::{Call, Form};
use hashedit_robustness::mistakes::Mistake;
use hashedit_robustness::peers::RhoEngine;
use hashedit_robustness::real::RealCorpus;
use hashedit_robustness::real_bench::{RealClass, RealResults, run_real_reading};
use hashedit_robustness::score::Outcome;
use hashedit_robustness::views::Reads;

fn required() -> bool {
    std::env::var("HASHEDIT_REQUIRE_CORPUS").is_ok_and(|v| v == "1")
}

fn real_corpus() -> Option<RealCorpus> {
    match RealCorpus::load(&RealCorpus::default_dir()) {
        Ok(corpus) => Some(corpus),
        Err(e) if required() => panic!("{e} (HASHEDIT_REQUIRE_CORPUS=1)"),
        Err(e) => {
            hashedit_skip::skip("ci_forms", "the real-edit slices", &e.to_string());
            None
        }
    }
}

/// The mutation corpus, or `None` after `test` says it skips `what`.
fn mutation_corpus(test: &str, what: &str) -> Option<Corpus> {
    match Corpus::load(&Corpus::default_dir()) {
        Ok(corpus) => Some(corpus),
        Err(e) if required() => panic!("{e} (HASHEDIT_REQUIRE_CORPUS=1)"),
        Err(e) => {
            hashedit_skip::skip(test, what, &e.to_string());
            None
        }
    }
}

/// Per generator: (made, landed exactly, cannot write the edit).
const FORM_PINS: [(&str, [usize; 3]); 7] = [
    ("put_cut", [943, 943, 0]),
    ("sub_minimal", [943, 943, 0]),
    ("sub_whole_lines", [943, 943, 0]),
    ("cheapest", [943, 943, 0]),
    ("str_replace_minimal", [943, 943, 0]),
    ("str_replace_lines", [943, 943, 0]),
    ("apply_patch", [940, 940, 3]),
];

#[test]
fn every_real_edit_lands_in_every_generated_form() {
    let Some(corpus) = real_corpus() else { return };
    let mut got: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    let mut failures = Vec::new();
    for edit in &corpus.edits {
        let path = edit.path();
        let e = edit.edit(&path);
        let made: [(&str, Option<Call>); 7] = [
            ("put_cut", Some(Call::Document(e.put_cut()))),
            ("sub_minimal", e.sub(SubStyle::Minimal).map(Call::Document)),
            (
                "sub_whole_lines",
                e.sub(SubStyle::WholeLines).map(Call::Document),
            ),
            (
                "cheapest",
                Some(Call::Document(e.cheapest(|op| op.rows.len()))),
            ),
            (
                "str_replace_minimal",
                Some(Call::StrReplace(e.str_replace(OldString::Minimal))),
            ),
            (
                "str_replace_lines",
                Some(Call::StrReplace(e.str_replace(OldString::WholeLines))),
            ),
            ("apply_patch", e.apply_patch().map(Call::ApplyPatch)),
        ];
        for (name, call) in made {
            let slot = got.entry(name).or_default();
            match call {
                None => slot[2] += 1,
                Some(call) => {
                    slot[0] += 1;
                    match e.check(&call) {
                        Ok(()) => slot[1] += 1,
                        Err(why) => failures.push(format!("{name} {}: {why}", edit.describe())),
                    }
                }
            }
        }
    }
    let got: Vec<(&str, [usize; 3])> = FORM_PINS.iter().map(|(n, _)| (*n, got[n])).collect();
    println!("const FORM_PINS: [(&str, [usize; 3]); 7] = {got:?};");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(got, FORM_PINS);
}

/// Real edits in the slices, spread evenly over the corpus.
const SLICE: usize = 150;

/// A run's figures per engine: exact, exact but warned, refused
/// (actionable or not), wrong; edits it cannot write whole; edits reaching
/// lines no read displayed.
fn figures(results: &RealResults, engine: usize) -> [usize; 6] {
    let count = |class| {
        results
            .records
            .iter()
            .filter(|r| r.engine == engine && r.expressible && RealClass::of(r) == class)
            .count()
    };
    let mine = || results.records.iter().filter(|r| r.engine == engine);
    [
        count(RealClass::Exact),
        count(RealClass::Warned),
        count(RealClass::Refused) + count(RealClass::RefusedOther),
        count(RealClass::WrongWarned) + count(RealClass::WrongSilent),
        mine().filter(|r| !r.expressible).count(),
        mine().filter(|r| r.unshown).count(),
    ]
}

/// rho-str_replace and rho-apply_patch after whole-file reads; hashedit
/// (with a session) after windows and after grep hits.
const READ_PINS: [[usize; 6]; 4] = [
    [150, 0, 0, 0, 0, 0],
    [150, 0, 0, 0, 0, 0],
    [150, 0, 0, 0, 0, 0],
    [150, 0, 0, 0, 0, 32],
];

#[test]
fn a_real_edit_slice_lands_through_rho_and_after_windowed_reads() {
    let Some(corpus) = real_corpus() else { return };
    let edits = corpus.slice(SLICE);
    let mut rho: Vec<Box<dyn Engine>> = vec![
        Box::new(RhoEngine::with_form(Form::StrReplace).unwrap()),
        Box::new(RhoEngine::with_form(Form::ApplyPatch).unwrap()),
    ];
    let whole = run_real_reading(
        &edits,
        &mut rho,
        Reads::WholeFile,
        |_, _, _, _| {},
        |_, _| {},
    );
    let mut ours: Vec<Box<dyn Engine>> = vec![Box::new(Ours::with_session().unwrap())];
    let windows = Reads::Windows { context: 5 };
    let windowed = run_real_reading(&edits, &mut ours, windows, |_, _, _, _| {}, |_, _| {});
    let grep = Reads::Grep { context: 3 };
    let grepped = run_real_reading(&edits, &mut ours, grep, |_, _, _, _| {}, |_, _| {});
    let got = [
        figures(&whole, 0),
        figures(&whole, 1),
        figures(&windowed, 0),
        figures(&grepped, 0),
    ];
    println!("const READ_PINS: [[usize; 6]; 4] = {got:?};");
    assert_eq!(got, READ_PINS);
}

/// Every real edit through hashedit (with a session) as `SUB` documents
/// restating the lines they replace, after whole-file reads: the figures
/// of [`figures`].
const SUB_PINS: [usize; 6] = [943, 0, 0, 0, 0, 0];

#[test]
fn every_real_edit_lands_through_sub_documents() {
    let Some(corpus) = real_corpus() else { return };
    let mut sub: Vec<Box<dyn Engine>> = vec![Box::new(Ours::sub_documents().unwrap())];
    let results = run_real_reading(
        &corpus.edits,
        &mut sub,
        Reads::WholeFile,
        |_, _, _, _| {},
        |_, _| {},
    );
    let got = figures(&results, 0);
    println!("const SUB_PINS: [usize; 6] = {got:?};");
    assert_eq!(got, SUB_PINS);
}

/// Tasks of the range-one-off slice restated through `SUB` (seed 1).
const OFF_BY_ONE_TASKS: usize = 400;

/// Per form of the off-by-one mistake: sent, landed as meant, refused,
/// written wrongly.
const OFF_BY_ONE_SUB_PINS: [(&str, [usize; 4]); 5] = [
    ("end-minus-one", [12, 0, 12, 0]),
    ("end-plus-one", [93, 93, 0, 0]),
    ("shift-down", [109, 0, 109, 0]),
    ("shift-up", [85, 0, 85, 0]),
    ("start-minus-one", [101, 101, 0, 0]),
];

#[test]
fn ranges_one_line_off_restated_through_sub_are_never_written_wrongly() {
    let Some(corpus) = mutation_corpus(
        "ranges_one_line_off_restated_through_sub_are_never_written_wrongly",
        "the range-one-off mistakes through SUB",
    ) else {
        return;
    };
    let cases = generate_off_by_one_sub(&corpus, OFF_BY_ONE_TASKS, 1);
    let mut engines: Vec<Box<dyn Engine>> = vec![Box::new(Ours::sub_documents().unwrap())];
    let results = run(&cases, &mut engines, |_, _, _, _, _| {}, |_, _| {});
    let mut got: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for record in &results.records {
        let form = cases
            .iter()
            .find(|c| c.task.index == record.task)
            .map(|c| c.variants[record.variant].form)
            .expect("a case");
        let slot = got.entry(form).or_default();
        slot[0] += 1;
        match record.outcome {
            Outcome::Intended => slot[1] += 1,
            Outcome::RefusedActionable | Outcome::RefusedOther => slot[2] += 1,
            _ => slot[3] += 1,
        }
    }
    let got: Vec<(&str, [usize; 4])> = got.into_iter().collect();
    println!("const OFF_BY_ONE_SUB_PINS: [(&str, [usize; 4]); 5] = {got:?};");
    assert!(got.iter().all(|(_, [.., wrong])| *wrong == 0), "{got:?}");
    assert_eq!(
        results.counts(Mistake::OffByOne, 0).values().sum::<usize>(),
        results.records.len()
    );
    assert_eq!(got, OFF_BY_ONE_SUB_PINS);
}

/// Tasks of the content-addressed slice (seed 7).
const TASKS: usize = 48;

/// Per mistake kind, per engine (hashedit, rho-str_replace,
/// rho-apply_patch, hashedit-sub): sent, applied as intended, refused,
/// applied wrongly.
const CONTENT_PINS: [(&str, [[usize; 4]; 4]); 8] = [
    (
        "oracle",
        [
            [48, 48, 0, 0],
            [48, 48, 0, 0],
            [48, 48, 0, 0],
            [48, 48, 0, 0],
        ],
    ),
    (
        "partial-line",
        [[0, 0, 0, 0], [33, 33, 0, 0], [29, 0, 29, 0], [33, 33, 0, 0]],
    ),
    (
        "drifted-indentation",
        [
            [0, 0, 0, 0],
            [42, 22, 16, 4],
            [42, 0, 0, 42],
            [42, 26, 10, 6],
        ],
    ),
    (
        "drifted-whitespace",
        [[0, 0, 0, 0], [39, 0, 39, 0], [39, 0, 39, 0], [39, 0, 39, 0]],
    ),
    (
        "non-unique-snippet",
        [[0, 0, 0, 0], [4, 0, 4, 0], [4, 1, 0, 3], [4, 0, 4, 0]],
    ),
    (
        "pasted-line-numbers",
        [[0, 0, 0, 0], [48, 0, 48, 0], [48, 0, 48, 0], [48, 0, 48, 0]],
    ),
    (
        "stale-far",
        [
            [48, 45, 3, 0],
            [48, 48, 0, 0],
            [48, 47, 1, 0],
            [48, 45, 3, 0],
        ],
    ),
    (
        "stale-at-edit",
        [
            [44, 0, 44, 0],
            [44, 0, 44, 0],
            [44, 0, 30, 14],
            [44, 0, 44, 0],
        ],
    ),
];

#[test]
fn content_addressed_mistakes_through_rho_and_hashedit_as_pinned() {
    let Some(corpus) = mutation_corpus(
        "content_addressed_mistakes_through_rho_and_hashedit_as_pinned",
        "the content-addressed mistakes",
    ) else {
        return;
    };
    assert_eq!(tasks(&corpus, TASKS, 7).len(), TASKS);
    let cases = generate_replace(&corpus, TASKS, 7);
    let mut engines: Vec<Box<dyn Engine>> = vec![
        Box::new(Ours::with_session().unwrap()),
        Box::new(RhoEngine::with_form(Form::StrReplace).unwrap()),
        Box::new(RhoEngine::with_form(Form::ApplyPatch).unwrap()),
        Box::new(Ours::sub_documents().unwrap()),
    ];
    let results = run_replace(&cases, &mut engines, |_, _, _, _, _| {}, |_, _| {});
    let got: Vec<(&str, [[usize; 4]; 4])> = ReplaceMistake::ALL
        .iter()
        .map(|&m| {
            let per = |e: usize| {
                let c = results.counts(m, e);
                let n: usize = c.values().sum();
                let refused = c[&Outcome::RefusedActionable] + c[&Outcome::RefusedOther];
                [
                    n,
                    c[&Outcome::Intended],
                    refused,
                    n - c[&Outcome::Intended] - refused,
                ]
            };
            (m.name(), [per(0), per(1), per(2), per(3)])
        })
        .collect();
    println!("const CONTENT_PINS: [(&str, [[usize; 4]; 4]); 8] = {got:?};");
    assert_eq!(got, CONTENT_PINS);
}
