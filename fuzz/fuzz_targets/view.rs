//! Fuzzes the streaming scanner and the views: arbitrary bytes fed in
//! arbitrary chunks must give the in-memory model's numbering and tag, and
//! rendering windows, chain snapshots and previews must not panic.
#![no_main]

use hashedit_core::{LineScanner, TagScheme, Text, WindowRequest};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
            let _ = hashedit_core::stages::post_edit_preview("f", scanned.tag, &text, &focus, hashedit_core::stages::PreviewShape::Rows, 64_000);
        }
        Err(_) => assert!(scanned.is_err()),
    }
});
