use super::*;
use crate::text::Text;
use proptest::prelude::*;

fn all(start: usize, end: Option<usize>) -> WindowRequest {
    WindowRequest {
        start,
        end,
        row_budget: usize::MAX,
    }
}

#[test]
fn counts_lines_and_keeps_the_window() {
    let out = scan(TagScheme::Rho, b"one\ntwo\nthree\nfour\n", all(2, Some(3))).unwrap();
    assert_eq!(out.total_lines, 4);
    assert_eq!(out.rows, vec!["two", "three"]);
    assert_eq!(out.tag.to_string(), "8935");
    assert_eq!(out.budget_stop, None);
}

#[test]
fn strips_bom_and_one_cr() {
    let out = scan(
        TagScheme::Rho,
        "\u{FEFF}hi\r\r\nx\r".as_bytes(),
        all(1, None),
    )
    .unwrap();
    assert_eq!(out.rows, vec!["hi\r", "x"]);
    assert_eq!(out.total_lines, 2);
}

#[test]
fn budget_cuts_at_a_row_boundary() {
    // "1:aaaa\n" is 7 bytes, "2:bbbb\n" 7 more.
    let request = WindowRequest {
        start: 1,
        end: None,
        row_budget: 13,
    };
    let out = scan(TagScheme::Rho, b"aaaa\nbbbb\ncc\n", request).unwrap();
    assert_eq!(out.rows, vec!["aaaa"]);
    assert_eq!(out.total_lines, 3);
    assert_eq!(
        out.budget_stop,
        Some(BudgetStop {
            line: 2,
            line_bytes: 4
        })
    );
}

#[test]
fn reports_decode_errors_with_offsets() {
    assert_eq!(
        scan(TagScheme::Rho, b"ab\ncd\x00", all(1, None)),
        Err(DecodeError::Binary { offset: 5 })
    );
    assert_eq!(
        scan(TagScheme::Rho, b"ab\xE9cd", all(1, None)),
        Err(DecodeError::NotUtf8 { offset: 2 })
    );
    assert_eq!(
        scan(TagScheme::Rho, b"ab\xE2\x82", all(1, None)),
        Err(DecodeError::NotUtf8 { offset: 2 })
    );
    assert_eq!(
        scan(TagScheme::Rho, b"\xFF\xFEh\x00", all(1, None)),
        Err(DecodeError::UnsupportedEncoding {
            encoding: "UTF-16LE"
        })
    );
}

#[test]
fn short_files_settle_the_head_at_finish() {
    let out = scan(TagScheme::Rho, b"a", all(1, None)).unwrap();
    assert_eq!(out.rows, vec!["a"]);
    let out = scan(TagScheme::Rho, b"", all(1, None)).unwrap();
    assert_eq!(out.total_lines, 0);
    assert_eq!(out.tag.to_string(), "9DC5");
}

proptest! {
    #[test]
    fn streaming_matches_the_in_memory_model(
        text in "(\u{FEFF})?[ab\r\n é]{0,40}",
        mut cuts in proptest::collection::vec(0usize..60, 0..6),
        start in 1usize..6,
        len in proptest::option::of(0usize..6),
    ) {
        let bytes = text.as_bytes();
        cuts.sort_unstable();
        let request = all(start, len.map(|l| start + l));
        let mut scanner = LineScanner::new(TagScheme::Rho, request);
        let mut at = 0;
        for cut in cuts {
            let cut = cut.min(bytes.len()).max(at);
            scanner.update(&bytes[at..cut]);
            at = cut;
        }
        scanner.update(&bytes[at..]);
        let out = scanner.finish().unwrap();
        let model = Text::decode(bytes).unwrap();
        prop_assert_eq!(out.total_lines, model.line_count());
        prop_assert_eq!(out.tag, TagScheme::Rho.tag_of(bytes));
        let last = len.map_or(model.line_count(), |l| (start + l).min(model.line_count()));
        let expected: Vec<String> = (start..=last).map(|n| model.line(n).to_string()).collect();
        prop_assert_eq!(out.rows, expected);
    }

    /// The block sweep against the in-memory model: texts spanning many
    /// 64-byte blocks (lines longer and shorter than a block), windows
    /// anywhere, both schemes, any chunking; the fingerprint equals the
    /// one-call fingerprint.
    #[test]
    fn long_texts_match_the_in_memory_model(
        pieces in proptest::collection::vec(
            prop_oneof![
                Just("word"), Just(" "), Just("\t"), Just("\n"), Just(" \n"), Just("\r\n"),
                Just("\r"), Just("é"), Just("x"), Just("                                                                 "),
                Just("a line that is a good deal longer than one block of sixty-four bytes, to cross it\n"),
            ],
            0..80),
        bom in any::<bool>(),
        mut cuts in proptest::collection::vec(0usize..4000, 0..5),
        start in 1usize..30,
        len in proptest::option::of(0usize..30),
        omp in any::<bool>(),
    ) {
        let text = format!("{}{}", if bom { "\u{FEFF}" } else { "" }, pieces.concat());
        let bytes = text.as_bytes();
        let scheme = if omp { TagScheme::Omp } else { TagScheme::Rho };
        cuts.sort_unstable();
        let request = all(start, len.map(|l| start + l));
        let mut scanner = LineScanner::new(scheme, request);
        let mut at = 0;
        for cut in cuts {
            let cut = cut.min(bytes.len()).max(at);
            scanner.update(&bytes[at..cut]);
            at = cut;
        }
        scanner.update(&bytes[at..]);
        let out = scanner.finish().unwrap();
        let model = Text::decode(bytes).unwrap();
        prop_assert_eq!(out.total_lines, model.line_count());
        prop_assert_eq!(out.fingerprint, scheme.fingerprint(bytes));
        prop_assert_eq!(out.byte_len, bytes.len() as u64);
        let last = len.map_or(model.line_count(), |l| (start + l).min(model.line_count()));
        let expected: Vec<String> = (start..=last).map(|n| model.line(n).to_string()).collect();
        prop_assert_eq!(out.rows, expected);
    }

    /// A budget stops a long text at the same row, with the same stop
    /// length, whatever the chunking.
    #[test]
    fn budget_stops_do_not_depend_on_chunking(
        lines in proptest::collection::vec(0usize..200, 1..40),
        budget in 0usize..3000,
        cut in 0usize..8000,
    ) {
        let text: String = lines.iter().map(|&n| format!("{}\n", "y".repeat(n))).collect();
        let bytes = text.as_bytes();
        let request = WindowRequest { start: 1, end: None, row_budget: budget };
        let whole = scan(TagScheme::Rho, bytes, request).unwrap();
        let mut scanner = LineScanner::new(TagScheme::Rho, request);
        let cut = cut.min(bytes.len());
        scanner.update(&bytes[..cut]);
        scanner.update(&bytes[cut..]);
        let split = scanner.finish().unwrap();
        prop_assert_eq!(&split, &whole);
        // Rows kept are whole lines in order, and the stop names the next.
        let shown = whole.rows.len();
        prop_assert!(whole.rows.iter().zip(&lines).all(|(row, &n)| row.len() == n));
        if let Some(stop) = whole.budget_stop {
            prop_assert_eq!(stop.line, shown + 1);
            prop_assert_eq!(stop.line_bytes, lines[shown] as u64);
        } else {
            prop_assert_eq!(shown, lines.len());
        }
    }
}

#[test]
fn a_budget_stop_inside_a_line_of_many_blocks_measures_the_whole_line() {
    let long = "z".repeat(1000);
    let text = format!("short\n{long}\nafter\n");
    let request = WindowRequest {
        start: 1,
        end: None,
        row_budget: 100,
    };
    let out = scan(TagScheme::Rho, text.as_bytes(), request).unwrap();
    assert_eq!(out.rows, vec!["short"]);
    assert_eq!(out.total_lines, 3);
    assert_eq!(
        out.budget_stop,
        Some(BudgetStop {
            line: 2,
            line_bytes: 1000
        })
    );
}

#[test]
fn decode_errors_past_the_first_blocks_keep_their_offsets() {
    let mut bytes = "a".repeat(300).into_bytes();
    bytes[200] = 0;
    assert_eq!(
        scan(TagScheme::Rho, &bytes, all(1, Some(1))),
        Err(DecodeError::Binary { offset: 200 })
    );
    let mut bytes = "b\n".repeat(150).into_bytes();
    bytes[257] = 0xE9;
    assert_eq!(
        scan(TagScheme::Omp, &bytes, all(1, Some(1))),
        Err(DecodeError::NotUtf8 { offset: 257 })
    );
}
