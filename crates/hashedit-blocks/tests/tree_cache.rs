//! The tree cache answers exactly as fresh parses do, edit after edit:
//! every line's block and the syntax verdict, including edits that break
//! the syntax and edits that repair it.

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::BlockIndex;

fn answers(index: &dyn BlockIndex, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = (1..=lines + 1)
        .map(|n| format!("{n}: {:?}", index.block_at(n)))
        .collect();
    out.push(format!("syntax: {:?}", index.syntax()));
    out
}

fn check_sequence(path: &str, texts: &[String]) {
    let cached = TreeSitterBlocks::new().with_tree_cache();
    let fresh = TreeSitterBlocks::new();
    for (step, text) in texts.iter().enumerate() {
        let lines = text.lines().count();
        let a = cached.index_path(path, text).expect("a grammar");
        let b = fresh.index_path(path, text).expect("a grammar");
        assert_eq!(
            answers(&a, lines),
            answers(&b, lines),
            "{path}, step {step}"
        );
    }
}

#[cfg(feature = "rust")]
#[test]
fn rust_edits_answer_as_fresh_parses() {
    let base: Vec<String> = (0..60)
        .map(|i| match i % 6 {
            0 => format!("fn f{i}(x: u32) -> u32 {{"),
            1 => "    if x > 1 {".to_string(),
            2 => format!("        x * {i}"),
            3 => "    } else {".to_string(),
            4 => "        x }".to_string(),
            _ => "}".to_string(),
        })
        .collect();
    let join = |rows: &[String]| rows.join("\n") + "\n";
    let mut texts = vec![join(&base)];
    let mut rows = base.clone();
    rows[20] = "        x + 1 // edited".to_string();
    texts.push(join(&rows));
    rows.insert(31, "fn inserted() {}".to_string());
    texts.push(join(&rows));
    rows[40] = "    } else {{ broken".to_string();
    texts.push(join(&rows));
    texts.push(join(&rows));
    rows[40] = base[40].clone();
    texts.push(join(&rows));
    rows.remove(31);
    texts.push(join(&rows));
    texts.push("é".repeat(10) + "\n" + &join(&rows));
    check_sequence("src/lib.rs", &texts);
}

#[cfg(feature = "python")]
#[test]
fn python_edits_answer_as_fresh_parses() {
    let texts = [
        "def f(x):\n    if x:\n        return 1\n    return 2\n".to_string(),
        "def f(x):\n    if x:\n        return 10\n    return 2\n".to_string(),
        "def f(x):\n    if x:\n    return 10\n    return 2\n".to_string(),
        "class A:\n    def f(x):\n        if x:\n            return 10\n        return 2\n"
            .to_string(),
    ];
    check_sequence("a.py", &texts);
}
