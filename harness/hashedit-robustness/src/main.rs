//! `hashedit-robustness`: prints the robustness and token tables.
//!
//! ```text
//! scripts/robustness-corpus
//! scripts/real-edits-corpus
//! cargo run --release -p hashedit-robustness -- --tasks 2000 --seed 1
//! cargo run --release -p hashedit-robustness -- --suite tokens --json target/bench/tokens.json
//! ```

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use hashedit_robustness::bench::{Results, generate, run};
use hashedit_robustness::content_bench::{generate_replace, run_replace};
use hashedit_robustness::corpus::Corpus;
use hashedit_robustness::dump;
use hashedit_robustness::engine::{Engine, Ours};
use hashedit_robustness::forms::Form;
use hashedit_robustness::peers::{OmpEngine, RhoEngine};
use hashedit_robustness::real::RealCorpus;
use hashedit_robustness::real_bench::{RealClass, RealResults, run_real_reading};
use hashedit_robustness::report;
use hashedit_robustness::score::Outcome;
use hashedit_robustness::token_bench::{long_line_edit, run_tokens};
use hashedit_robustness::views::Reads;

/// Offline edit-robustness and token benchmarks.
#[derive(Debug, Parser)]
#[command(name = "hashedit-robustness")]
struct Args {
    /// Number of tasks (each yields up to 23 documents).
    #[arg(long, default_value_t = 200)]
    tasks: usize,
    /// Seed of the run; the same seed and corpus give the same tables.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Corpus directory (default: target/robustness-corpus, made by
    /// scripts/robustness-corpus).
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// Suites to run, comma-separated: mutation (mutated hashline
    /// documents), real (real edits of consecutive package versions),
    /// content (content-addressed edits: str_replace, apply_patch, SUB,
    /// and their mistakes), tokens (what each form of each real edit
    /// costs).
    #[arg(long, value_delimiter = ',', default_value = "mutation,real")]
    suite: Vec<String>,
    /// Real-edit corpus directory (default: target/real-edits-corpus, made
    /// by scripts/real-edits-corpus).
    #[arg(long)]
    real_corpus: Option<PathBuf>,
    /// Run this many real edits, spread evenly over the corpus (default:
    /// all).
    #[arg(long)]
    real_docs: Option<usize>,
    /// Reads before each real edit, comma-separated: whole (the whole
    /// file), windows (read_file windows of each hunk ±5 lines), grep
    /// (grep of each hunk's first changed line ±3 lines). Modes other
    /// than whole run only the engines that keep a session.
    #[arg(long, value_delimiter = ',', default_value = "whole")]
    reads: Vec<String>,
    /// Engines, comma-separated: hashedit (with a session, as the MCP
    /// server), hashedit-cli (without), hashedit-sub (SUB documents), rho,
    /// rho-str_replace, rho-apply_patch, oh-my-pi. Each suite runs those
    /// whose form it has. Default: per suite, every engine it can drive.
    #[arg(long, value_delimiter = ',')]
    engines: Option<Vec<String>>,
    /// Write every wrong or non-actionable case, and every real edit not
    /// applied exactly and silently, under this directory (document,
    /// files, reply, signals).
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Write the token suite's figures as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// The minified one-line file of the token suite's long-line case
    /// (default: svelte's compiler/index.js in the mutation corpus).
    #[arg(long)]
    long_line: Option<PathBuf>,
    /// Exit with status 1 when hashedit (the first engine) applied any
    /// document wrongly.
    #[arg(long)]
    strict: bool,
}

/// Every engine, in column order.
const ENGINES: [&str; 7] = [
    "hashedit",
    "hashedit-cli",
    "rho",
    "oh-my-pi",
    "rho-str_replace",
    "rho-apply_patch",
    "hashedit-sub",
];

fn engine(name: &str) -> Result<Box<dyn Engine>, String> {
    let io = |e: std::io::Error| format!("{name}: {e}");
    match name {
        "hashedit" => Ok(Box::new(Ours::with_session().map_err(io)?)),
        "hashedit-cli" => Ok(Box::new(Ours::without_session().map_err(io)?)),
        "hashedit-sub" => Ok(Box::new(Ours::sub_documents().map_err(io)?)),
        "rho" => Ok(Box::new(RhoEngine::new()?)),
        "rho-str_replace" => Ok(Box::new(RhoEngine::with_form(Form::StrReplace)?)),
        "rho-apply_patch" => Ok(Box::new(RhoEngine::with_form(Form::ApplyPatch)?)),
        "oh-my-pi" | "omp" => Ok(Box::new(OmpEngine::new()?)),
        other => Err(format!(
            "unknown engine {other:?}; known: {}",
            ENGINES.join(", ")
        )),
    }
}

/// The engines a suite runs by default.
fn defaults(suite: &str) -> &'static [&'static str] {
    match suite {
        "mutation" => &ENGINES[..4],
        "content" => &[
            "hashedit",
            "hashedit-cli",
            "rho",
            "rho-str_replace",
            "rho-apply_patch",
            "hashedit-sub",
        ],
        "real" => &ENGINES,
        _ => &[],
    }
}

/// The engines, made once and lent to each suite.
struct Pool {
    engines: Vec<(String, Option<Box<dyn Engine>>)>,
}

impl Pool {
    /// Takes out the engines of `names` that take one of `forms`, in
    /// column order, making those not made yet.
    fn take(&mut self, names: &[String], forms: &[Form]) -> Result<Vec<Box<dyn Engine>>, String> {
        let mut taken = Vec::new();
        for name in names {
            let name = if name == "omp" {
                "oh-my-pi"
            } else {
                name.as_str()
            };
            let slot = match self.engines.iter().position(|(n, _)| n == name) {
                Some(i) => i,
                None => {
                    self.engines.push((name.to_string(), Some(engine(name)?)));
                    self.engines.len() - 1
                }
            };
            let fits = self.engines[slot]
                .1
                .as_ref()
                .is_some_and(|e| forms.contains(&e.form()));
            if fits && let Some(e) = self.engines[slot].1.take() {
                taken.push(e);
            }
        }
        Ok(taken)
    }

    /// Gives engines back.
    fn give(&mut self, engines: Vec<Box<dyn Engine>>) {
        for e in engines {
            if let Some(slot) = self
                .engines
                .iter_mut()
                .find(|(n, s)| n == e.name() && s.is_none())
            {
                slot.1 = Some(e);
            }
        }
    }
}

fn progress(what: &'static str) -> impl FnMut(usize, usize) {
    move |done, total| {
        if done % 50 == 0 || done == total {
            eprint!("\r  {done}/{total} {what}");
            let _ = std::io::stderr().flush();
        }
    }
}

/// The mutation corpus: its tables, and its results for the guard table.
fn mutation(args: &Args, engines: &mut [Box<dyn Engine>]) -> Result<Results, String> {
    let dir = args.corpus.clone().unwrap_or_else(Corpus::default_dir);
    let corpus = Corpus::load(&dir)?;
    eprintln!(
        "hashedit-robustness: {} corpus files in {}; generating {} tasks (seed {})",
        corpus.len(),
        dir.display(),
        args.tasks,
        args.seed
    );
    let cases = generate(&corpus, args.tasks, args.seed);
    let names: Vec<String> = engines.iter().map(|e| e.name().to_string()).collect();
    let results = run(
        &cases,
        engines,
        |case, v, e, reply, outcome| {
            if let Some(dir) = &args.dump
                && (outcome.is_wrong() || outcome == Outcome::RefusedOther)
            {
                dump::mutation_case(dir, &names[e], case, v, reply, outcome);
            }
        },
        progress("tasks"),
    );
    eprintln!();
    println!(
        "# hashedit robustness: {} tasks, seed {}\n",
        cases.len(),
        args.seed
    );
    println!("corpus: {}", corpus.manifest.join("; "));
    print!("{}", report::mix(&results));
    println!("\n## Summary (applied as intended · refused · applied wrongly)\n");
    print!("{}", report::summary(&results));
    for (e, name) in results.engines.iter().enumerate() {
        println!("\n## {name}\n");
        print!("{}", report::detail(&results, e));
    }
    println!("\n## Payload\n");
    print!("{}", report::payload(&results));
    println!();
    for (name, elapsed) in results.engines.iter().zip(&results.elapsed) {
        println!("time in {name}: {:.1} s", elapsed.as_secs_f64());
    }
    Ok(results)
}

/// The content-addressed variants of the mutation corpus's tasks.
fn content(args: &Args, engines: &mut [Box<dyn Engine>]) -> Result<(), String> {
    let dir = args.corpus.clone().unwrap_or_else(Corpus::default_dir);
    let corpus = Corpus::load(&dir)?;
    let cases = generate_replace(&corpus, args.tasks, args.seed);
    let names: Vec<String> = engines.iter().map(|e| e.name().to_string()).collect();
    let results = run_replace(
        &cases,
        engines,
        |case, v, e, reply, outcome| {
            if let Some(dir) = &args.dump
                && (outcome.is_wrong() || outcome == Outcome::RefusedOther)
            {
                dump::replace_case(dir, &names[e], case, v, reply, outcome);
            }
        },
        progress("tasks"),
    );
    eprintln!();
    println!(
        "\n# Content-addressed edits: {} tasks, seed {}\n",
        cases.len(),
        args.seed
    );
    println!(
        "Forms: hashedit, hashedit-cli and rho take PUT/CUT documents (stale kinds only), \
         rho-str_replace str_replace calls, rho-apply_patch V4A patches, hashedit-sub SUB \
         documents. stale-at-edit is right when refused.\n"
    );
    print!("{}", report::replace_summary(&results));
    for (e, name) in results.engines.iter().enumerate() {
        println!("\n## {name} on content-addressed edits\n");
        print!("{}", report::replace_detail(&results, e));
    }
    println!();
    for (name, elapsed) in results.engines.iter().zip(&results.elapsed) {
        println!(
            "time in {name} (content-addressed): {:.1} s",
            elapsed.as_secs_f64()
        );
    }
    Ok(())
}

/// The real-edit corpus after `reads`: its tables, and its results for
/// the guard table.
fn real_edits(
    args: &Args,
    corpus: &RealCorpus,
    reads: Reads,
    engines: &mut [Box<dyn Engine>],
) -> RealResults {
    let edits = corpus.slice(args.real_docs.unwrap_or(usize::MAX));
    let names: Vec<String> = engines.iter().map(|e| e.name().to_string()).collect();
    let results = run_real_reading(
        &edits,
        engines,
        reads,
        |i, e, reply, outcome| {
            let class = RealClass::classify(outcome, !reply.warnings.is_empty());
            if let Some(dir) = &args.dump
                && class != RealClass::Exact
            {
                dump::real_case(dir, &names[e], class.heading(), i, &edits[i], reply);
            }
        },
        progress("real edits"),
    );
    eprintln!();
    println!(
        "\n# Real edits: {} documents, reads: {}\n",
        edits.len(),
        reads.describe()
    );
    println!("corpus: {}", corpus.manifest.join("; "));
    println!(
        "changed files left out: {} longer than {} lines, {} not plain LF text\n",
        corpus.skipped.too_long,
        hashedit_robustness::real::MAX_LINES,
        corpus.skipped.not_plain
    );
    print!("{}", report::real_summary(&results));
    let unshown = results
        .records
        .iter()
        .filter(|r| r.engine == 0 && r.unshown)
        .count();
    println!(
        "\nedits reaching lines no read displayed: {unshown} of {}",
        edits.len()
    );
    if reads == Reads::WholeFile {
        for (e, name) in results.engines.iter().enumerate() {
            println!("\n## {name} on real edits\n");
            print!("{}", report::real_detail(&results, e));
        }
    }
    println!();
    for (name, elapsed) in results.engines.iter().zip(&results.elapsed) {
        println!(
            "time in {name} (real edits, {} reads): {:.1} s",
            reads.name(),
            elapsed.as_secs_f64()
        );
    }
    results
}

/// The token suite: tables to stdout, figures to `--json`.
fn tokens(args: &Args) -> Result<bool, String> {
    let dir = args
        .real_corpus
        .clone()
        .unwrap_or_else(RealCorpus::default_dir);
    let corpus = RealCorpus::load(&dir)?;
    let edits = corpus.slice(args.real_docs.unwrap_or(usize::MAX));
    let long_file = args.long_line.clone().unwrap_or_else(|| {
        args.corpus
            .clone()
            .unwrap_or_else(Corpus::default_dir)
            .join("javascript/svelte-5.1.0/compiler/index.js")
    });
    let long = long_line_edit(&long_file, "javascript/svelte-5.1.0/compiler/index.js");
    if long.is_none() {
        eprintln!(
            "hashedit-robustness: no minified one-line file at {}: the long-line case is skipped",
            long_file.display()
        );
    }
    let run = run_tokens(&edits, long.as_ref(), progress("edits"))?;
    eprintln!();
    println!("\n# Tokens: {} real edits\n", run.edits.len());
    println!("corpus: {}\n", corpus.manifest.join("; "));
    println!("## Every payload\n");
    print!("{}", report::token_summary(&run));
    println!("\nguard refusals counted: {}\n", report::guard_kinds(&run));
    println!("## Each written form against minimal str_replace calls (o200k, per edit)\n");
    print!("{}", report::token_ratios(&run));
    println!("\n## By edit size (o200k: median / p90 / total)\n");
    print!("{}", report::token_by_size(&run));
    println!("\n## By language (o200k: median / p90 / total)\n");
    print!("{}", report::token_by_language(&run));
    println!("\n## Highest ratios: cheapest line-addressed form / minimal str_replace\n");
    print!("{}", report::worst_ratios(&run, 10));
    if let Some(case) = &run.long_line {
        println!("\n## The long-line case: {}\n", case.describe);
        print!("{}", report::long_line(case));
    }
    println!("\n## Generated payloads, each applied by its reference reading\n");
    print!("{}", report::token_checks(&run));
    if let Some(path) = &args.json {
        write_json(path, &report::token_json(&run))?;
    }
    Ok(run.failures.is_empty())
}

fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn main() -> ExitCode {
    let args = Args::parse();
    let fail = |e: String| {
        eprintln!("hashedit-robustness: {e}");
        ExitCode::from(2)
    };
    for suite in &args.suite {
        if !["mutation", "real", "content", "tokens"].contains(&suite.as_str()) {
            return fail(format!(
                "unknown suite {suite:?}; known: mutation, real, content, tokens"
            ));
        }
    }
    let mut reads = Vec::new();
    for name in &args.reads {
        match Reads::parse(name) {
            Some(r) => reads.push(r),
            None => {
                return fail(format!(
                    "unknown reads {name:?}; known: whole, windows, grep"
                ));
            }
        }
    }
    let names = |suite: &str| -> Vec<String> {
        match &args.engines {
            Some(names) => names.clone(),
            None => defaults(suite).iter().map(|s| s.to_string()).collect(),
        }
    };
    let mut pool = Pool {
        engines: Vec::new(),
    };
    let wants = |suite: &str| args.suite.iter().any(|s| s == suite);
    let mut mutated = None;
    if wants("mutation") {
        let mut engines = match pool.take(&names("mutation"), &[Form::Document]) {
            Ok(e) => e,
            Err(e) => return fail(e),
        };
        let results = mutation(&args, &mut engines);
        pool.give(engines);
        match results {
            Ok(results) => mutated = Some(results),
            Err(e) => return fail(e),
        }
    }
    let mut real = None;
    if wants("real") {
        let dir = args
            .real_corpus
            .clone()
            .unwrap_or_else(RealCorpus::default_dir);
        let corpus = match RealCorpus::load(&dir) {
            Ok(c) => c,
            Err(e) => return fail(e),
        };
        let all = [
            Form::Document,
            Form::SubDocument,
            Form::StrReplace,
            Form::ApplyPatch,
        ];
        for &mode in &reads {
            let mut engines = match pool.take(&names("real"), &all) {
                Ok(e) => e,
                Err(e) => return fail(e),
            };
            if mode != Reads::WholeFile {
                let (reading, rest): (Vec<_>, Vec<_>) =
                    engines.into_iter().partition(|e| e.keeps_session());
                pool.give(rest);
                engines = reading;
            }
            let results = real_edits(&args, &corpus, mode, &mut engines);
            pool.give(engines);
            if mode == Reads::WholeFile || real.is_none() {
                real = Some(results);
            }
        }
    }
    if wants("content") {
        let all = [
            Form::Document,
            Form::SubDocument,
            Form::StrReplace,
            Form::ApplyPatch,
        ];
        let mut engines = match pool.take(&names("content"), &all) {
            Ok(e) => e,
            Err(e) => return fail(e),
        };
        let done = content(&args, &mut engines);
        pool.give(engines);
        if let Err(e) = done {
            return fail(e);
        }
    }
    let mut tokens_ok = true;
    if wants("tokens") {
        match tokens(&args) {
            Ok(ok) => tokens_ok = ok,
            Err(e) => return fail(e),
        }
    }
    let guarded = match (&mutated, &real) {
        (Some(m), _) => m.engines.clone(),
        (None, Some(r)) => r.engines.clone(),
        (None, None) => Vec::new(),
    };
    for name in &guarded {
        println!("\n## Guards of {name}\n");
        print!("{}", report::guards(mutated.as_ref(), real.as_ref(), name));
    }
    let wrong = mutated
        .as_ref()
        .map_or(0, |r| r.select(0, |r| r.outcome.is_wrong()).len())
        + real.as_ref().map_or(0, |r| {
            r.records
                .iter()
                .filter(|r| r.engine == 0 && r.outcome.is_wrong())
                .count()
        });
    if args.strict && wrong > 0 {
        eprintln!("hashedit-robustness: the first engine applied {wrong} document(s) wrongly");
        return ExitCode::from(1);
    }
    if !tokens_ok {
        eprintln!("hashedit-robustness: a generated payload did not land (see the checks table)");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
