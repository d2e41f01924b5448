use super::*;

#[test]
fn counts_offline_with_both_vocabularies() {
    assert_eq!(o200k(""), 0);
    let doc = "[src/lib.rs#1A2B]\nPUT 12:\n+    let x = 1;\n";
    let counts: Vec<usize> = Tokenizer::ALL.iter().map(|t| t.count(doc)).collect();
    assert_eq!(counts, [21, 21]);
    // Special-token spellings are text.
    assert_eq!(Tokenizer::Cl100k.count("<|endoftext|>"), 7);
}
