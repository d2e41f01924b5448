//! Fuzz target `parse`: the property is `checks::parse` (fuzz/checks/mod.rs),
//! which `cargo test` also runs on every input kept in fuzz/corpus/parse/.
#![no_main]

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::parse(data));
