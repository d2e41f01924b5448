//! Hostile inputs too big for unit tests, measured: a 1 GB single line, a
//! 2 GB file (sparse, and real text), a million ops or sections in one
//! document, a 1 GB document, `/dev/zero` as input, an oversized MCP
//! message, files just under and over the edit cap.
//!
//! Each case runs the real binary under `/usr/bin/time` (wall time and
//! peak RSS of that process) with a safety net — an address-space limit of
//! [`MEMORY_LIMIT`] through `prlimit` and a [`TIME_LIMIT`] — and checks the
//! expected outcome (error kind and message fragment, or success) and that
//! every pre-existing file is unchanged (same inode, size, mtime and
//! ctime; a refused `write` creates nothing).

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::client::{Launcher, McpServer, Reply};
use crate::corpus::{human, tag};

/// Address-space limit for every measured process (bytes): far above what
/// any case needs, low enough that a runaway read fails instead of
/// swapping the machine.
pub const MEMORY_LIMIT: u64 = 6 * 1024 * 1024 * 1024;

/// Wall-time limit for every measured process.
pub const TIME_LIMIT: Duration = Duration::from_secs(300);

const GIB: u64 = 1024 * 1024 * 1024;
const MIB: u64 = 1024 * 1024;

/// What a case expects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// Success; the reply text contains this fragment.
    Ok(&'static str),
    /// A tool error of this kind whose message contains this fragment.
    Error(&'static str, &'static str),
}

/// One measured case.
#[derive(Debug, Clone)]
pub struct BenchResult {
    /// Short name.
    pub name: String,
    /// What the case does.
    pub what: String,
    /// The expectation.
    pub expect: Expect,
    /// What happened: `ok` or the error kind, with the message start.
    pub outcome: String,
    /// Whether the outcome matched.
    pub matched: bool,
    /// Whether every pre-existing file is unchanged and nothing was
    /// created by a refused call.
    pub unchanged: bool,
    /// Wall time of the measured process, seconds.
    pub seconds: f64,
    /// Peak resident set of the measured process, KiB.
    pub peak_rss_kib: u64,
}

impl BenchResult {
    /// Whether the case met its expectation with files unchanged.
    pub fn passed(&self) -> bool {
        self.matched && self.unchanged
    }
}

/// A file's identity and last change, to prove it was not written.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp(u64, u64, i64, i64, i64, i64);

fn stamp(path: &Path) -> Option<Stamp> {
    let m = std::fs::symlink_metadata(path).ok()?;
    Some(Stamp(
        m.ino(),
        m.size(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime(),
        m.ctime_nsec(),
    ))
}

/// How a case feeds the process.
enum Stdin {
    Null,
    File(PathBuf),
}

/// A measured run's result.
struct Measured {
    reply: Result<Reply, String>,
    seconds: f64,
    peak_rss_kib: u64,
}

/// Runs `hashedit --json ARGS` under time, prlimit and timeout.
fn measure(
    launcher: &Launcher,
    root: &Path,
    args: &[&str],
    stdin: Stdin,
    scratch: &Path,
) -> Measured {
    let time_file = scratch.join("time.out");
    let _ = std::fs::remove_file(&time_file);
    let mut command = Command::new("/usr/bin/time");
    if let Some((uid, gid)) = launcher.user {
        use std::os::unix::process::CommandExt;
        command.uid(uid).gid(gid);
        // The unprivileged process must be able to write the timing.
        let _ = std::fs::write(&time_file, b"");
        let _ = std::fs::set_permissions(
            &time_file,
            std::os::unix::fs::PermissionsExt::from_mode(0o666),
        );
    }
    command
        .arg("-f")
        .arg("%e %M")
        .arg("-o")
        .arg(&time_file)
        .arg("timeout")
        .arg("-s")
        .arg("KILL")
        .arg(TIME_LIMIT.as_secs().to_string())
        .arg("prlimit")
        .arg(format!("--as={MEMORY_LIMIT}"))
        .arg("--")
        .arg(&launcher.bin)
        .arg("--root")
        .arg(root)
        .arg("--json")
        .args(args)
        .env("HASHEDIT_REGISTRY", &launcher.registry)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match stdin {
        Stdin::Null => command.stdin(Stdio::null()),
        Stdin::File(path) => match File::open(&path) {
            Ok(file) => command.stdin(Stdio::from(file)),
            Err(e) => {
                return Measured {
                    reply: Err(format!("cannot open {}: {e}", path.display())),
                    seconds: 0.0,
                    peak_rss_kib: 0,
                };
            }
        },
    };
    let output = command.output();
    let (seconds, peak_rss_kib) = read_time(&time_file);
    let reply = match output {
        Ok(output) => {
            let stdout = String::from_utf8_lossy(&output.stdout);
            Reply::from_cli(&stdout, output.status).map_err(|e| {
                format!(
                    "{e}; stderr: {}",
                    String::from_utf8_lossy(&output.stderr).trim()
                )
            })
        }
        Err(e) => Err(format!("cannot run /usr/bin/time: {e}")),
    };
    Measured {
        reply,
        seconds,
        peak_rss_kib,
    }
}

/// Parses `/usr/bin/time -f "%e %M"` output (the last line; earlier lines
/// may report a signal).
fn read_time(path: &Path) -> (f64, u64) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let last = text.lines().last().unwrap_or_default();
    let mut parts = last.split_whitespace();
    let seconds = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let rss = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    (seconds, rss)
}

/// Writes `size` bytes produced in blocks by `block(i)` to `path`.
fn generate(path: &Path, size: u64, mut block: impl FnMut(u64) -> Vec<u8>) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    let mut written = 0u64;
    let mut index = 0u64;
    while written < size {
        let bytes = block(index);
        let take = bytes.len().min((size - written) as usize);
        out.write_all(&bytes[..take])?;
        written += take as u64;
        index += 1;
    }
    out.flush()
}

/// Reuses `path` if it already has `size` bytes (big fixtures are slow to
/// make), else generates it.
fn ensure(path: &Path, size: u64, block: impl FnMut(u64) -> Vec<u8>) -> Result<(), String> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() == size) {
        return Ok(());
    }
    generate(path, size, block).map_err(|e| format!("cannot make {}: {e}", path.display()))
}

/// One case: name, description, setup, arguments, stdin, expectation,
/// files that must not change, a path that must not appear.
struct Case {
    name: &'static str,
    what: String,
    args: Vec<String>,
    stdin: Stdin,
    expect: Expect,
    unchanged: Vec<PathBuf>,
    absent: Option<PathBuf>,
}

/// Runs every case (or those whose name contains `only`). The big
/// fixtures need about 5 GiB of free space in `dir`; they are removed at
/// the end unless `keep` is set (then a later run reuses them).
///
/// # Errors
/// A fixture cannot be made.
pub fn run(
    launcher: &Launcher,
    dir: &Path,
    only: Option<&str>,
    keep: bool,
    progress: impl FnMut(&str),
) -> Result<Vec<BenchResult>, String> {
    let results = run_cases(launcher, dir, only, progress);
    if !keep {
        let _ = std::fs::remove_dir_all(dir.join("bench-ws"));
        let _ = std::fs::remove_dir_all(dir.join("bench-scratch"));
        let _ = std::fs::remove_dir_all(dir.join("small-scratch"));
    }
    results
}

fn run_cases(
    launcher: &Launcher,
    dir: &Path,
    only: Option<&str>,
    mut progress: impl FnMut(&str),
) -> Result<Vec<BenchResult>, String> {
    let root = dir.join("bench-ws");
    let scratch = dir.join("bench-scratch");
    for d in [&root, &scratch] {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let root = std::fs::canonicalize(&root).map_err(|e| e.to_string())?;
    let wanted = |name: &str| only.is_none_or(|o| name.contains(o));
    let mut results = Vec::new();

    // A 1 GiB single line without a newline.
    let line = root.join("line-1g.txt");
    if ["line-1g-read", "line-1g-edit", "line-1g-grep"]
        .iter()
        .any(|n| wanted(n))
    {
        progress("making a 1 GiB single-line file");
        ensure(&line, GIB, |_| vec![b'a'; 1 << 20])?;
    }
    let line_tag = "0000";
    // A 2 GiB sparse file (all NUL bytes, no blocks).
    let sparse = root.join("sparse-2g.bin");
    if ["sparse-2g"].iter().any(|n| wanted(n))
        && !std::fs::metadata(&sparse).is_ok_and(|m| m.len() == 2 * GIB)
    {
        File::create(&sparse)
            .and_then(|f| f.set_len(2 * GIB))
            .map_err(|e| format!("cannot make {}: {e}", sparse.display()))?;
    }
    // A 2 GiB text file of 100-byte lines.
    let text = root.join("text-2g.txt");
    let text_lines = 2 * GIB / 100;
    if wanted("text-2g") {
        progress("making a 2 GiB text file (100-byte lines)");
        ensure(&text, 2 * GIB, |i| {
            let mut block = Vec::with_capacity(100 * 10_000);
            for j in 0..10_000 {
                // 99 characters and a newline.
                let _ = writeln!(block, "{:<99}", format!("line {}", i * 10_000 + j + 1));
            }
            block
        })?;
    }
    // A file of a million and one short lines, and documents against it.
    let million = root.join("million.txt");
    let million_lines = 1_000_001u64;
    if wanted("million") {
        progress("making a 1,000,001-line file and million-op documents");
        ensure(
            &million,
            (0..million_lines)
                .map(|i| format!("{i}\n").len() as u64)
                .sum(),
            |_| {
                let mut all = Vec::new();
                for i in 0..million_lines {
                    let _ = writeln!(all, "{i}");
                }
                all
            },
        )?;
    }
    let million_tag = if wanted("million") {
        tag(&std::fs::read(&million).map_err(|e| e.to_string())?)
    } else {
        String::new()
    };
    let ops_doc = scratch.join("million-ops.txt");
    let sections_same = scratch.join("million-sections-same.txt");
    let sections_missing = scratch.join("million-sections-missing.txt");
    if wanted("million") {
        let mut doc = format!("[million.txt#{million_tag}]\n");
        for k in 1..=1_000_000u64 {
            let _ = write!(doc, "PUT {k}:\n+edited {k}\n");
        }
        std::fs::write(&ops_doc, doc).map_err(|e| e.to_string())?;
        let mut doc = String::new();
        for _ in 0..1_000_000 {
            let _ = write!(doc, "[million.txt#{million_tag}]\nPUT 1:\n+x\n");
        }
        std::fs::write(&sections_same, doc).map_err(|e| e.to_string())?;
        let mut doc = String::new();
        for k in 0..1_000_000 {
            let _ = write!(doc, "[missing/{k}.txt#0000]\nPUT 1:\n+x\n");
        }
        std::fs::write(&sections_missing, doc).map_err(|e| e.to_string())?;
    }
    // A 1 GiB document: one body row of a gigabyte.
    let huge_doc = scratch.join("doc-1g.txt");
    if wanted("doc-1g") {
        progress("making a 1 GiB edit document");
        let header = format!("[million.txt#{million_tag}]\nPUT 1:\n+").into_bytes();
        ensure(&huge_doc, GIB, move |i| {
            if i == 0 {
                let mut first = header.clone();
                first.resize(1 << 20, b'y');
                first
            } else {
                vec![b'y'; 1 << 20]
            }
        })?;
    }
    // Files just under and over the 256 MiB edit cap.
    let under = root.join("under-cap.txt");
    let over = root.join("over-cap.txt");
    let line_block = |_| {
        let mut block = Vec::with_capacity(1 << 20);
        while block.len() + 64 <= 1 << 20 {
            block.extend_from_slice(
                b"a reasonably ordinary line of source code, 63 bytes long....\n",
            );
        }
        block.resize(1 << 20, b'\n');
        block
    };
    if wanted("cap") {
        progress("making 200 MiB and 300 MiB text files");
        ensure(&under, 200 * MIB, line_block)?;
        ensure(&over, 300 * MIB, line_block)?;
    }
    let under_tag = if wanted("edit-under-cap") {
        tag(&std::fs::read(&under).map_err(|e| e.to_string())?)
    } else {
        String::new()
    };

    let s = |v: &str| v.to_string();
    let cases = vec![
        Case {
            name: "line-1g-read",
            what: s("read a 1 GiB file that is one line"),
            args: vec![s("read"), s("line-1g.txt")],
            stdin: Stdin::Null,
            expect: Expect::Ok("[line-1g.txt#"),
            unchanged: vec![line.clone()],
            absent: None,
        },
        Case {
            name: "line-1g-edit",
            what: s("edit a 1 GiB single-line file"),
            args: vec![
                s("edit"),
                s("--input"),
                scratch.join("line-doc.txt").display().to_string(),
            ],
            stdin: Stdin::Null,
            expect: Expect::Error("too_large", "over the limit"),
            unchanged: vec![line.clone()],
            absent: None,
        },
        Case {
            name: "line-1g-grep",
            what: s("grep a 1 GiB single-line file"),
            args: vec![s("grep"), s("zzz"), s("line-1g.txt")],
            stdin: Stdin::Null,
            expect: Expect::Ok(""),
            unchanged: vec![line.clone()],
            absent: None,
        },
        Case {
            name: "line-1g-write-stdin",
            what: s("write 1 GiB of content from stdin"),
            args: vec![s("write"), s("created.txt")],
            stdin: Stdin::File(line.clone()),
            expect: Expect::Error("too_large", "over the"),
            unchanged: vec![],
            absent: Some(root.join("created.txt")),
        },
        Case {
            name: "sparse-2g-read",
            what: s("read a 2 GiB sparse file (NUL bytes)"),
            args: vec![s("read"), s("sparse-2g.bin")],
            stdin: Stdin::Null,
            expect: Expect::Error("binary", "binary file"),
            unchanged: vec![sparse.clone()],
            absent: None,
        },
        Case {
            name: "sparse-2g-edit",
            what: s("edit a 2 GiB sparse file"),
            args: vec![
                s("edit"),
                s("--input"),
                scratch.join("sparse-doc.txt").display().to_string(),
            ],
            stdin: Stdin::Null,
            expect: Expect::Error("too_large", "over the limit"),
            unchanged: vec![sparse.clone()],
            absent: None,
        },
        Case {
            name: "sparse-2g-grep",
            what: s("grep a directory holding a 2 GiB sparse file"),
            args: vec![s("grep"), s("zzz"), s("--glob"), s("*.bin")],
            stdin: Stdin::Null,
            expect: Expect::Ok(""),
            unchanged: vec![sparse.clone()],
            absent: None,
        },
        Case {
            name: "text-2g-read-tail",
            what: format!("read the last 5 of {text_lines} lines of a 2 GiB text file"),
            args: vec![
                s("read"),
                s("text-2g.txt"),
                s("--offset"),
                (text_lines - 4).to_string(),
                s("--limit"),
                s("5"),
            ],
            stdin: Stdin::Null,
            expect: Expect::Ok("[text-2g.txt#"),
            unchanged: vec![text.clone()],
            absent: None,
        },
        Case {
            name: "text-2g-edit",
            what: s("edit a 2 GiB text file"),
            args: vec![
                s("edit"),
                s("--input"),
                scratch.join("text-doc.txt").display().to_string(),
            ],
            stdin: Stdin::Null,
            expect: Expect::Error("too_large", "over the limit"),
            unchanged: vec![text.clone()],
            absent: None,
        },
        Case {
            name: "million-ops",
            what: s("one document replacing each of 1,000,000 lines (one op per line)"),
            args: vec![s("edit"), s("--input"), ops_doc.display().to_string()],
            stdin: Stdin::Null,
            expect: Expect::Ok("PUT"),
            unchanged: vec![],
            absent: None,
        },
        Case {
            name: "million-sections-same-file",
            what: s("1,000,000 sections naming one file"),
            args: vec![s("edit"), s("--input"), sections_same.display().to_string()],
            stdin: Stdin::Null,
            expect: Expect::Error("duplicate_path", "twice"),
            unchanged: vec![million.clone()],
            absent: None,
        },
        Case {
            name: "million-sections-missing",
            what: s("1,000,000 sections naming missing files"),
            args: vec![
                s("edit"),
                s("--input"),
                sections_missing.display().to_string(),
            ],
            stdin: Stdin::Null,
            expect: Expect::Error("not_found", "does not exist"),
            unchanged: vec![million.clone()],
            absent: None,
        },
        Case {
            name: "doc-1g-stdin",
            what: s("a 1 GiB edit document on stdin"),
            args: vec![s("edit")],
            stdin: Stdin::File(huge_doc.clone()),
            expect: Expect::Error("too_large", "over the"),
            unchanged: vec![million.clone()],
            absent: None,
        },
        Case {
            name: "doc-dev-zero",
            what: s("edit --input /dev/zero"),
            args: vec![s("edit"), s("--input"), s("/dev/zero")],
            stdin: Stdin::Null,
            expect: Expect::Error("too_large", "over the"),
            unchanged: vec![],
            absent: None,
        },
        Case {
            name: "write-dev-zero",
            what: s("write with /dev/zero on stdin"),
            args: vec![s("write"), s("zero.txt")],
            stdin: Stdin::File(PathBuf::from("/dev/zero")),
            expect: Expect::Error("too_large", "over the"),
            unchanged: vec![],
            absent: Some(root.join("zero.txt")),
        },
        Case {
            name: "edit-under-cap",
            what: s("edit line 1 of a 200 MiB text file (under the 256 MiB cap)"),
            args: vec![
                s("edit"),
                s("--input"),
                scratch.join("under-doc.txt").display().to_string(),
            ],
            stdin: Stdin::Null,
            expect: Expect::Ok("PUT 1:"),
            unchanged: vec![],
            absent: None,
        },
        Case {
            name: "edit-over-cap",
            what: s("edit a 300 MiB text file (over the 256 MiB cap)"),
            args: vec![
                s("edit"),
                s("--input"),
                scratch.join("over-doc.txt").display().to_string(),
            ],
            stdin: Stdin::Null,
            expect: Expect::Error("too_large", "over the limit"),
            unchanged: vec![over.clone()],
            absent: None,
        },
    ];
    // Documents for the single-file edits.
    for (doc, display, file_tag) in [
        ("line-doc.txt", "line-1g.txt", line_tag.to_string()),
        ("sparse-doc.txt", "sparse-2g.bin", s("0000")),
        ("text-doc.txt", "text-2g.txt", s("0000")),
        ("under-doc.txt", "under-cap.txt", under_tag.clone()),
        ("over-doc.txt", "over-cap.txt", s("0000")),
    ] {
        std::fs::write(
            scratch.join(doc),
            format!("[{display}#{file_tag}]\nPUT 1:\n+edited\n"),
        )
        .map_err(|e| e.to_string())?;
    }

    for case in cases {
        if !wanted(case.name) {
            continue;
        }
        progress(&format!("running {}", case.name));
        let before: Vec<Option<Stamp>> = case.unchanged.iter().map(|p| stamp(p)).collect();
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let measured = measure(launcher, &root, &args, case.stdin, &scratch);
        let after: Vec<Option<Stamp>> = case.unchanged.iter().map(|p| stamp(p)).collect();
        let mut unchanged = before == after && before.iter().all(Option::is_some);
        if let Some(absent) = &case.absent {
            unchanged &= !absent.exists();
            let _ = std::fs::remove_file(absent);
        }
        results.push(judge(
            case.name,
            &case.what,
            case.expect,
            measured,
            unchanged,
        ));
    }
    if wanted("edit-under-cap") {
        // Put the edited file back for the next run.
        let _ = std::fs::remove_file(&under);
    }
    if wanted("million-ops") {
        let _ = std::fs::remove_file(&million);
    }
    if wanted("mcp-oversize") {
        progress("running mcp-oversize-message");
        results.push(mcp_oversize(launcher, &root, &scratch));
    }
    results.extend(small_cases(launcher, dir, only, &mut progress)?);
    Ok(results)
}

/// Everything under `dir` that a call could change: kind, mode, inode,
/// times and (for files) bytes.
fn tree(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let kind = meta.file_type();
        let bytes = if kind.is_file() {
            format!("{:?}", std::fs::read(&path).ok())
        } else if kind.is_symlink() {
            format!("{:?}", std::fs::read_link(&path).ok())
        } else {
            String::new()
        };
        out.push((
            path.clone(),
            format!(
                "{:o} {} {}.{} {}.{} {bytes}",
                meta.mode(),
                meta.ino(),
                meta.mtime(),
                meta.mtime_nsec(),
                meta.ctime(),
                meta.ctime_nsec()
            ),
        ));
        if kind.is_dir() {
            tree(&path, out);
        }
    }
}

fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    tree(dir, &mut out);
    out.sort();
    out
}

/// The small hostile inputs (the `hostile` integration tests of the
/// `hashedit` crate check the same with more detail), measured: each in a
/// workspace `proj` beside a prefix sibling `proj-evil` and an `outside`
/// directory, with every file there unchanged afterwards.
fn small_cases(
    launcher: &Launcher,
    dir: &Path,
    only: Option<&str>,
    progress: &mut impl FnMut(&str),
) -> Result<Vec<BenchResult>, String> {
    let base = dir.join("small");
    let _ = std::fs::remove_dir_all(&base);
    let root = base.join("proj");
    // Outside `base`, which must stay unchanged.
    let scratch = dir.join("small-scratch");
    let io = |e: std::io::Error| e.to_string();
    for d in [
        &root,
        &base.join("proj-evil"),
        &base.join("outside"),
        &scratch,
    ] {
        std::fs::create_dir_all(d).map_err(io)?;
    }
    let root = std::fs::canonicalize(&root).map_err(io)?;
    std::fs::write(base.join("proj-evil/secret.txt"), "evil\n").map_err(io)?;
    std::fs::write(root.join("bad.txt"), b"ok\xff\xfe bad\n").map_err(io)?;
    std::fs::write(root.join("nul.txt"), b"a\0b\n").map_err(io)?;
    std::fs::write(root.join("utf16.txt"), b"\xff\xfea\0b\0\n\0").map_err(io)?;
    std::fs::write(root.join("ok.txt"), b"one\ntwo\n").map_err(io)?;
    std::fs::write(root.join("ro.txt"), b"ro\n").map_err(io)?;
    std::fs::set_permissions(
        root.join("ro.txt"),
        std::os::unix::fs::PermissionsExt::from_mode(0o444),
    )
    .map_err(io)?;
    std::fs::write(root.join("secret.txt"), b"s\n").map_err(io)?;
    std::fs::set_permissions(
        root.join("secret.txt"),
        std::os::unix::fs::PermissionsExt::from_mode(0o000),
    )
    .map_err(io)?;
    std::fs::write(root.join("new\nline.txt"), b"a\n").map_err(io)?;
    std::fs::create_dir_all(root.join("dir")).map_err(io)?;
    let root_fd = rustix::fs::openat(
        rustix::fs::CWD,
        &root,
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
        rustix::fs::Mode::empty(),
    )
    .map_err(|e| e.to_string())?;
    rustix::fs::mkfifoat(&root_fd, "fifo", rustix::fs::Mode::from_raw_mode(0o666))
        .map_err(|e| e.to_string())?;
    let device = rustix::fs::mknodat(
        &root_fd,
        "zero",
        rustix::fs::FileType::CharacterDevice,
        rustix::fs::Mode::from_raw_mode(0o666),
        rustix::fs::makedev(1, 5),
    )
    .is_ok();
    let _socket = std::os::unix::net::UnixListener::bind(root.join("sock")).map_err(io)?;
    let link = |target: &Path, name: &str| std::os::unix::fs::symlink(target, root.join(name));
    link(Path::new("/dev/zero"), "zero-link").map_err(io)?;
    link(Path::new("loop-b"), "loop-a").map_err(io)?;
    link(Path::new("loop-a"), "loop-b").map_err(io)?;
    link(&base.join("outside"), "dir-out").map_err(io)?;
    let is_root = rustix::process::geteuid().is_root();
    for d in [dir, &base, &root] {
        // The unprivileged case must reach the workspace.
        let _ = std::fs::set_permissions(d, std::os::unix::fs::PermissionsExt::from_mode(0o755));
    }

    let doc = |name: &str, text: &str| -> Result<String, String> {
        let path = scratch.join(name);
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        Ok(path.display().to_string())
    };
    let ok_tag = tag(b"one\ntwo\n");
    let s = |v: &str| v.to_string();
    let evil = base.join("proj-evil/secret.txt").display().to_string();
    let too_deep = vec!["d".repeat(100); 41].join("/") + "/f.txt";
    let deep = vec!["d"; 200].join("/") + "/f.txt";
    // (name, what, args, user, expect)
    let mut cases: Vec<(&str, String, Vec<String>, bool, Expect)> = vec![
        (
            "utf8-invalid-read",
            s("read a file with invalid UTF-8"),
            vec![s("read"), s("bad.txt")],
            false,
            Expect::Error(
                "not_utf8",
                "is not valid UTF-8 (first invalid byte at offset 2)",
            ),
        ),
        (
            "utf8-invalid-edit",
            s("edit it"),
            vec![
                s("edit"),
                s("--input"),
                doc(
                    "bad.doc",
                    &format!("[bad.txt#{}]\nPUT 1:\n+x\n", tag(b"ok\xff\xfe bad\n")),
                )?,
            ],
            false,
            Expect::Error(
                "not_utf8",
                "edit only changes UTF-8 text files and left it untouched",
            ),
        ),
        (
            "nul-read",
            s("read a file with a NUL byte"),
            vec![s("read"), s("nul.txt")],
            false,
            Expect::Error("binary", "is a binary file (NUL byte at offset 1)"),
        ),
        (
            "utf16-read",
            s("read UTF-16LE text"),
            vec![s("read"), s("utf16.txt")],
            false,
            Expect::Error("unsupported_encoding", "is UTF-16LE text"),
        ),
        (
            "nul-row-edit",
            s("edit with a NUL in a body row"),
            vec![
                s("edit"),
                s("--input"),
                doc("nul.doc", &format!("[ok.txt#{ok_tag}]\nPUT 1:\n+a\u{0}b\n"))?,
            ],
            false,
            Expect::Error("parse_error", "containing a NUL byte"),
        ),
        (
            "bom-row-edit",
            s("edit with U+FEFF opening a body row"),
            vec![
                s("edit"),
                s("--input"),
                doc(
                    "bom.doc",
                    &format!("[ok.txt#{ok_tag}]\nPUT 1:\n+\u{FEFF}one\n"),
                )?,
            ],
            false,
            Expect::Error("parse_error", "starting with U+FEFF"),
        ),
        (
            "fifo-read",
            s("read a FIFO"),
            vec![s("read"), s("fifo")],
            false,
            Expect::Error("not_a_regular_file", "is a FIFO (named pipe)"),
        ),
        (
            "fifo-write",
            s("write a FIFO"),
            vec![s("write"), s("fifo")],
            false,
            Expect::Error("not_a_regular_file", "is a FIFO (named pipe)"),
        ),
        (
            "socket-edit",
            s("edit a socket"),
            vec![
                s("edit"),
                s("--input"),
                doc("sock.doc", "[sock#0000]\nPUT 1:\n+x\n")?,
            ],
            false,
            Expect::Error("not_a_regular_file", "is a socket"),
        ),
        (
            "dev-zero-link-read",
            s("read a symlink to /dev/zero"),
            vec![s("read"), s("zero-link")],
            false,
            Expect::Error("path_outside_workspace", "leads outside the workspace root"),
        ),
        (
            "directory-write",
            s("write a directory"),
            vec![s("write"), s("dir")],
            false,
            Expect::Error("not_a_regular_file", "is a directory"),
        ),
        (
            "read-only-edit",
            s("edit a 0444 file with its right tag"),
            vec![
                s("edit"),
                s("--input"),
                doc(
                    "ro.doc",
                    &format!("[ro.txt#{}]\nPUT 1:\n+x\n", tag(b"ro\n")),
                )?,
            ],
            false,
            Expect::Error("permission_denied", "is read-only (mode 0444)"),
        ),
        (
            "symlink-loop-read",
            s("read through a symlink loop"),
            vec![s("read"), s("loop-a")],
            false,
            Expect::Error("invalid_arguments", "symlink loop"),
        ),
        (
            "symlink-dir-escape-write",
            s("write through a symlink to a directory outside"),
            vec![s("write"), s("dir-out/new.txt")],
            false,
            Expect::Error("path_outside_workspace", "through the symlink dir-out"),
        ),
        (
            "dotdot-escape-write",
            s("write ../proj-evil/new.txt"),
            vec![s("write"), s("../proj-evil/new.txt")],
            false,
            Expect::Error("path_outside_workspace", "leads outside the workspace root"),
        ),
        (
            "prefix-sibling-read",
            s("read the prefix sibling by absolute path"),
            vec![s("read"), evil],
            false,
            Expect::Error("path_outside_workspace", "leads outside the workspace root"),
        ),
        (
            "name-max-write",
            s("write a 256-byte name"),
            vec![s("write"), "n".repeat(256)],
            false,
            Expect::Error("invalid_arguments", "over the 255-byte limit"),
        ),
        (
            "path-max-write",
            s("write a path of 41 × 100-byte directories"),
            vec![s("write"), too_deep],
            false,
            Expect::Error("invalid_arguments", "-byte limit of the system"),
        ),
        (
            "deep-200-write",
            s("write 200 directories deep"),
            vec![s("write"), deep],
            false,
            Expect::Ok("created"),
        ),
        (
            "newline-name-read",
            s("read a name with a newline"),
            vec![s("read"), s("new\nline.txt")],
            false,
            Expect::Ok("[\"new\\nline.txt\"#"),
        ),
        (
            "deleted-edit",
            s("edit a file deleted after it was read"),
            vec![
                s("edit"),
                s("--input"),
                doc("gone.doc", "[gone.txt#0000]\nPUT 1:\n+x\n")?,
            ],
            false,
            Expect::Error("not_found", "does not exist; edit never creates files"),
        ),
    ];
    if device {
        cases.push((
            "dev-zero-node-read",
            s("read a /dev/zero device node in the workspace"),
            vec![s("read"), s("zero")],
            false,
            Expect::Error("not_a_regular_file", "is a character device"),
        ));
    }
    cases.push((
        "unreadable-read",
        s(if is_root {
            "read a mode-000 file (as uid 1234)"
        } else {
            "read a mode-000 file"
        }),
        vec![s("read"), s("secret.txt")],
        is_root,
        Expect::Error("permission_denied", "Permission denied"),
    ));
    let wanted = |name: &str| only.is_none_or(|o| name.contains(o));
    let mut results = Vec::new();
    for (name, what, args, as_other, expect) in cases {
        if !wanted(name) {
            continue;
        }
        progress(&format!("running {name}"));
        let before = snapshot(&base);
        let mut runner = launcher.clone();
        if as_other {
            runner.user = Some((1234, 1234));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let measured = measure(&runner, &root, &args, Stdin::Null, &scratch);
        let after = snapshot(&base);
        // A successful write may create its file (and directories); nothing
        // else may change.
        let created_only = matches!(expect, Expect::Ok(_))
            && before
                .iter()
                .all(|entry| after.contains(entry) || entry.0.is_dir());
        let unchanged = before == after || created_only;
        results.push(judge(name, &what, expect, measured, unchanged));
    }
    let _ = std::fs::remove_dir_all(&base);
    Ok(results)
}

fn judge(
    name: &str,
    what: &str,
    expect: Expect,
    measured: Measured,
    unchanged: bool,
) -> BenchResult {
    let (outcome, matched) = match (&measured.reply, &expect) {
        (Ok(Reply::Ok { text, .. }), Expect::Ok(fragment)) => (
            format!("ok ({} bytes of text)", text.len()),
            text.contains(fragment),
        ),
        (Ok(Reply::Failed { kind, message }), Expect::Error(want_kind, fragment)) => (
            format!("{kind}: {}", first_words(message)),
            kind == want_kind && message.contains(fragment),
        ),
        (Ok(Reply::Ok { text, .. }), _) => (format!("ok: {}", first_words(text)), false),
        (Ok(Reply::Failed { kind, message }), _) => {
            (format!("{kind}: {}", first_words(message)), false)
        }
        (Err(error), _) => (format!("no reply: {}", first_words(error)), false),
    };
    BenchResult {
        name: name.to_string(),
        what: what.to_string(),
        expect,
        outcome,
        matched,
        unchanged,
        seconds: measured.seconds,
        peak_rss_kib: measured.peak_rss_kib,
    }
}

fn first_words(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let mut end = line.len().min(110);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let mut short = line[..end].replace('|', "\\|");
    if end < line.len() {
        short.push('…');
    }
    short
}

/// Sends a 20 MiB `tools/call` to the MCP server: it must answer
/// `too_large` without reading the message and keep serving.
fn mcp_oversize(launcher: &Launcher, root: &Path, scratch: &Path) -> BenchResult {
    let time_file = scratch.join("time-mcp.out");
    let _ = std::fs::remove_file(&time_file);
    let mut command = Command::new("/usr/bin/time");
    command
        .arg("-f")
        .arg("%e %M")
        .arg("-o")
        .arg(&time_file)
        .arg(&launcher.bin)
        .arg("--root")
        .arg(root)
        .arg("mcp")
        .env("HASHEDIT_REGISTRY", &launcher.registry);
    let started = Instant::now();
    let outcome = McpServer::spawn(command)
        .map_err(|e| e.to_string())
        .and_then(|mut server| {
            server.initialize(Duration::from_secs(20))?;
            let content = "z".repeat(20 * MIB as usize);
            let reply = server.call(
                "write",
                json!({"path": "oversize.txt", "content": content}),
                Duration::from_secs(60),
            )?;
            let alive = server.call("list_dir", json!({"path": "."}), Duration::from_secs(20))?;
            let _ = server.close(Duration::from_secs(10));
            Ok((reply, alive.is_ok()))
        });
    let elapsed = started.elapsed().as_secs_f64();
    let (seconds, peak_rss_kib) = read_time(&time_file);
    let created = root.join("oversize.txt").exists();
    let (outcome, matched) = match outcome {
        Ok((Reply::Failed { kind, message }, alive)) => (
            format!(
                "{kind}: {}{}",
                first_words(&message),
                if alive {
                    "; still serving"
                } else {
                    "; NOT serving"
                }
            ),
            kind == "too_large" && alive,
        ),
        Ok((Reply::Ok { .. }, _)) => ("ok (accepted)".to_string(), false),
        Err(error) => (format!("no reply: {}", first_words(&error)), false),
    };
    BenchResult {
        name: "mcp-oversize-message".to_string(),
        what: "a 20 MiB tools/call message to the MCP server".to_string(),
        expect: Expect::Error("too_large", ""),
        outcome,
        matched,
        unchanged: !created,
        seconds: if seconds > 0.0 { seconds } else { elapsed },
        peak_rss_kib,
    }
}

/// A Markdown table of the results.
pub fn table(results: &[BenchResult]) -> String {
    let mut out = String::new();
    out.push_str(
        "| case | input | expected | outcome | files unchanged | wall time | peak RSS |\n",
    );
    out.push_str("|---|---|---|---|---|---:|---:|\n");
    for r in results {
        let expected = match &r.expect {
            Expect::Ok(_) => "success".to_string(),
            Expect::Error(kind, "") => format!("`{kind}`"),
            Expect::Error(kind, fragment) => format!("`{kind}`, \"{fragment}\""),
        };
        let _ = writeln!(
            out,
            "| {}{} | {} | {expected} | {} | {} | {:.2} s | {} |",
            r.name,
            if r.passed() { "" } else { " **FAILED**" },
            r.what,
            r.outcome,
            if r.unchanged { "yes" } else { "**no**" },
            r.seconds,
            human(r.peak_rss_kib * 1024)
        );
    }
    out
}
