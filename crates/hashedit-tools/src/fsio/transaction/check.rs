//! Refusing, before anything is touched, every change that cannot succeed.

use std::path::Path;

use super::Change;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio::lock::LockedFile;
use crate::fsio::open::split;
use crate::fsio::write::read_only_error;
use crate::workspace::Workspace;

/// Refuses, before anything is touched, every change that cannot succeed.
pub(super) fn check(ws: &Workspace, locked: &[LockedFile], changes: &[Change]) -> ToolResult<()> {
    let mut dests: Vec<(&Path, &str)> = Vec::new();
    for (file, change) in locked.iter().zip(changes) {
        if matches!(change, Change::Keep) {
            continue;
        }
        if let Some(error) = read_only_error(&file.display, file.meta.mode) {
            return Err(error);
        }
        if matches!(change, Change::Remove | Change::Move { .. })
            && let Some(real) = real_path_if_linked(ws, file)
        {
            return Err(symlinked(&file.display, &real));
        }
        let Change::Move { dest, .. } = change else {
            continue;
        };
        split(ws, dest)?;
        if dest.target == file.target {
            return Err(onto_itself(&file.display, &dest.display));
        }
        if dest.exists || locked.iter().any(|other| other.target == dest.target) {
            return Err(dest_exists(&file.display, &dest.display));
        }
        if let Some((_, first)) = dests.iter().find(|(target, _)| *target == dest.target) {
            return Err(ToolError::new(
                ErrorKind::DuplicatePath,
                format!(
                    "{first} and {} are both moved to {}; a destination can receive only one file",
                    file.display, dest.display
                ),
            ));
        }
        dests.push((&dest.target, &file.display));
    }
    Ok(())
}

/// The file's real workspace-relative path when `file.display` reaches it
/// through a symlink (the display path differs from the canonical target).
fn real_path_if_linked(ws: &Workspace, file: &LockedFile) -> Option<String> {
    let relative = file.target.strip_prefix(ws.root()).ok()?;
    let real = relative
        .components()
        .map(|component| component.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    (real != file.display).then_some(real)
}

fn symlinked(display: &str, real: &str) -> ToolError {
    ToolError::new(
        ErrorKind::InvalidArguments,
        format!(
            "{display} goes through a symlink to {real}; nothing was changed. Files are deleted and moved only by their real path, so that it is clear whether the link or the file is meant: head the section [{real}#TAG] instead (same tag) to delete or move the file itself (links to it then dangle), or remove the symlink with another tool"
        ),
    )
}

fn onto_itself(source: &str, dest: &str) -> ToolError {
    let detail = if source == dest {
        format!("{source} cannot be moved to itself")
    } else {
        format!("{source} cannot be moved to {dest}: that is the same file")
    };
    ToolError::new(
        ErrorKind::InvalidArguments,
        format!("{detail}; give a different destination path"),
    )
}

pub(super) fn dest_exists(source: &str, dest: &str) -> ToolError {
    ToolError::new(
        ErrorKind::Conflict,
        format!(
            "{dest} already exists, so {source} was not moved there: a move never overwrites a file. Choose a destination that does not exist, or delete {dest} in a separate edit first"
        ),
    )
}
