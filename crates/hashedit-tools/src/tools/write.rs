//! `write`: create a file or replace it whole, atomically and under its
//! lock, then show its chain snapshot (FORMAT.md §6.7).

use hashedit_core::{Name, Output, SnapshotTag, Surface, TagCheck, Text, chain_snapshot};

use crate::args::WriteArgs;
use crate::context::ToolContext;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio;
use crate::outcome::{Outcome, WriteFacts};
use crate::workspace::{Resolve, ResolvedPath, Workspace, display_path, raw_path};

/// Largest file `write` replaces or creates (bytes): the edit cap.
pub(super) const WRITE_MAX_BYTES: u64 = super::EDIT_MAX_BYTES;

/// True when `content` starts like a hashline read: a `[path#TAG]` header
/// line followed by a `N:` row. Writing that would store the view, not the
/// file, so it is refused (FORMAT.md §6.7).
pub fn looks_like_read_output(content: &str) -> bool {
    let mut lines = content.lines();
    let Some(first) = lines.next() else {
        return false;
    };
    let first = first.trim_end();
    let is_header = first.starts_with('[')
        && first.ends_with(']')
        && first[1..first.len() - 1]
            .rsplit_once('#')
            .is_some_and(|(path, tag)| {
                !path.trim().is_empty() && SnapshotTag::parse(tag.trim()).is_some()
            });
    if !is_header {
        return false;
    }
    match lines.next() {
        None => true,
        Some(second) => {
            // `N:text` (read rows) or `N | text` (grep rows).
            let digits = second.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && (second[digits..].starts_with(':') || second[digits..].starts_with(" | "))
        }
    }
}

/// True when `content` is numbered read rows without their header: at
/// least two lines, every one `N:text` with the numbers counting up by one
/// (a window of `read` output from any line), optionally followed by a
/// blank line and a `[…]` footer as `read` prints one. No file of the
/// real-edit corpus has that shape; a file that really does is written
/// with `force` (FORMAT.md §6.7).
pub fn looks_like_read_rows(content: &str) -> bool {
    let mut lines: Vec<&str> = content.lines().collect();
    if let [.., blank, footer] = lines[..]
        && blank.is_empty()
        && footer.starts_with('[')
        && footer.trim_end().ends_with(']')
    {
        lines.truncate(lines.len() - 2);
    }
    if lines.len() < 2 {
        return false;
    }
    let number = |line: &str| {
        let digits = line.bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0 && line[digits..].starts_with(':'))
            .then(|| line[..digits].parse::<u64>().ok())
            .flatten()
    };
    let mut expected = None;
    for line in lines {
        match (number(line), expected) {
            (Some(n), None) if n >= 1 => expected = Some(n + 1),
            (Some(n), Some(next)) if n == next => expected = Some(n + 1),
            _ => return false,
        }
    }
    true
}

/// Runs `write`: `created PATH` or `replaced PATH` and the chain snapshot
/// of the new file (FORMAT.md §6.7). Facts: [`crate::WriteFacts`].
///
/// An existing file is replaced only when the caller shows it knows what
/// it replaces: the session served a snapshot of the live file (a read, a
/// grep, an edit's preview or an earlier write), or `tag` is the live
/// file's tag, or `force` is set. Creating a file needs none of them.
///
/// Errors: `ProtectedPath`, `LooksLikeReadOutput`, `UnreadFile` (an
/// existing file that none of those cover), `StaleTag` (a `tag` the live
/// file no longer has), `InvalidArguments`, `TooLarge`,
/// `PermissionDenied`, `PathOutsideWorkspace`, `NotARegularFile`,
/// `Conflict`, `LockTimeout`, `Io`.
pub fn write(cx: &ToolContext, args: &WriteArgs) -> ToolResult<Outcome> {
    write_in(cx, args).map_err(|e| e.worded(cx.surface))
}

fn write_in(cx: &ToolContext, args: &WriteArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let expected_tag = expected_tag(args.tag.as_deref())?;
    let resolved = ws.resolve(&args.path, Resolve::MayCreate)?;
    ws.check_writable(&resolved)?;
    let display = resolved.display.clone();
    // Over an existing file, the read check speaks first: the pasted-content
    // refusal offers `force`, which would also replace a file nobody read.
    let pasted = match args.force {
        Some(true) => Ok(()),
        _ => check_pasted(&args.content, &display, cx.surface),
    };
    check_size(&args.content, &display)?;
    let bytes = args.content.as_bytes();
    let (created, notice) = if resolved.exists {
        let proof = match (expected_tag, args.force) {
            (Some(tag), _) => Proof::Tag(tag),
            (None, Some(true)) => Proof::Force,
            (None, _) => Proof::Session,
        };
        (
            false,
            replace_existing(cx, &resolved, proof, pasted, bytes)?,
        )
    } else {
        pasted?;
        if expected_tag.is_some() {
            return Err(ToolError::new(
                ErrorKind::NotFound,
                format!(
                    "{display} does not exist, so tag {} cannot match; nothing was written. \
                     Drop the tag to create the file",
                    args.tag.as_deref().unwrap_or_default()
                ),
            ));
        }
        fsio::create_new(ws, &resolved, bytes)?;
        (true, None)
    };
    let fingerprint = ws.tag_scheme().fingerprint(bytes);
    if let Some(session) = cx.session {
        session.record(&resolved.target, fingerprint, Some(bytes));
    }
    let mut outcome = reply(
        cx.output(),
        &display,
        bytes,
        fingerprint.tag,
        created,
        notice.as_deref(),
    );
    super::append_note(&mut outcome, resolved.note.as_deref());
    if created {
        super::append_note(
            &mut outcome,
            created_through_symlink(ws, &resolved).as_deref(),
        );
    }
    let warning = lowercase_tag_warning(args.tag.as_deref(), expected_tag);
    super::append_note(&mut outcome, warning.as_deref());
    Ok(outcome)
}

/// The `tag` argument, parsed as an edit header's tag is (FORMAT.md §5.7:
/// four hex digits, either case).
fn expected_tag(tag: Option<&str>) -> ToolResult<Option<SnapshotTag>> {
    let Some(tag) = tag else {
        return Ok(None);
    };
    SnapshotTag::parse(tag.trim()).map(Some).ok_or_else(|| {
        ToolError::new(
            ErrorKind::InvalidArguments,
            format!("tag '{tag}' is not a snapshot tag (4 hex digits, e.g. 1A2B)"),
        )
    })
}

/// The `warning:` line an edit gives for a tag written in lower case
/// (FORMAT.md §5.7), for the same tolerated spelling in `write`'s `tag`.
fn lowercase_tag_warning(written: Option<&str>, tag: Option<SnapshotTag>) -> Option<String> {
    let (written, tag) = (written?, tag?);
    written
        .bytes()
        .any(|b| b.is_ascii_lowercase())
        .then(|| format!("warning: {}", hashedit_core::WarningKind::LowercaseTag(tag)))
}

/// Refuses content that is read output pasted back: with its header, or
/// numbered rows alone.
fn check_pasted(content: &str, display: &str, surface: Surface) -> ToolResult<()> {
    let shape = if looks_like_read_output(content) {
        "starts with a [path#TAG] header and numbered rows"
    } else if looks_like_read_rows(content) {
        "is numbered rows (N:text, counting up)"
    } else {
        return Ok(());
    };
    Err(ToolError::new(
        ErrorKind::LooksLikeReadOutput,
        format!(
            "the content for {display} {shape}, like read output; nothing was written. Send the \
             file's exact text without the header and without the N: prefixes; if the file really \
             holds these lines, send it again with {}",
            surface.name(Name::Force)
        ),
    ))
}

/// Refuses content over the limit.
fn check_size(content: &str, display: &str) -> ToolResult<()> {
    if content.len() as u64 > WRITE_MAX_BYTES {
        return Err(ToolError::new(
            ErrorKind::TooLarge,
            format!(
                "the content for {display} is {} bytes, over the {WRITE_MAX_BYTES}-byte limit",
                content.len()
            ),
        ));
    }
    Ok(())
}

/// What shows that a `write` over an existing file means to replace what
/// the file holds (FORMAT.md §6.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Proof {
    /// The `tag` argument, which must be the live file's tag.
    Tag(SnapshotTag),
    /// Nothing passed: the session must have served the live file.
    Session,
    /// `force`: replace it unread.
    Force,
}

/// Replaces an existing file under its lock, once `proof` holds for the
/// live file (checked under the lock) and then `pasted`, the verdict on the
/// content, is `Ok`; returns the notice for the reply.
fn replace_existing(
    cx: &ToolContext,
    resolved: &ResolvedPath,
    proof: Proof,
    pasted: ToolResult<()>,
    bytes: &[u8],
) -> ToolResult<Option<String>> {
    let (ws, display) = (cx.ws, &resolved.display);
    let mut locked = fsio::lock_existing(ws, resolved, WRITE_MAX_BYTES)?;
    let live_tag = ws.tag_scheme().tag_of(&locked.original);
    let live_text = Text::decode(&locked.original);
    if proof == Proof::Session {
        // A file nobody may change is refused as such: reading it first
        // would not help.
        fsio::check_replaceable(&locked)?;
        check_read(cx, resolved, &locked.original, live_text.is_ok())?;
    }
    if let Proof::Tag(expected) = proof
        && expected != live_tag
    {
        let message = match &live_text {
            Ok(text) => format!(
                "{display}: snapshot tag {expected} is stale: the file's tag is now {live_tag} (it \
                 changed since that snapshot, or the tag was mistyped); nothing was written. Check the \
                 live snapshot below, then write again with {} {live_tag} if you still mean to replace \
                 it:\n{}",
                cx.surface.name(Name::Tag),
                chain_snapshot(display, live_tag, text, &[], cx.output())
            ),
            Err(_) => format!(
                "{display}: snapshot tag {expected} is stale (the file is not UTF-8 text now); \
                 nothing was written"
            ),
        };
        return Err(ToolError::new(ErrorKind::StaleTag, message));
    }
    pasted?;
    let mut notices: Vec<String> = live_text
        .is_err()
        .then(|| "the previous content was not UTF-8 text; it was replaced whole".to_string())
        .into_iter()
        .collect();
    fsio::replace(&mut locked, bytes)?;
    notices.extend(locked.take_warnings().iter().map(ToString::to_string));
    Ok((!notices.is_empty()).then(|| notices.join("\n")))
}

/// Refuses to replace `original`, the live bytes of an existing file,
/// unless the session served a snapshot of them: a write over a file the
/// model never saw, or one that changed since it last did, would throw
/// away lines it knows nothing about.
fn check_read(
    cx: &ToolContext,
    resolved: &ResolvedPath,
    original: &[u8],
    is_text: bool,
) -> ToolResult<()> {
    let fingerprint = cx.ws.tag_scheme().fingerprint(original);
    let served = cx.session.map(|s| {
        (
            s.check(&resolved.target, fingerprint),
            s.has_served(&resolved.target),
        )
    });
    let (surface, display) = (cx.surface, &resolved.display);
    let force = surface.name(Name::Force);
    let why = match served {
        Some((TagCheck::Confirmed, _)) => return Ok(()),
        _ if !is_text => {
            return Err(ToolError::new(
                ErrorKind::UnreadFile,
                format!(
                    "{display} exists and is not UTF-8 text, so it cannot be read as rows; nothing \
                     was written. To replace it whole, send the write again with {force}"
                ),
            ));
        }
        Some((_, true)) => match surface {
            Surface::Mcp => "changed since this session last read it",
            Surface::Cli => "changed since a hashedit call last read it",
        },
        _ => match surface {
            Surface::Mcp => "exists and this session has not read it",
            Surface::Cli => "exists and no hashedit call has read it",
        },
    };
    let read = match surface {
        Surface::Mcp => format!("call read_file on {display}"),
        Surface::Cli => format!("run hashedit read {display}"),
    };
    Err(ToolError::new(
        ErrorKind::UnreadFile,
        format!(
            "{display} {why}; nothing was written. To replace it, {read} first and write again, \
             or pass the {} of the snapshot you mean to replace; to replace it unread, send the \
             write again with {force}",
            surface.name(Name::Tag)
        ),
    ))
}

/// The note for a file created through a dangling symlink: the reply names
/// the path as written, and the file created is the link's target
/// (FORMAT.md §6.4), which the note names.
fn created_through_symlink(ws: &Workspace, resolved: &ResolvedPath) -> Option<String> {
    let written = ws.root().join(raw_path(&resolved.display).as_ref());
    let target = resolved.target.strip_prefix(ws.root()).ok()?;
    let is_link = std::fs::symlink_metadata(&written).is_ok_and(|m| m.file_type().is_symlink());
    if written == resolved.target || !is_link {
        return None;
    }
    let target = display_path(&target.to_string_lossy()).into_owned();
    Some(format!(
        "note: {} is a symlink; the file created is its target, {target}",
        resolved.display
    ))
}

/// The reply to a write of `bytes` (tag `tag`) to `display`.
fn reply(
    output: Output,
    display: &str,
    bytes: &[u8],
    tag: SnapshotTag,
    created: bool,
    notice: Option<&str>,
) -> Outcome {
    let verb = if created { "created" } else { "replaced" };
    let mut out = format!("{verb} {display}\n\n");
    if let Some(notice) = notice {
        out.push_str(notice);
        out.push_str("\n\n");
    }
    let text = match Text::decode(bytes) {
        Ok(text) => {
            let snapshot = chain_snapshot(display, tag, &text, &[], output);
            if out.len() + snapshot.len() <= output.max_bytes {
                out.push_str(&snapshot);
            } else {
                // Long lines: keep the header so the write still chains.
                out.push_str(&format!(
                    "{}\n\n[the snapshot rows do not fit the output budget; read the file to see them]",
                    hashedit_core::header(display, tag)
                ));
            }
            Some(text)
        }
        Err(e) => {
            // read_file and edit refuse such content, so no tag is offered.
            out.truncate(out.len() - 2);
            out.push_str(&format!(
                " ({} bytes). The content is not editable text ({e}), so no snapshot tag is issued; \
                 {} and edit will refuse this file",
                bytes.len(),
                output.surface.name(Name::Read)
            ));
            None
        }
    };
    Outcome::new(
        hashedit_core::truncate_to_budget(out, output.max_bytes),
        WriteFacts {
            path: display.to_string(),
            tag: text.as_ref().map(|_| tag.to_string()),
            created,
            bytes: bytes.len(),
            lines: text.as_ref().map(Text::line_count),
        },
    )
}

#[cfg(test)]
mod tests;
