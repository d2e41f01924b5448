use super::*;

#[test]
fn maps_extensions_and_names() {
    let cases = [
        ("a.rs", Some(Language::Rust)),
        ("dir.v2/a.py", Some(Language::Python)),
        ("a.pyi", Some(Language::Python)),
        ("a.js", Some(Language::JavaScript)),
        ("a.jsx", Some(Language::JavaScript)),
        ("a.mjs", Some(Language::JavaScript)),
        ("a.cjs", Some(Language::JavaScript)),
        ("a.ts", Some(Language::TypeScript)),
        ("types.d.ts", Some(Language::TypeScript)),
        ("a.mts", Some(Language::TypeScript)),
        ("a.cts", Some(Language::TypeScript)),
        ("a.tsx", Some(Language::Tsx)),
        ("a.go", Some(Language::Go)),
        ("A.java", Some(Language::Java)),
        ("a.c", Some(Language::C)),
        ("a.h", Some(Language::C)),
        ("a.cc", Some(Language::Cpp)),
        ("a.cpp", Some(Language::Cpp)),
        ("a.cxx", Some(Language::Cpp)),
        ("a.hpp", Some(Language::Cpp)),
        ("a.cs", Some(Language::CSharp)),
        ("a.rb", Some(Language::Ruby)),
        ("Rakefile", Some(Language::Ruby)),
        ("a.sh", Some(Language::Bash)),
        ("a.bash", Some(Language::Bash)),
        ("/home/u/.bashrc", Some(Language::Bash)),
        (".zshrc", Some(Language::Bash)),
        ("zshrc", Some(Language::Bash)),
        (".profile", Some(Language::Bash)),
        ("a.json", Some(Language::Json)),
        ("Cargo.toml", Some(Language::Toml)),
        ("Cargo.lock", Some(Language::Toml)),
        ("a.yml", Some(Language::Yaml)),
        ("a.yaml", Some(Language::Yaml)),
        ("README.md", Some(Language::Markdown)),
        ("a.markdown", Some(Language::Markdown)),
        ("a.html", Some(Language::Html)),
        ("a.htm", Some(Language::Html)),
        ("a.css", Some(Language::Css)),
        (r"C:\src\Main.RS", Some(Language::Rust)),
        ("a.JSON", Some(Language::Json)),
        ("notes.txt", None),
        ("Makefile", None),
        (".gitignore", None),
        ("", None),
        ("trailing.", None),
        ("dir/", None),
    ];
    for (path, want) in cases {
        assert_eq!(language_for_path(path), want, "{path}");
    }
}

#[test]
fn supported_languages_have_grammars() {
    for &language in Language::all() {
        assert_eq!(
            language.is_supported(),
            language.grammar().is_some(),
            "{language}"
        );
    }
    for &language in supported_languages() {
        let grammar = language.grammar().expect("compiled in");
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&grammar)
            .expect("ABI compatible with the tree-sitter runtime");
    }
}

#[test]
fn names_are_distinct() {
    let mut names: Vec<&str> = Language::all().iter().map(|l| l.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Language::all().len());
}
