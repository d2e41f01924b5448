//! `read_file`: a numbered view of a text file under its snapshot header.
//!
//! Implements reference-rho.md §3 with our improvements: files of any size
//! are streamed in bounded memory (product.md §3 item 9), over-budget reads
//! stop at a whole row with a footer instead of mid-row, and non-UTF-8,
//! binary and UTF-16 files are refused with no tag (product.md §3 item 8).

use std::io::Read;

use hashedit_core::{
    DecodeError, LineScanner, ScanOutcome, read_view, row_budget_for, window_request,
};
use serde_json::json;

use crate::args::ReadFileArgs;
use crate::context::ToolContext;
use crate::error::{ErrorKind, ToolError, ToolResult};
use crate::fsio;
use crate::outcome::Outcome;
use crate::session::MAX_TEXT_BYTES_PER_SNAPSHOT;
use crate::workspace::Resolve;

/// Bytes read from disk per chunk while scanning.
pub const READ_CHUNK_BYTES: usize = 256 * 1024;

/// Image formats recognised by their first bytes: (magic, MIME type).
const IMAGE_MAGIC: &[(&[u8], &str)] = &[
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xFF\xD8\xFF", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
];

/// The MIME type of an image whose bytes start with `head`, if any.
fn image_mime(head: &[u8]) -> Option<&'static str> {
    if head.len() >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP" {
        return Some("image/webp");
    }
    IMAGE_MAGIC
        .iter()
        .find(|(magic, _)| head.starts_with(magic))
        .map(|(_, mime)| *mime)
}

/// Maps a decode failure of `display` to the tool error the model sees.
fn decode_error(display: &str, error: &DecodeError) -> ToolError {
    let kind = match error {
        DecodeError::Binary { .. } => ErrorKind::Binary,
        DecodeError::NotUtf8 { .. } => ErrorKind::NotUtf8,
        DecodeError::UnsupportedEncoding { .. } => ErrorKind::UnsupportedEncoding,
        // A refusal added to the core later is still "not UTF-8 text".
        _ => ErrorKind::NotUtf8,
    };
    ToolError::new(
        kind,
        format!(
            "{display} {}; read_file shows UTF-8 text only, so no snapshot tag was issued",
            error.describe()
        ),
    )
}

/// Runs `read_file`.
///
/// Text: `[display#TAG]` then `N:text` rows, a footer when the window is
/// partial. Images: `{mime} image ({bytes} bytes)`, no tag. Structured data:
/// `{"path","tag","total_lines","start","end","partial"}` for text,
/// `{"path","mime","bytes"}` for images.
///
/// Errors: `InvalidArguments` (offset/limit 0, offset past the end),
/// `NotFound`, `PathOutsideWorkspace`, `NotARegularFile`, `Binary`,
/// `NotUtf8`, `UnsupportedEncoding`, `Io`.
pub fn read_file(cx: &ToolContext, args: &ReadFileArgs) -> ToolResult<Outcome> {
    let ws = cx.ws;
    let request = window_request(args.offset, args.limit, 0)
        .map_err(|e| ToolError::new(ErrorKind::InvalidArguments, e.to_string()))?;
    let resolved = ws.resolve(&args.path, Resolve::Existing)?;
    let display = resolved.display.clone();
    let mut file = fsio::open_regular(ws, &resolved)?;
    let request = hashedit_core::WindowRequest {
        row_budget: row_budget_for(&display, ws.max_output_bytes()),
        ..request
    };
    let mut scanner = LineScanner::new(ws.tag_scheme(), request);
    let mut buf = vec![0u8; READ_CHUNK_BYTES];
    let mut first = true;
    let mut keep_text = cx.session.is_some();
    let mut kept: Option<Vec<u8>> = keep_text.then(Vec::new);
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(ToolError::io("read", &display, &e)),
        };
        if first {
            first = false;
            if let Some(mime) = image_mime(&buf[..n]) {
                let bytes = file
                    .metadata()
                    .map_err(|e| ToolError::io("read", &display, &e))?
                    .len();
                return Ok(Outcome::new(
                    format!("{mime} image ({bytes} bytes)"),
                    json!({"path": display, "mime": mime, "bytes": bytes}),
                ));
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
    let scan: ScanOutcome = scanner.finish().map_err(|e| decode_error(&display, &e))?;
    if let Some(session) = cx.session {
        session.record(&resolved.target, scan.fingerprint, kept.as_deref());
    }
    // Every window error (zero offset or limit, offset past the end) is a
    // bad argument.
    let text = read_view(&display, &scan)
        .map_err(|e| ToolError::new(ErrorKind::InvalidArguments, format!("{display}: {e}")))?;
    let end = scan.start + scan.rows.len() - 1;
    let structured = json!({
        "path": display,
        "tag": scan.tag.to_string(),
        "total_lines": scan.total_lines,
        "start": scan.start,
        "end": end.min(scan.total_lines),
        "partial": scan.start > 1 || end < scan.total_lines,
    });
    Ok(Outcome::new(
        hashedit_core::truncate_to_budget(text, ws.max_output_bytes()),
        structured,
    ))
}
