//! Order statistics of timing samples.

use serde_json::{Value, json};

/// The `q`-quantile (0..=1) of `samples` by the nearest-rank method.
///
/// Panics if `samples` is empty.
pub fn quantile(samples: &[f64], q: f64) -> f64 {
    assert!(!samples.is_empty(), "quantile of no samples");
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = (q.clamp(0.0, 1.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.saturating_sub(1).min(sorted.len() - 1)]
}

/// Count, p50, p90, p99, min and max of `samples` as JSON (the unit of the
/// samples), or `null` when there are none.
pub fn summary(samples: &[f64]) -> Value {
    if samples.is_empty() {
        return Value::Null;
    }
    json!({
        "n": samples.len(),
        "p50": quantile(samples, 0.50),
        "p90": quantile(samples, 0.90),
        "p99": quantile(samples, 0.99),
        "min": quantile(samples, 0.0),
        "max": quantile(samples, 1.0),
    })
}

#[cfg(test)]
mod tests;
