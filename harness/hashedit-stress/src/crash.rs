//! The crash harness: SIGKILL the real `hashedit` (CLI `edit` and
//! `write`, and the MCP server's `edit` and `write` tools) at chosen
//! instants, then check that every file holds exactly its old or its new
//! bytes with its mode, owner, symlinks and hard links intact, and classify
//! every leftover `.hashedit-*` file.
//!
//! Kill instants come from four plans:
//! * [`KillPlan::Delay`]: a random delay over the whole run, calibrated on
//!   an uninterrupted run of the same operation (0 to 1.3× its duration);
//! * [`KillPlan::OnTemp`]: as soon as a `.hashedit-*` file appears in the
//!   file's directory (the commit has begun), plus a random extra delay;
//! * [`KillPlan::OnChange`]: as soon as the file's inode, size or mtime
//!   changes (the rename or in-place rewrite happened), plus a random extra
//!   delay — the directory fsync and clean-up window;
//! * [`KillPlan::Strace`]: exactly on entry to the n-th call of a system
//!   call, through strace's fault injection; [`strace_sweep`] enumerates
//!   every (call, n) an uninterrupted run makes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::client::{Cli, Launcher, McpServer, Reply, StraceKill};
use crate::corpus::{self, LineShape};
use crate::fixture::{Content, EDITING_USER, Fixture, Inspection, Leftover, Scenario};
use crate::rng::Rng;

/// Largest content the MCP `write` trials send: the server refuses
/// messages over 16 MiB (docs/MCP.md), and JSON escaping grows text.
pub const MCP_WRITE_MAX: u64 = 12 * 1024 * 1024;

/// Which surface and tool a trial drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Surface {
    /// `hashedit edit` (document on stdin).
    CliEdit,
    /// `hashedit write PATH` (content on stdin).
    CliWrite,
    /// `hashedit mcp`, tool `edit`.
    McpEdit,
    /// `hashedit mcp`, tool `write`.
    McpWrite,
}

impl Surface {
    /// Every surface.
    pub const ALL: [Surface; 4] = [
        Surface::CliEdit,
        Surface::CliWrite,
        Surface::McpEdit,
        Surface::McpWrite,
    ];

    /// A short name for reports and the command line.
    pub fn name(self) -> &'static str {
        match self {
            Surface::CliEdit => "cli-edit",
            Surface::CliWrite => "cli-write",
            Surface::McpEdit => "mcp-edit",
            Surface::McpWrite => "mcp-write",
        }
    }

    /// Parses [`Surface::name`].
    pub fn parse(name: &str) -> Option<Surface> {
        Surface::ALL.into_iter().find(|s| s.name() == name)
    }

    fn is_write(self) -> bool {
        matches!(self, Surface::CliWrite | Surface::McpWrite)
    }

    fn is_mcp(self) -> bool {
        matches!(self, Surface::McpEdit | Surface::McpWrite)
    }

    /// Whether `scenario` makes sense for this surface (`write` changes
    /// one file; `edit` never creates one).
    pub fn supports(self, scenario: Scenario) -> bool {
        match scenario {
            Scenario::Create => self.is_write(),
            Scenario::Multi => !self.is_write(),
            Scenario::Foreign => rustix::process::geteuid().is_root(),
            _ => true,
        }
    }
}

/// When to kill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KillPlan {
    /// After this delay from the start of the operation.
    Delay(Duration),
    /// When a `.hashedit-*` file appears, plus this much.
    OnTemp(Duration),
    /// When the (first) file's inode, size or mtime changes, plus this
    /// much.
    OnChange(Duration),
    /// On entry to a system call, by strace.
    Strace(StraceKill),
}

impl KillPlan {
    /// A short name for reports.
    pub fn name(&self) -> &'static str {
        match self {
            KillPlan::Delay(_) => "random delay",
            KillPlan::OnTemp(_) => "temp file appears",
            KillPlan::OnChange(_) => "file changes",
            KillPlan::Strace(_) => "strace syscall",
        }
    }
}

/// What one operation sends.
#[derive(Debug, Clone)]
enum Input {
    /// An edit document.
    Document(String),
    /// `write` of this content to this path.
    Content { path: String, bytes: Arc<Vec<u8>> },
}

/// A calibrated operation on a fixture: the unit trials repeat.
#[derive(Debug, Clone)]
pub struct Case {
    /// The surface.
    pub surface: Surface,
    /// The fixture (old and new states recorded).
    pub fixture: Fixture,
    /// The line shape of the old contents.
    pub shape: LineShape,
    /// Duration of an uninterrupted run (operation only, not server start).
    pub duration: Duration,
    input: Input,
}

/// A running operation.
enum Running {
    Cli(Cli),
    Mcp {
        server: McpServer,
        id: i64,
    },
    /// The operation could not start (for example strace killed the server
    /// during the handshake).
    NotStarted,
}

impl Running {
    fn finished(&mut self) -> bool {
        match self {
            Running::Cli(cli) => cli.exited(),
            Running::Mcp { server, id } => server.try_response(*id).is_some() || server.exited(),
            Running::NotStarted => true,
        }
    }

    /// Kills the process; returns whether the operation was still running
    /// (killed mid-flight) as far as can be told.
    fn kill(self) -> (bool, Option<ExitStatus>) {
        match self {
            Running::NotStarted => (true, None),
            Running::Cli(cli) => {
                let status = cli.kill();
                (status.signal().is_some(), Some(status))
            }
            Running::Mcp { mut server, id } => {
                let answered = server.try_response(id).is_some();
                let status = server.kill();
                (!answered, Some(status))
            }
        }
    }
}

/// Builds one case: a fixture for `scenario` with contents of about `size`
/// bytes, the operation's input, and a calibration run that records the new
/// state and the duration.
///
/// # Errors
/// The fixture cannot be built, or the uninterrupted run fails.
pub fn make_case(
    launcher: &Launcher,
    root: &Path,
    surface: Surface,
    scenario: Scenario,
    size: usize,
    shape: LineShape,
    rng: &mut Rng,
) -> Result<Case, String> {
    let contents: Vec<Vec<u8>> = (0..scenario.file_count())
        .map(|_| corpus::text(rng, size, shape))
        .collect();
    let fixture = Fixture::plan(root, scenario, rng, contents);
    let marker = format!("stress {:08x}", rng.next_u64() as u32);
    let input = if surface.is_write() {
        let file = &fixture.files[0];
        let mut new_size = size.max(1) + rng.range(0, 64);
        if surface == Surface::McpWrite {
            new_size = new_size.min(MCP_WRITE_MAX as usize);
        }
        let new_shape = *rng.pick(&LineShape::ALL);
        let mut bytes = corpus::text(rng, new_size, new_shape);
        bytes.extend_from_slice(format!("{marker}\n").as_bytes());
        Input::Content {
            path: file.display.clone(),
            bytes: Arc::new(bytes),
        }
    } else {
        let mut document = String::new();
        for file in &fixture.files {
            let old = file.old.as_deref().map(Vec::as_slice).unwrap_or_default();
            document.push_str(&corpus::edit_document(rng, &file.display, old, &marker));
        }
        Input::Document(document)
    };
    let mut case = Case {
        surface,
        fixture,
        shape,
        duration: Duration::ZERO,
        input,
    };
    case.fixture
        .build()
        .map_err(|e| format!("cannot build the fixture: {e}"))?;
    let launcher = case.launcher(launcher);
    let started = Instant::now();
    let (running, t0) = case.start(&launcher);
    let reply = match running {
        Running::Cli(cli) => cli.finish()?,
        Running::Mcp { mut server, id } => {
            let response = server.wait_response(id, Duration::from_secs(120))?;
            let reply = Reply::from_mcp(&response)?;
            let _ = server.close(Duration::from_secs(10));
            reply
        }
        Running::NotStarted => return Err("the operation did not start".into()),
    };
    case.duration = t0.map_or_else(|| started.elapsed(), |t| t.elapsed());
    if let Reply::Failed { kind, message } = &reply {
        return Err(format!(
            "calibration run of {} on {} failed: {kind}: {message}",
            surface.name(),
            scenario.name()
        ));
    }
    case.fixture
        .record_new()
        .map_err(|e| format!("cannot read the calibration result: {e}"))?;
    let leftovers = case.fixture.leftovers();
    if !leftovers.is_empty() {
        return Err(format!(
            "a complete run left {leftovers:?} behind (only a crash may leave files)"
        ));
    }
    Ok(case)
}

impl Case {
    /// The launcher for this case's scenario (another user for
    /// [`Scenario::Foreign`]).
    fn launcher(&self, base: &Launcher) -> Launcher {
        let mut launcher = base.clone();
        if self.fixture.scenario == Scenario::Foreign {
            launcher.user = Some(EDITING_USER);
        }
        launcher
    }

    /// Starts the operation; returns it and the instant the operation
    /// itself began (after the MCP handshake).
    fn start(&self, launcher: &Launcher) -> (Running, Option<Instant>) {
        let root = &self.fixture.root;
        if self.surface.is_mcp() {
            let mut server = match launcher.spawn_mcp(root) {
                Ok(server) => server,
                Err(_) => return (Running::NotStarted, None),
            };
            let (tool, arguments) = match &self.input {
                Input::Document(document) => ("edit", json!({ "input": document })),
                // One call per process, nothing read first: the write
                // replaces its file unread (FORMAT.md §6.7).
                Input::Content { path, bytes } => (
                    "write",
                    json!({
                        "path": path,
                        "content": String::from_utf8_lossy(bytes),
                        "force": true
                    }),
                ),
            };
            let t0 = Instant::now();
            match server.send_call(tool, arguments) {
                Ok(id) => (Running::Mcp { server, id }, Some(t0)),
                Err(_) => (Running::NotStarted, None),
            }
        } else {
            let (args, stdin): (Vec<&str>, Vec<u8>) = match &self.input {
                Input::Document(document) => (vec!["edit"], document.clone().into_bytes()),
                Input::Content { path, bytes } => (vec!["write", path, "--force"], bytes.to_vec()),
            };
            let t0 = Instant::now();
            match launcher.spawn_cli(root, &args, stdin) {
                Ok(cli) => (Running::Cli(cli), Some(t0)),
                Err(_) => (Running::NotStarted, None),
            }
        }
    }

    /// Runs one kill trial with `plan` and inspects the result.
    pub fn trial(&self, base: &Launcher, plan: &KillPlan) -> Result<TrialResult, String> {
        self.fixture
            .build()
            .map_err(|e| format!("cannot rebuild the fixture: {e}"))?;
        let mut launcher = self.launcher(base);
        if let KillPlan::Strace(kill) = plan {
            launcher.strace = Some(kill.clone());
        }
        let (mut running, t0) = self.start(&launcher);
        let t0 = t0.unwrap_or_else(Instant::now);
        let limit = self.duration * 4 + Duration::from_secs(5);
        match plan {
            KillPlan::Delay(delay) => wait_until(t0 + *delay),
            KillPlan::OnTemp(extra) => {
                let seen = poll(&mut running, t0 + limit, || self.temp_present());
                if seen {
                    wait_until(Instant::now() + *extra);
                }
            }
            KillPlan::OnChange(extra) => {
                let before = self.first_file_state();
                let seen = poll(&mut running, t0 + limit, || {
                    self.first_file_state() != before
                });
                if seen {
                    wait_until(Instant::now() + *extra);
                }
            }
            KillPlan::Strace(_) => {
                // strace kills the process itself; wait for the end.
                poll(&mut running, t0 + limit, || false);
            }
        }
        let (killed, status) = running.kill();
        let inspection = self.fixture.inspect();
        Ok(TrialResult {
            killed,
            status,
            inspection,
        })
    }

    fn temp_present(&self) -> bool {
        self.fixture.dirs.iter().any(|dir| {
            std::fs::read_dir(dir).is_ok_and(|entries| {
                entries
                    .flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with(".hashedit-"))
            })
        })
    }

    fn first_file_state(&self) -> Option<(u64, u64, i64, i64)> {
        use std::os::unix::fs::MetadataExt;
        let metadata = std::fs::symlink_metadata(&self.fixture.files[0].real).ok()?;
        Some((
            metadata.ino(),
            metadata.size(),
            metadata.mtime(),
            metadata.mtime_nsec(),
        ))
    }

    /// Total size of the old contents.
    pub fn size(&self) -> u64 {
        self.fixture
            .files
            .iter()
            .map(|f| f.old.as_ref().map_or(0, |b| b.len() as u64))
            .sum()
    }
}

/// Sleeps (or spins, for the last stretch) until `deadline`.
fn wait_until(deadline: Instant) {
    loop {
        let now = Instant::now();
        if now >= deadline {
            return;
        }
        let left = deadline - now;
        if left > Duration::from_micros(300) {
            std::thread::sleep(left - Duration::from_micros(200));
        } else {
            std::hint::spin_loop();
        }
    }
}

/// Polls `seen` until it holds (true), the operation ends or `deadline`
/// passes (false).
fn poll(running: &mut Running, deadline: Instant, mut seen: impl FnMut() -> bool) -> bool {
    let mut round = 0u32;
    loop {
        if seen() {
            return true;
        }
        round = round.wrapping_add(1);
        // Checking for the end costs a syscall or two; do it every few rounds.
        if round.is_multiple_of(8) && running.finished() {
            return seen();
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::hint::spin_loop();
    }
}

/// The outcome of one trial.
#[derive(Debug, Clone)]
pub struct TrialResult {
    /// Whether the operation was still running when it was killed.
    pub killed: bool,
    /// The process's exit status.
    pub status: Option<ExitStatus>,
    /// What was found on disk.
    pub inspection: Inspection,
}

/// Counts over many trials.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Trials run.
    pub trials: usize,
    /// Trials where the operation was killed mid-flight.
    pub killed: usize,
    /// File outcomes.
    pub contents: BTreeMap<Content, usize>,
    /// Trials with any broken promise.
    pub failed_trials: usize,
    /// Trials with a problem other than a torn or lost file (metadata,
    /// links, unexplained leftovers).
    pub other_problem_trials: usize,
    /// Torn files whose old bytes survive complete in a leftover.
    pub torn_recoverable: usize,
    /// Leftover files by kind.
    pub leftovers: BTreeMap<Leftover, usize>,
    /// Trials that left at least one leftover.
    pub trials_with_leftovers: usize,
    /// Multi-file trials: (all old, all new, mixed).
    pub multi: (usize, usize, usize),
    /// Largest old content seen (bytes).
    pub max_size: u64,
    /// Trials by kill plan.
    pub plans: BTreeMap<&'static str, usize>,
}

impl Tally {
    /// Adds one trial.
    pub fn add(&mut self, case: &Case, plan: &KillPlan, result: &TrialResult) {
        self.trials += 1;
        self.killed += usize::from(result.killed);
        *self.plans.entry(plan.name()).or_default() += 1;
        self.max_size = self.max_size.max(case.size());
        let inspection = &result.inspection;
        for content in inspection.contents.iter().flatten() {
            *self.contents.entry(*content).or_default() += 1;
            if *content == Content::Torn && inspection.torn_recoverable {
                self.torn_recoverable += 1;
            }
        }
        if !inspection.problems.is_empty() {
            self.failed_trials += 1;
        }
        if inspection.other_problems > 0 {
            self.other_problem_trials += 1;
        }
        for (_, kind) in &inspection.leftovers {
            *self.leftovers.entry(*kind).or_default() += 1;
        }
        self.trials_with_leftovers += usize::from(!inspection.leftovers.is_empty());
        if case.fixture.scenario == Scenario::Multi {
            let all = |c: Content| inspection.contents.iter().all(|x| *x == Some(c));
            if all(Content::Old) {
                self.multi.0 += 1;
            } else if all(Content::New) {
                self.multi.1 += 1;
            } else {
                self.multi.2 += 1;
            }
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: &Tally) {
        self.trials += other.trials;
        self.killed += other.killed;
        for (k, v) in &other.contents {
            *self.contents.entry(*k).or_default() += v;
        }
        self.failed_trials += other.failed_trials;
        self.other_problem_trials += other.other_problem_trials;
        self.torn_recoverable += other.torn_recoverable;
        for (k, v) in &other.leftovers {
            *self.leftovers.entry(*k).or_default() += v;
        }
        self.trials_with_leftovers += other.trials_with_leftovers;
        self.multi.0 += other.multi.0;
        self.multi.1 += other.multi.1;
        self.multi.2 += other.multi.2;
        self.max_size = self.max_size.max(other.max_size);
        for (k, v) in &other.plans {
            *self.plans.entry(k).or_default() += v;
        }
    }

    /// Files found neither old nor new.
    pub fn torn(&self) -> usize {
        self.contents.get(&Content::Torn).copied().unwrap_or(0)
    }

    /// Files that vanished.
    pub fn lost(&self) -> usize {
        self.contents.get(&Content::Lost).copied().unwrap_or(0)
    }

    fn count(&self, content: Content) -> usize {
        self.contents.get(&content).copied().unwrap_or(0)
    }
}

/// Settings of a crash run.
#[derive(Debug, Clone)]
pub struct CrashConfig {
    /// Where trial workspaces are made (the file system under test).
    pub dir: PathBuf,
    /// How many kill trials to run in total.
    pub kills: usize,
    /// Seed of the run.
    pub seed: u64,
    /// Largest file size.
    pub max_size: u64,
    /// Surfaces to drive.
    pub surfaces: Vec<Surface>,
    /// Scenarios to set up.
    pub scenarios: Vec<Scenario>,
    /// Trials per calibrated case (more for small files).
    pub trials_per_case: usize,
    /// Print a line per case.
    pub verbose: bool,
}

/// Sizes to draw from, with weights: most trials on small and medium
/// files, a few percent on the largest.
const SIZES: &[(u64, u64)] = &[
    (0, 6),
    (1, 4),
    (200, 14),
    (4 * 1024, 16),
    (64 * 1024, 16),
    (512 * 1024, 12),
    (4 * 1024 * 1024, 8),
    (16 * 1024 * 1024, 3),
    (50 * 1024 * 1024, 3),
];

/// Everything a crash run found.
#[derive(Debug, Clone, Default)]
pub struct CrashReport {
    /// Per (surface, scenario).
    pub rows: BTreeMap<(Surface, Scenario), Tally>,
    /// Descriptions of failed trials (first 50), with what reproduces them.
    pub failures: Vec<String>,
    /// Cases whose calibration failed (a harness or product bug).
    pub calibration_errors: Vec<String>,
}

impl CrashReport {
    /// The sum of every row.
    pub fn total(&self) -> Tally {
        let mut total = Tally::default();
        for tally in self.rows.values() {
            total.merge(tally);
        }
        total
    }

    /// The sum of the rows whose scenario replaces files by rename (every
    /// scenario except hard links and foreign owners, which are rewritten
    /// in place).
    pub fn total_where(&self, keep: impl Fn(Scenario) -> bool) -> Tally {
        let mut total = Tally::default();
        for ((_, scenario), tally) in &self.rows {
            if keep(*scenario) {
                total.merge(tally);
            }
        }
        total
    }

    fn record(&mut self, case: &Case, plan: &KillPlan, result: &TrialResult, id: &str) {
        self.rows
            .entry((case.surface, case.fixture.scenario))
            .or_default()
            .add(case, plan, result);
        if !result.inspection.problems.is_empty() && self.failures.len() < 50 {
            self.failures.push(format!(
                "{id}: {} / {} / {} ({}, {}), plan {plan:?}, killed mid-flight: {}: {}",
                case.surface.name(),
                case.fixture.scenario.name(),
                corpus::human(case.size()),
                case.shape.name(),
                format_args!("calibrated {:?}", case.duration),
                result.killed,
                result.inspection.problems.join("; ")
            ));
        }
    }

    /// A Markdown table of the rows plus the totals.
    pub fn table(&self) -> String {
        let mut out = String::new();
        out.push_str("| surface | scenario | kills | mid-flight | old | new | absent | torn | lost | other problems | multi old/new/mixed | leftovers (trials) | max size |\n");
        out.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
        let mut line = |surface: &str, scenario: &str, t: &Tally| {
            let other = t.other_problem_trials;
            let multi = if t.multi == (0, 0, 0) {
                "–".to_string()
            } else {
                format!("{}/{}/{}", t.multi.0, t.multi.1, t.multi.2)
            };
            let _ = writeln!(
                out,
                "| {surface} | {scenario} | {} | {} | {} | {} | {} | {} | {} | {} | {multi} | {} ({}) | {} |",
                t.trials,
                t.killed,
                t.count(Content::Old),
                t.count(Content::New),
                t.count(Content::Absent),
                t.torn(),
                t.lost(),
                other,
                t.leftovers.values().sum::<usize>(),
                t.trials_with_leftovers,
                corpus::human(t.max_size)
            );
        };
        for ((surface, scenario), tally) in &self.rows {
            line(surface.name(), scenario.name(), tally);
        }
        line("**all**", "", &self.total());
        out
    }

    /// Leftovers by kind, as Markdown bullet lines.
    pub fn leftover_lines(&self) -> String {
        let total = self.total();
        let mut out = String::new();
        for (kind, count) in &total.leftovers {
            let _ = writeln!(out, "- {}: {count}", kind.name());
        }
        if total.leftovers.is_empty() {
            out.push_str("- none\n");
        }
        out
    }
}

/// Runs `config.kills` random kill trials and tallies them.
pub fn run(
    launcher: &Launcher,
    config: &CrashConfig,
    mut progress: impl FnMut(&str),
) -> CrashReport {
    let mut rng = Rng::new(config.seed);
    let mut report = CrashReport::default();
    let root = config.dir.join("ws");
    let sizes: Vec<(u64, u64)> = SIZES
        .iter()
        .copied()
        .filter(|(size, _)| *size <= config.max_size)
        .collect();
    let weights: Vec<u64> = sizes.iter().map(|(_, w)| *w).collect();
    let combos: Vec<(Surface, Scenario)> = config
        .surfaces
        .iter()
        .flat_map(|s| config.scenarios.iter().map(move |c| (*s, *c)))
        .filter(|(s, c)| s.supports(*c))
        .collect();
    if combos.is_empty() || sizes.is_empty() {
        return report;
    }
    let mut done = 0usize;
    let mut case_index = 0usize;
    while done < config.kills {
        case_index += 1;
        let (surface, scenario) = combos[case_index % combos.len()];
        let mut base = sizes[rng.weighted(&weights)].0;
        if surface == Surface::McpWrite {
            base = base.min(MCP_WRITE_MAX);
        }
        // Spread sizes around the bucket (±25%), keeping 0 and 1 exact.
        let size = if base <= 1 {
            base as usize
        } else {
            let quarter = (base / 4) as usize;
            rng.range(base as usize - quarter, base as usize + quarter)
                .min(config.max_size as usize)
        };
        let shape = *rng.pick(&LineShape::ALL);
        let case_seed = rng.next_u64();
        let mut case_rng = Rng::new(case_seed);
        let case = match make_case(
            launcher,
            &root,
            surface,
            scenario,
            size,
            shape,
            &mut case_rng,
        ) {
            Ok(case) => case,
            Err(error) => {
                report
                    .calibration_errors
                    .push(format!("case seed {case_seed:#x}: {error}"));
                if report.calibration_errors.len() > 20 {
                    break;
                }
                continue;
            }
        };
        // Fewer trials on big files, which take long to set up.
        let trials = if size >= 4 * 1024 * 1024 {
            config.trials_per_case.div_ceil(3)
        } else {
            config.trials_per_case
        }
        .min(config.kills - done);
        for trial in 0..trials {
            let plan = random_plan(&mut case_rng, case.duration);
            let id = format!("seed {:#x} case {case_seed:#x} trial {trial}", config.seed);
            match case.trial(launcher, &plan) {
                Ok(result) => report.record(&case, &plan, &result, &id),
                Err(error) => report.calibration_errors.push(format!("{id}: {error}")),
            }
            done += 1;
        }
        if config.verbose {
            progress(&format!(
                "{done}/{} {} {} {} {} ({:?}): failed trials so far {}",
                config.kills,
                surface.name(),
                scenario.name(),
                corpus::human(case.size()),
                shape.name(),
                case.duration,
                report.total().failed_trials
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    report
}

/// A random kill plan for an operation that takes about `duration`.
pub fn random_plan(rng: &mut Rng, duration: Duration) -> KillPlan {
    let span = duration.as_micros() as u64;
    let extra = |rng: &mut Rng, fraction: u64| {
        if rng.chance(40) {
            Duration::ZERO
        } else {
            Duration::from_micros(rng.below(span / fraction + 1))
        }
    };
    match rng.below(10) {
        0..=3 => KillPlan::Delay(Duration::from_micros(rng.below(span * 13 / 10 + 1))),
        4..=7 => KillPlan::OnTemp(extra(rng, 2)),
        _ => KillPlan::OnChange(extra(rng, 4)),
    }
}

/// Settings of a strace sweep.
#[derive(Debug, Clone)]
pub struct SweepConfig {
    /// Where trial workspaces are made.
    pub dir: PathBuf,
    /// Seed.
    pub seed: u64,
    /// File sizes to sweep (each with every surface and scenario).
    pub sizes: Vec<usize>,
    /// Surfaces.
    pub surfaces: Vec<Surface>,
    /// Scenarios.
    pub scenarios: Vec<Scenario>,
    /// At most this many kill points per system call (spread evenly).
    pub max_per_syscall: usize,
}

/// The system calls whose entries the sweep kills at: everything that
/// opens, reads, writes, syncs, renames, links, removes, changes metadata
/// or locks files, and the exit itself.
pub const SWEEP_SYSCALLS: &[&str] = &[
    "openat",
    "read",
    "write",
    "pwrite64",
    "fsync",
    "fdatasync",
    "rename",
    "renameat",
    "renameat2",
    "linkat",
    "unlinkat",
    "fchmod",
    "fchown",
    "flock",
    "ftruncate",
    "mkdirat",
    "newfstatat",
    "statx",
    "close",
    "exit_group",
];

/// Counts the calls of each [`SWEEP_SYSCALLS`] member in an uninterrupted
/// run of `case` under strace.
fn count_syscalls(
    case: &Case,
    base: &Launcher,
    scratch: &Path,
) -> Result<BTreeMap<String, usize>, String> {
    case.fixture
        .build()
        .map_err(|e| format!("cannot rebuild the fixture: {e}"))?;
    let log = scratch.join("strace.log");
    // Writable by the unprivileged editor of the foreign-owner scenario.
    std::fs::write(&log, b"").map_err(|e| format!("cannot create the strace log: {e}"))?;
    let writable = std::os::unix::fs::PermissionsExt::from_mode(0o666);
    std::fs::set_permissions(&log, writable).map_err(|e| e.to_string())?;
    let wrapper = scratch.join("trace-wrapper.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec strace -f -qq -o '{}' -e trace={} -- '{}' \"$@\"\n",
            log.display(),
            SWEEP_SYSCALLS.join(","),
            base.bin.display()
        ),
    )
    .map_err(|e| format!("cannot write the trace wrapper: {e}"))?;
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&wrapper, executable).map_err(|e| e.to_string())?;
    // A launcher whose "binary" is the tracing wrapper (no injection).
    let tracing = Launcher {
        bin: wrapper,
        strace: None,
        ..case.launcher(base)
    };
    let (running, _) = case.start(&tracing);
    match running {
        Running::Cli(cli) => {
            cli.finish()?;
        }
        Running::Mcp { mut server, id } => {
            server.wait_response(id, Duration::from_secs(120))?;
            let _ = server.close(Duration::from_secs(10));
        }
        Running::NotStarted => return Err("the traced run did not start".into()),
    }
    let text = std::fs::read_to_string(&log).map_err(|e| format!("no strace log: {e}"))?;
    let mut counts = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
        if line.starts_with("<...") || line.starts_with("+++") || line.starts_with("---") {
            continue;
        }
        if let Some(name) = line.split('(').next()
            && SWEEP_SYSCALLS.contains(&name)
        {
            *counts.entry(name.to_string()).or_default() += 1;
        }
    }
    Ok(counts)
}

/// Kills at every enumerated system call entry of every surface ×
/// scenario × size, and tallies the results.
pub fn strace_sweep(
    launcher: &Launcher,
    config: &SweepConfig,
    mut progress: impl FnMut(&str),
) -> CrashReport {
    let mut rng = Rng::new(config.seed);
    let mut report = CrashReport::default();
    let root = config.dir.join("ws");
    let scratch = config.dir.join("scratch");
    let _ = std::fs::create_dir_all(&scratch);
    for &surface in &config.surfaces {
        for &scenario in &config.scenarios {
            if !surface.supports(scenario) {
                continue;
            }
            for &size in &config.sizes {
                let shape = *rng.pick(&[LineShape::Short, LineShape::Mixed]);
                let case_seed = rng.next_u64();
                let case = match make_case(
                    launcher,
                    &root,
                    surface,
                    scenario,
                    size,
                    shape,
                    &mut Rng::new(case_seed),
                ) {
                    Ok(case) => case,
                    Err(error) => {
                        report
                            .calibration_errors
                            .push(format!("case seed {case_seed:#x}: {error}"));
                        continue;
                    }
                };
                let counts = match count_syscalls(&case, launcher, &scratch) {
                    Ok(counts) => counts,
                    Err(error) => {
                        report
                            .calibration_errors
                            .push(format!("case seed {case_seed:#x}: strace count: {error}"));
                        continue;
                    }
                };
                let mut points = 0;
                for (syscall, &count) in &counts {
                    for nth in spread(count, config.max_per_syscall) {
                        let plan = KillPlan::Strace(StraceKill {
                            syscall: syscall.clone(),
                            nth,
                        });
                        let id = format!("sweep case {case_seed:#x} {syscall}#{nth}");
                        match case.trial(launcher, &plan) {
                            Ok(result) => report.record(&case, &plan, &result, &id),
                            Err(error) => report.calibration_errors.push(format!("{id}: {error}")),
                        }
                        points += 1;
                    }
                }
                progress(&format!(
                    "{} {} {}: {points} kill points over {} syscalls ({counts:?}); failed trials so far {}",
                    surface.name(),
                    scenario.name(),
                    corpus::human(case.size()),
                    counts.len(),
                    report.total().failed_trials
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    report
}

/// `1..=count`, or `max` values spread evenly over it (always including
/// the first and the last).
fn spread(count: usize, max: usize) -> Vec<usize> {
    if count <= max || max < 2 {
        return (1..=count).collect();
    }
    let mut values: Vec<usize> = (0..max).map(|i| 1 + i * (count - 1) / (max - 1)).collect();
    values.dedup();
    values
}

#[cfg(test)]
mod tests;
