//! oh-my-pi's hashline engine, `@oh-my-pi/hashline` from npm, run on Bun.
//!
//! [`Peer::spawn`] starts one Bun process running our driver
//! (`js/omp-driver.ts`), which loads the installed package and answers
//! JSON requests line by line, so one process serves any number of calls.
//! Each apply runs the package's `Patcher` (the same orchestrator the
//! coding agent's `edit` tool wraps) on a fresh in-memory filesystem that
//! holds the caller's bytes verbatim, with a fresh snapshot store and
//! clipboard, the seen-line guard off (the agent's default) and block
//! locators resolved by the package's tree-sitter bindings.
//!
//! The peer is located through [`crate::locate`]: `HASHEDIT_BUN` and
//! `HASHEDIT_OMP_DIR`, else `target/peers/` as `scripts/install-peers`
//! leaves it. Requests time out after `HASHEDIT_OMP_TIMEOUT_SECS` (30 s).
//!
//! ```no_run
//! let peer = hashedit_peers::omp::Peer::spawn().unwrap();
//! let bytes = b"a\nb\n";
//! let tag = peer.tag(bytes).unwrap();
//! let out = peer.apply(bytes, &format!("[f.txt#{tag}]\nPUT 2:\n+B\n")).unwrap();
//! assert_eq!(out.bytes, b"a\nB\n");
//! ```

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Value, json};

use crate::{Missing, locate};

/// Path of the driver script in this crate.
pub fn driver_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("js")
        .join("omp-driver.ts")
}

/// Why a call to the peer failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OmpError {
    /// The engine refused the document: parse error, stale tag, bad range,
    /// block or clipboard error. `message` is the engine's text;
    /// `name` the JS error class (`Error`, `MismatchError`, …).
    Refused {
        /// The engine's error message.
        message: String,
        /// The JS error class name.
        name: String,
    },
    /// The Bun process or the driver failed (crash, bad reply).
    Driver(String),
    /// No reply within the time limit; the process was ended and the peer
    /// answers nothing more (spawn a new one).
    Timeout(Duration),
}

impl std::fmt::Display for OmpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OmpError::Refused { message, name } => write!(f, "omp refused ({name}): {message}"),
            OmpError::Driver(message) => write!(f, "omp driver failure: {message}"),
            OmpError::Timeout(limit) => write!(f, "omp did not answer within {limit:?}"),
        }
    }
}

impl std::error::Error for OmpError {}

/// One section of a successful apply, as the package reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionResult {
    /// The section's path (after the package's header normalisation).
    pub path: String,
    /// `update`, `create`, `delete` or `noop`.
    pub op: String,
    /// The tag of the file's new content.
    pub tag: String,
    /// The `[path#TAG]` header for follow-up edits.
    pub header: String,
    /// Parser, applier and recovery warnings, in the package's words.
    pub warnings: Vec<String>,
    /// The destination of an `MV`.
    pub move_dest: Option<String>,
    /// Block locators resolved during the apply: (anchor, start, end).
    pub block_resolutions: Vec<(usize, usize, usize)>,
}

/// The result of applying a document to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The file's bytes after the apply (empty when the file was removed).
    pub bytes: Vec<u8>,
    /// Whether the file still exists (false after `REM` or `MV`).
    pub exists: bool,
    /// Our compact rendering of the outcome: each section's new header,
    /// then its warnings (the package has no model-facing reply of its own;
    /// the coding agent formats one around these facts).
    pub text: String,
    /// Per-section details.
    pub sections: Vec<SectionResult>,
}

/// The result of applying a document to several files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppliedFiles {
    /// Every file after the apply, inputs first (`None` when removed), then
    /// files created by `MV`.
    pub files: Vec<(String, Option<Vec<u8>>)>,
    /// Our compact rendering (see [`Applied::text`]).
    pub text: String,
    /// Per-section details.
    pub sections: Vec<SectionResult>,
}

struct Pipes {
    stdin: ChildStdin,
    /// Reply lines, read by a thread so a request can time out.
    replies: Receiver<std::io::Result<String>>,
    next_id: u64,
    dead: bool,
}

/// How long one request may take: `HASHEDIT_OMP_TIMEOUT_SECS`, else 30 s.
pub fn request_timeout() -> Duration {
    let secs = std::env::var("HASHEDIT_OMP_TIMEOUT_SECS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(30);
    Duration::from_secs(secs)
}

/// A running Bun process serving the oh-my-pi engine.
///
/// Calls are serialised on an internal lock, so a `Peer` can be shared
/// between threads. A call that gets no answer within [`request_timeout`]
/// ends the process (the engine can spin on some inputs) and returns
/// [`OmpError::Timeout`]; the peer then refuses further calls
/// ([`Peer::is_dead`]), so spawn a new one. Dropping a peer ends its
/// process.
pub struct Peer {
    child: Mutex<Child>,
    pipes: Mutex<Pipes>,
    stderr: Arc<Mutex<String>>,
    version: String,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("omp::Peer")
            .field("version", &self.version)
            .finish()
    }
}

impl Peer {
    /// Starts the peer found by [`crate::locate`].
    ///
    /// Errors: [`Missing`] when Bun or the package is not installed, or the
    /// process does not start and answer.
    pub fn spawn() -> Result<Peer, Missing> {
        let found = locate::omp()?;
        Peer::spawn_with(&found.bun, &found.package_dir)
    }

    /// Starts the driver with an explicit Bun binary and package directory.
    pub fn spawn_with(bun: &Path, package_dir: &Path) -> Result<Peer, Missing> {
        let mut child = Command::new(bun)
            .arg(driver_path())
            .arg(package_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Missing::new("bun", format!("cannot start {}: {e}", bun.display())))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (send, replies) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut line = String::new();
                match stdout.read_line(&mut line) {
                    Ok(0) => break,
                    Ok(_) => {
                        if send.send(Ok(line)).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = send.send(Err(e));
                        break;
                    }
                }
            }
        });
        let mut stderr_pipe = child.stderr.take().expect("piped stderr");
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut text = sink.lock().unwrap_or_else(|e| e.into_inner());
                text.push_str(&String::from_utf8_lossy(&buf[..n]));
                // Keep the tail only: enough to explain a crash.
                if text.len() > 64 * 1024 {
                    let cut = text.len() - 32 * 1024;
                    let cut = (cut..text.len())
                        .find(|&i| text.is_char_boundary(i))
                        .unwrap_or(text.len());
                    text.drain(..cut);
                }
            }
        });
        let mut peer = Peer {
            child: Mutex::new(child),
            pipes: Mutex::new(Pipes {
                stdin,
                replies,
                next_id: 1,
                dead: false,
            }),
            stderr,
            version: String::new(),
        };
        let reply = peer.request(json!({"op": "version"})).map_err(|e| {
            Missing::new(
                "@oh-my-pi/hashline",
                format!(
                    "the driver did not start with package {}: {e}",
                    package_dir.display()
                ),
            )
        })?;
        peer.version = format!(
            "@oh-my-pi/hashline {} on bun {}",
            reply["hashline"].as_str().unwrap_or("?"),
            reply["bun"].as_str().unwrap_or("?")
        );
        Ok(peer)
    }

    /// `@oh-my-pi/hashline X on bun Y`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Sends one request and waits for its reply. `Ok` holds the reply
    /// object of a successful request; a refusal by the engine is
    /// [`OmpError::Refused`].
    pub fn request(&self, mut request: Value) -> Result<Value, OmpError> {
        let mut pipes = self.pipes.lock().unwrap_or_else(|e| e.into_inner());
        if pipes.dead {
            return Err(OmpError::Driver(
                "the peer was ended after a failure".into(),
            ));
        }
        let id = pipes.next_id;
        pipes.next_id += 1;
        request["id"] = json!(id);
        let mut line = serde_json::to_string(&request).expect("JSON request");
        line.push('\n');
        if let Err(e) = pipes
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| pipes.stdin.flush())
        {
            pipes.dead = true;
            return Err(self.driver_failure(format!("cannot write to bun: {e}")));
        }
        let limit = request_timeout();
        let reply = match pipes.replies.recv_timeout(limit) {
            Ok(Ok(reply)) => reply,
            Ok(Err(e)) => {
                pipes.dead = true;
                return Err(self.driver_failure(format!("cannot read from bun: {e}")));
            }
            Err(RecvTimeoutError::Timeout) => {
                // The engine is stuck on this input: end the process rather
                // than let it run (and grow) unbounded.
                pipes.dead = true;
                self.kill();
                return Err(OmpError::Timeout(limit));
            }
            Err(RecvTimeoutError::Disconnected) => {
                pipes.dead = true;
                return Err(self.driver_failure("bun exited".into()));
            }
        };
        let reply: Value = serde_json::from_str(&reply)
            .map_err(|e| self.driver_failure(format!("bad reply {reply:?}: {e}")))?;
        if reply["id"] != json!(id) {
            return Err(self.driver_failure(format!("reply for another request: {reply}")));
        }
        if reply["ok"] == json!(true) {
            Ok(reply)
        } else {
            Err(OmpError::Refused {
                message: reply["error"].as_str().unwrap_or("").to_string(),
                name: reply["errorName"].as_str().unwrap_or("Error").to_string(),
            })
        }
    }

    /// True once the process was ended (after a timeout or a crash).
    pub fn is_dead(&self) -> bool {
        self.pipes.lock().unwrap_or_else(|e| e.into_inner()).dead
    }

    fn kill(&self) {
        let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
        let _ = child.kill();
        let _ = child.wait();
    }

    fn driver_failure(&self, what: String) -> OmpError {
        let stderr = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        OmpError::Driver(if stderr.is_empty() {
            what
        } else {
            format!("{what}\n--- bun stderr ---\n{stderr}")
        })
    }

    /// The tag a read of `bytes` would mint (the package's
    /// `computeFileHash` over the decoded, LF-normalised text).
    pub fn tag(&self, bytes: &[u8]) -> Result<String, OmpError> {
        let reply = self.request(json!({"op": "tag", "b64": B64.encode(bytes)}))?;
        Ok(reply["tag"].as_str().unwrap_or("").to_string())
    }

    /// A hashline read of `bytes` as `path`: `[path#TAG]` and `N:` rows,
    /// built from the package's formatting helpers.
    pub fn read(&self, path: &str, bytes: &[u8]) -> Result<String, OmpError> {
        let reply = self.request(json!({"op": "read", "path": path, "b64": B64.encode(bytes)}))?;
        Ok(reply["text"].as_str().unwrap_or("").to_string())
    }

    /// Applies `document` to one file holding `file_bytes`; the file takes
    /// the path of the document's first section.
    pub fn apply(&self, file_bytes: &[u8], document: &str) -> Result<Applied, OmpError> {
        let reply = self.request(json!({
            "op": "apply",
            "input": document,
            "file": B64.encode(file_bytes),
        }))?;
        let (files, text, sections) = decode_apply(&reply)?;
        let first = files.into_iter().next();
        let (bytes, exists) = match first.and_then(|(_, bytes)| bytes) {
            Some(bytes) => (bytes, true),
            None => (Vec::new(), false),
        };
        Ok(Applied {
            bytes,
            exists,
            text,
            sections,
        })
    }

    /// Applies `document` to several files, given as (path, bytes).
    pub fn apply_files(
        &self,
        files: &[(&str, &[u8])],
        document: &str,
    ) -> Result<AppliedFiles, OmpError> {
        let files: Vec<Value> = files
            .iter()
            .map(|(path, bytes)| json!({"path": path, "b64": B64.encode(bytes)}))
            .collect();
        let reply = self.request(json!({"op": "apply", "input": document, "files": files}))?;
        let (files, text, sections) = decode_apply(&reply)?;
        Ok(AppliedFiles {
            files,
            text,
            sections,
        })
    }
}

type Decoded = (Vec<(String, Option<Vec<u8>>)>, String, Vec<SectionResult>);

fn decode_apply(reply: &Value) -> Result<Decoded, OmpError> {
    let bad = |what: &str| OmpError::Driver(format!("bad apply reply ({what}): {reply}"));
    let mut files = Vec::new();
    for file in reply["files"].as_array().ok_or_else(|| bad("files"))? {
        let path = file["path"]
            .as_str()
            .ok_or_else(|| bad("path"))?
            .to_string();
        let bytes = match file["b64"].as_str() {
            None => None,
            Some(b64) => Some(B64.decode(b64).map_err(|_| bad("base64"))?),
        };
        files.push((path, bytes));
    }
    let mut sections = Vec::new();
    let mut text = Vec::new();
    for section in reply["sections"]
        .as_array()
        .ok_or_else(|| bad("sections"))?
    {
        let strings = |key: &str| -> Vec<String> {
            section[key]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|w| w.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        let block_resolutions = section["blockResolutions"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| {
                        let n = |k: &str| r[k].as_u64().unwrap_or(0) as usize;
                        (n("anchorLine"), n("start"), n("end"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let result = SectionResult {
            path: section["path"].as_str().unwrap_or("").to_string(),
            op: section["op"].as_str().unwrap_or("").to_string(),
            tag: section["fileHash"].as_str().unwrap_or("").to_string(),
            header: section["header"].as_str().unwrap_or("").to_string(),
            warnings: strings("warnings"),
            move_dest: section["moveDest"].as_str().map(str::to_string),
            block_resolutions,
        };
        text.push(result.header.clone());
        if !result.warnings.is_empty() {
            text.push("Warnings:".to_string());
            text.extend(result.warnings.iter().cloned());
        }
        sections.push(result);
    }
    Ok((files, text.join("\n"), sections))
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.kill();
    }
}
