//! The line model: how file bytes become numbered lines, and back.
//!
//! Numbering follows Rho (reference-rho.md §2): an empty file has no lines;
//! otherwise one final `\n` is dropped, the rest is split at every `\n`, and
//! one trailing `\r` is dropped from each piece. A bare CR is not a line
//! break. Line numbers are 1-based.
//!
//! Unlike Rho, [`Text`] remembers each line's own [`Ending`] and whether the
//! file starts with a UTF-8 BOM, so that [`Text::to_bytes`] reproduces the
//! input exactly and an edit can leave untouched lines byte-identical
//! (product.md §3 items 1 and 2). The BOM is never part of line 1's text.

use std::borrow::Cow;
use std::fmt;

/// The UTF-8 byte order mark.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The bytes that end one line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// No line break: only the last line of a file without a final newline.
    None,
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
    /// A lone `\r` at the very end of the file (a CR inside the text is not a
    /// line break, so this ending can only close the last line).
    Cr,
}

impl Ending {
    /// The ending's bytes (`""`, `"\n"`, `"\r\n"` or `"\r"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Ending::None => "",
            Ending::Lf => "\n",
            Ending::CrLf => "\r\n",
            Ending::Cr => "\r",
        }
    }

    /// True for endings that separate two lines when another line follows
    /// (`\n` and `\r\n`). A lone CR does not: the line model would merge the
    /// two lines.
    pub fn separates_lines(self) -> bool {
        matches!(self, Ending::Lf | Ending::CrLf)
    }
}

/// Why a file's bytes are not editable UTF-8 text (product.md §3 item 8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// A NUL byte at this byte offset: the file is binary.
    Binary {
        /// Byte offset of the first NUL.
        offset: u64,
    },
    /// The bytes are not valid UTF-8 from this byte offset on.
    NotUtf8 {
        /// Byte offset of the first invalid sequence.
        offset: u64,
    },
    /// The file starts with a byte order mark of another Unicode encoding.
    UnsupportedEncoding {
        /// The encoding the BOM names, e.g. `UTF-16LE`.
        encoding: &'static str,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Binary { offset } => {
                write!(f, "binary file (NUL byte at offset {offset})")
            }
            DecodeError::NotUtf8 { offset } => {
                write!(f, "not valid UTF-8 (first bad byte at offset {offset})")
            }
            DecodeError::UnsupportedEncoding { encoding } => {
                write!(f, "{encoding} text (only UTF-8 is supported)")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// True when `bytes` hold a CR that is not followed by LF.
///
/// The line model does not break lines at a lone CR, but the omp tag
/// scheme's normalisation does, so under that scheme such a file can keep
/// its tag while its line numbers shift; edits refuse it.
pub fn has_lone_cr(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n'))
}

/// Recognises a non-UTF-8 Unicode byte order mark at the start of a file.
///
/// Returns the encoding's name for UTF-32 and UTF-16 BOMs (either byte order).
pub fn foreign_bom(prefix: &[u8]) -> Option<&'static str> {
    if prefix.starts_with(b"\xFF\xFE\x00\x00") {
        Some("UTF-32LE")
    } else if prefix.starts_with(b"\x00\x00\xFE\xFF") {
        Some("UTF-32BE")
    } else if prefix.starts_with(b"\xFF\xFE") {
        Some("UTF-16LE")
    } else if prefix.starts_with(b"\xFE\xFF") {
        Some("UTF-16BE")
    } else {
        None
    }
}

/// Checks that `bytes` are editable text: no foreign BOM, no NUL, valid UTF-8.
pub fn check_text(bytes: &[u8]) -> Result<(), DecodeError> {
    if let Some(encoding) = foreign_bom(bytes) {
        return Err(DecodeError::UnsupportedEncoding { encoding });
    }
    if let Some(offset) = memchr::memchr(0, bytes) {
        return Err(DecodeError::Binary {
            offset: offset as u64,
        });
    }
    std::str::from_utf8(bytes).map_err(|e| DecodeError::NotUtf8 {
        offset: e.valid_up_to() as u64,
    })?;
    Ok(())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct LineSpan {
    /// Byte offset of the line's text in `Text::body`.
    start: usize,
    /// Length of the line's text in bytes (ending excluded).
    len: usize,
    ending: Ending,
}

/// A decoded text file: optional BOM plus numbered lines with their endings.
///
/// The text borrows the bytes it was decoded from ([`Text::decode`]) or owns
/// them ([`Text::from_body`]), so decoding a large file costs only its line
/// table (24 bytes a line), not a second copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text<'a> {
    bom: bool,
    /// Everything after the BOM, exactly as in the file.
    body: Cow<'a, str>,
    lines: Vec<LineSpan>,
}

impl<'a> Text<'a> {
    /// Decodes file bytes without copying them, refusing anything that is
    /// not UTF-8 text.
    ///
    /// Errors: [`DecodeError`] for a foreign BOM, a NUL byte or invalid UTF-8.
    pub fn decode(bytes: &'a [u8]) -> Result<Text<'a>, DecodeError> {
        if let Some(encoding) = foreign_bom(bytes) {
            return Err(DecodeError::UnsupportedEncoding { encoding });
        }
        if let Some(offset) = memchr::memchr(0, bytes) {
            return Err(DecodeError::Binary {
                offset: offset as u64,
            });
        }
        let (bom, rest) = match bytes.strip_prefix(UTF8_BOM) {
            Some(rest) => (true, rest),
            None => (false, bytes),
        };
        let prefix = if bom { UTF8_BOM.len() } else { 0 };
        let body = std::str::from_utf8(rest).map_err(|e| DecodeError::NotUtf8 {
            offset: (prefix + e.valid_up_to()) as u64,
        })?;
        Ok(Text {
            bom,
            lines: split_lines(body),
            body: Cow::Borrowed(body),
        })
    }

    /// Builds the line table over owned BOM-free text.
    pub fn from_body(bom: bool, body: String) -> Text<'static> {
        let lines = split_lines(&body);
        Text {
            bom,
            body: Cow::Owned(body),
            lines,
        }
    }

    /// Whether the file starts with a UTF-8 BOM (not part of any line).
    pub fn has_bom(&self) -> bool {
        self.bom
    }

    /// Number of lines (0 for an empty file).
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// True when the file has no lines.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// The text of 1-based line `n`, without its ending.
    ///
    /// Panics if `n` is 0 or past the last line.
    pub fn line(&self, n: usize) -> &str {
        let span = self.lines[n - 1];
        &self.body[span.start..span.start + span.len]
    }

    /// The ending of 1-based line `n`.
    ///
    /// Panics if `n` is 0 or past the last line.
    pub fn ending(&self, n: usize) -> Ending {
        self.lines[n - 1].ending
    }

    /// Iterates over `(text, ending)` for every line in order.
    pub fn lines(&self) -> impl ExactSizeIterator<Item = (&str, Ending)> + '_ {
        self.lines
            .iter()
            .map(|s| (&self.body[s.start..s.start + s.len], s.ending))
    }

    /// The BOM-free body exactly as it was decoded.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// Whether the last line ends with a line break (or the file is empty).
    ///
    /// Edits keep this state (product.md §3 item 1); an empty file counts as
    /// newline-terminated so that appending to it yields `"row\n"`, as Rho
    /// does (reference-rho.md §8.1 step 6).
    pub fn ends_with_newline(&self) -> bool {
        self.lines.last().is_none_or(|s| s.ending != Ending::None)
    }

    /// The line break new rows fall back to: CRLF if CRLF endings outnumber
    /// LF endings, else LF (ties go to LF).
    pub fn dominant_ending(&self) -> Ending {
        let (mut lf, mut crlf) = (0usize, 0usize);
        for span in &self.lines {
            match span.ending {
                Ending::Lf => lf += 1,
                Ending::CrLf => crlf += 1,
                Ending::None | Ending::Cr => {}
            }
        }
        if crlf > lf { Ending::CrLf } else { Ending::Lf }
    }

    /// The file's exact bytes: BOM, then every line and its ending.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.body.len() + 3);
        if self.bom {
            out.extend_from_slice(UTF8_BOM);
        }
        out.extend_from_slice(self.body.as_bytes());
        out
    }
}

/// Splits BOM-free text into line spans per the line model.
fn split_lines(body: &str) -> Vec<LineSpan> {
    let bytes = body.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', bytes) {
        let (len, ending) = if nl > start && bytes[nl - 1] == b'\r' {
            (nl - 1 - start, Ending::CrLf)
        } else {
            (nl - start, Ending::Lf)
        };
        lines.push(LineSpan { start, len, ending });
        start = nl + 1;
    }
    if start < bytes.len() {
        let (len, ending) = if bytes[bytes.len() - 1] == b'\r' {
            (bytes.len() - 1 - start, Ending::Cr)
        } else {
            (bytes.len() - start, Ending::None)
        };
        lines.push(LineSpan { start, len, ending });
    }
    lines
}

/// The line texts of `body` per the line model; a convenience for tests and
/// callers that do not need endings.
pub fn split_line_texts(body: &str) -> Vec<&str> {
    split_lines(body)
        .into_iter()
        .map(|s| &body[s.start..s.start + s.len])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn texts(s: &str) -> Vec<&str> {
        split_line_texts(s)
    }

    #[test]
    fn splits_like_rho() {
        // reference-rho.md §2 and §11 case 4.
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
    }
}
