use super::*;
use crate::hunks::diff;
use crate::rng::Rng;

const TAG: SnapshotTag = SnapshotTag(0x1234);

/// The edit `old` → `new` of `a.rs` (owning its parts).
struct Owned {
    old: Lines,
    new: Lines,
    hunks: Vec<Hunk>,
}

impl Owned {
    fn new(old: &str, new: &str) -> Owned {
        let (old, new) = (Lines::parse(old), Lines::parse(new));
        let hunks = diff(&old, &new);
        Owned { old, new, hunks }
    }

    fn edit(&self) -> Edit<'_> {
        Edit {
            path: "a.rs",
            old: &self.old,
            new: &self.new,
            hunks: &self.hunks,
        }
    }
}

const RUST: &str = "fn f(count: u32) -> bool {\n    if count > 10 {\n        return g(count);\n    }\n    true\n}\n";

#[test]
fn one_operator_in_every_form() {
    let e = Owned::new(RUST, &RUST.replace("count > 10", "count >= 10"));
    let e = e.edit();
    assert_eq!(
        e.put_cut().render(TAG),
        "[a.rs#1234]\nPUT 2:\n+    if count >= 10 {\n"
    );
    let minimal = e.sub(SubStyle::Minimal).unwrap();
    assert_eq!(minimal.render(TAG), "[a.rs#1234]\nSUB 2:\n->\n+>=\n");
    assert_eq!(
        e.sub(SubStyle::WholeLines).unwrap().render(TAG),
        "[a.rs#1234]\nSUB 2:\n-    if count > 10 {\n+    if count >= 10 {\n"
    );
    // `->` in line 1 makes `>` alone occur twice in the file.
    assert_eq!(
        e.str_replace(OldString::Minimal),
        [Replace {
            old: " >".into(),
            new: " >=".into()
        }]
    );
    assert_eq!(
        e.str_replace(OldString::WholeLines),
        [Replace {
            old: "    if count > 10 {".into(),
            new: "    if count >= 10 {".into()
        }]
    );
    assert_eq!(
        e.apply_patch().unwrap(),
        "*** Begin Patch\n*** Update File: a.rs\n@@\n fn f(count: u32) -> bool {\n-    if count > 10 {\n+    if count >= 10 {\n         return g(count);\n     }\n     true\n*** End Patch\n"
    );
    assert_eq!(
        e.unified_diff(),
        "--- a/a.rs\n+++ b/a.rs\n@@ -1,5 +1,5 @@\n fn f(count: u32) -> bool {\n-    if count > 10 {\n+    if count >= 10 {\n         return g(count);\n     }\n     true\n"
    );
    for form in [
        Form::Document,
        Form::SubDocument,
        Form::StrReplace,
        Form::ApplyPatch,
    ] {
        e.check(&e.call(form).unwrap()).unwrap();
    }
    e.check(&Call::Document(minimal)).unwrap();
    assert_eq!(
        arguments("a.rs", &e.call(Form::StrReplace).unwrap(), TAG),
        [
            json!({"path": "a.rs", "old_string": "    if count > 10 {", "new_string": "    if count >= 10 {"})
        ]
    );
    assert_eq!(
        arguments("a.rs", &e.call(Form::Document).unwrap(), TAG),
        [json!({"input": "[a.rs#1234]\nPUT 2:\n+    if count >= 10 {\n"})]
    );
}

#[test]
fn inserts_deletes_and_the_final_newline() {
    let old = "a\nb\n\nc\nd\n";
    let new = "top\na\nb\nc\nd\nend";
    let e = Owned::new(old, new);
    let e = e.edit();
    assert_eq!(
        e.put_cut().render(TAG),
        "[a.rs#1234]\nPUT <1:\n+top\nCUT 3\nPUT >5:\n+end\nEOF NO NEWLINE\n"
    );
    // An insert sits on a word of the line it meets; the empty line 3
    // goes as the line break between it and line 4 (old text "\n", lines
    // 3 and 4 become "" + "" + "c").
    assert_eq!(
        e.sub(SubStyle::Minimal).unwrap().render(TAG),
        "[a.rs#1234]\nSUB 1:\n-a\n+top\n+a\nSUB 3.=4:\n-\n-\nSUB 5:\n-d\n+d\n+end\nEOF NO NEWLINE\n"
    );
    assert_eq!(
        e.sub(SubStyle::WholeLines).unwrap().render(TAG),
        "[a.rs#1234]\nSUB 1:\n-a\n+top\n+a\nSUB 3.=4:\n-\n-c\n+c\nSUB 5:\n-d\n+d\n+end\nEOF NO NEWLINE\n"
    );
    assert_eq!(
        apply_patch::apply_patch("a.rs", &e.old.clone(), e.new, e.hunks),
        None
    );
    assert_eq!(
        e.str_replace(OldString::Minimal),
        [
            Replace {
                old: "a".into(),
                new: "top\na".into()
            },
            Replace {
                old: "\nc".into(),
                new: "c".into()
            },
            Replace {
                old: "d".into(),
                new: "d\nend".into()
            },
            Replace {
                old: "end\n".into(),
                new: "end".into()
            },
        ]
    );
    for form in [Form::Document, Form::SubDocument, Form::StrReplace] {
        e.check(&e.call(form).unwrap()).unwrap();
    }
}

#[test]
fn a_check_names_what_went_wrong() {
    let e = Owned::new("a\nb\n", "a\nB\n");
    let e = e.edit();
    let wrong = Call::StrReplace(vec![Replace {
        old: "a".into(),
        new: "A".into(),
    }]);
    assert_eq!(
        e.check(&wrong),
        Err("it lands, but not on the author's bytes".into())
    );
    let missing = Call::StrReplace(vec![Replace {
        old: "x".into(),
        new: "y".into(),
    }]);
    assert_eq!(
        e.check(&missing),
        Err("call 1 does not land: NotFound".into())
    );
    let patch = Call::ApplyPatch("*** Begin Patch\n*** End Patch\n".into());
    assert!(
        e.check(&patch)
            .unwrap_err()
            .starts_with("the patch does not land")
    );
}

/// A line of a generated file: few shapes, so lines and words repeat.
fn line(rng: &mut Rng) -> String {
    let words = ["x", "y", "count", "}", "{", "return x;", "  ", "a = b", ""];
    let n = rng.below(4);
    (0..n)
        .map(|_| *rng.pick(&words))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every form of seeded random edits of small files full of repeats lands
/// exactly by its reference reading.
#[test]
fn every_form_of_random_edits_lands() {
    let mut rng = Rng::new(7);
    for case in 0..1500 {
        let len = rng.between(1, 12);
        let old: Vec<String> = (0..len).map(|_| line(&mut rng)).collect();
        let mut new = old.clone();
        for _ in 0..rng.between(1, 4) {
            let at = rng.below(new.len() + 1);
            match rng.below(3) {
                0 if at < new.len() => {
                    new.remove(at);
                }
                1 if at < new.len() => new[at] = format!("{} z", new[at]),
                _ => new.insert(at, line(&mut rng)),
            }
        }
        let join = |lines: &[String], nl: bool| {
            let mut t = lines.join("\n");
            if nl && !lines.is_empty() {
                t.push('\n');
            }
            t
        };
        let old_text = join(&old, rng.percent(80));
        let new_text = join(&new, rng.percent(80));
        let (o, n) = (Lines::parse(&old_text), Lines::parse(&new_text));
        if o.is_empty() || n.is_empty() || o == n {
            continue;
        }
        let owned = Owned::new(&old_text, &new_text);
        let e = owned.edit();
        let what = format!("case {case}: {old_text:?} -> {new_text:?}");
        // SUB needs some text to find; V4A cannot move the final newline.
        assert_eq!(
            e.sub(SubStyle::Minimal).is_none(),
            o.lines.join("\n").is_empty(),
            "{what}"
        );
        assert_eq!(
            e.apply_patch().is_none(),
            o.final_newline != n.final_newline,
            "{what}"
        );
        for form in [
            Form::Document,
            Form::SubDocument,
            Form::StrReplace,
            Form::ApplyPatch,
        ] {
            if let Some(call) = e.call(form) {
                e.check(&call)
                    .unwrap_or_else(|err| panic!("{form:?} {what}: {err}\n{call:?}"));
            } else {
                assert!(
                    matches!(form, Form::SubDocument | Form::ApplyPatch),
                    "{form:?} {what}"
                );
            }
        }
        for call in [
            e.sub(SubStyle::Minimal).map(Call::Document),
            Some(Call::StrReplace(e.str_replace(OldString::Minimal))),
            Some(Call::Document(e.cheapest(|op| op.rows.len()))),
        ]
        .into_iter()
        .flatten()
        {
            e.check(&call)
                .unwrap_or_else(|err| panic!("{what}: {err}\n{call:?}"));
        }
    }
}
