//! Prints how every line of a file resolves as a block anchor, with the
//! suggestions an edit error would offer.
//!
//! `cargo run -p hashedit-blocks --example blocks --all-features -- FILE`

use hashedit_blocks::TreeSitterBlocks;
use hashedit_core::{BlockIndex, BlockResolution};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: blocks FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("{path}: {err}");
            std::process::exit(1);
        }
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let index = match TreeSitterBlocks::new().index_path(&path, text) {
        Ok(index) => index,
        Err(err) => {
            eprintln!("{path}: {err}");
            std::process::exit(1);
        }
    };
    println!(
        "# {path}: {} lines, {}, parsed: {}, syntax errors: {}",
        index.line_count(),
        index.language(),
        index.is_parsed(),
        index.has_syntax_errors()
    );
    for (n, line) in hashedit_core::stages::split_line_texts(text)
        .iter()
        .enumerate()
    {
        let n = n + 1;
        let resolution = match index.block_at(n) {
            BlockResolution::Block(range) => format!("{}-{}", range.start, range.end),
            BlockResolution::SingleLine => "single".to_owned(),
            BlockResolution::Unresolvable(why) => format!("({why:?})"),
        };
        let around = |range: Option<hashedit_core::LineRange>| {
            range.map_or("-".to_owned(), |r| format!("{}-{}", r.start, r.end))
        };
        println!(
            "{n:4} {resolution:<18} in {:<8} next {:<8} | {line}",
            around(index.enclosing_block(n)),
            around(index.next_block(n)),
        );
    }
}
