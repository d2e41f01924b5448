//! Fuzzes the edit document parser: any input must parse or fail with an
//! error, never panic, and an error must name a line of the document.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match hashedit_core::parse(&text) {
        Ok(doc) => assert!(!doc.sections.is_empty()),
        Err(e) => assert!(e.line <= text.lines().count() + 1),
    }
});
