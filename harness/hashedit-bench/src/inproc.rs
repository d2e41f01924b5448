//! Per-call latency of the tools called in process: hashedit's
//! (`hashedit_tools::tools`, with a session and the tree-sitter resolver,
//! as the MCP server runs them)
//! and Rho's (`rho-agent-tools` through its SDK's tool host, as
//! `hashedit_peers::rho` runs it).
//!
//! Each engine works in its own copy of the workspace, and calls alternate
//! between the engines (ours, Rho, ours, Rho, …) so that both see the same
//! machine load. Edits flip one line of the file back and forth, so every
//! call is a real edit of the same size and every document carries the tag
//! of the file as it is at that moment.

use std::path::{Path, PathBuf};
use std::time::Instant;

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::TagScheme;
use hashedit_peers::rho::Rho;
use hashedit_tools::{EditArgs, EditMode, GrepArgs, ReadFileArgs, Session, ToolContext, Workspace};
use serde_json::{Value, json};

use crate::stats::summary;

/// What each call does.
#[derive(Debug, Clone)]
pub enum Workload {
    /// `read_file` with these JSON arguments.
    Read(Value),
    /// `grep` with these JSON arguments.
    Grep(Value),
    /// `edit` replacing line `line` of workspace file `path` alternately
    /// with a marker row and with its original text.
    FlipLine {
        /// Workspace-relative path.
        path: String,
        /// 1-based line to flip.
        line: usize,
    },
    /// `edit` applying `document` to workspace file `path`, restored to its
    /// original bytes before every call (untimed).
    Document {
        /// Workspace-relative path.
        path: String,
        /// The edit document.
        document: String,
    },
}

/// One engine under test.
trait Engine {
    fn call(&mut self, name: &str, args: &Value) -> Result<String, String>;
}

struct Ours {
    ws: Workspace,
    session: Session,
    /// The tree-sitter resolver the CLI and the MCP server use (blocks and
    /// the syntax check of edits), so in-process calls cost what the
    /// product's do.
    blocks: TreeSitterBlocks,
}

impl Engine for Ours {
    fn call(&mut self, name: &str, args: &Value) -> Result<String, String> {
        let cx = ToolContext::new(&self.ws)
            .with_session(&self.session)
            .with_blocks(&self.blocks);
        let args = args.clone();
        let outcome = match name {
            "read_file" => serde_json::from_value::<ReadFileArgs>(args)
                .map_err(|e| e.to_string())
                .and_then(|a| hashedit_tools::read_file(&cx, &a).map_err(|e| e.to_string())),
            "grep" => serde_json::from_value::<GrepArgs>(args)
                .map_err(|e| e.to_string())
                .and_then(|a| hashedit_tools::grep(&cx, &a).map_err(|e| e.to_string())),
            "edit" => serde_json::from_value::<EditArgs>(args)
                .map_err(|e| e.to_string())
                .and_then(|a| {
                    hashedit_tools::edit(&cx, &a, EditMode::Apply).map_err(|e| e.to_string())
                }),
            other => Err(format!("no tool {other}")),
        }?;
        Ok(outcome.text)
    }
}

struct RhoEngine(Rho);

impl Engine for RhoEngine {
    fn call(&mut self, name: &str, args: &Value) -> Result<String, String> {
        self.0.call(name, args.clone()).into_result()
    }
}

/// The row [`flip_documents`] writes.
pub const MARKER: &str = "// hashedit-bench was here";

/// The two documents that flip `line` of `path` (as it is in `root`) to
/// [`MARKER`] and back, each under the rho tag of the state it applies to.
///
/// Errors: the file cannot be read or decoded, or has no such line.
pub fn flip_documents(root: &Path, path: &str, line: usize) -> Result<[String; 2], String> {
    let original = std::fs::read(root.join(path)).map_err(|e| format!("{path}: {e}"))?;
    let text = hashedit_core::Text::decode(&original).map_err(|e| format!("{path}: {e:?}"))?;
    if line == 0 || line > text.line_count() {
        return Err(format!("{path} has no line {line}"));
    }
    let old_row = text.line(line).to_string();
    let forward = format!(
        "[{path}#{}]\nPUT {line}:\n+{MARKER}\n",
        TagScheme::Rho.tag_of(&original)
    );
    let parsed = hashedit_core::parse(&forward).map_err(|e| e.to_string())?;
    let input = hashedit_core::FileInput {
        section: &parsed.sections[0],
        display: path,
        result_display: path,
        bytes: &original,
    };
    let flipped = hashedit_core::edit_file(
        &input,
        &hashedit_core::EditSettings::new(TagScheme::Rho),
        &hashedit_core::NoHistory,
        &mut hashedit_core::Registers::default(),
    )
    .map_err(|e| e.to_string())?;
    let back = format!("[{path}#{}]\nPUT {line}:\n+{old_row}\n", flipped.new_tag());
    Ok([forward, back])
}

/// Copies the regular files of `from` (recursively) into `to`.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let dest = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &dest)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), dest)?;
        }
    }
    Ok(())
}

/// Runs `calls` calls of `workload` per engine, alternating, in copies of
/// `root` under `scratch` (edits) or in `root` itself (reads, greps).
/// Returns `{"ours": summary, "rho": summary}` of the per-call times in
/// microseconds (see [`crate::stats::summary`]), plus the raw samples.
///
/// Errors: a call that fails, or a workspace that cannot be set up.
pub fn run(
    root: &Path,
    scratch: &Path,
    workload: &Workload,
    calls: usize,
) -> Result<Value, String> {
    let (ours_root, rho_root): (PathBuf, PathBuf) = match workload {
        Workload::FlipLine { .. } | Workload::Document { .. } => {
            let a = scratch.join("ours");
            let b = scratch.join("rho");
            for dir in [&a, &b] {
                let _ = std::fs::remove_dir_all(dir);
                copy_tree(root, dir).map_err(|e| format!("copying {}: {e}", root.display()))?;
            }
            (a, b)
        }
        _ => (root.to_path_buf(), root.to_path_buf()),
    };
    let ws = Workspace::new(&ours_root).map_err(|e| e.to_string())?;
    let mut engines: Vec<(&str, Box<dyn Engine>)> = vec![
        (
            "ours",
            Box::new(Ours {
                ws,
                session: Session::new(),
                blocks: TreeSitterBlocks::new(),
            }),
        ),
        ("rho", Box::new(RhoEngine(Rho::new(&rho_root)?))),
    ];
    let (name, docs) = match workload {
        Workload::Read(args) => ("read_file", vec![args.clone()]),
        Workload::Grep(args) => ("grep", vec![args.clone()]),
        Workload::FlipLine { path, line } => {
            let [forward, back] = flip_documents(root, path, *line)?;
            (
                "edit",
                vec![json!({ "input": forward }), json!({ "input": back })],
            )
        }
        Workload::Document { document, .. } => ("edit", vec![json!({ "input": document })]),
    };
    // Restores the edited file before each call of a `Document` workload.
    let restore = |k: usize| -> Result<(), String> {
        if let Workload::Document { path, .. } = workload {
            let dir = if k == 0 { &ours_root } else { &rho_root };
            std::fs::copy(root.join(path), dir.join(path))
                .map_err(|e| format!("restoring {path}: {e}"))?;
        }
        Ok(())
    };
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(calls); engines.len()];
    // One untimed call each: first-use costs (page cache, lazy statics).
    for (k, (who, engine)) in engines.iter_mut().enumerate() {
        restore(k)?;
        engine
            .call(name, &docs[0])
            .map_err(|e| format!("{who} {name}: {e}"))?;
    }
    for i in 0..calls {
        // Edits: the warm-up applied docs[0], so the next call flips back.
        let args = &docs[(i + 1) % docs.len()];
        // Alternate which engine goes first, so neither always follows the
        // other's cache effects.
        let order: Vec<usize> = if i % 2 == 0 { vec![0, 1] } else { vec![1, 0] };
        for k in order {
            restore(k)?;
            let (who, engine) = &mut engines[k];
            let start = Instant::now();
            let reply = engine.call(name, args);
            let micros = start.elapsed().as_secs_f64() * 1e6;
            reply.map_err(|e| format!("{who} {name}: {e}"))?;
            samples[k].push(micros);
        }
    }
    let mut out = serde_json::Map::new();
    for ((who, _), s) in engines.iter().zip(&samples) {
        out.insert((*who).to_string(), summary(s));
        out.insert(format!("{who}_samples"), json!(s));
    }
    Ok(Value::Object(out))
}
