//! The race harnesses.
//!
//! * [`writers`]: N writers — threads calling the library, CLI processes,
//!   MCP servers — edit one file from one snapshot, round after round. In a
//!   *conflict* round every writer replaces line 1: exactly one may win,
//!   every other must be told its tag is stale, and the file must hold the
//!   winner's result. In a *disjoint* round writer w replaces its own line
//!   2w+1: a writer without the served text is refused as stale, an MCP
//!   server that served the snapshot may carry its edit onto the live file
//!   (drift rebase); either way the file must hold exactly the successful
//!   writers' changes. A success whose change is missing, or two winners
//!   of a conflict, is a lost update.
//! * [`external`]: hashedit against a writer that takes no lock (plain
//!   `write()` in place, or temp file and `rename`). See [`ExternalReport`]
//!   for exactly what is checked.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use hashedit_tools::{EditArgs, EditMode, ToolContext, Workspace};
use serde_json::json;

use crate::client::{Launcher, McpServer, Reply};
use crate::corpus::tag;
use crate::rng::Rng;

/// How many writers of each kind take part in every round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Writers {
    /// Threads in this process calling `hashedit_tools::edit`.
    pub threads: usize,
    /// `hashedit edit` processes.
    pub cli: usize,
    /// `hashedit mcp` servers (one call each per round).
    pub mcp: usize,
    /// Extra concurrent calls sent to the first MCP server in the same
    /// round (calls inside one server run concurrently).
    pub mcp_pipelined: usize,
}

impl Writers {
    /// Total writers per round.
    pub fn total(&self) -> usize {
        self.threads + self.cli + self.mcp + self.mcp_pipelined
    }
}

/// Settings of a writers run.
#[derive(Debug, Clone)]
pub struct RaceConfig {
    /// Where the workspace is made.
    pub dir: PathBuf,
    /// Rounds to run.
    pub rounds: usize,
    /// Writers per round.
    pub writers: Writers,
    /// Seed.
    pub seed: u64,
    /// Percentage of disjoint rounds (the rest are conflict rounds).
    pub disjoint_percent: u64,
}

/// Which writer produced a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum WriterKind {
    /// A thread in this process.
    Thread,
    /// A CLI process.
    Cli,
    /// An MCP server.
    Mcp,
}

impl WriterKind {
    fn name(self) -> &'static str {
        match self {
            WriterKind::Thread => "thread",
            WriterKind::Cli => "cli",
            WriterKind::Mcp => "mcp",
        }
    }
}

/// What a writers run found.
#[derive(Debug, Clone, Default)]
pub struct RaceReport {
    /// Conflict rounds run.
    pub conflict_rounds: usize,
    /// Disjoint rounds run.
    pub disjoint_rounds: usize,
    /// Conflict rounds with exactly one winner and the winner's bytes on
    /// disk.
    pub conflict_ok: usize,
    /// Conflict rounds where no writer won (every call refused).
    pub no_winner: usize,
    /// Disjoint rounds whose file holds exactly the successful changes.
    pub disjoint_ok: usize,
    /// Successful edits whose change is not in the file, or extra winners
    /// of a conflict: lost updates.
    pub lost_updates: usize,
    /// Changes in the file that no successful writer reported.
    pub phantom_changes: usize,
    /// Successes by writer kind.
    pub wins: BTreeMap<WriterKind, usize>,
    /// Disjoint-round successes that carried a drift note (rebased).
    pub rebased: usize,
    /// Refusals by error kind (`stale_tag`, …).
    pub refusals: BTreeMap<String, usize>,
    /// Calls that did not produce a reply (harness or process failures).
    pub broken_calls: usize,
    /// Descriptions of the first faults.
    pub faults: Vec<String>,
    /// Wall time.
    pub elapsed: Duration,
}

impl RaceReport {
    /// Total rounds.
    pub fn rounds(&self) -> usize {
        self.conflict_rounds + self.disjoint_rounds
    }

    /// A Markdown summary.
    pub fn table(&self, writers: &Writers) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "| figure | value |\n|---|---:|");
        let _ = writeln!(
            out,
            "| writers per round | {} ({} threads, {} CLI, {} MCP servers, {} pipelined MCP calls) |",
            writers.total(),
            writers.threads,
            writers.cli,
            writers.mcp,
            writers.mcp_pipelined
        );
        let _ = writeln!(out, "| conflict rounds | {} |", self.conflict_rounds);
        let _ = writeln!(
            out,
            "| … exactly one winner, its bytes on disk | {} |",
            self.conflict_ok
        );
        let _ = writeln!(out, "| … no winner | {} |", self.no_winner);
        let _ = writeln!(out, "| disjoint rounds | {} |", self.disjoint_rounds);
        let _ = writeln!(
            out,
            "| … file holds exactly the successful changes | {} |",
            self.disjoint_ok
        );
        let _ = writeln!(
            out,
            "| … successes carried by drift rebase | {} |",
            self.rebased
        );
        let wins: Vec<String> = self
            .wins
            .iter()
            .map(|(k, v)| format!("{} {v}", k.name()))
            .collect();
        let _ = writeln!(out, "| wins by writer kind | {} |", wins.join(", "));
        let refusals: Vec<String> = self
            .refusals
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(out, "| refusals by kind | {} |", refusals.join(", "));
        let _ = writeln!(out, "| **lost updates** | **{}** |", self.lost_updates);
        let _ = writeln!(out, "| phantom changes | {} |", self.phantom_changes);
        let _ = writeln!(out, "| calls without a reply | {} |", self.broken_calls);
        let _ = writeln!(out, "| wall time | {:.1} s |", self.elapsed.as_secs_f64());
        out
    }
}

/// The base text of a round: 2×writers+2 numbered lines.
fn base_lines(round: usize, writers: usize, rng: &mut Rng) -> Vec<String> {
    (0..2 * writers + 2)
        .map(|i| format!("round {round} line {} {:x}", i + 1, rng.next_u64()))
        .collect()
}

fn join(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// One writer's planned change: its document and the line it replaces.
struct Plan {
    kind: WriterKind,
    document: String,
    line: usize,
    row: String,
}

/// Runs the writers harness.
///
/// # Errors
/// The workspace or an MCP server cannot be set up.
pub fn writers(launcher: &Launcher, config: &RaceConfig) -> Result<RaceReport, String> {
    let started = Instant::now();
    let root = config.dir.join("race-ws");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).map_err(|e| format!("cannot create {}: {e}", root.display()))?;
    let root = std::fs::canonicalize(&root).map_err(|e| e.to_string())?;
    let path = root.join("f.txt");
    let ws = Workspace::new(&root).map_err(|e| e.message)?;
    let mut servers: Vec<McpServer> = (0..config
        .writers
        .mcp
        .max(usize::from(config.writers.mcp_pipelined > 0)))
        .map(|_| launcher.spawn_mcp(&root))
        .collect::<Result<_, _>>()?;
    let mut rng = Rng::new(config.seed);
    let mut report = RaceReport::default();
    let total = config.writers.total();
    for round in 0..config.rounds {
        let disjoint = rng.chance(config.disjoint_percent);
        let lines = base_lines(round, total, &mut rng);
        let base = join(&lines);
        std::fs::write(&path, &base).map_err(|e| e.to_string())?;
        let snapshot = tag(base.as_bytes());
        // Every MCP server reads the file first, as a model would.
        for server in &mut servers {
            let read = server.call(
                "read_file",
                json!({"path": "f.txt"}),
                Duration::from_secs(30),
            )?;
            if !read.is_ok() {
                return Err(format!("read_file failed: {read:?}"));
            }
        }
        let mut plans: Vec<Plan> = Vec::with_capacity(total);
        let kinds = std::iter::repeat_n(WriterKind::Thread, config.writers.threads)
            .chain(std::iter::repeat_n(WriterKind::Cli, config.writers.cli))
            .chain(std::iter::repeat_n(
                WriterKind::Mcp,
                config.writers.mcp + config.writers.mcp_pipelined,
            ));
        for (w, kind) in kinds.enumerate() {
            let line = if disjoint { 2 * w + 1 } else { 1 };
            let row = format!("round {round} writer {w} ({})", kind.name());
            plans.push(Plan {
                kind,
                document: format!("[f.txt#{snapshot}]\nPUT {line}:\n+{row}\n"),
                line,
                row,
            });
        }
        let replies = run_round(launcher, &root, &ws, &mut servers, &plans, config, &mut rng);
        let after = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        judge(
            &mut report,
            round,
            disjoint,
            &lines,
            &plans,
            &replies,
            &after,
        );
    }
    for server in servers {
        let _ = server.close(Duration::from_secs(10));
    }
    let _ = std::fs::remove_dir_all(&root);
    report.elapsed = started.elapsed();
    Ok(report)
}

/// Starts every writer of a round as close together as possible and
/// collects the replies, in plan order.
fn run_round(
    launcher: &Launcher,
    root: &Path,
    ws: &Workspace,
    servers: &mut [McpServer],
    plans: &[Plan],
    config: &RaceConfig,
    rng: &mut Rng,
) -> Vec<Result<Reply, String>> {
    let threads = config.writers.threads;
    let barrier = Arc::new(Barrier::new(threads + 1));
    let mut handles = Vec::new();
    for plan in plans.iter().filter(|p| p.kind == WriterKind::Thread) {
        let barrier = Arc::clone(&barrier);
        let ws = ws.clone();
        let document = plan.document.clone();
        handles.push(std::thread::spawn(move || {
            let cx = ToolContext::new(&ws);
            barrier.wait();
            match hashedit_tools::edit(&cx, &EditArgs::new(document), EditMode::Apply) {
                Ok(outcome) => Reply::Ok {
                    data: outcome.structured(),
                    text: outcome.text,
                },
                Err(error) => Reply::Failed {
                    kind: error.kind.name().to_string(),
                    message: error.message,
                },
            }
        }));
    }
    // CLI processes start and block reading stdin; they run once it closes.
    let mut clis = Vec::new();
    for plan in plans.iter().filter(|p| p.kind == WriterKind::Cli) {
        let mut command = launcher.command(root, &["--json", "edit"]);
        let child = command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn();
        clis.push((child, plan.document.clone()));
    }
    // Let the processes reach their stdin read.
    std::thread::sleep(Duration::from_millis(5 + rng.below(10)));
    let mcp_plans: Vec<&Plan> = plans.iter().filter(|p| p.kind == WriterKind::Mcp).collect();
    let mut mcp_ids: Vec<(usize, i64)> = Vec::new();
    let release_threads_first = rng.chance(50);
    if release_threads_first {
        barrier.wait();
    }
    for (i, plan) in mcp_plans.iter().enumerate() {
        // One call per server; the pipelined extras all go to server 0.
        let server = if i < config.writers.mcp { i } else { 0 };
        if let Some(client) = servers.get_mut(server) {
            if let Ok(id) = client.send_call("edit", json!({"input": plan.document})) {
                mcp_ids.push((server, id));
            } else {
                mcp_ids.push((server, -1));
            }
        }
    }
    for (child, document) in &mut clis {
        if let Ok(child) = child {
            use std::io::Write;
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(document.as_bytes());
            }
        }
    }
    if !release_threads_first {
        barrier.wait();
    }
    let mut replies: Vec<Result<Reply, String>> = Vec::with_capacity(plans.len());
    for handle in handles {
        replies.push(
            handle
                .join()
                .map_err(|_| "a writer thread panicked".to_string()),
        );
    }
    for (child, _) in clis {
        replies.push(match child {
            Ok(child) => match child.wait_with_output() {
                Ok(output) => {
                    Reply::from_cli(&String::from_utf8_lossy(&output.stdout), output.status)
                }
                Err(e) => Err(e.to_string()),
            },
            Err(e) => Err(format!("cannot start hashedit: {e}")),
        });
    }
    for (server, id) in mcp_ids {
        let reply = match servers.get_mut(server) {
            Some(client) if id >= 0 => client
                .wait_response(id, Duration::from_secs(30))
                .and_then(|v| Reply::from_mcp(&v)),
            _ => Err("the call could not be sent".to_string()),
        };
        replies.push(reply);
    }
    replies
}

/// Checks one round's replies against the file.
fn judge(
    report: &mut RaceReport,
    round: usize,
    disjoint: bool,
    lines: &[String],
    plans: &[Plan],
    replies: &[Result<Reply, String>],
    after: &str,
) {
    let mut winners: Vec<usize> = Vec::new();
    for (w, reply) in replies.iter().enumerate() {
        match reply {
            Ok(Reply::Ok { text, .. }) => {
                winners.push(w);
                *report.wins.entry(plans[w].kind).or_default() += 1;
                if text.contains("moved by") {
                    report.rebased += 1;
                }
            }
            Ok(Reply::Failed { kind, .. }) => {
                *report.refusals.entry(kind.clone()).or_default() += 1;
            }
            Err(error) => {
                report.broken_calls += 1;
                fault(report, format!("round {round}: writer {w}: {error}"));
            }
        }
    }
    let found: Vec<&str> = after.lines().collect();
    let mut expected: Vec<String> = lines.to_vec();
    for &w in &winners {
        if let Some(slot) = expected.get_mut(plans[w].line - 1) {
            *slot = plans[w].row.clone();
        }
    }
    if disjoint {
        report.disjoint_rounds += 1;
        let mut lost = 0;
        for &w in &winners {
            if found.get(plans[w].line - 1) != Some(&plans[w].row.as_str()) {
                lost += 1;
            }
        }
        let phantom = found
            .iter()
            .enumerate()
            .filter(|(i, line)| expected.get(*i).map(String::as_str) != Some(**line))
            .count()
            .saturating_sub(lost)
            + usize::from(found.len() != expected.len());
        report.lost_updates += lost;
        report.phantom_changes += phantom;
        if lost == 0 && phantom == 0 {
            report.disjoint_ok += 1;
        } else {
            fault(
                report,
                format!(
                    "round {round} (disjoint): winners {winners:?}, lost {lost}, phantom {phantom}, file {after:?}"
                ),
            );
        }
    } else {
        report.conflict_rounds += 1;
        match winners.as_slice() {
            [] => {
                report.no_winner += 1;
                if after != join(lines) {
                    report.phantom_changes += 1;
                    fault(
                        report,
                        format!("round {round}: no winner but the file changed: {after:?}"),
                    );
                }
            }
            [w] => {
                if after == join(&expected) {
                    report.conflict_ok += 1;
                } else {
                    report.lost_updates += 1;
                    fault(
                        report,
                        format!("round {round}: writer {w} won but the file is {after:?}"),
                    );
                }
            }
            many => {
                report.lost_updates += many.len() - 1;
                fault(
                    report,
                    format!("round {round}: {} winners {many:?}", many.len()),
                );
            }
        }
    }
}

fn fault(report: &mut RaceReport, text: String) {
    if report.faults.len() < 50 {
        report.faults.push(text);
    }
}

/// How the external writer replaces the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExternalMode {
    /// `open(O_TRUNC)` + `write()` on the path, like `echo > file`.
    InPlace,
    /// Write a temp file and `rename` it over the path, like most editors.
    Rename,
}

impl ExternalMode {
    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            ExternalMode::InPlace => "in-place write()",
            ExternalMode::Rename => "temp + rename",
        }
    }
}

/// Settings of an external-writer run.
#[derive(Debug, Clone)]
pub struct ExternalConfig {
    /// Where the workspace is made.
    pub dir: PathBuf,
    /// hashedit edits to attempt.
    pub rounds: usize,
    /// How the external writer writes.
    pub mode: ExternalMode,
    /// Seed.
    pub seed: u64,
    /// The external writer pauses a random 0 to this many microseconds
    /// between writes.
    pub max_pause_us: u64,
}

/// What an external-writer run found.
///
/// hashedit cannot stop a program that takes no lock from overwriting the
/// file after hashedit wrote it. What it promises, and what is counted:
/// * it never writes a result computed from bytes other than those it
///   verified under its lock against the author's snapshot: a success
///   whose new tag is not the tag of the planned result is a
///   `wrong_base` fault, and a file holding hashedit's marker in any other
///   form than the planned result is a `wrong_base` fault too;
/// * it never reports success for a change that is not on disk when no
///   external write overlapped the call: `lost_updates`;
/// * it never writes anything when it reports a failure:
///   `unreported_writes`.
#[derive(Debug, Clone, Default)]
pub struct ExternalReport {
    /// How the external writer wrote.
    pub mode: Option<ExternalMode>,
    /// Edits attempted.
    pub rounds: usize,
    /// Successful edits.
    pub successes: usize,
    /// Successful edits whose result was still on disk right afterwards.
    pub visible: usize,
    /// Successful edits with no external write in flight when the call
    /// was sent and none started until the check: each must be visible.
    pub quiet_successes: usize,
    /// Successful edits overwritten by an external write that overlapped or
    /// followed the call (allowed: the external writer takes no lock).
    pub overwritten: usize,
    /// Refusals by kind (stale tag: the external writer changed the file
    /// between the read and the edit).
    pub refusals: BTreeMap<String, usize>,
    /// External writes made during the run.
    pub external_writes: u64,
    /// Faults: success with the change absent and no overlapping write.
    pub lost_updates: usize,
    /// Faults: a result computed from unverified bytes.
    pub wrong_base: usize,
    /// Faults: the file changed by a call that reported failure.
    pub unreported_writes: usize,
    /// Calls without a reply.
    pub broken_calls: usize,
    /// The first faults.
    pub faults: Vec<String>,
    /// Wall time.
    pub elapsed: Duration,
}

impl ExternalReport {
    /// Adds another report.
    pub fn merge(&mut self, other: &ExternalReport) {
        self.rounds += other.rounds;
        self.successes += other.successes;
        self.visible += other.visible;
        self.quiet_successes += other.quiet_successes;
        self.overwritten += other.overwritten;
        for (k, v) in &other.refusals {
            *self.refusals.entry(k.clone()).or_default() += v;
        }
        self.external_writes += other.external_writes;
        self.lost_updates += other.lost_updates;
        self.wrong_base += other.wrong_base;
        self.unreported_writes += other.unreported_writes;
        self.broken_calls += other.broken_calls;
        self.faults.extend(other.faults.iter().cloned());
        self.elapsed += other.elapsed;
    }

    /// A Markdown table row: mode, rounds, successes, quiet successes,
    /// visible, overwritten, refusals, external writes, lost, wrong base,
    /// unreported.
    pub fn row(&self) -> String {
        let refusals: Vec<String> = self
            .refusals
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            self.mode.map_or("all", ExternalMode::name),
            self.rounds,
            self.successes,
            self.quiet_successes,
            self.visible,
            self.overwritten,
            refusals.join(", "),
            self.external_writes,
            self.lost_updates,
            self.wrong_base,
            self.unreported_writes
        )
    }
}

/// Runs hashedit (CLI and MCP, alternating) against an external writer.
///
/// # Errors
/// The workspace or the MCP server cannot be set up.
pub fn external(launcher: &Launcher, config: &ExternalConfig) -> Result<ExternalReport, String> {
    let started = Instant::now();
    let root = config.dir.join("external-ws");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let root = std::fs::canonicalize(&root).map_err(|e| e.to_string())?;
    let path = root.join("f.txt");
    std::fs::write(&path, "external 0\nbody\n").map_err(|e| e.to_string())?;
    // The CLI keeps its snapshot registry here, so its reads are
    // remembered across calls as a real agent's would be.
    let mut launcher = launcher.clone();
    launcher.registry = config.dir.join("external-registry").display().to_string();
    let mut server = launcher.spawn_mcp(&root)?;

    let stop = Arc::new(AtomicBool::new(false));
    let begun = Arc::new(AtomicU64::new(0));
    let finished = Arc::new(AtomicU64::new(0));
    let writer = {
        let (stop, begun, finished) = (stop.clone(), begun.clone(), finished.clone());
        let (path, root, mode) = (path.clone(), root.clone(), config.mode);
        let mut rng = Rng::new(config.seed ^ 0xE7);
        let max_pause = config.max_pause_us;
        std::thread::spawn(move || {
            let mut version = 0u64;
            while !stop.load(Ordering::SeqCst) {
                version += 1;
                let lines = 1 + rng.below(40) as usize;
                let mut text = format!("external {version}\n");
                for i in 0..lines {
                    text.push_str(&format!("external {version} line {i}\n"));
                }
                begun.fetch_add(1, Ordering::SeqCst);
                let _ = match mode {
                    ExternalMode::InPlace => std::fs::write(&path, &text),
                    ExternalMode::Rename => {
                        let temp = root.join(format!(".external-{version}"));
                        std::fs::write(&temp, &text).and_then(|()| std::fs::rename(&temp, &path))
                    }
                };
                finished.fetch_add(1, Ordering::SeqCst);
                let pause = rng.below(max_pause + 1);
                std::thread::sleep(Duration::from_micros(pause));
            }
        })
    };

    let mut rng = Rng::new(config.seed);
    let mut report = ExternalReport {
        mode: Some(config.mode),
        ..ExternalReport::default()
    };
    for round in 0..config.rounds {
        let use_mcp = round % 2 == 1;
        let marker = format!("hashedit edit {round} {:x}", rng.next_u64());
        // Read as a model would: through hashedit, which reports the tag
        // and, via the session or registry, remembers the snapshot.
        let read = if use_mcp {
            server.call(
                "read_file",
                json!({"path": "f.txt"}),
                Duration::from_secs(30),
            )
        } else {
            launcher.run_cli(&root, &["read", "f.txt"], b"")
        };
        let Ok(Reply::Ok { data, text }) = read else {
            continue;
        };
        let Some(tag_text) = data["tag"].as_str().map(str::to_string) else {
            continue;
        };
        // The snapshot the model saw: the rows of the read view.
        let Some(seen) = rows_of(&text) else {
            continue;
        };
        if seen.is_empty() {
            continue;
        }
        // The view does not show whether the last line ends with a
        // newline; the tag tells which of the two texts was read.
        let final_newline = if tag(join(&seen).as_bytes()) == tag_text {
            true
        } else if tag(seen.join("\n").as_bytes()) == tag_text {
            false
        } else {
            continue;
        };
        let mut planned_lines = seen.clone();
        planned_lines[0] = marker.clone();
        let planned = if final_newline {
            join(&planned_lines)
        } else {
            planned_lines.join("\n")
        };
        let document = format!("[f.txt#{tag_text}]\nPUT 1:\n+{marker}\n");
        let (b0, f0) = (
            begun.load(Ordering::SeqCst),
            finished.load(Ordering::SeqCst),
        );
        let reply = if use_mcp {
            server.call("edit", json!({"input": document}), Duration::from_secs(30))
        } else {
            launcher.run_cli(&root, &["edit"], document.as_bytes())
        };
        let after = std::fs::read_to_string(&path).unwrap_or_default();
        let b1 = begun.load(Ordering::SeqCst);
        report.rounds += 1;
        let quiet = b0 == f0 && b1 == b0;
        let has_marker = after.contains(&marker);
        match reply {
            Ok(Reply::Ok { data, .. }) => {
                report.successes += 1;
                report.quiet_successes += usize::from(quiet);
                let new_tag = data["files"][0]["new_tag"].as_str().unwrap_or_default();
                if new_tag != tag(planned.as_bytes()) {
                    report.wrong_base += 1;
                    push(
                        &mut report.faults,
                        format!(
                            "round {round}: success with tag {new_tag}, but the planned result has tag {}",
                            tag(planned.as_bytes())
                        ),
                    );
                }
                if after == planned {
                    report.visible += 1;
                } else if has_marker {
                    report.wrong_base += 1;
                    push(
                        &mut report.faults,
                        format!(
                            "round {round}: the file holds the edit applied to other bytes: {after:?} (planned {planned:?})"
                        ),
                    );
                } else if quiet {
                    report.lost_updates += 1;
                    push(
                        &mut report.faults,
                        format!(
                            "round {round}: success reported but the change is absent and no external write overlapped: {after:?}"
                        ),
                    );
                } else {
                    report.overwritten += 1;
                }
            }
            Ok(Reply::Failed { kind, .. }) => {
                *report.refusals.entry(kind).or_default() += 1;
                if has_marker {
                    report.unreported_writes += 1;
                    push(
                        &mut report.faults,
                        format!("round {round}: the call failed but its change is in the file"),
                    );
                }
            }
            Err(error) => {
                report.broken_calls += 1;
                push(&mut report.faults, format!("round {round}: {error}"));
            }
        }
    }
    stop.store(true, Ordering::SeqCst);
    let _ = writer.join();
    report.external_writes = finished.load(Ordering::SeqCst);
    let _ = server.close(Duration::from_secs(10));
    let _ = std::fs::remove_dir_all(&root);
    report.elapsed = started.elapsed();
    Ok(report)
}

fn push(faults: &mut Vec<String>, text: String) {
    if faults.len() < 50 {
        faults.push(text);
    }
}

/// The row texts of a whole-file read view (`[path#TAG]` then `N:text`),
/// or `None` when the view is partial or malformed.
fn rows_of(view: &str) -> Option<Vec<String>> {
    let mut lines = view.lines();
    let header = lines.next()?;
    if !header.starts_with('[') {
        return None;
    }
    let mut rows = Vec::new();
    for (index, line) in lines.enumerate() {
        let (number, text) = line.split_once(':')?;
        if number.parse::<usize>().ok()? != index + 1 {
            return None;
        }
        rows.push(text.to_string());
    }
    Some(rows)
}

#[cfg(test)]
mod tests;
