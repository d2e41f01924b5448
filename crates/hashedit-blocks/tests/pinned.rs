//! The examples pinned by the specification (oh-my-pi's behaviour), and
//! the blocks the landing-shift cases of §7 (cases 49 and 50) resolve.

// Some helpers serve only the languages of some features.
#![cfg_attr(
    not(all(feature = "javascript", feature = "python", feature = "markdown")),
    allow(unused_imports, dead_code)
)]

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::{BlockResolution, BlockResolver, LineRange, Unresolvable};

fn block(start: usize, end: usize) -> BlockResolution {
    BlockResolution::Block(LineRange { start, end })
}

const NOT_A_START: BlockResolution = BlockResolution::Unresolvable(Unresolvable::NotABlockStart);
const BLANK: BlockResolution = BlockResolution::Unresolvable(Unresolvable::BlankLine);

#[cfg(feature = "javascript")]
#[test]
fn javascript_function_and_if() {
    let blocks = TreeSitterBlocks::new();
    let index = blocks
        .index("x.js", "function x() {\n  if (y) {\n  }\n}\n")
        .unwrap();
    assert_eq!(index.block_at(1), block(1, 4));
    assert_eq!(index.block_at(2), block(2, 3));
    assert_eq!(index.block_at(3), NOT_A_START);
    assert_eq!(index.block_at(4), NOT_A_START);
    assert_eq!(
        index.enclosing_block(3),
        Some(LineRange { start: 2, end: 3 })
    );
    assert_eq!(index.next_block(1), Some(LineRange { start: 2, end: 3 }));
}

#[cfg(feature = "python")]
#[test]
fn python_def_through_last_body_line() {
    let blocks = TreeSitterBlocks::new();
    let index = blocks
        .index("f.py", "def f():\n    a = 1\n    return a\n\nx = 2\n")
        .unwrap();
    assert_eq!(index.block_at(1), block(1, 3));
    assert_eq!(index.block_at(2), BlockResolution::SingleLine);
    assert_eq!(index.block_at(4), BLANK);
    assert_eq!(index.block_at(5), BlockResolution::SingleLine);
    // The single-line statements suggest the def around them.
    assert_eq!(
        index.enclosing_block(2),
        Some(LineRange { start: 1, end: 3 })
    );
    assert_eq!(index.enclosing_block(5), None);
}

#[cfg(feature = "markdown")]
#[test]
fn markdown_sections() {
    let text = "# T\n\n## A\ntext\n\n### A1\nmore\n\n## B\nb\n";
    let blocks = TreeSitterBlocks::new();
    let index = blocks.index("README.md", text).unwrap();
    // A section runs through its subsections and its trailing blank line,
    // up to the next heading of the same or a higher level.
    assert_eq!(index.block_at(1), block(1, 10));
    assert_eq!(index.block_at(2), BLANK);
    assert_eq!(index.block_at(3), block(3, 8));
    assert_eq!(index.block_at(4), BlockResolution::SingleLine);
    assert_eq!(index.block_at(6), block(6, 8));
    assert_eq!(index.block_at(9), block(9, 10));
    // A blank line suggests the next block below it.
    assert_eq!(index.next_block(2), Some(LineRange { start: 3, end: 8 }));
    assert_eq!(
        index.enclosing_block(7),
        Some(LineRange { start: 6, end: 8 })
    );
}

#[cfg(feature = "markdown")]
#[test]
fn markdown_section_without_final_newline_and_with_trailing_blanks() {
    let blocks = TreeSitterBlocks::new();
    let index = blocks.index("a.md", "## A\ntext").unwrap();
    assert_eq!(index.block_at(1), block(1, 2));
    let index = blocks.index("a.md", "## A\ntext\n\n\n").unwrap();
    assert_eq!(index.block_at(1), block(1, 4));
    let index = blocks.index("a.md", "## A\n").unwrap();
    assert_eq!(index.block_at(1), BlockResolution::SingleLine);
}

/// Case 49's function and the inner `if` whose closer the outward shift
/// walks past.
#[cfg(feature = "javascript")]
#[test]
fn outward_shift_case_blocks() {
    let text = "function f() {\n    if (x) {\n        a();\n    }\n    b();\n}\n";
    let blocks = TreeSitterBlocks::new();
    let index = blocks.index("f.js", text).unwrap();
    assert_eq!(index.block_at(1), block(1, 6));
    assert_eq!(index.block_at(2), block(2, 4));
    assert_eq!(index.block_at(3), BlockResolution::SingleLine);
    assert_eq!(index.block_at(4), NOT_A_START);
    assert_eq!(index.block_at(5), BlockResolution::SingleLine);
    assert_eq!(index.block_at(6), NOT_A_START);
}

/// Case 50: the `afterEach(() => {` … `});` block resolves to lines 2–4.
#[cfg(feature = "javascript")]
#[test]
fn inward_shift_case_block() {
    let text = "describe(\"d\", () => {\n    afterEach(() => {\n        reset();\n    });\n});\n";
    let blocks = TreeSitterBlocks::new();
    let index = blocks.index("d.test.js", text).unwrap();
    assert_eq!(index.block_at(2), block(2, 4));
    assert_eq!(index.block_at(4), NOT_A_START);
    assert_eq!(index.block_at(1), block(1, 5));
}
