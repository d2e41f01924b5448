//! Lowering tests: registers (oh-my-pi's case 38–45), block
//! locators through a stand-in resolver (§3.5, cases 46–48) and file ops.

use super::*;
use crate::block::{BlockIndex, NoBlocks};
use crate::parse::parse;
use crate::plan::plan;

/// Applies a multi-section document to in-memory files, in order, sharing
/// registers; returns each file's result or the first error's text.
fn run_files(
    files: &[(&str, &str)],
    doc: &str,
    resolver: Option<&dyn BlockResolver>,
) -> Result<Vec<String>, String> {
    let doc = parse(doc).map_err(|e| e.to_string())?;
    let mut registers = Registers::default();
    let mut out = Vec::new();
    for section in &doc.sections {
        let content = files
            .iter()
            .find(|(p, _)| *p == section.path)
            .expect("file exists")
            .1;
        let text = Text::decode(content.as_bytes()).unwrap();
        let lowered = lower(section, &section.path, &text, resolver, &mut registers)
            .map_err(|e| e.to_string())?;
        let plan = plan(&lowered.hunks, &text).map_err(|e| e.to_string())?;
        out.push(String::from_utf8(plan.apply(&text).bytes).unwrap());
    }
    Ok(out)
}

fn run(file: &str, ops: &str) -> Result<String, String> {
    run_files(&[("f", file)], &format!("[f#0000]\n{ops}"), None).map(|mut v| v.remove(0))
}

#[test]
fn cut_and_paste_moves_lines() {
    // oh-my-pi's case 38.
    assert_eq!(
        run("l1\nl2\nl3\nl4\nl5\n", "CUT 2-3\nPUT >5").unwrap(),
        "l1\nl4\nl5\nl2\nl3\n"
    );
    // Case 39: pasting does not consume.
    assert_eq!(
        run("l1\nl2\nl3\n", "CUT 2\nPUT <1\nPUT >$").unwrap(),
        "l2\nl1\nl3\nl2\n"
    );
    // Case 40: swap with named registers.
    assert_eq!(
        run(
            "a1\na2\nb1\nb2",
            "CUT 1-2 @a\nCUT 3-4 @b\nPUT <1 @b\nPUT >$ @a"
        )
        .unwrap(),
        "b1\nb2\na1\na2"
    );
    // Span paste replaces lines with a register.
    assert_eq!(
        run("a\nb\nc\nd\n", "CUT 1 @x\nPUT 3.=4 @x").unwrap(),
        "b\na\n"
    );
}

#[test]
fn register_sequencing_errors() {
    // Case 41.
    assert_eq!(
        run("l1\nl2\n", "PUT >1").unwrap_err(),
        "PUT >1 (document line 2) pastes the anonymous register, but no CUT without @name came before it in \
         this edit (the anonymous register lasts one edit call; use CUT … @name to keep lines longer)"
    );
    assert_eq!(
        run("l1\nl2\nl3\n", "PUT 2-3 @gone").unwrap_err(),
        "PUT 2.=3 @gone (document line 2): register @gone holds nothing; no named register exists yet: CUT … @gone first"
    );
    assert_eq!(
        run("l1\nl2\n", "CUT 1 @kept\nPUT >2 @gone").unwrap_err(),
        "PUT >2 @gone (document line 3): register @gone holds nothing; known registers: @kept"
    );
    // Case 42: two unlabelled cuts make the anonymous paste ambiguous.
    assert_eq!(
        run("l1\nl2\nl3\n", "CUT 1\nCUT 3\nPUT >$").unwrap_err(),
        "PUT >$ (document line 4) pastes the anonymous register, but 2 unlabelled cuts are pending (CUT 1, \
         CUT 3); label them (CUT … @name) and paste by name (PUT … @name)"
    );
    assert_eq!(
        run("l1\nl2\nl3\n", "CUT 1 @x\nCUT 3 @y\nPUT >$ @y").unwrap(),
        "l2\nl3\n"
    );
    // A paste resets the pending count.
    assert_eq!(
        run("l1\nl2\nl3\nl4\n", "CUT 1\nPUT >2\nCUT 4\nPUT >3").unwrap(),
        "l2\nl1\nl3\nl4\n"
    );
    // Case 43.
    assert_eq!(
        run("l1\nl2\n", "CUT 8-9").unwrap_err(),
        "CUT 8.=9 (document line 2) names line 9, but the file has 2 lines; copy line numbers from the snapshot below"
    );
    // A paste before the cut that fills it.
    assert_eq!(
        run("l1\nl2\n", "PUT >2\nCUT 1").unwrap_err(),
        "PUT >2 (document line 2) pastes the anonymous register, but no CUT without @name came \
         before it in this edit (the anonymous register lasts one edit call; use CUT … @name to \
         keep lines longer)"
    );
}

#[test]
fn registers_cross_files_in_one_call() {
    // Case 44.
    let out = run_files(
        &[("a.ts", "keep\nm1\nm2\n"), ("b.ts", "b1\n")],
        "[a.ts#0000]\nCUT 2-3\n[b.ts#0000]\nPUT >$\n",
        None,
    )
    .unwrap();
    assert_eq!(out, vec!["keep\n".to_string(), "b1\nm1\nm2\n".to_string()]);
}

#[test]
fn named_registers_survive_the_call() {
    let doc = parse("[f#0000]\nCUT 1 @keep").unwrap();
    let text = Text::decode(b"one\ntwo\n").unwrap();
    let mut registers = Registers::default();
    lower(&doc.sections[0], "f", &text, None, &mut registers).unwrap();
    let named = registers.into_named();
    assert_eq!(named.get("keep"), Some(&vec!["one".to_string()]));
    // A later call starts from them; the anonymous register does not persist.
    let mut registers = Registers::with_named(named);
    let doc = parse("[f#0000]\nPUT >2 @keep").unwrap();
    let lowered = lower(&doc.sections[0], "f", &text, None, &mut registers).unwrap();
    assert_eq!(
        lowered.summary,
        vec!["PUT >2 @keep (+1 line from @keep)".to_string()]
    );
    let doc = parse("[f#0000]\nPUT >2").unwrap();
    assert!(matches!(
        lower(&doc.sections[0], "f", &text, None, &mut registers),
        Err(LowerError::NothingToPaste { .. })
    ));
}

/// A stand-in grammar: a line ending in `{` opens a block closed by the
/// next line at the same indentation that starts with `}`; other non-blank
/// lines are single-line constructs; lines starting with `}` close.
struct Braces;

struct BraceIndex {
    lines: Vec<String>,
}

impl BlockResolver for Braces {
    fn index<'a>(
        &'a self,
        path: &str,
        text: &'a str,
    ) -> Result<Box<dyn BlockIndex + 'a>, Unresolvable> {
        if !path.ends_with(".c") {
            return Err(Unresolvable::UnknownLanguage);
        }
        Ok(Box::new(BraceIndex {
            lines: crate::text::split_line_texts(text)
                .into_iter()
                .map(String::from)
                .collect(),
        }))
    }
}

impl BraceIndex {
    fn indent(line: &str) -> usize {
        line.len() - line.trim_start().len()
    }
}

impl BlockIndex for BraceIndex {
    fn block_at(&self, line: usize) -> BlockResolution {
        let Some(text) = self.lines.get(line - 1) else {
            return BlockResolution::Unresolvable(Unresolvable::OutOfRange);
        };
        let t = text.trim();
        if t.is_empty() {
            return BlockResolution::Unresolvable(Unresolvable::BlankLine);
        }
        if t.starts_with('}') {
            return BlockResolution::Unresolvable(Unresolvable::NotABlockStart);
        }
        if !t.ends_with('{') {
            return BlockResolution::SingleLine;
        }
        let indent = Self::indent(text);
        for (i, l) in self.lines.iter().enumerate().skip(line) {
            if Self::indent(l) == indent && l.trim().starts_with('}') {
                return BlockResolution::Block(LineRange {
                    start: line,
                    end: i + 1,
                });
            }
        }
        BlockResolution::Unresolvable(Unresolvable::ParseError)
    }

    fn enclosing_block(&self, line: usize) -> Option<LineRange> {
        (1..line)
            .rev()
            .find_map(|start| match self.block_at(start) {
                BlockResolution::Block(r) if r.end >= line => Some(r),
                _ => None,
            })
    }

    fn next_block(&self, line: usize) -> Option<LineRange> {
        (line + 1..=self.lines.len()).find_map(|start| match self.block_at(start) {
            BlockResolution::Block(r) => Some(r),
            _ => None,
        })
    }
}

const C: &str = "int f() {\n  if (x) {\n    a();\n  }\n  b();\n}\n\nint g() {\n  c();\n}\n";

fn run_c(ops: &str) -> Result<String, String> {
    run_files(&[("m.c", C)], &format!("[m.c#0000]\n{ops}"), Some(&Braces)).map(|mut v| v.remove(0))
}

#[test]
fn block_ops_resolve_through_the_grammar() {
    assert_eq!(
        run_c("PUT 2*:\n+  if (y) {}").unwrap(),
        "int f() {\n  if (y) {}\n  b();\n}\n\nint g() {\n  c();\n}\n"
    );
    assert_eq!(run_c("CUT 1*").unwrap(), "\nint g() {\n  c();\n}\n");
    assert_eq!(
        run_c("PUT >2*:\n+  z();").unwrap(),
        "int f() {\n  if (x) {\n    a();\n  }\n  z();\n  b();\n}\n\nint g() {\n  c();\n}\n"
    );
    // Move a function with a block cut and a block-anchored paste.
    assert_eq!(
        run_c("CUT 8* @g\nPUT <1 @g").unwrap(),
        "int g() {\n  c();\n}\nint f() {\n  if (x) {\n    a();\n  }\n  b();\n}\n\n"
    );
    let doc = parse("[m.c#0000]\nCUT 2*").unwrap();
    let text = Text::decode(C.as_bytes()).unwrap();
    let lowered = lower(
        &doc.sections[0],
        "m.c",
        &text,
        Some(&Braces),
        &mut Registers::default(),
    )
    .unwrap();
    assert_eq!(
        lowered.summary,
        vec!["CUT 2* (block: lines 2-4; 3 lines)".to_string()]
    );
}

#[test]
fn block_errors_suggest_the_plain_or_enclosing_form() {
    assert_eq!(
        run_c("PUT 3*:\n+x").unwrap_err(),
        "PUT 3*: (document line 2): the construct on that line is a single line; use PUT 3: (the enclosing \
         block is PUT 2*: (lines 2-4))"
    );
    assert_eq!(
        run_c("CUT 4*").unwrap_err(),
        "CUT 4* (document line 2): no block starts on line 4: the line continues or closes a construct that \
         starts on an earlier line; did you mean CUT 2* (lines 2-4)? Otherwise give the lines explicitly (N.=M)"
    );
    assert_eq!(
        run_c("CUT 7*").unwrap_err(),
        "CUT 7* (document line 2): no block starts on line 7: the line is blank; did you mean CUT 8* (lines \
         8-10)? Otherwise give the lines explicitly (N.=M)"
    );
    // `>N*` on a closer means after that line, with a warning.
    assert_eq!(
        run_c("PUT >4*:\n+  z();").unwrap(),
        "int f() {\n  if (x) {\n    a();\n  }\n  z();\n  b();\n}\n\nint g() {\n  c();\n}\n"
    );
    // No grammar for the language.
    let err = run_files(
        &[("m.txt", "a {\n}\n")],
        "[m.txt#0000]\nCUT 1*",
        Some(&Braces),
    )
    .unwrap_err();
    assert_eq!(
        err,
        "CUT 1* (document line 2): no block starts on line 1: no parser is available for this file's language; \
         give the lines explicitly (N.=M)"
    );
    let err = run_files(&[("m.c", C)], "[m.c#0000]\nCUT 1*", Some(&NoBlocks)).unwrap_err();
    assert!(err.contains("no parser is available"), "{err}");
    assert_eq!(
        run_c("CUT 99*").unwrap_err(),
        "CUT 99* (document line 2) names line 99, but the file has 10 lines"
    );
}

#[test]
fn file_ops_are_reported() {
    let doc = parse("[f#0000]\nPUT 1:\n+x\nMV g").unwrap();
    let text = Text::decode(b"a\n").unwrap();
    let lowered = lower(
        &doc.sections[0],
        "f",
        &text,
        None,
        &mut Registers::default(),
    )
    .unwrap();
    assert_eq!(lowered.file_op, Some(FileOp::Move("g".into())));
    assert_eq!(
        lowered.summary,
        vec!["PUT 1: (1 → 1 line)", "MV g (the file moves there)"]
    );
    let doc = parse("[f#0000]\nREM").unwrap();
    let lowered = lower(
        &doc.sections[0],
        "f",
        &text,
        None,
        &mut Registers::default(),
    )
    .unwrap();
    assert_eq!(lowered.file_op, Some(FileOp::Remove));
    assert!(lowered.hunks.is_empty());
}
