//! Payload size in tokens, counted offline.
//!
//! `tiktoken-rs` compiles OpenAI's `o200k_base` ranks into the binary, so
//! counting needs no download. o200k is the tokenizer of current OpenAI
//! models; other vendors' tokenizers differ by some percent, not in kind.

/// Tokens of `text` under o200k_base (no special tokens).
pub fn o200k(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len()
}

#[cfg(test)]
mod tests;
