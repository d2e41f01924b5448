//! The ordered parallel map: order, early stops, results without work.

use super::*;

/// Runs jobs `0..n` (results known without work for multiples of 5) on
/// `threads` threads; the consumer stops at `stop_at`. Returns what it
/// consumed and what `produce` returned.
fn run(threads: usize, n: usize, stop_at: Option<usize>) -> (Vec<usize>, usize) {
    let mut seen = Vec::new();
    let mut consume = |value: usize| {
        seen.push(value);
        if Some(value) == stop_at {
            ControlFlow::Break(Stop::ResultLimit)
        } else {
            ControlFlow::Continue(())
        }
    };
    let produced = run_ordered(
        threads,
        || {
            |job: usize| {
                // Uneven work, so results come back out of order.
                std::thread::sleep(std::time::Duration::from_micros((job % 7) as u64 * 20));
                job
            }
        },
        &mut consume,
        |feed| {
            let mut issued = 0;
            for value in 0..n {
                issued += 1;
                let flow = if value % 5 == 0 {
                    feed.done(value)
                } else {
                    feed.job(value)
                };
                if flow.is_break() {
                    break;
                }
            }
            issued
        },
    );
    (seen, produced)
}

#[test]
fn results_are_consumed_in_production_order_on_any_thread_count() {
    let want: Vec<usize> = (0..200).collect();
    for threads in [1, 2, 3, 8] {
        assert_eq!(
            run(threads, 200, None),
            (want.clone(), 200),
            "{threads} threads"
        );
    }
}

#[test]
fn a_stop_ends_consumption_at_the_same_result_on_any_thread_count() {
    let want: Vec<usize> = (0..=77).collect();
    for threads in [1, 2, 3, 8] {
        let (seen, produced) = run(threads, 200, Some(77));
        assert_eq!(seen, want, "{threads} threads");
        // Production may run ahead of consumption, never past the total.
        assert!(
            (78..=200).contains(&produced),
            "{threads} threads: {produced}"
        );
    }
    // Inline, production stops at the very job the consumer stopped on.
    assert_eq!(run(1, 200, Some(77)).1, 78);
}

#[test]
fn nothing_produced_is_nothing_consumed() {
    for threads in [1, 4] {
        assert_eq!(run(threads, 0, None), (Vec::new(), 0));
    }
}
