//! File contents and edit documents for the harnesses: UTF-8 text of a
//! chosen size and line shape, and hashline documents that change it.

use hashedit_core::TagScheme;

use crate::rng::Rng;

/// How the lines of a generated text look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineShape {
    /// Source-like lines of 0–100 bytes, LF endings.
    Short,
    /// Lines of 1–200 KB (minified code, logs with blobs).
    Long,
    /// A mix of short lines, long lines, empty lines, CRLF endings and
    /// multi-byte characters.
    Mixed,
    /// One line without a final newline.
    OneLine,
}

impl LineShape {
    /// Every shape.
    pub const ALL: [LineShape; 4] = [
        LineShape::Short,
        LineShape::Long,
        LineShape::Mixed,
        LineShape::OneLine,
    ];

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            LineShape::Short => "short",
            LineShape::Long => "long",
            LineShape::Mixed => "mixed",
            LineShape::OneLine => "one-line",
        }
    }
}

const WORDS: &[&str] = &[
    "let",
    "fn",
    "return",
    "value",
    "index",
    "buffer",
    "config",
    "error",
    "match",
    "self",
    "über",
    "naïve",
    "данные",
    "数据",
    "→",
    "{",
    "}",
    "(",
    ")",
    ";",
    "// note",
    "0x1F",
];

/// About `size` bytes of valid UTF-8 text in `shape` (the result may be a
/// few bytes longer or shorter, never invalid; exactly empty for 0).
pub fn text(rng: &mut Rng, size: usize, shape: LineShape) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(size + 64);
    if size == 0 {
        return out;
    }
    while out.len() < size {
        let room = size - out.len();
        let (width, crlf) = match shape {
            LineShape::Short => (rng.range(0, 100), false),
            LineShape::Long => (rng.range(1_000, 200_000), false),
            LineShape::Mixed => {
                let width = match rng.below(10) {
                    0 => 0,
                    1 => rng.range(5_000, 60_000),
                    _ => rng.range(1, 120),
                };
                (width, rng.chance(30))
            }
            LineShape::OneLine => (room, false),
        };
        let width = width.min(room);
        push_words(rng, &mut out, width);
        if shape == LineShape::OneLine {
            break;
        }
        if crlf {
            out.extend_from_slice(b"\r\n");
        } else {
            out.push(b'\n');
        }
    }
    out
}

/// Appends about `width` bytes of words (no line break) to `out`.
fn push_words(rng: &mut Rng, out: &mut Vec<u8>, width: usize) {
    let end = out.len() + width;
    while out.len() < end {
        let word = *rng.pick(WORDS);
        if out.len() + word.len() + 1 > end {
            // Fill with ASCII so the width is met without splitting a
            // multi-byte character.
            let fill = end - out.len();
            out.extend(std::iter::repeat_n(b'x', fill));
            break;
        }
        out.extend_from_slice(word.as_bytes());
        out.push(b' ');
    }
}

/// Number of lines in `bytes` as hashline counts them: pieces between
/// `\n`, where a final newline does not start another line.
pub fn line_count(bytes: &[u8]) -> usize {
    if bytes.is_empty() {
        return 0;
    }
    let breaks = bytes.iter().filter(|&&b| b == b'\n').count();
    if bytes.ends_with(b"\n") {
        breaks
    } else {
        breaks + 1
    }
}

/// The rho tag of `bytes` as 4 hex digits.
pub fn tag(bytes: &[u8]) -> String {
    TagScheme::Rho.tag_of(bytes).to_string()
}

/// The ops of one section that change a file of `bytes` (without the
/// header): 1–3 non-overlapping ops that always change the content. Each
/// body row carries `marker`, so results of different writers differ.
pub fn edit_ops(rng: &mut Rng, bytes: &[u8], marker: &str) -> String {
    let lines = line_count(bytes);
    if lines == 0 {
        return format!("PUT >$:\n+{marker} appended\n");
    }
    let mut ops = String::new();
    let replace = rng.range(1, lines);
    ops.push_str(&format!(
        "PUT {replace}:\n+{marker} replaced line {replace}\n"
    ));
    if lines >= 3 && rng.chance(50) {
        // Never the last line, so an append cannot sit next to a cut.
        let mut cut = rng.range(1, lines - 1);
        if cut == replace {
            cut = if replace > 1 {
                replace - 1
            } else {
                replace + 1
            };
        }
        ops.push_str(&format!("CUT {cut}\n"));
    }
    if rng.chance(50) {
        ops.push_str(&format!("PUT >$:\n+{marker} appended\n"));
    }
    ops
}

/// A one-section edit document for `display` with `bytes`.
pub fn edit_document(rng: &mut Rng, display: &str, bytes: &[u8], marker: &str) -> String {
    format!(
        "[{display}#{}]\n{}",
        tag(bytes),
        edit_ops(rng, bytes, marker)
    )
}

/// Human-readable size: `0 B`, `900 B`, `64 KB`, `50 MB`.
pub fn human(bytes: u64) -> String {
    const KB: u64 = 1024;
    const MB: u64 = 1024 * KB;
    const GB: u64 = 1024 * MB;
    if bytes >= GB {
        format!("{:.1} GB", bytes as f64 / GB as f64)
    } else if bytes >= MB {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    } else if bytes >= KB {
        format!("{:.1} KB", bytes as f64 / KB as f64)
    } else {
        format!("{bytes} B")
    }
}

/// Parses a size such as `0`, `900`, `64K`, `50M`, `2G`.
pub fn parse_size(text: &str) -> Option<u64> {
    let text = text.trim();
    let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let value: u64 = digits.parse().ok()?;
    let factor = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1024,
        "M" | "MB" | "MIB" => 1024 * 1024,
        "G" | "GB" | "GIB" => 1024 * 1024 * 1024,
        _ => return None,
    };
    value.checked_mul(factor)
}

#[cfg(test)]
mod tests;
