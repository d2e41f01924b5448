//! `hashedit-bench`: the Rust half of `scripts/bench`.
//!
//! ```text
//! hashedit-bench gen-source --lines N --seed S OUT
//! hashedit-bench gen-log --bytes N --seed S OUT
//! hashedit-bench tag [--scheme rho|omp] FILE
//! hashedit-bench gen-doc --file F --display PATH --hunks N [--suffix S] [--scheme rho|omp] OUT
//! hashedit-bench flip-docs --file F --display PATH --line N
//! hashedit-bench inproc --root DIR --scratch DIR --calls N (read ARGS | grep ARGS | flip PATH LINE | doc PATH DOC)
//! hashedit-bench mcp --warmup N --calls N --target JSON [--target JSON …]
//! ```
//!
//! Each command prints one JSON object on stdout (timings in
//! microseconds). An `mcp` target is
//! `{"label":…,"argv":[…],"tool":…,"arguments":[{…},…]}`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use hashedit_bench::{inproc, inputs, mcp};
use hashedit_core::TagScheme;
use serde_json::{Value, json};

#[derive(Parser)]
#[command(name = "hashedit-bench", about = "Benchmark harness for scripts/bench")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Writes a source-like file of `lines` lines.
    GenSource {
        #[arg(long)]
        lines: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        out: PathBuf,
    },
    /// Writes a log of at least `bytes` bytes.
    GenLog {
        #[arg(long)]
        bytes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        out: PathBuf,
    },
    /// Prints the snapshot tag of `file` under `scheme`.
    Tag {
        #[arg(long, default_value = "rho")]
        scheme: TagScheme,
        file: PathBuf,
    },
    /// Writes an edit document of `hunks` single-line replacements for
    /// `file`, shown as `display`.
    GenDoc {
        #[arg(long)]
        file: PathBuf,
        #[arg(long)]
        display: String,
        #[arg(long)]
        hunks: usize,
        #[arg(long, default_value = "")]
        suffix: String,
        #[arg(long, default_value = "rho")]
        scheme: TagScheme,
        out: PathBuf,
    },
    /// Prints the two documents that flip line `line` of `file` (shown as
    /// `display`) to a marker row and back.
    FlipDocs {
        #[arg(long)]
        file: PathBuf,
        #[arg(long)]
        display: String,
        #[arg(long)]
        line: usize,
    },
    /// Per-call latency of our tools and Rho's, in process.
    Inproc {
        #[arg(long)]
        root: PathBuf,
        #[arg(long)]
        scratch: PathBuf,
        #[arg(long, default_value_t = 200)]
        calls: usize,
        #[command(subcommand)]
        workload: InprocWorkload,
    },
    /// MCP round trips against several stdio servers, alternating.
    Mcp {
        #[arg(long, default_value_t = 20)]
        warmup: usize,
        #[arg(long, default_value_t = 500)]
        calls: usize,
        /// A server and its calls, as JSON (repeatable).
        #[arg(long = "target", required = true)]
        targets: Vec<String>,
    },
}

#[derive(Subcommand)]
enum InprocWorkload {
    /// `read_file` with these JSON arguments.
    Read { args: String },
    /// `grep` with these JSON arguments.
    Grep { args: String },
    /// `edit` flipping line `line` of `path` back and forth.
    Flip { path: String, line: usize },
    /// `edit` applying the document in file `doc` to `path`, restored
    /// before each call.
    Doc { path: String, doc: PathBuf },
}

fn run(cli: Cli) -> Result<Value, String> {
    match cli.command {
        Command::GenSource { lines, seed, out } => {
            let bytes = inputs::source_text(lines, seed);
            std::fs::write(&out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(json!({ "path": out, "bytes": bytes.len(), "lines": lines }))
        }
        Command::GenLog { bytes, seed, out } => {
            let written = inputs::write_log(&out, bytes, seed)
                .map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(json!({ "path": out, "bytes": written }))
        }
        Command::Tag { scheme, file } => {
            let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            Ok(json!({ "tag": scheme.tag_of(&bytes).to_string() }))
        }
        Command::GenDoc {
            file,
            display,
            hunks,
            suffix,
            scheme,
            out,
        } => {
            let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let doc = inputs::edit_document(&display, &bytes, scheme, hunks, &suffix);
            std::fs::write(&out, &doc).map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(json!({ "path": out, "bytes": doc.len(), "hunks": hunks }))
        }
        Command::FlipDocs {
            file,
            display,
            line,
        } => {
            let dir = file.parent().unwrap_or(std::path::Path::new("."));
            let name = file
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or_else(|| format!("{}: not a file name", file.display()))?;
            let [forward, back] = inproc::flip_documents(dir, name, line)?;
            let shown =
                |doc: String| doc.replacen(&format!("[{name}#"), &format!("[{display}#"), 1);
            Ok(json!({ "forward": shown(forward), "back": shown(back) }))
        }
        Command::Inproc {
            root,
            scratch,
            calls,
            workload,
        } => {
            let parse = |s: &str| serde_json::from_str::<Value>(s).map_err(|e| e.to_string());
            let workload = match workload {
                InprocWorkload::Read { args } => inproc::Workload::Read(parse(&args)?),
                InprocWorkload::Grep { args } => inproc::Workload::Grep(parse(&args)?),
                InprocWorkload::Flip { path, line } => inproc::Workload::FlipLine { path, line },
                InprocWorkload::Doc { path, doc } => inproc::Workload::Document {
                    path,
                    document: std::fs::read_to_string(&doc)
                        .map_err(|e| format!("{}: {e}", doc.display()))?,
                },
            };
            inproc::run(&root, &scratch, &workload, calls)
        }
        Command::Mcp {
            warmup,
            calls,
            targets,
        } => {
            let targets = targets
                .iter()
                .map(|t| parse_target(t))
                .collect::<Result<Vec<_>, _>>()?;
            mcp::compare(&targets, warmup, calls)
        }
    }
}

fn parse_target(text: &str) -> Result<mcp::Target, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("target {text}: {e}"))?;
    let field = |name: &str| {
        v.get(name)
            .cloned()
            .ok_or_else(|| format!("target {text}: no '{name}'"))
    };
    let strings = |value: Value| -> Result<Vec<String>, String> {
        serde_json::from_value(value).map_err(|e| format!("target {text}: {e}"))
    };
    Ok(mcp::Target {
        label: strings(json!([field("label")?]))?.remove(0),
        argv: strings(field("argv")?)?,
        tool: strings(json!([field("tool")?]))?.remove(0),
        arguments: serde_json::from_value(field("arguments")?)
            .map_err(|e| format!("target {text}: {e}"))?,
    })
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(value) => {
            println!("{value}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("hashedit-bench: {message}");
            ExitCode::FAILURE
        }
    }
}
