//! Deterministic benchmark inputs.
//!
//! The same arguments give the same bytes on every machine: a SplitMix64
//! stream (`hashedit-rng`) drives every choice.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use hashedit_core::TagScheme;
use hashedit_rng::Rng;

const WORDS: &[&str] = &[
    "value", "count", "index", "buffer", "state", "offset", "limit", "cache", "reader", "writer",
    "token", "node", "entry", "range", "table", "queue", "frame", "chunk", "label", "delta",
];

const TYPES: &[&str] = &["u8", "u32", "u64", "usize", "i64", "bool", "char"];

/// One source-like line (no line break) that is, on its own, valid Rust at
/// module level (an item or a comment), so any line can be replaced by a
/// comment and the file still parses: the editor's syntax check then sees
/// real code rather than tree-sitter's slow error recovery. Indentation
/// varies, and one line in 16 has trailing blanks (which the tag schemes
/// normalise).
fn source_line(rng: &mut Rng, out: &mut Vec<u8>) {
    out.extend(std::iter::repeat_n(b' ', 4 * rng.below(3)));
    let word = |rng: &mut Rng| WORDS[rng.below(WORDS.len())];
    let line = match rng.below(6) {
        0 => format!("// {} {} {}", word(rng), word(rng), word(rng)),
        1 => format!(
            "const {}_{}: {} = {} as {};",
            word(rng).to_ascii_uppercase(),
            rng.below(10_000),
            TYPES[rng.below(5)],
            rng.below(1_000),
            TYPES[rng.below(5)],
        ),
        2 => format!(
            "static {}_{}: &str = \"{} {}\";",
            word(rng).to_ascii_uppercase(),
            rng.below(10_000),
            word(rng),
            word(rng)
        ),
        3 => format!("use crate::{}::{};", word(rng), word(rng)),
        4 => format!(
            "fn {}_{}(x: u64) -> u64 {{ x + {} }}",
            word(rng),
            rng.below(10_000),
            rng.below(100)
        ),
        _ => format!(
            "type {}{} = Vec<{}>;",
            word(rng).to_ascii_uppercase(),
            rng.below(100),
            TYPES[rng.below(TYPES.len())]
        ),
    };
    out.extend_from_slice(line.as_bytes());
    if rng.below(16) == 0 {
        out.extend_from_slice(b"  \t");
    }
}

/// `lines` source-like lines, each ending in `\n` (about 35 bytes a line).
pub fn source_text(lines: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(lines * 32);
    for _ in 0..lines {
        source_line(&mut rng, &mut out);
        out.push(b'\n');
    }
    out
}

/// Writes a log of at least `bytes` bytes to `path` (whole lines, about
/// 100 bytes each: timestamp, level, component, message), streaming, so
/// any size fits in memory.
///
/// Errors: any I/O error creating or writing the file.
pub fn write_log(path: &Path, bytes: u64, seed: u64) -> io::Result<u64> {
    const LEVELS: &[&str] = &["INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"];
    const PARTS: &[&str] = &["http", "db", "cache", "auth", "queue", "scheduler"];
    let mut rng = Rng::new(seed);
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let mut written = 0u64;
    let mut line = Vec::with_capacity(256);
    let mut second = 1_700_000_000u64;
    while written < bytes {
        line.clear();
        second += rng.below(3) as u64;
        let level = LEVELS[rng.below(LEVELS.len())];
        let part = PARTS[rng.below(PARTS.len())];
        write!(
            line,
            "{second}.{:06} {level:<5} [{part}] request id={:016x} took {}ms: ",
            rng.below(1_000_000),
            rng.next_u64(),
            rng.below(5000)
        )?;
        source_line(&mut rng, &mut line);
        line.push(b'\n');
        out.write_all(&line)?;
        written += line.len() as u64;
    }
    out.flush()?;
    Ok(written)
}

/// Lines of `bytes` per the line model (a final line without a break
/// counts).
pub fn line_count(bytes: &[u8]) -> usize {
    let breaks = memchr_count(bytes);
    breaks + usize::from(bytes.last().is_some_and(|&b| b != b'\n'))
}

fn memchr_count(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// An edit document for the file `bytes` shown as `display`: `hunks`
/// single-line replacements spread evenly over its lines (line 1, then
/// every `lines / hunks` lines), each writing `// edited K` with the
/// replaced line's indentation (as a model keeps it, so the indentation
/// guard has nothing to say) and, when `suffix` is given, that text after
/// it (so two documents can flip a file back and forth). The section's tag
/// is `scheme`'s tag of `bytes`.
pub fn edit_document(
    display: &str,
    bytes: &[u8],
    scheme: TagScheme,
    hunks: usize,
    suffix: &str,
) -> String {
    let lines = line_count(bytes).max(1);
    let hunks = hunks.clamp(1, lines);
    let step = lines / hunks;
    let tag = scheme.tag_of(bytes);
    let text = String::from_utf8_lossy(bytes);
    let indents: Vec<&str> = text
        .split('\n')
        .map(|line| &line[..line.len() - line.trim_start().len()])
        .collect();
    let mut doc = String::with_capacity(32 + hunks * 32);
    doc.push_str(&format!("[{display}#{tag}]\n"));
    for k in 0..hunks {
        let line = 1 + k * step;
        let indent = indents.get(line - 1).copied().unwrap_or_default();
        doc.push_str(&format!("PUT {line}:\n+{indent}// edited {k}{suffix}\n"));
    }
    doc
}

#[cfg(test)]
mod tests;
