use super::*;

fn file(lang: Lang, path: &str, text: &str) -> SourceFile {
    SourceFile {
        path: path.into(),
        lang,
        text: text.into(),
    }
}

const RUST: &str = "fn f(count: u32, b: u32) -> bool {\n    if count == 0 {\n        return false;\n    }\n    let c = g(count, b);\n    let d = c + 1;\n    d > 2 && true\n}\n";

#[test]
fn every_mutation_finds_a_site_in_a_small_rust_file() {
    let f = file(Lang::Rust, "x.rs", RUST);
    for mutation in Mutation::ALL {
        if mutation == Mutation::NearDuplicateLine {
            continue;
        }
        let task = make_task(0, &f, mutation, &mut Rng::new(1))
            .unwrap_or_else(|| panic!("{}", mutation.name()));
        assert_ne!(task.original, task.target);
        assert!(!task.hunks.is_empty());
    }
}

#[test]
fn guard_removal_deletes_the_whole_if() {
    let f = file(Lang::Rust, "x.rs", RUST);
    let task = make_task(0, &f, Mutation::RemoveGuard, &mut Rng::new(1)).unwrap();
    assert_eq!(task.hunks, vec![Hunk::Delete { start: 2, end: 4 }]);
}

#[test]
fn python_and_typescript_sites() {
    let py = file(
        Lang::Python,
        "x.py",
        "def f(item, b):\n    if item is None:\n        return None\n    x = g(item, b)\n    y = x and True\n    return y + 1\n",
    );
    for mutation in [
        Mutation::OperatorSwap,
        Mutation::BooleanFlip,
        Mutation::OffByOneLiteral,
        Mutation::SwapArguments,
        Mutation::RemoveGuard,
        Mutation::RenameIdentifier,
    ] {
        assert!(
            make_task(0, &py, mutation, &mut Rng::new(2)).is_some(),
            "python {}",
            mutation.name()
        );
    }
    let ts = file(
        Lang::TypeScript,
        "x.ts",
        "export function f(total: number, b: number): boolean {\n  if (total === 0) return false;\n  const c = g(total, b);\n  const d = c - 1;\n  return d > 2 || true;\n}\n",
    );
    for mutation in [
        Mutation::OperatorSwap,
        Mutation::BooleanFlip,
        Mutation::OffByOneLiteral,
        Mutation::SwapArguments,
        Mutation::DeleteStatement,
        Mutation::SwapAdjacentLines,
        Mutation::RemoveGuard,
        Mutation::RenameIdentifier,
    ] {
        assert!(
            make_task(0, &ts, mutation, &mut Rng::new(3)).is_some(),
            "typescript {}",
            mutation.name()
        );
    }
}

#[test]
fn near_duplicate_targets_a_repeated_line() {
    let f = file(
        Lang::Rust,
        "x.rs",
        "fn f() {\n    let x = 1;\n    call(x);\n    call(x);\n    let y = 2;\n}\n",
    );
    let task = make_task(0, &f, Mutation::NearDuplicateLine, &mut Rng::new(4)).unwrap();
    assert_eq!(task.hunks.len(), 1);
}
