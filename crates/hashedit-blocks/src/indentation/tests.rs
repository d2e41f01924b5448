use super::python_indentation_error as check;

#[test]
fn valid_python_has_no_error() {
    let text = "import os\n\n\ndef f(x):\n    if x:\n        return 1\n    # a comment\n\n    \
                y = [\n        1,\n  2,\n    ]\n    s = \"\"\"\nnot: code\n  at all\n\"\"\"\n    \
                return y\n\n\nclass A:\n    def g(self): return 2\n\n    @property\n    def h(self):\n\
                \x20       pass\n";
    assert_eq!(check(text), None, "{text}");
    assert_eq!(check("x = 1 + \\\n      2\nif x: pass\n"), None);
    assert_eq!(check("d = {'a': 1,\n     'b': 2}\nlambda: 0\n"), None);
    assert_eq!(check("s = 'a:'\nt = \"#:\"  # comment:\n"), None);
    assert_eq!(check("match p:\n    case 1:\n        pass\n"), None);
}

#[test]
fn a_block_without_a_body_is_an_error() {
    // The guard's case: the early return of an `if` deleted.
    assert_eq!(
        check(
            "def f(s):\n    if s is None:\n    try:\n        pass\n    except E:\n        pass\n"
        ),
        Some(3)
    );
    assert_eq!(check("def f():\n    pass\nif x:\n"), Some(3));
    assert_eq!(check("if x:  # why\n\n# only a comment\ny = 1\n"), Some(4));
}

#[test]
fn an_unexpected_indent_or_a_stray_dedent_is_an_error() {
    // The header of a block deleted, its body kept.
    assert_eq!(check("def f():\n    x = 1\n        return x\n"), Some(3));
    assert_eq!(
        check("def f():\n    if a:\n        b()\n      c()\n"),
        Some(4)
    );
    assert_eq!(check("  x = 1\n"), Some(1));
}
