//! The resolver as a whole: languages and paths, the line model, limits,
//! robustness on arbitrary input.

// Some helpers serve only the languages of some features.
#![cfg_attr(
    not(all(
        feature = "javascript",
        feature = "rust",
        feature = "json",
        feature = "c",
        feature = "cpp"
    )),
    allow(unused_imports, dead_code)
)]

mod common;

use std::time::Duration;

use hashedit_blocks::{Language, TreeSitterBlocks, language_for_path, supported_languages};
use hashedit_core::stages::NoBlocks;
use hashedit_core::{
    BLOCK_SUGGESTION_WINDOW, BlockIndex, BlockResolution, BlockResolver, LineRange, Unresolvable,
};
use proptest::prelude::*;

fn block(start: usize, end: usize) -> BlockResolution {
    BlockResolution::Block(LineRange { start, end })
}

const PARSE_ERROR: BlockResolution = BlockResolution::Unresolvable(Unresolvable::ParseError);
const BLANK: BlockResolution = BlockResolution::Unresolvable(Unresolvable::BlankLine);
const OUT_OF_RANGE: BlockResolution = BlockResolution::Unresolvable(Unresolvable::OutOfRange);

/// A file name for each language.
fn sample_path(language: Language) -> &'static str {
    match language {
        Language::Rust => "a.rs",
        Language::Python => "a.py",
        Language::JavaScript => "a.js",
        Language::TypeScript => "a.ts",
        Language::Tsx => "a.tsx",
        Language::Go => "a.go",
        Language::Java => "A.java",
        Language::C => "a.c",
        Language::Cpp => "a.cpp",
        Language::CSharp => "A.cs",
        Language::Ruby => "a.rb",
        Language::Bash => "a.sh",
        Language::Json => "a.json",
        Language::Toml => "a.toml",
        Language::Yaml => "a.yaml",
        Language::Markdown => "a.md",
        Language::Html => "a.html",
        Language::Css => "a.css",
        _ => unreachable!("a language without a sample path"),
    }
}

/// A small valid program in each language, to be mutated by the fuzz test.
fn seed(language: Language) -> &'static str {
    match language {
        Language::Rust => {
            "fn f(x: u8) -> u8 {\n    if x > 1 {\n        x\n    } else {\n        0\n    }\n}\n"
        }
        Language::Python => {
            "class A:\n    @d\n    def f(self):\n        return [\n            1,\n        ]\n"
        }
        Language::JavaScript | Language::TypeScript => {
            "const o = {\n  a: [1, 2],\n  f() {\n    return `x${1}`;\n  },\n};\n"
        }
        Language::Tsx => "export const A = () => (\n  <div>\n    {x && <b>y</b>}\n  </div>\n);\n",
        Language::Go => "func f() {\n\tfor i := range xs {\n\t\tg(i)\n\t}\n}\n",
        Language::Java => "@A\nclass B {\n    void f() {\n        while (x) {}\n    }\n}\n",
        Language::C | Language::Cpp => "#if X\nint f(void) {\n    return 0;\n}\n#endif\n",
        Language::CSharp => "[A]\nclass B\n{\n    void F()\n    {\n    }\n}\n",
        Language::Ruby => "def f\n  [1].each do |x|\n    p <<~T\n      y\n    T\n  end\nend\n",
        Language::Bash => "f() {\n  case $1 in\n    a) cat <<E\nx\nE\n    ;;\n  esac\n}\n",
        Language::Json => "{\n  \"a\": [\n    1\n  ],\n  \"b\": {}\n}\n",
        Language::Toml => "[a]\nx = [\n  1,\n]\n\n[[b]]\ny = { z = 1 }\n",
        Language::Yaml => "a:\n  - b: 1\n    c: |\n      t\n  - d\n",
        Language::Markdown => "# A\n\n- x\n  - y\n\n```\nz\n```\n\n## B\n> q\n",
        Language::Html => "<div>\n  <p>a</p>\n  <script>\n    x()\n  </script>\n</div>\n",
        Language::Css => "@media x {\n  a,\n  b {\n    c: d;\n  }\n}\n",
        _ => unreachable!("a language without a seed"),
    }
}

/// The contract every lookup must keep, whatever the input.
fn check_invariants(index: &dyn BlockIndex, line_count: usize) {
    for line in 0..=line_count + 1 {
        match index.block_at(line) {
            BlockResolution::Block(range) => {
                assert_eq!(range.start, line, "a block starts on its line");
                assert!(range.end > range.start, "a block spans lines");
                assert!(range.end <= line_count, "a block ends in the file");
            }
            BlockResolution::SingleLine => {}
            BlockResolution::Unresolvable(Unresolvable::OutOfRange) => {
                assert!(line == 0 || line > line_count);
            }
            BlockResolution::Unresolvable(why) => {
                assert!(line >= 1 && line <= line_count, "{why:?} on line {line}");
                assert_ne!(why, Unresolvable::UnknownLanguage);
            }
        }
        if let Some(range) = index.enclosing_block(line) {
            assert!(
                range.start < line && line <= range.end,
                "{range:?} encloses {line}"
            );
            assert!(range.start + BLOCK_SUGGESTION_WINDOW >= line);
            assert_eq!(index.block_at(range.start), BlockResolution::Block(range));
        }
        if let Some(range) = index.next_block(line) {
            assert!(range.start > line && range.start <= line + BLOCK_SUGGESTION_WINDOW);
            assert_eq!(index.block_at(range.start), BlockResolution::Block(range));
        }
    }
}

#[test]
fn unknown_languages_are_refused() {
    let blocks = TreeSitterBlocks::new();
    for path in [
        "notes.txt",
        "Makefile",
        "LICENSE",
        ".gitignore",
        "a.unknown",
        "",
    ] {
        assert!(
            matches!(
                blocks.index(path, "x\n"),
                Err(Unresolvable::UnknownLanguage)
            ),
            "{path}"
        );
    }
}

#[test]
fn languages_without_their_feature_are_unknown() {
    let blocks = TreeSitterBlocks::new();
    for &language in Language::all() {
        let result = blocks.index_as(language, "x\n");
        if language.is_supported() {
            assert!(result.is_ok(), "{language}");
            assert!(supported_languages().contains(&language));
        } else {
            assert_eq!(
                result.err(),
                Some(Unresolvable::UnknownLanguage),
                "{language}"
            );
            assert!(!supported_languages().contains(&language));
        }
        assert_eq!(language_for_path(sample_path(language)), Some(language));
    }
}

#[test]
fn resolver_is_shareable() {
    fn shareable<T: Send + Sync + 'static>() {}
    shareable::<TreeSitterBlocks>();
    let resolvers: [Box<dyn BlockResolver>; 2] =
        [Box::new(TreeSitterBlocks::new()), Box::new(NoBlocks)];
    assert!(matches!(
        resolvers[1].index("a.rs", "fn f() {}\n"),
        Err(Unresolvable::UnknownLanguage)
    ));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let index = resolvers[0].index("a.json", "{\n}\n");
                if Language::Json.is_supported() {
                    assert_eq!(index.unwrap().block_at(1), block(1, 2));
                }
            });
        }
    });
}

#[cfg(feature = "javascript")]
#[test]
fn crlf_text_resolves_like_lf_text() {
    let snippet = r#"
1-9   -     2-8   |function outer(a) {
2-8   1-9   3-5   |  const o = {
3-5   2-8   -     |    inner: [
S     3-5   -     |      1,
N     3-5   -     |    ],
_     2-8   -     |
S     2-8   -     |    b: 2,
N     2-8   -     |  };
N     1-9   -     |}
"#;
    let (rows, text) = common::parse(snippet);
    common::check_text("a.js", &rows, &text);
    common::check_text("a.js", &rows, &text.replace('\n', "\r\n"));
    // Without the final line break, and with a lone CR ending the last line.
    common::check_text("a.js", &rows, text.trim_end_matches('\n'));
    common::check_text("a.js", &rows, &format!("{}\r", text.trim_end_matches('\n')));
}

#[cfg(feature = "rust")]
#[test]
fn line_model_edges() {
    let blocks = TreeSitterBlocks::new();
    let index = blocks.index_path("a.rs", "").unwrap();
    assert_eq!(index.line_count(), 0);
    assert_eq!(index.block_at(1), OUT_OF_RANGE);
    assert_eq!(index.next_block(0), None);
    assert_eq!(index.enclosing_block(1), None);

    let index = blocks.index_path("a.rs", "\n").unwrap();
    assert_eq!(index.line_count(), 1);
    assert_eq!(index.block_at(1), BLANK);
    assert_eq!(index.block_at(2), OUT_OF_RANGE);

    // Spaces, tabs and a CR are blank.
    let index = blocks.index_path("a.rs", "fn f() {\n \t\n\r\n}\n").unwrap();
    assert_eq!(index.line_count(), 4);
    for line in 2..=3 {
        assert_eq!(index.block_at(line), BLANK, "line {line}");
        assert_eq!(
            index.enclosing_block(line),
            Some(LineRange { start: 1, end: 4 })
        );
    }
    assert_eq!(index.block_at(1), block(1, 4));
    // So is Unicode white space, even where the grammar rejects it.
    let index = blocks.index_path("a.rs", "\u{a0}\u{3000}\nx\n").unwrap();
    assert_eq!(index.block_at(1), BLANK);
    assert_eq!(index.next_block(usize::MAX), None);
    assert_eq!(index.block_at(usize::MAX), OUT_OF_RANGE);
}

#[cfg(feature = "json")]
#[test]
fn size_limit_leaves_the_file_unparsed() {
    let text = "{\n  \"a\": 1,\n\n  \"b\": [\n    2\n  ]\n}\n";
    let blocks = TreeSitterBlocks::new().with_max_bytes(text.len() - 1);
    let index = blocks.index_path("a.json", text).unwrap();
    assert!(!index.is_parsed());
    assert!(!index.has_syntax_errors());
    assert_eq!(index.block_at(1), PARSE_ERROR);
    assert_eq!(index.block_at(3), BLANK);
    assert_eq!(index.block_at(8), OUT_OF_RANGE);
    assert_eq!(index.enclosing_block(2), None);
    assert_eq!(index.next_block(2), None);
    check_invariants(&index, index.line_count());

    let blocks = TreeSitterBlocks::new().with_max_bytes(text.len());
    let index = blocks.index_path("a.json", text).unwrap();
    assert!(index.is_parsed());
    assert_eq!(index.block_at(1), block(1, 7));
    assert_eq!(index.block_at(4), block(4, 6));
}

#[cfg(feature = "javascript")]
#[test]
fn parse_timeout_cancels_the_parse() {
    let text = "function f() {\n  if (a) {\n    g(1, [2, 3], { k: 4 });\n  }\n}\n".repeat(20_000);
    // A zero budget: tree-sitter stops at its first check, so the index
    // holds no parse (a parse that ignored the budget would be complete).
    let blocks = TreeSitterBlocks::new().with_parse_timeout(Duration::ZERO);
    let index = blocks.index_path("big.js", &text).unwrap();
    assert!(!index.is_parsed());
    assert_eq!(index.block_at(1), PARSE_ERROR);
    assert_eq!(index.next_block(1), None);

    let index = TreeSitterBlocks::new().index_path("big.js", &text).unwrap();
    assert!(index.is_parsed());
    assert_eq!(index.block_at(99_996), block(99_996, 100_000));
    assert_eq!(
        index.enclosing_block(99_998),
        Some(LineRange {
            start: 99_997,
            end: 99_999
        })
    );
}

#[cfg(all(feature = "c", feature = "cpp"))]
#[test]
fn headers_are_c_unless_only_cpp_parses_them() {
    let blocks = TreeSitterBlocks::new();
    let c = "#ifndef A_H\n#define A_H\nstruct a {\n    int x;\n};\nint f(void);\n#endif\n";
    let index = blocks.index_path("include/a.h", c).unwrap();
    assert_eq!(index.language(), Language::C);
    assert_eq!(index.block_at(3), block(3, 5));

    let cpp =
        "#pragma once\nnamespace n {\nclass A {\npublic:\n    virtual ~A() = default;\n};\n}\n";
    let index = blocks.index_path("include/a.h", cpp).unwrap();
    assert_eq!(index.language(), Language::Cpp);
    assert!(!index.has_syntax_errors());
    assert_eq!(index.block_at(2), block(2, 7));
    assert_eq!(index.block_at(3), block(3, 6));

    // Broken either way: stays C, and the broken block is unresolvable.
    let broken = "int f(void) {\n    return (;\n}\n";
    let index = blocks.index_path("b.h", broken).unwrap();
    assert_eq!(index.language(), Language::C);
    assert_eq!(index.block_at(1), PARSE_ERROR);
}

#[cfg(feature = "json")]
#[test]
fn deep_nesting_is_handled() {
    let blocks = TreeSitterBlocks::new();
    let depth = 20_000;
    // One line.
    let text = format!("{}{}\n", "[".repeat(depth), "]".repeat(depth));
    let index = blocks.index_path("deep.json", &text).unwrap();
    assert_eq!(index.block_at(1), BlockResolution::SingleLine);
    // One bracket a line.
    let text = format!("{}{}", "[\n".repeat(depth), "]\n".repeat(depth));
    let index = blocks.index_path("deep.json", &text).unwrap();
    assert_eq!(index.block_at(1), block(1, 2 * depth));
    assert_eq!(index.block_at(depth), block(depth, depth + 1));
    assert_eq!(
        index.enclosing_block(depth + 1),
        Some(LineRange {
            start: depth,
            end: depth + 1
        })
    );
    assert_eq!(
        index.next_block(depth - 1),
        Some(LineRange {
            start: depth,
            end: depth + 1
        })
    );
    assert_eq!(
        index.block_at(depth + 1),
        BlockResolution::Unresolvable(Unresolvable::NotABlockStart)
    );
    // Unclosed.
    let text = "[\n".repeat(depth);
    let index = blocks.index_path("deep.json", &text).unwrap();
    assert_eq!(index.block_at(1), PARSE_ERROR);
    assert_eq!(index.block_at(depth), PARSE_ERROR);
}

#[test]
fn every_language_copes_with_edge_texts() {
    let blocks = TreeSitterBlocks::new();
    let texts = [
        "",
        "\n",
        "\r\n\r\n",
        "\0",
        "\u{feff}x",
        "}\n)\n]\n",
        "{\n(\n[\n",
        "\t\t\n  x\n",
        "é\u{2028}ü\n\u{200b}",
        "\"\n'\n`\n",
        "<<<<>>>>\n",
    ];
    for &language in supported_languages() {
        for text in texts {
            let index = blocks.index_as(language, text).unwrap();
            check_invariants(&index, index.line_count());
        }
    }
}

/// Snippet mutations: delete, insert or replace one short span.
fn mutate(seed: &str, at: usize, remove: usize, insert: &str) -> String {
    let mut cut = at % (seed.len() + 1);
    while !seed.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut end = (cut + remove).min(seed.len());
    while !seed.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{}{}", &seed[..cut], insert, &seed[end..])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "[a-z0-9_ {}()\\[\\]<>:;,.=\"'`#@$&|*/\\\\\t\r\n-]{0,160}") {
        let blocks = TreeSitterBlocks::new();
        for &language in supported_languages() {
            let index = blocks.index_as(language, &text).unwrap();
            check_invariants(&index, index.line_count());
        }
    }

    #[test]
    fn arbitrary_unicode_never_panics(text in "\\PC{0,80}", newlines in prop::collection::vec(0usize..80, 0..6)) {
        let mut text: Vec<char> = text.chars().collect();
        for at in newlines {
            text.insert(at.min(text.len()), '\n');
        }
        let text: String = text.into_iter().collect();
        let blocks = TreeSitterBlocks::new();
        for &language in supported_languages() {
            let index = blocks.index_as(language, &text).unwrap();
            check_invariants(&index, index.line_count());
        }
    }

    #[test]
    fn mutated_snippets_keep_the_contract(
        at in 0usize..400,
        remove in 0usize..6,
        insert in "[ {}()\\[\\]<>:;\"'\n\t#a-z]{0,4}",
    ) {
        let blocks = TreeSitterBlocks::new();
        for &language in supported_languages() {
            let text = mutate(seed(language), at, remove, &insert);
            let index = blocks.index_as(language, &text).unwrap();
            check_invariants(&index, index.line_count());
        }
    }

    #[test]
    fn line_count_follows_the_line_model(text in "[a\r\n]{0,12}") {
        let blocks = TreeSitterBlocks::new();
        for &language in supported_languages() {
            let index = blocks.index_as(language, &text).unwrap();
            prop_assert_eq!(index.line_count(), hashedit_core::stages::split_line_texts(&text).len());
        }
    }
}
