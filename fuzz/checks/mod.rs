//! The properties the fuzz targets check, shared by the cargo-fuzz targets
//! (`fuzz/fuzz_targets/`) and by `cargo test`, which runs every input kept
//! in `fuzz/corpus/<target>/` through them
//! (`crates/hashedit-core/tests/fuzz_corpus.rs`). Each function panics
//! when its property fails on `data`, as a fuzz target must.

#![allow(dead_code)]

use hashedit_core::stages::{lower, plan};
use hashedit_core::{DecodeError, LineScanner, Registers, TagScheme, Text, WindowRequest};

/// The document parser: any input parses or fails with an error, never
/// panics, and an error names a line of the document.
pub(crate) fn parse(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match hashedit_core::parse(&text) {
        Ok(doc) => assert!(!doc.sections.is_empty()),
        Err(e) => assert!(e.line <= text.lines().count() + 1),
    }
}

/// The planner and applier: the input is split at its first NUL into a
/// file and a document; whatever parses is lowered, planned and applied.
/// Nothing may panic, an applied result must decode as text with the
/// file's own BOM state (a file never gains or loses one, FORMAT.md §2).
pub(crate) fn apply(data: &[u8]) {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (file, doc) = data.split_at(split);
    let Ok(text) = Text::decode(file) else { return };
    let doc = String::from_utf8_lossy(doc.get(1..).unwrap_or_default());
    let Ok(parsed) = hashedit_core::parse(&doc) else {
        return;
    };
    let mut registers = Registers::default();
    for section in &parsed.sections {
        let Ok(lowered) = lower(section, "f.rs", &text, None, &mut registers) else {
            continue;
        };
        let Ok(planned) = plan(&lowered.hunks, &text) else {
            continue;
        };
        let applied = planned.apply(&text);
        let result = Text::decode(&applied.bytes).expect("applied bytes are text");
        assert_eq!(result.has_bom(), text.has_bom(), "BOM state changed");
    }
}

/// The streaming scanner and the views: the first four bytes choose the
/// window, the chunk size and the budget; the rest is the file. Scanned in
/// those chunks it must give the in-memory model's numbering and tag, and
/// rendering windows, chain snapshots and previews must not panic.
pub(crate) fn view(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let (params, bytes) = data.split_at(4);
    let start = usize::from(params[0] % 16) + 1;
    let limit = usize::from(params[1] % 16);
    let chunk = usize::from(params[2]).max(1);
    let budget = usize::from(params[3]) * 4;
    let request = WindowRequest {
        start,
        end: (limit > 0).then(|| start + limit - 1),
        row_budget: budget,
    };
    let mut scanner = LineScanner::new(TagScheme::Rho, request);
    for piece in bytes.chunks(chunk) {
        scanner.update(piece);
    }
    let scanned = scanner.finish();
    match Text::decode(bytes) {
        Ok(text) => {
            let scanned = scanned.expect("text scans");
            assert_eq!(scanned.total_lines, text.line_count());
            assert_eq!(scanned.tag, TagScheme::Rho.tag_of(bytes));
            for (i, row) in scanned.rows.iter().enumerate() {
                assert_eq!(row, text.line(start + i));
            }
            let _ = hashedit_core::read_view("f", &scanned, 64_000);
            let focus: Vec<usize> = params.iter().map(|&b| usize::from(b)).collect();
            let _ = hashedit_core::chain_snapshot("f", scanned.tag, &text, &focus, 64_000);
            let _ = hashedit_core::stages::post_edit_preview(
                "f",
                scanned.tag,
                &text,
                &focus,
                hashedit_core::stages::PreviewShape::Rows,
                64_000,
            );
        }
        Err(error) => {
            // The same refusal, but for one known difference (against
            // FORMAT.md §2's order): the scanner stops at the first fault,
            // so invalid UTF-8 before a NUL reads as not UTF-8 where the
            // decoder says binary.
            let scanned = scanned.err();
            let known = matches!(
                (&scanned, &error),
                (
                    Some(DecodeError::NotUtf8 { .. }),
                    DecodeError::Binary { .. }
                )
            );
            assert!(
                scanned.as_ref() == Some(&error) || known,
                "{scanned:?} vs {error:?}"
            );
        }
    }
}
