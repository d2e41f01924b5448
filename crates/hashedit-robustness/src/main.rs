//! `hashedit-robustness`: prints the robustness tables.
//!
//! ```text
//! scripts/robustness-corpus
//! cargo run --release -p hashedit-robustness -- --tasks 2000 --seed 1
//! ```

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use hashedit_robustness::bench::{Case, generate, run};
use hashedit_robustness::corpus::Corpus;
use hashedit_robustness::engine::{Engine, Ours, Reply};
use hashedit_robustness::peers::{OmpEngine, RhoEngine};
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
    /// Engines to run, comma-separated: hashedit (with a session, as the
    /// MCP server), hashedit-cli (without), rho, oh-my-pi.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "hashedit,hashedit-cli,rho,oh-my-pi"
    )]
    engines: Vec<String>,
    /// Write every wrong or non-actionable case under this directory
    /// (document, original, live, intended, after, reply).
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

fn dump(dir: &Path, engine: &str, case: &Case, v: usize, reply: &Reply, outcome: Outcome) {
    let variant = &case.variants[v];
    let case_dir = dir.join(engine).join(variant.mistake.name()).join(format!(
        "{:05}-{}-{}",
        case.task.index,
        variant.form,
        outcome.label().replace(['(', ')'], "")
    ));
    let files: [(&str, &[u8]); 7] = [
        ("document.txt", reply.document.as_bytes()),
        ("original", variant.served.text().into_bytes().leak()),
        ("live", variant.live.text().into_bytes().leak()),
        ("intended", variant.intended.text().into_bytes().leak()),
        ("after", reply.after.as_deref().unwrap_or_default()),
        ("reply.txt", reply.text.as_bytes()),
        (
            "task.txt",
            format!(
                "{}\n{} ({})\n{}\nwarnings: {:?}\n",
                case.task.path,
                case.task.mutation.name(),
                case.task.description,
                case.task.lang.name(),
                reply.warnings
            )
            .into_bytes()
            .leak(),
        ),
    ];
    if std::fs::create_dir_all(&case_dir).is_ok() {
        for (name, bytes) in files {
            let _ = std::fs::write(case_dir.join(name), bytes);
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let dir = args.corpus.clone().unwrap_or_else(Corpus::default_dir);
    let corpus = match Corpus::load(&dir) {
        Ok(corpus) => corpus,
        Err(e) => {
            eprintln!("hashedit-robustness: {e}");
            return ExitCode::from(2);
        }
    };
    let mut engines: Vec<Box<dyn Engine>> = Vec::new();
    for name in &args.engines {
        match engine(name) {
            Ok(e) => engines.push(e),
            Err(e) => {
                eprintln!("hashedit-robustness: {e}");
                return ExitCode::from(2);
            }
        }
    }
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
        &mut engines,
        |case, v, e, reply, outcome| {
            if let Some(dir) = &args.dump
                && (outcome.is_wrong() || outcome == Outcome::RefusedOther)
            {
                dump(dir, &names[e], case, v, reply, outcome);
            }
        },
        |done, total| {
            if done % 50 == 0 || done == total {
                eprint!("\r  {done}/{total} tasks");
                let _ = std::io::stderr().flush();
            }
        },
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
    let wrong = results.select(0, |r| r.outcome.is_wrong()).len();
    if args.strict && wrong > 0 {
        eprintln!(
            "hashedit-robustness: {} applied {wrong} document(s) wrongly",
            names[0]
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
