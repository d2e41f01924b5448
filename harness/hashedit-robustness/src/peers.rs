//! The peers, driven through `hashedit-peers`: Rho's published
//! `rho-agent-tools` and oh-my-pi's `@oh-my-pi/hashline` on Bun.
//!
//! Both get exactly the documents hashedit gets, rendered with their own
//! tags. Rho's tools keep no memory between calls, so a stale tag is
//! always refused (hashedit's CLI column is the like-for-like comparison).
//! oh-my-pi's engine gets a fresh snapshot store per apply, seeded with the
//! snapshot the model read (as its agent's read tool records it), so its
//! stale-tag recovery can work as hashedit's session rebase does.
//!
//! Rho's two content-addressed tools are engines too: `str_replace`
//! (exact text, once; calls made one after another, stopping at the first
//! that fails) and `apply_patch` (Codex's patch format and matcher, which
//! retries a chunk's lines ignoring trailing, then surrounding whitespace,
//! then Unicode punctuation, and takes the first match).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as B64;
use hashedit_core::TagScheme;
use hashedit_peers::omp::{OmpError, Peer};
use hashedit_peers::rho::{EditFormat, Rho};
use serde_json::json;

use crate::engine::{Attempt, Engine, Reply, put_file, render, scratch_dir, wrong_form};
use crate::forms::{Call, Form};
use crate::signal::Signal;

/// Rho's tools over a scratch workspace, with one of its edit tools.
pub struct RhoEngine {
    dir: tempfile::TempDir,
    host: Rho,
    form: Form,
}

impl std::fmt::Debug for RhoEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RhoEngine").finish_non_exhaustive()
    }
}

impl RhoEngine {
    /// A Rho tool host with its hashline `edit` tool over a fresh scratch
    /// directory.
    pub fn new() -> Result<RhoEngine, String> {
        RhoEngine::with_form(Form::Document)
    }

    /// Rho with the edit tool that takes `form`: `edit` for documents,
    /// `str_replace`, or `apply_patch`.
    ///
    /// Errors: Rho has no tool for `SUB` documents, or the host cannot
    /// start.
    pub fn with_form(form: Form) -> Result<RhoEngine, String> {
        let format = match form {
            Form::Document => EditFormat::Hashline,
            Form::StrReplace => EditFormat::StrReplace,
            Form::ApplyPatch => EditFormat::ApplyPatch,
            Form::SubDocument => return Err("Rho has no SUB ops".to_string()),
        };
        let dir = scratch_dir().map_err(|e| format!("rho: {e}"))?;
        let host = Rho::with_edit_format(dir.path(), format)?;
        Ok(RhoEngine { dir, host, form })
    }

    /// Runs the calls one after another, stopping at the first that
    /// fails: its reply, or the last success.
    fn str_replace(&self, path: &str, call: &Call) -> hashedit_peers::rho::Reply {
        let Call::StrReplace(calls) = call else {
            unreachable!("checked by the caller")
        };
        let mut last = None;
        for c in calls {
            let reply = self.host.str_replace_reply(path, &c.old, &c.new);
            let failed = !reply.is_ok();
            last = Some(reply);
            if failed {
                break;
            }
        }
        last.unwrap_or(hashedit_peers::rho::Reply {
            text: String::new(),
            failure: None,
        })
    }
}

impl Engine for RhoEngine {
    fn name(&self) -> &str {
        match self.form {
            Form::StrReplace => "rho-str_replace",
            Form::ApplyPatch => "rho-apply_patch",
            Form::Document | Form::SubDocument => "rho",
        }
    }

    fn form(&self) -> Form {
        self.form
    }

    fn scheme(&self) -> TagScheme {
        TagScheme::Rho
    }

    fn run(&mut self, attempt: &Attempt) -> Reply {
        let document = render(attempt, self.scheme());
        let full = put_file(self.dir.path(), attempt.path, attempt.live)
            .expect("cannot write to the scratch workspace");
        let reply = match (self.form, attempt.call) {
            (Form::Document, Call::Document(_)) => self.host.edit_reply(&document),
            (Form::StrReplace, Call::StrReplace(_)) => self.str_replace(attempt.path, attempt.call),
            (Form::ApplyPatch, Call::ApplyPatch(patch)) => self.host.apply_patch_reply(patch),
            _ => return wrong_form(attempt, document),
        };
        let after = std::fs::read(&full).ok();
        let _ = std::fs::remove_file(&full);
        Reply {
            ok: reply.is_ok(),
            // Rho reports no separate warnings: it has no tolerances.
            warnings: Vec::new(),
            signals: if reply.is_ok() {
                Vec::new()
            } else {
                vec![Signal::refusal(None, &reply.text)]
            },
            text: reply.text,
            after,
            document,
        }
    }
}

/// oh-my-pi's engine in a long-lived Bun process, restarted if it dies.
pub struct OmpEngine {
    peer: Peer,
}

impl std::fmt::Debug for OmpEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OmpEngine")
            .field("version", &self.peer.version())
            .finish()
    }
}

impl OmpEngine {
    /// Starts the peer installed by `scripts/install-peers`.
    pub fn new() -> Result<OmpEngine, String> {
        let peer = Peer::spawn().map_err(|e| e.to_string())?;
        Ok(OmpEngine { peer })
    }

    /// `@oh-my-pi/hashline X on bun Y`.
    pub fn version(&self) -> &str {
        self.peer.version()
    }
}

impl Engine for OmpEngine {
    fn name(&self) -> &str {
        "oh-my-pi"
    }

    fn scheme(&self) -> TagScheme {
        TagScheme::Omp
    }

    fn run(&mut self, attempt: &Attempt) -> Reply {
        let document = render(attempt, self.scheme());
        if !matches!(attempt.call, Call::Document(_)) {
            return wrong_form(attempt, document);
        }
        let refused = |text: String| Reply {
            ok: false,
            signals: vec![Signal::refusal(None, &text)],
            text,
            warnings: Vec::new(),
            after: Some(attempt.live.to_vec()),
            document: document.clone(),
        };
        // `served` is the snapshot the model read, for the engine's stale-tag
        // recovery; a driver that does not know the field ignores it.
        let request = json!({
            "op": "apply",
            "input": document,
            "file": B64.encode(attempt.live),
            "served": [{"path": attempt.path, "b64": B64.encode(attempt.served)}],
        });
        match self.peer.request(request) {
            Ok(reply) => {
                let file = &reply["files"][0];
                let after = file["b64"].as_str().and_then(|b| B64.decode(b).ok());
                let mut warnings = Vec::new();
                let mut text = Vec::new();
                for section in reply["sections"].as_array().into_iter().flatten() {
                    text.push(section["header"].as_str().unwrap_or_default().to_string());
                    for w in section["warnings"].as_array().into_iter().flatten() {
                        warnings.push(w.as_str().unwrap_or_default().to_string());
                    }
                }
                text.extend(warnings.iter().cloned());
                Reply {
                    ok: true,
                    signals: warnings.iter().map(|w| Signal::warning(w)).collect(),
                    text: text.join("\n"),
                    warnings,
                    after,
                    document: document.clone(),
                }
            }
            Err(OmpError::Refused { message, .. }) => refused(message),
            Err(other) => {
                // A hung or crashed engine wrote nothing (its filesystem is
                // in memory); count it as a refusal and start a new one.
                if let Ok(peer) = Peer::spawn() {
                    self.peer = peer;
                }
                refused(format!("engine failure: {other}"))
            }
        }
    }
}
