//! The line model (FORMAT.md §2): an empty file has no lines; otherwise one
//! final `\n` is dropped, the rest split at every `\n` and one trailing
//! `\r` dropped from each line; a lone CR is not a line break. [`Text`]
//! keeps each line's [`Ending`] and the BOM (never part of line 1), so
//! [`Text::to_bytes`] reproduces the input and untouched lines stay
//! byte-identical through an edit.

use std::borrow::Cow;
use std::fmt;

use crate::class::FailureClass;

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

/// Why a file's bytes are not editable UTF-8 text (FORMAT.md §2).
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

impl DecodeError {
    /// The failure's class.
    pub fn class(&self) -> FailureClass {
        match self {
            DecodeError::Binary { .. } => FailureClass::Binary,
            DecodeError::NotUtf8 { .. } => FailureClass::NotUtf8,
            DecodeError::UnsupportedEncoding { .. } => FailureClass::UnsupportedEncoding,
        }
    }

    /// What the file is, as a predicate to follow its path in a message:
    /// `is a binary file (NUL byte at offset 3)`.
    pub fn describe(&self) -> String {
        match self {
            DecodeError::Binary { offset } => {
                format!("is a binary file (NUL byte at offset {offset})")
            }
            DecodeError::NotUtf8 { offset } => {
                format!("is not valid UTF-8 (first invalid byte at offset {offset})")
            }
            DecodeError::UnsupportedEncoding { encoding } => format!("is {encoding} text"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// True when `bytes` hold a CR not followed by LF, which the omp scheme
/// reads as a line break and the line model does not.
pub(crate) fn has_lone_cr(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', bytes).any(|i| bytes.get(i + 1) != Some(&b'\n'))
}

/// Recognises a non-UTF-8 Unicode byte order mark at the start of a file.
///
/// Returns the encoding's name for UTF-32 and UTF-16 BOMs (either byte order).
pub(crate) fn foreign_bom(prefix: &[u8]) -> Option<&'static str> {
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

/// Where each line ends: the offset in `Text::body` just past its ending,
/// one per line (its start is the previous entry, its ending what closes
/// it), in 32 bits when the body allows: a sixth of a start/length/ending
/// triple's memory.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LineEnds {
    /// Bodies shorter than 4 GiB.
    Narrow(Vec<u32>),
    /// Anything larger.
    Wide(Vec<u64>),
}

impl LineEnds {
    fn len(&self) -> usize {
        match self {
            LineEnds::Narrow(v) => v.len(),
            LineEnds::Wide(v) => v.len(),
        }
    }

    /// The end offset of 0-based line `i`.
    fn get(&self, i: usize) -> usize {
        match self {
            LineEnds::Narrow(v) => v[i] as usize,
            LineEnds::Wide(v) => v[i] as usize,
        }
    }
}

/// A decoded text file: an optional BOM and numbered lines with their
/// endings, borrowing its bytes ([`Text::decode`]) or owning them
/// ([`Text::from_body`]), so decoding costs only the line table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text<'a> {
    bom: bool,
    /// Everything after the BOM, exactly as in the file.
    body: Cow<'a, str>,
    lines: LineEnds,
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
        self.lines.len() == 0
    }

    /// Line `n` (1-based) as its text and its ending.
    ///
    /// Panics if `n` is 0 or past the last line.
    fn split(&self, n: usize) -> (&str, Ending) {
        let start = if n == 1 { 0 } else { self.lines.get(n - 2) };
        let end = self.lines.get(n - 1);
        split_ending(&self.body[start..end])
    }

    /// The text of 1-based line `n`, without its ending.
    ///
    /// Panics if `n` is 0 or past the last line.
    pub fn line(&self, n: usize) -> &str {
        self.split(n).0
    }

    /// The ending of 1-based line `n`.
    ///
    /// Panics if `n` is 0 or past the last line.
    pub fn ending(&self, n: usize) -> Ending {
        self.split(n).1
    }

    /// Iterates over `(text, ending)` for every line in order.
    pub fn lines(&self) -> impl ExactSizeIterator<Item = (&str, Ending)> + '_ {
        (0..self.lines.len()).map(|i| self.split(i + 1))
    }

    /// The BOM-free body exactly as it was decoded.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// Whether the last line ends with a line break; an empty file does,
    /// so appending to it yields `"row\n"`.
    pub fn ends_with_newline(&self) -> bool {
        self.is_empty() || self.ending(self.line_count()) != Ending::None
    }

    /// The line break new rows fall back to: CRLF if CRLF endings outnumber
    /// LF endings, else LF (ties go to LF).
    pub fn dominant_ending(&self) -> Ending {
        let (mut lf, mut crlf) = (0usize, 0usize);
        for (_, ending) in self.lines() {
            match ending {
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

/// Builds the line table of BOM-free text per the line model: a line ends
/// after each `\n`, and text after the last `\n` is one more line.
fn split_lines(body: &str) -> LineEnds {
    let bytes = body.as_bytes();
    let unterminated = !bytes.is_empty() && bytes[bytes.len() - 1] != b'\n';
    if u32::try_from(bytes.len()).is_ok() {
        LineEnds::Narrow(line_ends(bytes, unterminated, |end| end as u32))
    } else {
        LineEnds::Wide(line_ends(bytes, unterminated, |end| end as u64))
    }
}

/// The end offsets of the lines of `bytes`, converted by `offset`.
fn line_ends<T>(bytes: &[u8], unterminated: bool, offset: impl Fn(usize) -> T) -> Vec<T> {
    let mut table = Vec::new();
    for nl in memchr::memchr_iter(b'\n', bytes) {
        table.push(offset(nl + 1));
    }
    if unterminated {
        table.push(offset(bytes.len()));
    }
    table.shrink_to_fit();
    table
}

/// The line texts of `body` per the line model; a convenience for tests and
/// callers that do not need endings.
pub fn split_line_texts(body: &str) -> Vec<&str> {
    let table = split_lines(body);
    (0..table.len())
        .map(|i| {
            let start = if i == 0 { 0 } else { table.get(i - 1) };
            split_ending(&body[start..table.get(i)]).0
        })
        .collect()
}

/// A line with its ending (as the table delimits it) split into text and
/// ending.
fn split_ending(raw: &str) -> (&str, Ending) {
    if let Some(text) = raw.strip_suffix("\r\n") {
        (text, Ending::CrLf)
    } else if let Some(text) = raw.strip_suffix('\n') {
        (text, Ending::Lf)
    } else if let Some(text) = raw.strip_suffix('\r') {
        // Only the last line can end without LF.
        (text, Ending::Cr)
    } else {
        (raw, Ending::None)
    }
}

#[cfg(test)]
mod tests;
