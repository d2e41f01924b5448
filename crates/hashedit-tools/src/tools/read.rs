//! `read_file`: a numbered view of a text file under its snapshot header,
//! streamed in bounded memory whatever the file's size (FORMAT.md §4.2).

use std::io::Read;

use hashedit_core::{
    DecodeError, LineScanner, Name, Output, ScanOutcome, Surface, WindowError, Worded, read_view,
    row_budget_for, window_request,
};

use super::image::image_mime;
use crate::args::ReadFileArgs;
use crate::context::ToolContext;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio;
use crate::outcome::{ImageFacts, Outcome, ReadFacts};
use crate::session::{MAX_TEXT_BYTES_PER_SNAPSHOT, Session};
use crate::workspace::{Resolve, ResolvedPath};

/// Bytes read from disk per chunk while scanning.
pub(super) const READ_CHUNK_BYTES: usize = 256 * 1024;

/// Bytes of a memory page; the read buffer starts on a page boundary.
const PAGE_BYTES: usize = 4096;

/// The chunk buffer of a read: [`READ_CHUNK_BYTES`] zeroed bytes starting
/// on a page boundary, which the kernel copies into 3.5 times faster than
/// into an unaligned buffer (docs/PERFORMANCE.md).
struct ChunkBuffer {
    storage: Vec<u8>,
    start: usize,
}

impl ChunkBuffer {
    fn new() -> ChunkBuffer {
        let storage = vec![0u8; READ_CHUNK_BYTES + PAGE_BYTES];
        // `align_offset` may decline to compute (then 0: still correct,
        // only unaligned).
        let start = storage.as_ptr().align_offset(PAGE_BYTES);
        let start = if start < PAGE_BYTES { start } else { 0 };
        ChunkBuffer { storage, start }
    }

    fn bytes(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + READ_CHUNK_BYTES]
    }
}

/// The reply for an image (FORMAT.md §4.5): one line of text, and the
/// image itself for surfaces that show one when its base64 form fits the
/// output budget; else the line says it is too large to show.
fn image_outcome(
    output: Output,
    display: &str,
    mime: &'static str,
    head: &[u8],
    file: &mut std::fs::File,
) -> ToolResult<Outcome> {
    let bytes = file
        .metadata()
        .map_err(|e| ToolError::io("read", display, &e))?
        .len();
    let budget = output.max_bytes as u64;
    let encoded = bytes.div_ceil(3) * 4;
    let facts = ImageFacts {
        path: display.to_string(),
        mime,
        bytes,
    };
    if encoded > budget {
        // The CLI never shows an image, so it says only what the file is.
        let text = match output.surface {
            Surface::Mcp => format!(
                "{mime} image ({bytes} bytes; not shown: {encoded} bytes as base64, over the output \
                 budget of {budget} bytes)"
            ),
            Surface::Cli => format!("{mime} image ({bytes} bytes)"),
        };
        return Ok(Outcome::new(text, facts));
    }
    let mut whole = head.to_vec();
    file.take(budget)
        .read_to_end(&mut whole)
        .map_err(|e| ToolError::io("read", display, &e))?;
    let mut outcome = Outcome::new(format!("{mime} image ({bytes} bytes)"), facts);
    outcome.image = Some(crate::outcome::Image { mime, bytes: whole });
    Ok(outcome)
}

/// Whether the image file `file` (first bytes `head`, format `mime`) is
/// whole, by its last bytes (see [`super::image::ends_whole`]); a file
/// whose size or tail cannot be read is not shown as an image.
fn decodable(mime: &str, head: &[u8], file: &std::fs::File) -> bool {
    use std::os::unix::fs::FileExt;
    let Ok(size) = file.metadata().map(|m| m.len()) else {
        return false;
    };
    let start = size.saturating_sub(super::image::TAIL_BYTES as u64);
    let mut tail = vec![0u8; usize::try_from(size - start).unwrap_or(0)];
    match file.read_exact_at(&mut tail, start) {
        Ok(()) => super::image::ends_whole(mime, size, head, &tail),
        Err(_) => false,
    }
}

/// The error for a file that starts as an image of `mime` but does not
/// end as one (FORMAT.md §4.5): not text either, so it is binary.
fn cut_short(display: &str, mime: &str) -> ToolError {
    let format = mime.trim_start_matches("image/").to_ascii_uppercase();
    ToolError::new(
        ErrorKind::Binary,
        format!(
            "{display} starts as a {format} image ({mime}) but does not end as one (cut short, as a partial \
             download is), so it cannot be shown as an image, and it is not text; nothing to show"
        ),
    )
}

/// Maps a decode failure of `display` to the tool error the model sees.
fn decode_error(display: &str, error: &DecodeError, surface: Surface) -> ToolError {
    ToolError::new(
        error.class().into(),
        format!(
            "{display} {}; {} shows UTF-8 text only, so no snapshot tag was issued",
            error.describe(),
            surface.name(Name::Read)
        ),
    )
}

/// Runs `read_file`: `[path#TAG]` and `N:text` rows, with a footer when
/// the window is partial (FORMAT.md §4.2), or an image's one line (§4.5).
/// Facts: [`crate::ReadFacts`] or [`crate::ImageFacts`].
///
/// Errors: `InvalidArguments` (offset or limit 0, offset past the end),
/// `NotFound`, `PathOutsideWorkspace`, `NotARegularFile`, `Binary`,
/// `NotUtf8`, `UnsupportedEncoding`, `Io`.
pub fn read_file(cx: &ToolContext, args: &ReadFileArgs) -> ToolResult<Outcome> {
    read_in(cx, args).map_err(|e| e.worded(cx.surface))
}

fn read_in(cx: &ToolContext, args: &ReadFileArgs) -> ToolResult<Outcome> {
    let worded = |e: WindowError| Worded(&e, cx.surface).to_string();
    window_request(args.offset, args.limit, 0)
        .map_err(|e| ToolError::new(ErrorKind::InvalidArguments, worded(e)))?;
    let resolved = cx.ws.resolve(&args.path, Resolve::Existing)?;
    let note = resolved.note.clone();
    let mut outcome = read_resolved(cx, args, resolved)?;
    super::append_note(&mut outcome, note.as_deref());
    Ok(outcome)
}

/// [`read_file`] of the path `args.path` resolved to.
fn read_resolved(
    cx: &ToolContext,
    args: &ReadFileArgs,
    resolved: ResolvedPath,
) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let request = window_request(args.offset, args.limit, 0).map_err(|e| {
        let message = Worded(&e, cx.surface).to_string();
        ToolError::new(ErrorKind::InvalidArguments, message)
    })?;
    let display = resolved.display.clone();
    let mut file = fsio::open_regular(ws, &resolved)?;
    let request = hashedit_core::WindowRequest {
        row_budget: row_budget_for(&display, ws.max_output_bytes()),
        ..request
    };
    let mut scanner = LineScanner::new(ws.tag_scheme(), request);
    let mut chunk = ChunkBuffer::new();
    let buf = chunk.bytes();
    let mut first = true;
    let mut keep_text = cx.session.is_some_and(Session::keeps_text);
    let mut kept: Option<Vec<u8>> = keep_text.then(Vec::new);
    loop {
        let n = match file.read(buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ToolError::io("read", &display, &e)),
        };
        if first {
            first = false;
            if let Some(mime) = image_mime(&buf[..n]) {
                if !decodable(mime, &buf[..n], &file) {
                    return Err(cut_short(&display, mime));
                }
                return image_outcome(cx.output(), &display, mime, &buf[..n], &mut file);
            }
        }
        scanner.update(&buf[..n]);
        if scanner.error().is_some() {
            break;
        }
        if let Some(kept) = &mut kept {
            if kept.len() + n <= MAX_TEXT_BYTES_PER_SNAPSHOT {
                kept.extend_from_slice(&buf[..n]);
            } else {
                // Too big to keep for rebase: the fingerprint suffices.
                *kept = Vec::new();
                keep_text = false;
            }
        }
        if !keep_text {
            kept = None;
        }
    }
    let scan: ScanOutcome = scanner
        .finish()
        .map_err(|e| decode_error(&display, &e, cx.surface))?;
    if let Some(session) = cx.session {
        session.record(&resolved.target, scan.fingerprint, kept.as_deref());
    }
    text_reply(cx, display, &scan)
}

/// The reply of a text read: the view of `scan` and its facts.
fn text_reply(cx: &ToolContext, display: String, scan: &ScanOutcome) -> ToolResult<Outcome> {
    // Every window error (zero offset or limit, offset past the end) is a
    // bad argument.
    let text = read_view(&display, scan, cx.output()).map_err(|e| {
        let message = format!("{display}: {}", Worded(&e, cx.surface));
        ToolError::new(ErrorKind::InvalidArguments, message)
    })?;
    let end = scan.start + scan.rows.len() - 1;
    let facts = ReadFacts {
        tag: scan.tag.to_string(),
        total_lines: scan.total_lines,
        start: scan.start,
        end: end.min(scan.total_lines),
        partial: scan.start > 1 || end < scan.total_lines,
        path: display,
    };
    // A read that shows no row is its header and the footer saying why and
    // what to pass instead: both are kept whole, even past a budget too
    // small for them (FORMAT.md §4.2).
    let text = if scan.rows.is_empty() && scan.budget_stop.is_some() {
        text
    } else {
        hashedit_core::truncate_to_budget(text, cx.ws.max_output_bytes())
    };
    Ok(Outcome::new(text, facts))
}
