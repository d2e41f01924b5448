//! Refusing, before anything is touched, every change that cannot succeed.

use std::path::Path;

use super::Change;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio::lock::LockedFile;
use crate::fsio::open::split;
use crate::fsio::write::read_only_error;
use crate::workspace::{Workspace, display_path, os_to_raw, raw_path, raw_to_os};

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
        let file_op = match change {
            Change::Remove => Some(LinkedOp::Remove),
            Change::Move { .. } => Some(LinkedOp::Move),
            Change::Keep | Change::Replace(_) => None,
        };
        if let Some(op) = file_op
            && let Some(real) = real_path_if_linked(ws, file)
        {
            return Err(symlinked(ws, file, &real, op));
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

/// The file's real workspace-relative path, in the spelling every tool
/// prints, when `file.display` reaches it through a symlink (the display
/// path differs from the canonical target).
fn real_path_if_linked(ws: &Workspace, file: &LockedFile) -> Option<String> {
    let relative = file.target.strip_prefix(ws.root()).ok()?;
    let real = relative
        .components()
        .map(|component| os_to_raw(component.as_os_str()).into_owned())
        .collect::<Vec<_>>()
        .join("/");
    let real = display_path(&real).into_owned();
    (real != file.display).then_some(real)
}

/// The file op refused on a path that goes through a symlink.
#[derive(Debug, Clone, Copy)]
enum LinkedOp {
    Remove,
    Move,
}

/// The refusal of `op` on `file`, reached through a symlink to `real`: the
/// header to copy for the real file (its live tag), and, when the path
/// itself is the symlink, that the link is another tool's job.
fn symlinked(ws: &Workspace, file: &LockedFile, real: &str, op: LinkedOp) -> ToolError {
    let (op_name, verb) = match op {
        LinkedOp::Remove => ("REM", "delete"),
        LinkedOp::Move => ("MV", "move"),
    };
    let header = hashedit_core::header(real, ws.tag_scheme().tag_of(&file.original));
    let display = &file.display;
    let as_written = ws.root().join(raw_to_os(&raw_path(display)));
    let link_itself =
        std::fs::symlink_metadata(&as_written).is_ok_and(|m| m.file_type().is_symlink());
    let link = if link_itself {
        format!("; to {verb} only the symlink {display}, use another tool")
    } else {
        String::new()
    };
    ToolError::new(
        ErrorKind::InvalidArguments,
        format!(
            "{display} goes through a symlink to {real}; nothing was changed. {op_name} {verb}s a file only by \
             its real path, so that it is clear whether the link or the file is meant. To {verb} the file \
             itself (links to it then dangle), head the section {header}{link}"
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
