//! `hashedit-robustness`: prints the robustness tables.
//!
//! ```text
//! scripts/robustness-corpus
//! scripts/real-edits-corpus
//! cargo run --release -p hashedit-robustness -- --tasks 2000 --seed 1
//! ```

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use hashedit_robustness::bench::{Results, generate, run};
use hashedit_robustness::corpus::Corpus;
use hashedit_robustness::dump;
use hashedit_robustness::engine::{Engine, Ours};
use hashedit_robustness::peers::{OmpEngine, RhoEngine};
use hashedit_robustness::real::RealCorpus;
use hashedit_robustness::real_bench::{RealClass, RealResults, run_real};
use hashedit_robustness::report;
use hashedit_robustness::score::Outcome;

/// Offline edit-robustness benchmark for hashline documents.
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
    /// Corpora to run, comma-separated: mutation (mutated documents),
    /// real (real edits of consecutive package versions).
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
    /// Engines to run, comma-separated: hashedit (with a session, as the
    /// MCP server), hashedit-cli (without), rho, oh-my-pi.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "hashedit,hashedit-cli,rho,oh-my-pi"
    )]
    engines: Vec<String>,
    /// Write every wrong or non-actionable case, and every real edit not
    /// applied exactly and silently, under this directory (document,
    /// files, reply, signals).
    #[arg(long)]
    dump: Option<PathBuf>,
    /// Exit with status 1 when hashedit (the first engine) applied any
    /// document wrongly.
    #[arg(long)]
    strict: bool,
}

fn engine(name: &str) -> Result<Box<dyn Engine>, String> {
    let io = |e: std::io::Error| format!("{name}: {e}");
    match name {
        "hashedit" => Ok(Box::new(Ours::with_session().map_err(io)?)),
        "hashedit-cli" => Ok(Box::new(Ours::without_session().map_err(io)?)),
        "rho" => Ok(Box::new(RhoEngine::new()?)),
        "oh-my-pi" | "omp" => Ok(Box::new(OmpEngine::new()?)),
        other => Err(format!(
            "unknown engine {other:?}; known: hashedit, hashedit-cli, rho, oh-my-pi"
        )),
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

/// The real-edit corpus: its tables, and its results for the guard table.
fn real_edits(args: &Args, engines: &mut [Box<dyn Engine>]) -> Result<RealResults, String> {
    let dir = args
        .real_corpus
        .clone()
        .unwrap_or_else(RealCorpus::default_dir);
    let corpus = RealCorpus::load(&dir)?;
    let edits = corpus.slice(args.real_docs.unwrap_or(usize::MAX));
    eprintln!(
        "hashedit-robustness: {} real edits in {} ({} run; changed files left out: {} too long, {} not plain LF text)",
        corpus.edits.len(),
        dir.display(),
        edits.len(),
        corpus.skipped.too_long,
        corpus.skipped.not_plain
    );
    let names: Vec<String> = engines.iter().map(|e| e.name().to_string()).collect();
    let results = run_real(
        &edits,
        engines,
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
    println!("\n# Real edits: {} documents\n", edits.len());
    println!("corpus: {}", corpus.manifest.join("; "));
    println!(
        "changed files left out: {} longer than {} lines, {} not plain LF text\n",
        corpus.skipped.too_long,
        hashedit_robustness::real::MAX_LINES,
        corpus.skipped.not_plain
    );
    print!("{}", report::real_summary(&results));
    for (e, name) in results.engines.iter().enumerate() {
        println!("\n## {name} on real edits\n");
        print!("{}", report::real_detail(&results, e));
    }
    println!();
    for (name, elapsed) in results.engines.iter().zip(&results.elapsed) {
        println!(
            "time in {name} (real edits): {:.1} s",
            elapsed.as_secs_f64()
        );
    }
    Ok(results)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let fail = |e: String| {
        eprintln!("hashedit-robustness: {e}");
        ExitCode::from(2)
    };
    for suite in &args.suite {
        if suite != "mutation" && suite != "real" {
            return fail(format!("unknown suite {suite:?}; known: mutation, real"));
        }
    }
    let mut engines: Vec<Box<dyn Engine>> = Vec::new();
    for name in &args.engines {
        match engine(name) {
            Ok(e) => engines.push(e),
            Err(e) => return fail(e),
        }
    }
    let wants = |suite: &str| args.suite.iter().any(|s| s == suite);
    let mutated = if wants("mutation") {
        match mutation(&args, &mut engines) {
            Ok(results) => Some(results),
            Err(e) => return fail(e),
        }
    } else {
        None
    };
    let real = if wants("real") {
        match real_edits(&args, &mut engines) {
            Ok(results) => Some(results),
            Err(e) => return fail(e),
        }
    } else {
        None
    };
    for name in &args.engines {
        let name = engines
            .iter()
            .find(|e| e.name() == name || (name == "omp" && e.name() == "oh-my-pi"))
            .map_or(name.as_str(), |e| e.name());
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
        eprintln!(
            "hashedit-robustness: {} applied {wrong} document(s) wrongly",
            engines[0].name()
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
