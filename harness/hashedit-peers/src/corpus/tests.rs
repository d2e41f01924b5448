use super::*;

#[test]
fn edge_files_are_utf8_and_named_uniquely() {
    let files = edge_files();
    let mut names: Vec<_> = files.iter().map(|f| f.name.clone()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), files.len());
    assert!(files.iter().all(|f| std::str::from_utf8(&f.bytes).is_ok()));
}

#[test]
fn spread_picks_evenly() {
    let items: Vec<u32> = (0..10).collect();
    assert_eq!(spread(&items, 3), vec![&0, &3, &6]);
    assert_eq!(spread(&items, 20).len(), 10);
}
