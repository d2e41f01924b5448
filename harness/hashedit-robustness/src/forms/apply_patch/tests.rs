use super::*;

fn lines(n: usize) -> Lines {
    Lines::parse(&(1..=n).map(|i| format!("l{i}\n")).collect::<String>())
}

#[test]
fn chunks_merge_when_their_context_touches_and_grow_until_unique() {
    let old = lines(20);
    let mut new = old.clone();
    new.lines[4] = "five".into();
    new.lines[11] = "twelve".into();
    new.lines[19] = "twenty".into();
    let hunks = crate::hunks::diff(&old, &new);
    let patch = apply_patch("f", &old, &new, &hunks).unwrap();
    assert_eq!(
        patch,
        "*** Begin Patch\n*** Update File: f\n@@\n l2\n l3\n l4\n-l5\n+five\n l6\n l7\n l8\n l9\n l10\n l11\n-l12\n+twelve\n l13\n l14\n l15\n@@\n l17\n l18\n l19\n-l20\n+twenty\n*** End Patch\n"
    );
    assert_eq!(apply_patch_to(&patch, "f", &old), Ok(new.clone()));
    // Repeated blocks: the context grows past them.
    let old = Lines::parse("x\ny\nx\ny\nx\nend\n");
    let new = Lines::parse("x\ny\nx\ny\nX\nend\n");
    let hunks = crate::hunks::diff(&old, &new);
    let patch = apply_patch("f", &old, &new, &hunks).unwrap();
    assert_eq!(
        patch,
        "*** Begin Patch\n*** Update File: f\n@@\n y\n x\n y\n-x\n+X\n end\n*** End Patch\n"
    );
}

#[test]
fn what_the_strict_reading_refuses() {
    let old = lines(3);
    let patch =
        |body: &str| format!("*** Begin Patch\n*** Update File: f\n@@\n{body}*** End Patch\n");
    assert_eq!(
        apply_patch_to(&patch("-l9\n+x\n"), "f", &old),
        Err(PatchError::NotFound(0))
    );
    let twice = Lines::parse("a\na\n");
    assert_eq!(
        apply_patch_to(&patch("-a\n+b\n"), "f", &twice),
        Err(PatchError::Ambiguous(0))
    );
    assert!(matches!(
        apply_patch_to(&patch("l1\n"), "f", &old),
        Err(PatchError::Malformed(_))
    ));
    assert!(matches!(
        apply_patch_to(
            "*** Begin Patch\n*** Update File: g\n@@\n-l1\n*** End Patch\n",
            "f",
            &old
        ),
        Err(PatchError::Malformed(_))
    ));
    let out_of_order =
        "*** Begin Patch\n*** Update File: f\n@@\n-l3\n+x\n@@\n-l1\n+y\n*** End Patch\n";
    assert_eq!(
        apply_patch_to(out_of_order, "f", &old),
        Err(PatchError::OutOfOrder(1))
    );
}

#[test]
fn a_context_line_that_reads_as_a_marker_cannot_be_written() {
    let old = Lines::parse("a\n *** End Patch\nb\n");
    let new = Lines::parse("A\n *** End Patch\nb\n");
    let hunks = crate::hunks::diff(&old, &new);
    assert_eq!(apply_patch("f", &old, &new, &hunks), None);
}
