//! Edit documents generated from the file they edit: a header with the
//! file's real tag, line numbers inside the file, spans that do not
//! overlap, inserts at allowed gaps, and every op kind (replace, delete,
//! inserts before, after and at the end, named and anonymous register cuts
//! with pastes at a gap or over a range, `EOF NEWLINE` / `EOF NO NEWLINE`,
//! and `SUB` ops restating the lines they replace).
//! Files have a BOM or not, LF, CRLF or mixed endings, and U+FEFF inside
//! lines, at their start (handed case F01's kind) and in rows.
//!
//! Each case also carries what it must do, worked out on the lines alone
//! by [`expect`]: the result's lines, or the refusal the planner owes it.

use std::collections::BTreeMap;

use proptest::prelude::*;

/// A generated op, on the file's original numbering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GenOp {
    /// `PUT S.=E:` (written `PUT S:` when S = E).
    Replace(usize, usize, Vec<String>),
    /// `CUT S.=E`, into a register when named (`Some("")`: anonymous).
    Delete(usize, usize, Option<String>),
    /// `PUT <N:`.
    Before(usize, Vec<String>),
    /// `PUT >N:`.
    After(usize, Vec<String>),
    /// `PUT >$:`.
    End(Vec<String>),
    /// `PUT >N @r` (`""`: the colonless anonymous paste `PUT >N`).
    PasteAfter(usize, String),
    /// `PUT S.=E @r`: the register's lines replace the range.
    PasteOver(usize, usize, String),
    /// `EOF NEWLINE` (true) or `EOF NO NEWLINE`.
    Eof(bool),
    /// `SUB S.=E:` whose `-` rows restate lines S to E (a verified
    /// replace): writes what `PUT S.=E:` writes.
    Sub(usize, usize, Vec<String>),
}

/// One generated case.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// The file's bytes.
    pub file: Vec<u8>,
    /// The file's lines (texts only).
    pub lines: Vec<String>,
    /// Whether the file starts with a BOM.
    pub bom: bool,
    /// The ops, in document order.
    pub ops: Vec<GenOp>,
}

impl Case {
    /// A case with fixed bytes and ops.
    pub(crate) fn fixed(file: &[u8], ops: Vec<GenOp>) -> Case {
        let text = hashedit_core::Text::decode(file).expect("a text file");
        Case {
            file: file.to_vec(),
            lines: (1..=text.line_count())
                .map(|n| text.line(n).to_string())
                .collect(),
            bom: text.has_bom(),
            ops,
        }
    }

    /// The document, headed by the file's real `rho` tag.
    pub(crate) fn document(&self) -> String {
        let tag = hashedit_core::TagScheme::Rho.tag_of(&self.file);
        let mut doc = format!("[f.rs#{tag}]\n");
        let rows = |body: &[String]| body.iter().map(|r| format!("+{r}\n")).collect::<String>();
        let range = |s: usize, e: usize| {
            if s == e {
                s.to_string()
            } else {
                format!("{s}.={e}")
            }
        };
        let register = |name: &str| {
            if name.is_empty() {
                String::new()
            } else {
                format!(" @{name}")
            }
        };
        for op in &self.ops {
            doc += &match op {
                GenOp::Replace(s, e, body) => format!("PUT {}:\n{}", range(*s, *e), rows(body)),
                GenOp::Sub(s, e, body) => {
                    let old: String = self.lines[s - 1..*e]
                        .iter()
                        .map(|line| format!("-{line}\n"))
                        .collect();
                    format!("SUB {}:\n{old}{}", range(*s, *e), rows(body))
                }
                GenOp::Delete(s, e, into) => {
                    format!(
                        "CUT {}{}\n",
                        range(*s, *e),
                        register(into.as_deref().unwrap_or(""))
                    )
                }
                GenOp::Before(n, body) => format!("PUT <{n}:\n{}", rows(body)),
                GenOp::After(n, body) => format!("PUT >{n}:\n{}", rows(body)),
                GenOp::End(body) => format!("PUT >$:\n{}", rows(body)),
                GenOp::PasteAfter(n, name) => format!("PUT >{n}{}\n", register(name)),
                GenOp::PasteOver(s, e, name) => {
                    format!("PUT {}{}\n", range(*s, *e), register(name))
                }
                GenOp::Eof(true) => "EOF NEWLINE\n".to_string(),
                GenOp::Eof(false) => "EOF NO NEWLINE\n".to_string(),
            };
        }
        doc
    }
}

/// What a case must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Expect {
    /// Applied: the result's lines, and whether it ends with a line break
    /// when an `EOF` op says so.
    Lines(Vec<String>, Option<bool>),
    /// Refused: a body row (pasted rows included) starts with U+FEFF.
    RowWithBom,
    /// Refused: deletions leave first a line starting with U+FEFF in a file
    /// without a BOM (handed case F01); the original line.
    LineWouldBecomeBom(usize),
    /// Refused: the `EOF` op cannot set the final-newline state.
    FinalNewline,
}

/// Body rows: code-like text, indentation, empty rows, non-ASCII, and
/// U+FEFF inside a row; rarely at its start (which is refused).
fn row() -> impl Strategy<Value = String> {
    prop_oneof![
        24 => "[a-z(){};=]{0,8}",
        6 => "[ \t]{1,4}[a-z}]{1,4}",
        6 => Just(String::new()),
        3 => Just("é中".to_string()),
        3 => Just("x\u{FEFF}y".to_string()),
        1 => Just("\u{FEFF}row".to_string()),
    ]
}

fn body() -> impl Strategy<Value = Vec<String>> {
    proptest::collection::vec(row(), 1..4)
}

/// A file line's text: like rows, with U+FEFF opening some lines (content
/// in every position but byte 0 of a file without a BOM).
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        10 => "[a-z(){};=]{0,8}",
        3 => "[ \t]{1,4}[a-z}]{1,4}",
        2 => Just(String::new()),
        2 => Just("\u{FEFF}a".to_string()),
        1 => Just("b\u{FEFF}".to_string()),
    ]
}

/// Handed case F01's file: line 2 starts with U+FEFF and there is no BOM.
pub(crate) const F01_FILE: &[u8] = b"\n\xEF\xBB\xBFx\ny\n";

/// A file: a BOM or not, lines with LF or CRLF (mostly one style, some
/// mixed), the last with or without its line break; sometimes F01's file.
fn file() -> impl Strategy<Value = Vec<u8>> {
    let generated = (
        prop::bool::weighted(0.25),
        proptest::collection::vec((line(), prop::bool::weighted(0.15)), 0..14),
        0u8..3,
        prop::bool::weighted(0.8),
    )
        .prop_map(|(bom, lines, style, final_newline)| {
            let mut bytes = if bom {
                b"\xEF\xBB\xBF".to_vec()
            } else {
                Vec::new()
            };
            let count = lines.len();
            for (i, (text, flip)) in lines.into_iter().enumerate() {
                bytes.extend_from_slice(text.as_bytes());
                if i + 1 == count && !final_newline {
                    break;
                }
                // style 0: LF, 1: CRLF, 2: mixed; `flip` switches one line.
                let crlf = match style {
                    0 => flip,
                    1 => !flip,
                    _ => i % 2 == 1,
                };
                bytes.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
            }
            bytes
        });
    prop_oneof![19 => generated, 1 => Just(F01_FILE.to_vec())]
}

/// Raw op choices, resolved against the file by [`resolve`].
type Raw = (u8, usize, usize, usize, Vec<String>);

/// A case: a file and ops that are valid on it by construction.
pub(crate) fn case() -> impl Strategy<Value = Case> {
    (
        file(),
        proptest::collection::vec((0u8..11, 1usize..64, 0usize..3, 1usize..64, body()), 1..6),
        0u8..10,
    )
        .prop_map(|(file, raw, eof)| {
            let mut case = Case::fixed(&file, Vec::new());
            case.ops = resolve(&case.lines, raw, eof);
            case
        })
}

/// Turns raw choices into ops valid on a file of these lines: spans
/// claim disjoint lines, inserts sit at gaps no span removes and repeat no
/// other insert, a paste follows its cut, and a `SUB` restates text (a
/// lone empty line is replaced by `PUT`).
fn resolve(file_lines: &[String], raw: Vec<Raw>, eof: u8) -> Vec<GenOp> {
    let n = file_lines.len();
    let mut taken = vec![false; n + 2];
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut ops = Vec::new();
    let mut claim = |s: usize, e: usize, spans: &mut Vec<(usize, usize)>| {
        if n == 0 || e > n || (s..=e).any(|l| taken[l]) {
            return false;
        }
        (s..=e).for_each(|l| taken[l] = true);
        spans.push((s, e));
        true
    };
    // Every `CUT` without a name fills the anonymous register, and a
    // colonless paste with two such cuts pending is refused as ambiguous:
    // the anonymous pair comes before any other unnamed cut.
    let mut unnamed_cuts = 0;
    for (i, (kind, a, len, b, body)) in raw.into_iter().enumerate() {
        let line = |x: usize| (x - 1) % n.max(1) + 1;
        let (s, t) = (line(a), line(b));
        let e = (s + len).min(n.max(1));
        match kind {
            0 if claim(s, s, &mut spans) => ops.push(GenOp::Replace(s, s, body)),
            1 if claim(s, e, &mut spans) => ops.push(GenOp::Replace(s, e, body)),
            2 if claim(s, e, &mut spans) => {
                unnamed_cuts += 1;
                ops.push(GenOp::Delete(s, e, None));
            }
            3 if n > 0 => ops.push(GenOp::Before(s, body)),
            4 if n > 0 => ops.push(GenOp::After(s, body)),
            5 => ops.push(GenOp::End(body)),
            6 if claim(s, e, &mut spans) => {
                let name = format!("r{i}");
                ops.push(GenOp::Delete(s, e, Some(name.clone())));
                ops.push(GenOp::PasteAfter(t, name));
            }
            7 if unnamed_cuts == 0 && claim(s, e, &mut spans) => {
                unnamed_cuts += 1;
                ops.push(GenOp::Delete(s, e, Some(String::new())));
                ops.push(GenOp::PasteAfter(t, String::new()));
            }
            8 if claim(s, s, &mut spans) => {
                let name = format!("r{i}");
                ops.push(GenOp::Delete(s, s, Some(name.clone())));
                let over = t.min(n.saturating_sub(len)).max(1);
                let end = (over + len).min(n);
                if claim(over, end, &mut spans) {
                    ops.push(GenOp::PasteOver(over, end, name));
                }
            }
            // Deleting from line 1 on (what meets F01's rule).
            9 if claim(1, e.max(1), &mut spans) => {
                unnamed_cuts += 1;
                ops.push(GenOp::Delete(1, e.max(1), None));
            }
            10 if claim(s, e, &mut spans) => {
                if s == e && file_lines[s - 1].is_empty() {
                    ops.push(GenOp::Replace(s, e, body));
                } else {
                    ops.push(GenOp::Sub(s, e, body));
                }
            }
            _ if n == 0 => ops.push(GenOp::Before(1, body)),
            _ => {}
        }
    }
    // Inserts must not sit strictly inside a span nor repeat another
    // insert at the same gap verbatim (that one is applied once).
    let mut seen: Vec<(usize, Vec<String>)> = Vec::new();
    ops.retain(|op| {
        let (gap, rows) = match op {
            GenOp::Before(l, body) => (l - 1, body.clone()),
            GenOp::After(l, body) => (*l, body.clone()),
            GenOp::End(body) => (n, body.clone()),
            GenOp::PasteAfter(l, name) => (*l, vec![format!("@{name}")]),
            _ => return true,
        };
        if spans.iter().any(|&(s, e)| gap >= s && gap < e) || seen.contains(&(gap, rows.clone())) {
            return false;
        }
        seen.push((gap, rows));
        true
    });
    // A paste whose cut was dropped cannot stay.
    let cuts: Vec<String> = ops
        .iter()
        .filter_map(|op| match op {
            GenOp::Delete(_, _, Some(name)) => Some(name.clone()),
            _ => None,
        })
        .collect();
    ops.retain(|op| match op {
        GenOp::PasteAfter(_, name) | GenOp::PasteOver(_, _, name) => cuts.contains(name),
        _ => true,
    });
    match eof {
        0 => ops.push(GenOp::Eof(true)),
        1 => ops.push(GenOp::Eof(false)),
        _ => {}
    }
    ops
}

/// What `case` must do: the planner's refusals first (rows, then the
/// first line), then the final-newline op, else the result's lines.
pub(crate) fn expect(case: &Case) -> Expect {
    let n = case.lines.len();
    let original = |s: usize, e: usize| case.lines[s - 1..e].to_vec();
    let mut registers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // Per original line: its replacement (None: kept), and rows per gap
    // with their order class (after N, before N + 1, end of file).
    let mut replaced: Vec<Option<Vec<String>>> = vec![None; n + 1];
    let mut gaps: Vec<Vec<(u8, Vec<String>)>> = vec![Vec::new(); n + 1];
    let mut eof = None;
    let mut rows_written: Vec<Vec<String>> = Vec::new();
    for op in &case.ops {
        match op {
            GenOp::Replace(s, e, body) | GenOp::Sub(s, e, body) => {
                replaced[*s] = Some(body.clone());
                (s + 1..=*e).for_each(|l| replaced[l] = Some(Vec::new()));
                rows_written.push(body.clone());
            }
            GenOp::Delete(s, e, into) => {
                (*s..=*e).for_each(|l| replaced[l] = Some(Vec::new()));
                if let Some(name) = into {
                    registers.insert(name.clone(), original(*s, *e));
                }
            }
            GenOp::Before(l, body) => {
                // In an empty file `<1` and `>$` name the same place and
                // keep document order.
                gaps[l - 1].push((if n == 0 { 2 } else { 1 }, body.clone()));
                rows_written.push(body.clone());
            }
            GenOp::After(l, body) => {
                gaps[*l].push((0, body.clone()));
                rows_written.push(body.clone());
            }
            GenOp::End(body) => {
                gaps[n].push((2, body.clone()));
                rows_written.push(body.clone());
            }
            GenOp::PasteAfter(l, name) => {
                let rows = registers[name].clone();
                gaps[*l].push((0, rows.clone()));
                rows_written.push(rows);
            }
            GenOp::PasteOver(s, e, name) => {
                let rows = registers[name].clone();
                replaced[*s] = Some(rows.clone());
                (s + 1..=*e).for_each(|l| replaced[l] = Some(Vec::new()));
                rows_written.push(rows);
            }
            GenOp::Eof(state) => eof = Some(*state),
        }
    }
    if rows_written
        .iter()
        .flatten()
        .any(|row| row.starts_with('\u{FEFF}'))
    {
        return Expect::RowWithBom;
    }
    let mut lines = Vec::new();
    let mut first_original = None;
    for gap in 0..=n {
        if gap > 0 {
            match &replaced[gap] {
                Some(rows) => lines.extend(rows.iter().cloned()),
                None => {
                    if lines.is_empty() {
                        first_original = Some(gap);
                    }
                    lines.push(case.lines[gap - 1].clone());
                }
            }
        }
        let mut here = gaps[gap].clone();
        here.sort_by_key(|(class, _)| *class);
        lines.extend(here.into_iter().flat_map(|(_, rows)| rows));
    }
    if let Some(line) =
        first_original.filter(|&l| !case.bom && case.lines[l - 1].starts_with('\u{FEFF}'))
    {
        return Expect::LineWouldBecomeBom(line);
    }
    match eof {
        Some(true) if lines.is_empty() => return Expect::FinalNewline,
        Some(false) if lines.last().is_some_and(String::is_empty) => {
            return Expect::FinalNewline;
        }
        _ => {}
    }
    Expect::Lines(lines, eof)
}
