//! Fuzz target `apply`: the property is `checks::apply` (fuzz/checks/mod.rs),
//! which `cargo test` also runs on every input kept in fuzz/corpus/apply/.
#![no_main]

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::apply(data));
