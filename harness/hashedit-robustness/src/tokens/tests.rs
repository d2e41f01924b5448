#[test]
fn counts_offline() {
    assert_eq!(super::o200k(""), 0);
    let n = super::o200k("[src/lib.rs#1A2B]\nPUT 12:\n+    let x = 1;\n");
    assert!((10..40).contains(&n), "{n}");
}
