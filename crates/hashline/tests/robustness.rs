//! The fuzz targets' properties as property tests that CI runs (issue 5,
//! scope item 3): on any input the parser, the planner/applier and the
//! scanner/views never panic, finish quickly (no hang), and produce output
//! bounded by their input (no unbounded allocation); an applied edit is
//! always text with the file's own BOM state.
//!
//! The generators lean on what breaks parsers: NUL, U+FEFF, lone CR,
//! separators, huge and overflowing line numbers, repeated headers. The
//! cargo-fuzz targets in `fuzz/` explore the same properties with coverage
//! guidance; these keep them checked on every `cargo test`.

use std::time::{Duration, Instant};

use hashline::lower::{Registers, lower};
use hashline::parse::parse;
use hashline::plan::plan;
use hashline::scan::{LineScanner, WindowRequest};
use hashline::tag::TagScheme;
use hashline::text::Text;
use hashline::view;
use proptest::prelude::*;

/// Longest time one case may take: far above what any input here needs, so
/// only a hang or a blow-up trips it.
const CASE_LIMIT: Duration = Duration::from_secs(2);

/// Pieces documents are made of, hostile ones included.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("[f.rs#ABCD]".to_string()),
        Just("[f.rs#0000]".to_string()),
        Just("*** Begin Patch".to_string()),
        Just("*** End Patch".to_string()),
        Just("PUT ".to_string()),
        Just("CUT ".to_string()),
        Just("REM".to_string()),
        Just("MV g.rs".to_string()),
        Just(">".to_string()),
        Just("<".to_string()),
        Just("$".to_string()),
        Just(".=".to_string()),
        Just("..".to_string()),
        Just("-".to_string()),
        Just(":".to_string()),
        Just("*".to_string()),
        Just("@r".to_string()),
        Just("+".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("\r".to_string()),
        Just("\u{0}".to_string()),
        Just("\u{FEFF}".to_string()),
        Just("18446744073709551615".to_string()),
        Just("18446744073709551616".to_string()),
        Just("99999999999999999999999999".to_string()),
        (0u64..12).prop_map(|n| n.to_string()),
        "[a-z ]{0,6}",
        "\\PC{0,4}",
    ]
}

fn document() -> impl Strategy<Value = String> {
    proptest::collection::vec(piece(), 0..40).prop_map(|pieces| pieces.concat())
}

/// File bytes: mostly text lines with mixed endings and sometimes a BOM,
/// sometimes arbitrary bytes.
fn file_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => (
            any::<bool>(),
            proptest::collection::vec(("[a-z{} ]{0,8}", prop_oneof![Just("\n"), Just("\r\n"), Just("")]), 0..12),
        )
            .prop_map(|(bom, lines)| {
                let mut bytes = if bom { "\u{FEFF}".as_bytes().to_vec() } else { Vec::new() };
                for (text, ending) in lines {
                    bytes.extend_from_slice(text.as_bytes());
                    bytes.extend_from_slice(ending.as_bytes());
                }
                bytes
            }),
        1 => proptest::collection::vec(any::<u8>(), 0..64),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// parse: no panic, an error names a line of the document, bounded
    /// time, and the parsed document is no bigger than its text.
    #[test]
    fn parse_is_total_and_bounded(doc in document()) {
        let started = Instant::now();
        match parse(&doc) {
            Ok(parsed) => {
                prop_assert!(!parsed.sections.is_empty());
                let debug = format!("{parsed:?}");
                // Debug output escapes, so allow a constant factor.
                prop_assert!(debug.len() <= 16 * doc.len() + 4096, "{} bytes from {}", debug.len(), doc.len());
            }
            Err(error) => {
                prop_assert!(error.line <= doc.lines().count() + 1, "line {} of {doc:?}", error.line);
                let message = error.to_string();
                prop_assert!(message.len() <= 8 * doc.len() + 4096, "{} bytes of message", message.len());
            }
        }
        prop_assert!(started.elapsed() < CASE_LIMIT, "took {:?}", started.elapsed());
    }

    /// The whole pipeline on any file and any document: no panic, bounded
    /// time, and an applied result is text, keeps the BOM state, and is no
    /// bigger than the file plus the document plus one line ending per row.
    #[test]
    fn applied_edits_stay_text_and_bounded(file in file_bytes(), doc in document()) {
        let started = Instant::now();
        let Ok(text) = Text::decode(&file) else { return Ok(()) };
        let Ok(parsed) = parse(&doc) else { return Ok(()) };
        let mut registers = Registers::default();
        for section in &parsed.sections {
            let Ok(lowered) = lower(section, "f.rs", &text, None, &mut registers) else { continue };
            let Ok(planned) = plan(&lowered.hunks, &text) else { continue };
            let applied = planned.apply(&text);
            let result = Text::decode(&applied.bytes);
            prop_assert!(result.is_ok(), "not text: {:?} from {doc:?}", applied.bytes);
            let result = result.unwrap();
            prop_assert_eq!(result.has_bom(), text.has_bom(), "{:?}", doc);
            // Registers may paste the file's own lines again.
            let bound = 2 * file.len() + 3 * doc.len() + 16;
            prop_assert!(applied.bytes.len() <= bound, "{} > {bound}", applied.bytes.len());
        }
        prop_assert!(started.elapsed() < CASE_LIMIT, "took {:?}", started.elapsed());
    }

    /// The streaming scanner fed in any chunks agrees with the in-memory
    /// model, and views render without panicking in bounded time.
    #[test]
    fn scanning_and_views_are_total(
        file in file_bytes(),
        start in 1usize..16,
        limit in 0usize..16,
        chunk in 1usize..64,
        budget in 0usize..1024,
        focus in proptest::collection::vec(0usize..40, 0..6),
    ) {
        let started = Instant::now();
        let request = WindowRequest {
            start,
            end: (limit > 0).then(|| start + limit - 1),
            row_budget: budget,
        };
        let mut scanner = LineScanner::new(TagScheme::Rho, request);
        for piece in file.chunks(chunk) {
            scanner.update(piece);
        }
        let scanned = scanner.finish();
        match Text::decode(&file) {
            Ok(text) => {
                prop_assert!(scanned.is_ok());
                let scanned = scanned.unwrap();
                prop_assert_eq!(scanned.total_lines, text.line_count());
                prop_assert_eq!(scanned.tag, TagScheme::Rho.tag_of(&file));
                let _ = view::read_view("f", &scanned);
                let snapshot = view::chain_snapshot("f", scanned.tag, &text, &focus);
                prop_assert!(snapshot.len() <= 2 * file.len() + 64 * (focus.len() + 40) + 256);
                let _ = view::post_edit_preview("f", scanned.tag, &text, &focus, view::PreviewShape::Rows);
            }
            Err(_) => prop_assert!(scanned.is_err()),
        }
        prop_assert!(started.elapsed() < CASE_LIMIT, "took {:?}", started.elapsed());
    }
}

/// Line numbers at and past the integer limits are refused quickly and
/// never allocate by the size of the range they name.
#[test]
fn huge_line_numbers_are_refused_without_allocating_their_range() {
    let text = Text::decode(b"one\ntwo\n").unwrap();
    for op in [
        "PUT 1.=18446744073709551615:\n+x",
        "PUT 18446744073709551615:\n+x",
        "PUT 18446744073709551616:\n+x",
        "CUT 1.=18446744073709551615",
        "CUT 99999999999999999999999999",
        "PUT >18446744073709551615:\n+x",
        "PUT <18446744073709551615:\n+x",
        "PUT 2.=1:\n+x",
    ] {
        let started = Instant::now();
        let doc = format!("[f.rs#ABCD]\n{op}\n");
        if let Ok(parsed) = parse(&doc) {
            let mut registers = Registers::default();
            let lowered = lower(&parsed.sections[0], "f.rs", &text, None, &mut registers);
            if let Ok(lowered) = lowered {
                assert!(plan(&lowered.hunks, &text).is_err(), "{op} was accepted");
            }
        }
        assert!(
            started.elapsed() < Duration::from_millis(200),
            "{op}: {:?}",
            started.elapsed()
        );
    }
}
