use super::*;

#[test]
fn invalid_bytes_round_trip() {
    let name = OsStr::from_bytes(b"caf\xE9-\xFF\xFE.txt");
    let raw = os_to_raw(name);
    assert_eq!(raw.chars().filter(|c| char_byte(*c).is_some()).count(), 3);
    assert!(raw.starts_with("caf") && raw.ends_with(".txt"));
    assert_eq!(raw_to_os(&raw), name);
    // UTF-8 names pass through untouched.
    assert_eq!(os_to_raw(OsStr::new("café.txt")), "café.txt");
    assert_eq!(raw_to_os("café.txt"), OsStr::new("café.txt"));
}
