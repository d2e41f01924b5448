//! Stage 1 of `edit`: every section's file and `MV` destination, resolved
//! inside the workspace and claimed once.

use std::collections::HashMap;
use std::path::PathBuf;

use hashedit_core::{OpKind, Section};

use crate::context::ToolContext;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::workspace::{Resolve, ResolvedPath, display_path};

/// One section's file, resolved.
pub(super) struct Target {
    pub(super) path: ResolvedPath,
    /// The `MV` destination, resolved and checked absent.
    pub(super) dest: Option<ResolvedPath>,
}

impl Target {
    /// Display path of the result: the `MV` destination, else the file.
    pub(super) fn result_display(&self) -> &str {
        self.dest
            .as_ref()
            .map_or(&self.path.display, |d| &d.display)
    }
}

/// The workspace-relative display path of the one existing file that the
/// session served under `section`'s tag, preferring files with the same
/// name as the missing path: the likely meaning of a header whose path was
/// mistyped or given relative to another directory.
fn served_elsewhere(cx: &ToolContext, section: &Section) -> Option<String> {
    let session = cx.session?;
    let wanted = std::path::Path::new(&section.path).file_name();
    let candidates: Vec<(String, bool)> = session
        .paths_served_with(section.tag)
        .into_iter()
        .filter(|p| p.is_file())
        .filter_map(|p| {
            let relative = p.strip_prefix(cx.ws.root()).ok()?.to_str()?.to_owned();
            let same_name = wanted.is_some() && p.file_name() == wanted;
            Some((relative, same_name))
        })
        .collect();
    let named: Vec<&String> = candidates
        .iter()
        .filter(|(_, same)| *same)
        .map(|(p, _)| p)
        .collect();
    let pick = match (named.as_slice(), candidates.as_slice()) {
        ([one], _) => (*one).clone(),
        ([], [(only, _)]) => only.clone(),
        _ => return None,
    };
    Some(display_path(&pick).into_owned())
}

/// Resolves every section's file and `MV` destination.
pub(super) fn resolve_targets(cx: &ToolContext, sections: &[Section]) -> ToolResult<Vec<Target>> {
    let ws = cx.ws;
    let mut targets: Vec<Target> = Vec::with_capacity(sections.len());
    let mut claimed: HashMap<PathBuf, String> = HashMap::new();
    for section in sections {
        let path = ws.resolve(&section.path, Resolve::Existing).map_err(|e| {
            if e.kind == ErrorKind::NotFound {
                let hint = served_elsewhere(cx, section)
                    .map(|display| {
                        format!(
                            " A snapshot with this tag was served for {display}: if you meant that file, \
                             use the header [{display}#{}].",
                            section.tag
                        )
                    })
                    .unwrap_or_default();
                ToolError::new(
                    ErrorKind::NotFound,
                    format!(
                        "{} (document line {}) does not exist; edit never creates files, so use write \
                         to create it.{hint} Nothing was written.",
                        section.path, section.line
                    ),
                )
            } else {
                e
            }
        })?;
        ws.check_writable(&path)?;
        let dest = match section.file_op().map(|op| &op.kind) {
            Some(OpKind::Move { dest }) => {
                let resolved = ws.resolve(dest, Resolve::MayCreate)?;
                ws.check_writable(&resolved)?;
                if resolved.target == path.target {
                    return Err(ToolError::new(
                        ErrorKind::InvalidArguments,
                        format!("MV {dest} names the file itself; nothing was written"),
                    ));
                }
                if resolved.exists {
                    return Err(ToolError::new(
                        ErrorKind::Conflict,
                        format!(
                            "MV {dest}: {} already exists, and MV never overwrites a file; choose another \
                             destination or REM it first in a separate edit. Nothing was written.",
                            resolved.display
                        ),
                    ));
                }
                Some(resolved)
            }
            _ => None,
        };
        for claim in std::iter::once(&path).chain(dest.as_ref()) {
            if let Some(first) = claimed.insert(claim.target.clone(), section.path.clone()) {
                let also = if first == section.path {
                    String::new()
                } else {
                    format!(" (also written as '{first}')")
                };
                return Err(ToolError::new(
                    ErrorKind::DuplicatePath,
                    format!(
                        "the document names '{}'{also} twice (document line {}); put all ops for one file \
                         in one section, and move a file only to a path no other section uses. Nothing \
                         was written.",
                        claim.display, section.line
                    ),
                ));
            }
        }
        targets.push(Target { path, dest });
    }
    Ok(targets)
}
