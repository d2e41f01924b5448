use super::*;

fn call(old: &str, new: &str) -> Replace {
    Replace {
        old: old.into(),
        new: new.into(),
    }
}

#[test]
fn calls_apply_one_after_another() {
    assert_eq!(
        apply_calls("ab", &[call("a", "x"), call("xb", "y")]),
        Ok("y".to_string())
    );
    assert_eq!(
        apply_calls("aa", &[call("a", "b")]),
        Err((0, ReplaceError::Ambiguous))
    );
    assert_eq!(
        apply_calls("ab", &[call("a", "x"), call("a", "y")]),
        Err((1, ReplaceError::NotFound))
    );
    assert_eq!(
        apply_calls("ab", &[call("", "y")]),
        Err((0, ReplaceError::NothingToDo))
    );
    assert_eq!(
        apply_calls("ab", &[call("a", "a")]),
        Err((0, ReplaceError::NothingToDo))
    );
}

#[test]
fn a_later_call_sees_the_earlier_ones_change() {
    // Renaming `f` to `f_next` twice: the second `f(` must not be found
    // inside the first call's new text.
    let old = Lines::parse("f(1);\ng();\nf(2);\n");
    let new = Lines::parse("f_next(1);\ng();\nf_next(2);\n");
    let hunks = crate::hunks::diff(&old, &new);
    let calls = str_replace_calls(&old, &new, &hunks, OldString::Minimal);
    assert_eq!(calls, [call("f(1", "f_next(1"), call("f(", "f_next(")]);
    assert_eq!(apply_calls(&old.text(), &calls), Ok(new.text()));
}
