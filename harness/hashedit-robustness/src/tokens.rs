//! Payload size in tokens, counted offline.
//!
//! `tiktoken-rs` compiles OpenAI's `o200k_base` and `cl100k_base` ranks
//! into the binary, so counting needs no download. o200k is the tokenizer
//! of current OpenAI models, cl100k of the GPT-4 generation; other
//! vendors' tokenizers differ by some percent, not in kind. Text is
//! counted as ordinary text: special-token spellings in it are not
//! special.

/// A tokenizer the benchmarks count with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tokenizer {
    /// `o200k_base`.
    O200k,
    /// `cl100k_base`.
    Cl100k,
}

impl Tokenizer {
    /// Both, in table order.
    pub const ALL: [Tokenizer; 2] = [Tokenizer::O200k, Tokenizer::Cl100k];

    /// `o200k` or `cl100k`.
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::O200k => "o200k",
            Tokenizer::Cl100k => "cl100k",
        }
    }

    /// Tokens of `text`.
    pub fn count(self, text: &str) -> usize {
        match self {
            Tokenizer::O200k => tiktoken_rs::o200k_base_singleton().count_ordinary(text),
            Tokenizer::Cl100k => tiktoken_rs::cl100k_base_singleton().count_ordinary(text),
        }
    }
}

/// Tokens of `text` under o200k_base (no special tokens).
pub fn o200k(text: &str) -> usize {
    Tokenizer::O200k.count(text)
}

#[cfg(test)]
mod tests;
