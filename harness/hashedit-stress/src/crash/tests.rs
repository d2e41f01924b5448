use super::spread;

#[test]
fn spread_covers_the_ends() {
    assert_eq!(spread(3, 10), vec![1, 2, 3]);
    let values = spread(100, 5);
    assert_eq!(values.first(), Some(&1));
    assert_eq!(values.last(), Some(&100));
    assert_eq!(values.len(), 5);
}
