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
}
