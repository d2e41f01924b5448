use super::*;
use crate::hunks::diff;

fn file(n: usize) -> Lines {
    Lines::parse(&(1..=n).map(|i| format!("line {i}\n")).collect::<String>())
}

#[test]
fn windows_cover_each_hunk_with_context_and_merge_when_they_touch() {
    let old = file(40);
    let mut new = old.clone();
    new.lines[9] = "ten".into();
    new.lines[13] = "fourteen".into();
    new.lines.insert(35, "after 35".into());
    let hunks = diff(&old, &new);
    assert_eq!(
        plan(&old, &hunks, Reads::Windows { context: 2 }),
        [
            View::Window {
                offset: 8,
                limit: 9
            },
            View::Window {
                offset: 33,
                limit: 6
            },
        ]
    );
    let views = plan(&old, &hunks, Reads::Windows { context: 2 });
    assert_eq!(unshown(&old, &hunks, &views), Vec::<usize>::new());
    assert_eq!(plan(&old, &hunks, Reads::WholeFile), [View::WholeFile]);
}

#[test]
fn grep_shows_the_hits_and_their_context_and_misses_a_long_hunk() {
    let old = file(30);
    let mut new = old.clone();
    for line in &mut new.lines[4..12] {
        line.push('!');
    }
    let hunks = diff(&old, &new);
    let views = plan(&old, &hunks, Reads::Grep { context: 3 });
    assert_eq!(
        views,
        [View::Grep {
            literal: "line 5".into(),
            before: 3,
            after: 3,
        }]
    );
    // "line 5" is in lines 5 only ("line 50" does not exist): lines 2..8
    // shown, so 9..12 of the hunk are not.
    assert_eq!(unshown(&old, &hunks, &views), [9, 10, 11, 12]);
    let shown = shown(&old, &views);
    assert_eq!(shown.iter().positions(), [2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn a_blank_hunk_is_read_as_a_window() {
    let old = Lines::parse("a\n\nb\n");
    let new = Lines::parse("a\nb\n");
    let hunks = diff(&old, &new);
    assert_eq!(
        plan(&old, &hunks, Reads::Grep { context: 1 }),
        [View::Window {
            offset: 1,
            limit: 3
        }]
    );
    assert_eq!(Reads::parse("grep"), Some(Reads::Grep { context: 3 }));
    assert_eq!(Reads::parse("all"), None);
}

/// The 1-based numbers of the `true` entries.
trait Positions {
    fn positions(self) -> Vec<usize>;
}

impl<'a, I: Iterator<Item = &'a bool>> Positions for I {
    fn positions(self) -> Vec<usize> {
        self.enumerate()
            .filter(|(_, b)| **b)
            .map(|(i, _)| i + 1)
            .collect()
    }
}
