//! Tests of parallel lines: siblings, and the edits that are not.

use super::are_parallel;

#[test]
fn keys_of_one_object_are_parallel() {
    assert!(are_parallel(
        "addUFlag: (node) => fixer.insertTextAfter(node, \"u\"),",
        "  addVFlag: (node) => fixer.insertTextAfter(node, \"v\"),",
    ));
}

#[test]
fn typedef_imports_of_one_file_are_parallel() {
    assert!(are_parallel(
        " * @typedef {import('./parser').Parser} Parser",
        " * @typedef {import('./scanner').Scanner} Scanner",
    ));
}

#[test]
fn consecutive_imports_and_declarations_are_parallel() {
    assert!(are_parallel(
        "import { readFile } from 'node:fs';",
        "import { writeFile } from 'node:fs';"
    ));
    assert!(are_parallel("const WIDTH = 80;", "const HEIGHT = 24;"));
    assert!(are_parallel("self.alpha = alpha", "self.beta = beta"));
}

#[test]
fn an_edited_value_operator_or_literal_is_not_parallel() {
    // A number, a literal word, an operator word or mark changed.
    assert!(!are_parallel("let count = 30;", "let count = 31;"));
    assert!(!are_parallel("enabled: true,", "enabled: false,"));
    assert!(!are_parallel("if a and b:", "if a or b:"));
    assert!(!are_parallel("if a == b {", "if a != b {"));
    assert!(!are_parallel("value: None,", "value: other,"));
}

#[test]
fn a_rename_is_not_parallel() {
    assert!(!are_parallel(
        "let total = count + 1;",
        "let total = count_next + 1;"
    ));
    assert!(!are_parallel("return itemNext;", "return item;"));
}

#[test]
fn lines_of_another_shape_or_equal_lines_are_not_parallel() {
    assert!(!are_parallel("foo(a, b)", "foo(a, b, c)"));
    assert!(!are_parallel("x = compute(y)", "x = compute(y)"));
    assert!(!are_parallel("x = compute(y)", "x  =  compute( y )"));
}
