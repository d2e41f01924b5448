use super::*;
use crate::mutate::{Lang, Mutation};

const FILE: &str = "fn f(count: u32) -> u32 {\n    let x = count + 1;\n    let y = x * 2;\n    if y > 10 {\n        return y;\n    }\n    let z = y;\n    let w = z;\n    let v = w;\n    let u = v;\n    x\n}\n";

fn task(original: &str, target: &str) -> Task {
    let original = Lines::parse(original);
    let target = Lines::parse(target);
    let hunks = crate::hunks::diff(&original, &target);
    Task {
        index: 0,
        path: "a.rs".into(),
        lang: Lang::Rust,
        mutation: Mutation::OperatorSwap,
        description: String::new(),
        original,
        target,
        hunks,
    }
}

fn calls(v: &ReplaceVariant, form: Form) -> Option<String> {
    v.calls.get(&form).map(|call| match call {
        Call::StrReplace(calls) => calls
            .iter()
            .map(|c| format!("{:?} -> {:?}", c.old, c.new))
            .collect::<Vec<_>>()
            .join("; "),
        Call::ApplyPatch(patch) => patch.clone(),
        Call::Document(doc) => doc.render(hashedit_core::SnapshotTag(0xAAAA)),
    })
}

fn made(t: &Task, mistake: ReplaceMistake) -> ReplaceVariant {
    replace_variant(t, mistake, &mut Rng::new(3)).unwrap()
}

#[test]
fn the_oracle_lands_in_every_form() {
    let t = task(FILE, &FILE.replace("y > 10", "y >= 10"));
    let v = made(&t, ReplaceMistake::Oracle);
    assert_eq!(
        calls(&v, Form::StrReplace).unwrap(),
        r#""    if y > 10 {" -> "    if y >= 10 {""#
    );
    assert_eq!(
        calls(&v, Form::SubDocument).unwrap(),
        "[a.rs#AAAA]\nSUB 4:\n-    if y > 10 {\n+    if y >= 10 {\n"
    );
    assert_eq!(v.calls.len(), 4);
    let e = edit(&t);
    for call in v.calls.values() {
        e.check(call).unwrap();
    }
    assert_eq!(v.intended, t.target);
}

#[test]
fn mistakes_in_the_old_text() {
    let t = task(FILE, &FILE.replace("y > 10", "y >= 10"));
    assert_eq!(
        calls(&made(&t, ReplaceMistake::PartialLine), Form::StrReplace).unwrap(),
        r#"" >" -> " >=""#
    );
    assert_eq!(
        calls(&made(&t, ReplaceMistake::PartialLine), Form::ApplyPatch).unwrap(),
        "*** Begin Patch\n*** Update File: a.rs\n@@\n- >\n+ >=\n*** End Patch\n"
    );
    let drifted = made(&t, ReplaceMistake::DriftedIndentation);
    assert_eq!(drifted.form, "four-to-two-spaces");
    assert_eq!(
        calls(&drifted, Form::StrReplace).unwrap(),
        r#""  if y > 10 {" -> "  if y >= 10 {""#
    );
    assert_eq!(
        calls(
            &made(&t, ReplaceMistake::DriftedWhitespace),
            Form::SubDocument
        )
        .unwrap(),
        "[a.rs#AAAA]\nSUB 4:\n-    if  y > 10 {\n+    if y >= 10 {\n"
    );
    let numbered = made(&t, ReplaceMistake::PastedLineNumbers);
    assert_eq!(
        calls(&numbered, Form::StrReplace).unwrap(),
        r#""4:    if y > 10 {" -> "    if y >= 10 {""#
    );
    assert!(
        calls(&numbered, Form::ApplyPatch)
            .unwrap()
            .contains("\n 1:fn f(count: u32) -> u32 {\n 2:    let x = count + 1;\n 3:    let y = x * 2;\n-4:    if y > 10 {\n+    if y >= 10 {\n 5:        return y;\n")
    );
    // `let v = w;` is unique; `    }` alone is not.
    assert!(replace_variant(&t, ReplaceMistake::NonUniqueSnippet, &mut Rng::new(1)).is_none());
}

#[test]
fn a_snippet_found_twice() {
    let file = "if a {\n    b();\n    }\nif c {\n    d();\n    }\n";
    let t = task(file, &file.replacen("    }", "    };", 1));
    let v = made(&t, ReplaceMistake::NonUniqueSnippet);
    assert_eq!(
        calls(&v, Form::StrReplace).unwrap(),
        r#""    }" -> "    };""#
    );
    assert_eq!(
        calls(&v, Form::SubDocument).unwrap(),
        "[a.rs#AAAA]\nSUB:\n-    }\n+    };\n"
    );
}

#[test]
fn stale_files_mean_the_moved_edit_or_a_refusal() {
    let t = task(FILE, &FILE.replace("y > 10", "y >= 10"));
    for seed in 0..8 {
        let far = replace_variant(&t, ReplaceMistake::StaleFar, &mut Rng::new(seed)).unwrap();
        assert_ne!(far.live, t.original);
        assert_eq!(far.calls.len(), 4);
        let at = replace_variant(&t, ReplaceMistake::StaleAtEdit, &mut Rng::new(seed)).unwrap();
        assert_eq!(at.intended, at.live);
        let line = at.live.line(4);
        assert!(
            line == "    if2 y > 10 {" || line == "  if y > 10 {",
            "{line:?}"
        );
    }
    assert_eq!(renamed_word("  }"), None);
    assert_eq!(renamed_word("  ab"), Some("  ab2".into()));
    assert_eq!(dedented("\t\tx"), Some("\tx".into()));
    assert_eq!(dedented("x"), None);
    assert_eq!(doubled_space("    a = b"), Some("    a  = b".into()));
    assert_eq!(doubled_space("  }"), None);
}
