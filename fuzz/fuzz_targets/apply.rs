//! Fuzzes the planner and applier: the input is split into a file and a
//! document; whatever parses is lowered, planned and applied. Nothing may
//! panic, and an applied result must decode as text whose tag the preview
//! header shows.
#![no_main]

use hashedit_core::{Registers, Text};
use hashedit_core::stages::{lower, plan};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (file, doc) = data.split_at(split);
    let Ok(text) = Text::decode(file) else { return };
    let doc = String::from_utf8_lossy(doc.get(1..).unwrap_or_default());
    let Ok(parsed) = hashedit_core::parse(&doc) else { return };
    let mut registers = Registers::default();
    for section in &parsed.sections {
        let Ok(lowered) = lower(section, "f.rs", &text, None, &mut registers) else { continue };
        let Ok(planned) = plan(&lowered.hunks, &text) else { continue };
        let applied = planned.apply(&text);
        let result = Text::decode(&applied.bytes).expect("applied bytes are text");
        assert_eq!(result.has_bom(), text.has_bom());
    }
});
