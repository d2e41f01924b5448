use super::*;
use proptest::prelude::*;

fn texts(s: &str) -> Vec<&str> {
    split_line_texts(s)
}

#[test]
fn splits_like_rho() {
    // Rho's behaviour case 4.
    assert_eq!(texts(""), Vec::<&str>::new());
    assert_eq!(texts("\n"), vec![""]);
    assert_eq!(texts("a\nb"), vec!["a", "b"]);
    assert_eq!(texts("a\nb\n"), vec!["a", "b"]);
    assert_eq!(texts("a\r\nb\r\n"), vec!["a", "b"]);
    assert_eq!(texts("a\r\r\nb\n"), vec!["a\r", "b"]);
    assert_eq!(texts("a\rb\rc\r"), vec!["a\rb\rc"]);
    assert_eq!(texts("\r"), vec![""]);
    assert_eq!(texts("alpha\nbeta\n\n"), vec!["alpha", "beta", ""]);
}

#[test]
fn keeps_each_lines_ending() {
    let text = Text::decode(b"a\r\nb\nc").unwrap();
    let endings: Vec<Ending> = text.lines().map(|(_, e)| e).collect();
    assert_eq!(endings, vec![Ending::CrLf, Ending::Lf, Ending::None]);
    assert!(!text.ends_with_newline());
    let cr = Text::decode(b"a\rb\r").unwrap();
    assert_eq!(cr.line(1), "a\rb");
    assert_eq!(cr.ending(1), Ending::Cr);
}

#[test]
fn bom_is_not_line_text() {
    // Handed case B12: row 1 reads `hello`, the BOM stays a flag.
    let text = Text::decode("\u{FEFF}hello\n中文\n".as_bytes()).unwrap();
    assert!(text.has_bom());
    assert_eq!(text.line(1), "hello");
    assert_eq!(text.line(2), "中文");
    assert_eq!(text.to_bytes(), "\u{FEFF}hello\n中文\n".as_bytes());
}

#[test]
fn refuses_non_text() {
    // Handed cases B13, B21, D08.
    assert_eq!(
        Text::decode(b"const x = 1;\n// caf\xE9 note\n"),
        Err(DecodeError::NotUtf8 { offset: 19 })
    );
    assert_eq!(
        Text::decode(b"PK\x03\x04\x14\x00\x00\x00\x08\x00"),
        Err(DecodeError::Binary { offset: 5 })
    );
    assert_eq!(
        Text::decode(b"\xFF\xFEh\x00i\x00\n\x00"),
        Err(DecodeError::UnsupportedEncoding {
            encoding: "UTF-16LE"
        })
    );
}

#[test]
fn finds_lone_carriage_returns() {
    assert!(has_lone_cr(b"a\rb\n"));
    assert!(has_lone_cr(b"a\r"));
    assert!(!has_lone_cr(b"a\r\nb\r\n"));
    assert!(!has_lone_cr(b""));
}

#[test]
fn dominant_ending_prefers_lf_on_ties() {
    assert_eq!(
        Text::decode(b"a\r\nb\n").unwrap().dominant_ending(),
        Ending::Lf
    );
    assert_eq!(
        Text::decode(b"a\r\nb\r\nc\n").unwrap().dominant_ending(),
        Ending::CrLf
    );
}

proptest! {
    #[test]
    fn decode_round_trips_bytes(s in "(\u{FEFF})?[ab\r\n ]{0,30}") {
        let text = Text::decode(s.as_bytes()).unwrap();
        prop_assert_eq!(text.to_bytes(), s.as_bytes().to_vec());
        let rebuilt: String = text.lines().map(|(t, e)| format!("{t}{}", e.as_str())).collect();
        prop_assert_eq!(rebuilt, text.body().to_string());
    }

    /// The compact table answers exactly as the line model defines:
    /// split after each LF; a CR before the LF belongs to the ending;
    /// text after the last LF is one more line, ending in a lone CR or
    /// in nothing.
    #[test]
    fn lines_follow_the_line_model(s in "[ab\r\n é]{0,40}") {
        let text = Text::decode(s.as_bytes()).unwrap();
        let mut model: Vec<(String, Ending)> = Vec::new();
        let mut rest = s.as_str();
        while let Some(i) = rest.find('\n') {
            let line = &rest[..i];
            model.push(match line.strip_suffix('\r') {
                Some(t) => (t.to_string(), Ending::CrLf),
                None => (line.to_string(), Ending::Lf),
            });
            rest = &rest[i + 1..];
        }
        if !rest.is_empty() {
            model.push(match rest.strip_suffix('\r') {
                Some(t) => (t.to_string(), Ending::Cr),
                None => (rest.to_string(), Ending::None),
            });
        }
        prop_assert_eq!(text.line_count(), model.len());
        for (n, (t, e)) in model.iter().enumerate() {
            prop_assert_eq!(text.line(n + 1), t.as_str());
            prop_assert_eq!(text.ending(n + 1), *e);
        }
        let texts: Vec<String> = model.iter().map(|(t, _)| t.clone()).collect();
        prop_assert_eq!(split_line_texts(&s), texts);
        prop_assert_eq!(text.ends_with_newline(), model.last().is_none_or(|(_, e)| *e != Ending::None));
    }
}
