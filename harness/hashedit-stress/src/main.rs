//! `hashedit-stress`: runs the reliability harnesses against a `hashedit`
//! binary and prints Markdown figures for docs/RELIABILITY.md.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use hashedit_stress::bench;
use hashedit_stress::client::Launcher;
use hashedit_stress::corpus::parse_size;
use hashedit_stress::crash::{self, CrashConfig, Surface, SweepConfig};
use hashedit_stress::facts::Facts;
use hashedit_stress::fixture::Scenario;
use hashedit_stress::race::{
    self, ExternalConfig, ExternalMode, ExternalReport, RaceConfig, Writers,
};

#[derive(Debug, Parser)]
#[command(
    name = "hashedit-stress",
    about = "Crash, race and hostile-input harnesses for hashedit; prints Markdown figures.",
    after_help = "Exit status: 0 when every target is met, 1 when a promise was broken, 2 on a usage or setup error."
)]
struct Args {
    /// The hashedit binary (default: `hashedit` beside this program).
    #[arg(long, global = true, value_name = "PATH")]
    bin: Option<PathBuf>,
    /// Directory for trial workspaces: put it on the file system under
    /// test (default: a new directory under the system temp dir).
    #[arg(long, global = true, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Seed; runs with the same seed make the same choices.
    #[arg(long, global = true, default_value_t = 1)]
    seed: u64,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// SIGKILL hashedit at random and aimed instants during edit and write.
    Crash {
        /// Kill trials to run.
        #[arg(long, default_value_t = 1000)]
        kills: usize,
        /// Largest file (e.g. 50M).
        #[arg(long, default_value = "50M")]
        max_size: String,
        /// Surfaces, comma-separated: cli-edit,cli-write,mcp-edit,mcp-write.
        #[arg(long, default_value = "cli-edit,cli-write,mcp-edit,mcp-write")]
        surfaces: String,
        /// Scenarios: plain,symlink,hardlink,foreign-owner,create,multi-file.
        #[arg(
            long,
            default_value = "plain,symlink,hardlink,foreign-owner,create,multi-file"
        )]
        scenarios: String,
        /// Kill trials per calibrated case.
        #[arg(long, default_value_t = 8)]
        trials_per_case: usize,
        /// Print a progress line per case on stderr.
        #[arg(long)]
        verbose: bool,
    },
    /// Kill at every file-related system call entry, through strace.
    Sweep {
        /// File sizes to sweep, comma-separated.
        #[arg(long, default_value = "0,3K,300K")]
        sizes: String,
        /// Surfaces.
        #[arg(long, default_value = "cli-edit,cli-write,mcp-edit,mcp-write")]
        surfaces: String,
        /// Scenarios.
        #[arg(
            long,
            default_value = "plain,symlink,hardlink,foreign-owner,create,multi-file"
        )]
        scenarios: String,
        /// At most this many kill points per system call (spread evenly).
        #[arg(long, default_value_t = 60)]
        max_per_syscall: usize,
    },
    /// Many writers on one snapshot, round after round.
    Race {
        /// Rounds.
        #[arg(long, default_value_t = 500)]
        rounds: usize,
        /// Writer threads (library calls in this process).
        #[arg(long, default_value_t = 4)]
        threads: usize,
        /// CLI processes.
        #[arg(long, default_value_t = 3)]
        cli: usize,
        /// MCP servers.
        #[arg(long, default_value_t = 2)]
        mcp: usize,
        /// Extra concurrent calls into the first MCP server.
        #[arg(long, default_value_t = 2)]
        pipelined: usize,
        /// Percentage of disjoint rounds (each writer its own line).
        #[arg(long, default_value_t = 30)]
        disjoint: u64,
    },
    /// hashedit against an external writer that takes no lock.
    External {
        /// hashedit edits per mode.
        #[arg(long, default_value_t = 1000)]
        rounds: usize,
        /// in-place, rename or both.
        #[arg(long, default_value = "both")]
        mode: String,
        /// Longest pause of the external writer between writes (µs).
        #[arg(long, default_value_t = 3000)]
        max_pause_us: u64,
    },
    /// Hostile inputs too big for unit tests: time and peak RSS.
    Bench {
        /// Run only cases whose name contains this.
        #[arg(long)]
        only: Option<String>,
        /// Keep the big fixtures (about 5 GiB) for the next run.
        #[arg(long)]
        keep_files: bool,
    },
    /// Print the machine facts for the test directory.
    Facts,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("hashedit-stress: {error}");
            ExitCode::from(2)
        }
    }
}

fn default_bin() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = me.with_file_name("hashedit");
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "no hashedit binary at {}; build it (cargo build --release -p hashedit) or pass --bin",
            bin.display()
        ))
    }
}

fn list<T>(text: &str, parse: impl Fn(&str) -> Option<T>, what: &str) -> Result<Vec<T>, String> {
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| parse(s.trim()).ok_or_else(|| format!("unknown {what} '{s}'")))
        .collect()
}

/// Runs the command; `Ok(false)` when a target was missed.
fn run(args: Args) -> Result<bool, String> {
    let bin = match args.bin {
        Some(bin) => bin,
        None => default_bin()?,
    };
    let bin = std::fs::canonicalize(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let (dir, _guard) = match args.dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            (dir, None)
        }
        None => {
            let temp = std::env::temp_dir().join(format!("hashedit-stress-{}", std::process::id()));
            std::fs::create_dir_all(&temp).map_err(|e| e.to_string())?;
            (temp.clone(), Some(RemoveOnDrop(temp)))
        }
    };
    let dir = std::fs::canonicalize(&dir).map_err(|e| e.to_string())?;
    let launcher = Launcher::new(&bin);
    let facts = Facts::collect(&dir);
    println!("machine: {}", facts.line());
    println!("binary: {}", bin.display());
    println!("seed: {}", args.seed);
    match args.command {
        Command::Facts => Ok(true),
        Command::Crash {
            kills,
            max_size,
            surfaces,
            scenarios,
            trials_per_case,
            verbose,
        } => {
            let config = CrashConfig {
                dir: dir.clone(),
                kills,
                seed: args.seed,
                max_size: parse_size(&max_size).ok_or("bad --max-size")?,
                surfaces: list(&surfaces, Surface::parse, "surface")?,
                scenarios: list(&scenarios, Scenario::parse, "scenario")?,
                trials_per_case: trials_per_case.max(1),
                verbose,
            };
            let started = std::time::Instant::now();
            let report = crash::run(&launcher, &config, |line| eprintln!("{line}"));
            print_crash(&report, started.elapsed());
            Ok(crash_targets_met(&report))
        }
        Command::Sweep {
            sizes,
            surfaces,
            scenarios,
            max_per_syscall,
        } => {
            let config = SweepConfig {
                dir: dir.clone(),
                seed: args.seed,
                sizes: list(&sizes, |s| parse_size(s).map(|v| v as usize), "size")?,
                surfaces: list(&surfaces, Surface::parse, "surface")?,
                scenarios: list(&scenarios, Scenario::parse, "scenario")?,
                max_per_syscall,
            };
            let started = std::time::Instant::now();
            let report = crash::strace_sweep(&launcher, &config, |line| eprintln!("{line}"));
            print_crash(&report, started.elapsed());
            Ok(crash_targets_met(&report))
        }
        Command::Race {
            rounds,
            threads,
            cli,
            mcp,
            pipelined,
            disjoint,
        } => {
            let writers = Writers {
                threads,
                cli,
                mcp,
                mcp_pipelined: pipelined,
            };
            let config = RaceConfig {
                dir: dir.clone(),
                rounds,
                writers,
                seed: args.seed,
                disjoint_percent: disjoint,
            };
            let report = race::writers(&launcher, &config)?;
            println!("\n{}", report.table(&writers));
            for fault in &report.faults {
                println!("- fault: {fault}");
            }
            Ok(report.lost_updates == 0
                && report.phantom_changes == 0
                && report.broken_calls == 0
                && report.no_winner == 0)
        }
        Command::External {
            rounds,
            mode,
            max_pause_us,
        } => {
            let modes = match mode.as_str() {
                "in-place" => vec![ExternalMode::InPlace],
                "rename" => vec![ExternalMode::Rename],
                "both" => vec![ExternalMode::InPlace, ExternalMode::Rename],
                other => return Err(format!("unknown mode '{other}'")),
            };
            println!(
                "\n| external writer | edits | successes | … with no overlapping external write | visible after | overwritten after | refusals | external writes | lost updates | wrong base | unreported writes |"
            );
            println!("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|");
            let mut total = ExternalReport::default();
            for mode in modes {
                let config = ExternalConfig {
                    dir: dir.clone(),
                    rounds,
                    mode,
                    seed: args.seed,
                    max_pause_us,
                };
                let report = race::external(&launcher, &config)?;
                println!("{}", report.row());
                total.merge(&report);
            }
            println!("{}", total.row());
            for fault in &total.faults {
                println!("- fault: {fault}");
            }
            Ok(total.lost_updates == 0 && total.wrong_base == 0 && total.unreported_writes == 0)
        }
        Command::Bench { only, keep_files } => {
            let results = bench::run(&launcher, &dir, only.as_deref(), keep_files, |line| {
                eprintln!("{line}")
            })?;
            println!("\n{}", bench::table(&results));
            Ok(results.iter().all(|r| r.passed()))
        }
    }
}

fn print_crash(report: &crash::CrashReport, elapsed: std::time::Duration) {
    println!("\n{}", report.table());
    let atomic = report.total_where(|s| !matches!(s, Scenario::HardLink | Scenario::Foreign));
    let in_place = report.total_where(|s| matches!(s, Scenario::HardLink | Scenario::Foreign));
    println!(
        "replaced by rename (plain, symlink, create, multi-file): {} kills, {} torn, {} lost, {} trials with other problems",
        atomic.trials,
        atomic.torn(),
        atomic.lost(),
        atomic.other_problem_trials
    );
    println!(
        "rewritten in place (hard link, foreign owner): {} kills, {} torn (of which {} with a complete copy of the old bytes beside them), {} lost",
        in_place.trials,
        in_place.torn(),
        in_place.torn_recoverable,
        in_place.lost()
    );
    let total = report.total();
    let plans: Vec<String> = total
        .plans
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!("kill plans: {}", plans.join(", "));
    println!("leftover files by kind:\n{}", report.leftover_lines());
    println!("wall time: {:.1} s", elapsed.as_secs_f64());
    for error in &report.calibration_errors {
        println!("- setup error: {error}");
    }
    for failure in &report.failures {
        println!("- failed trial: {failure}");
    }
}

/// Every promise held: no torn or lost file where files are replaced by
/// rename, no lost file anywhere, no unexplained leftover, no metadata or
/// link damage, and every torn in-place file recoverable from its copy.
fn crash_targets_met(report: &crash::CrashReport) -> bool {
    let total = report.total();
    let in_place = report.total_where(|s| matches!(s, Scenario::HardLink | Scenario::Foreign));
    let unexplained = total
        .leftovers
        .get(&hashedit_stress::fixture::Leftover::Unexplained)
        .copied()
        .unwrap_or(0);
    let other = total.other_problem_trials;
    report.calibration_errors.is_empty()
        && total.lost() == 0
        && total.torn() == in_place.torn()
        && in_place.torn() == in_place.torn_recoverable
        && unexplained == 0
        && other == 0
}

/// Removes a directory when dropped.
struct RemoveOnDrop(PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
