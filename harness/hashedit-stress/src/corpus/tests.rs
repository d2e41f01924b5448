use super::*;

#[test]
fn text_is_utf8_and_about_the_size() {
    let mut rng = Rng::new(1);
    for shape in LineShape::ALL {
        for size in [0usize, 1, 7, 100, 5_000, 300_000] {
            let bytes = text(&mut rng, size, shape);
            assert!(std::str::from_utf8(&bytes).is_ok(), "{shape:?} {size}");
            assert!(bytes.len() <= size + 2, "{shape:?} {size}: {}", bytes.len());
            assert!(bytes.len() + 2 >= size, "{shape:?} {size}: {}", bytes.len());
            if shape == LineShape::OneLine {
                assert!(!bytes.contains(&b'\n'));
            }
        }
    }
}

#[test]
fn counts_lines_like_hashline() {
    assert_eq!(line_count(b""), 0);
    assert_eq!(line_count(b"a"), 1);
    assert_eq!(line_count(b"a\n"), 1);
    assert_eq!(line_count(b"a\nb"), 2);
    assert_eq!(line_count(b"\n\n"), 2);
}

#[test]
fn sizes_parse_and_print() {
    assert_eq!(parse_size("50M"), Some(50 * 1024 * 1024));
    assert_eq!(parse_size("64k"), Some(65536));
    assert_eq!(parse_size("0"), Some(0));
    assert_eq!(parse_size("x"), None);
    assert_eq!(human(0), "0 B");
    assert_eq!(human(50 * 1024 * 1024), "50.0 MB");
}

#[test]
fn ops_never_overlap_and_always_change() {
    let mut rng = Rng::new(3);
    for lines in 0..6 {
        let bytes: Vec<u8> = (0..lines)
            .flat_map(|i| format!("l{i}\n").into_bytes())
            .collect();
        for _ in 0..50 {
            let ops = edit_ops(&mut rng, &bytes, "m");
            assert!(ops.contains("+m "), "{ops}");
        }
    }
}
