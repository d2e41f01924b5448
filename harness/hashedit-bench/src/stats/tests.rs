use super::*;

#[test]
fn nearest_rank_quantiles() {
    let s: Vec<f64> = (1..=100).map(f64::from).collect();
    assert_eq!(quantile(&s, 0.5), 50.0);
    assert_eq!(quantile(&s, 0.99), 99.0);
    assert_eq!(quantile(&s, 1.0), 100.0);
    assert_eq!(quantile(&s, 0.0), 1.0);
    assert_eq!(quantile(&[7.0], 0.99), 7.0);
    assert_eq!(summary(&[]), Value::Null);
}
