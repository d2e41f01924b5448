use super::*;

#[test]
fn the_budget_reason_is_counted_only_when_rows_are_left_out() {
    // Rows "a\n" "b\n" "c\n"; the summary is 6 bytes, or 8 when it
    // mentions the budget.
    let tail = |k: usize, cut: bool| listing_tail(k, if cut { 8 } else { 6 });
    let at = |budget| fit(&[2, 2, 2], budget, tail);
    assert_eq!(
        at(13),
        Fit {
            shown: 3,
            cut: false
        }
    );
    assert_eq!(
        at(12),
        Fit {
            shown: 1,
            cut: true
        }
    );
    assert_eq!(
        at(11),
        Fit {
            shown: 1,
            cut: true
        }
    );
    assert_eq!(
        at(10),
        Fit {
            shown: 0,
            cut: true
        }
    );
    assert_eq!(
        at(0),
        Fit {
            shown: 0,
            cut: true
        }
    );
    // With no rows there is nothing to leave out.
    assert_eq!(
        fit(&[], 0, tail),
        Fit {
            shown: 0,
            cut: false
        }
    );
}

#[test]
fn shows_the_longest_prefix_that_fits() {
    let tail = |k: usize, _| listing_tail(k, 4);
    // 3 + 1 + 4 = 8 fits; with the 10 it would not, and a later short
    // unit cannot jump the queue: rows keep their order.
    assert_eq!(fit(&[3, 10, 1, 1], 9, tail).shown, 1);
    // A closing line that only a partial prefix needs: after two units
    // the tail is long (a `… more` line), after three it is short.
    let closing = |k: usize, _| if k == 2 { 20 } else { 2 };
    assert_eq!(fit(&[5, 5, 5, 5], 17, closing).shown, 3);
    assert_eq!(fit(&[5, 5, 5, 5], 11, closing).shown, 1);
}

#[test]
fn listings_render_with_a_blank_line_before_the_summary() {
    assert_eq!(render_listing(["a", "b"], "2 files"), "a\nb\n\n2 files");
    assert_eq!(render_listing([], "0 files"), "0 files");
}
