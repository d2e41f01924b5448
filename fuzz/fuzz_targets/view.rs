//! Fuzz target `view`: the property is `checks::view` (fuzz/checks/mod.rs),
//! which `cargo test` also runs on every input kept in fuzz/corpus/view/.
#![no_main]

#[path = "../checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::view(data));
