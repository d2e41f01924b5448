//! Criterion micro-benchmarks of the pure core: snapshot tags, the
//! streaming scanner behind `read_file`, and parse + plan + apply behind
//! `edit`.
//!
//! Inputs are generated deterministically (source-like lines, some with
//! trailing whitespace, a few CRLF endings), so runs are comparable across
//! machines and commits without any file on disk. Each edit case also
//! prints the peak heap it needed (measured with a counting allocator)
//! next to the file size, once, before it is timed:
//!
//! ```text
//! cargo bench -p hashline --bench core                 # everything
//! cargo bench -p hashline --bench core -- tag/         # one group
//! cargo bench -p hashline --bench core -- --quick      # a fast pass
//! ```
//!
//! The end-to-end suite (CLI, peers, plots) is `scripts/bench`; see
//! docs/PERFORMANCE.md.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use hashedit_core::stages::{TagHasher, scan};
use hashedit_core::{
    EditSettings, FileInput, NoHistory, Registers, TagScheme, Text, WindowRequest, edit_file, parse,
};
use hashedit_rng::Rng;

/// The system allocator, counting live and peak heap bytes.
struct PeakAlloc;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged; the counters never influence allocation.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for PeakAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as received.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as received.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as received.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grow(new_size);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: PeakAlloc = PeakAlloc;

/// Runs `f` and returns the peak heap growth over what was live before.
fn peak_heap_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - base)
}

const WORDS: &[&str] = &[
    "let", "mut", "fn", "self", "value", "return", "match", "impl", "struct", "pub", "use",
    "crate", "for", "in", "if", "else", "while", "loop", "break", "=>", "{", "}", "(x)", "+=",
    "Some(v)", "None", "Ok(())", "&str", "Vec<u8>", "// note",
];

/// `lines` source-like lines: indentation, a few words, one line in 16 with
/// trailing blanks, one in 64 with a CRLF ending.
fn source_text(lines: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(lines * 40);
    for _ in 0..lines {
        out.extend(std::iter::repeat_n(b' ', 4 * rng.below(4)));
        for i in 0..1 + rng.below(7) {
            if i > 0 {
                out.push(b' ');
            }
            out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
        }
        if rng.below(16) == 0 {
            out.extend_from_slice(b"  \t");
        }
        if rng.below(64) == 0 {
            out.push(b'\r');
        }
        out.push(b'\n');
    }
    out
}

/// A document of `hunks` single-line replacements spread evenly over a
/// file of `lines` lines.
fn edit_document(path: &str, bytes: &[u8], lines: usize, hunks: usize) -> String {
    let tag = TagScheme::Rho.tag_of(bytes);
    let mut doc = format!("[{path}#{tag}]\n");
    let step = (lines / hunks).max(1);
    for k in 0..hunks {
        let line = 1 + k * step;
        doc.push_str(&format!("PUT {line}:\n+// edited {k}\n"));
    }
    doc
}

fn tag(c: &mut Criterion) {
    let bytes = source_text(200_000, 1);
    let mut group = c.benchmark_group("tag");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    for scheme in [TagScheme::Rho, TagScheme::Omp] {
        group.bench_function(BenchmarkId::new("tag_of", scheme.name()), |b| {
            b.iter(|| scheme.tag_of(black_box(&bytes)))
        });
        group.bench_function(BenchmarkId::new("fingerprint", scheme.name()), |b| {
            b.iter(|| scheme.fingerprint(black_box(&bytes)))
        });
        // `read_file` feeds 256 KiB chunks.
        group.bench_function(BenchmarkId::new("chunked_256k", scheme.name()), |b| {
            b.iter(|| {
                let mut hasher = TagHasher::with_digest(scheme);
                for chunk in black_box(&bytes).chunks(256 * 1024) {
                    hasher.update(chunk);
                }
                hasher.finish_fingerprint()
            })
        });
    }
    group.finish();
}

fn scanner(c: &mut Criterion) {
    let bytes = source_text(200_000, 2);
    let mut group = c.benchmark_group("scan");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    let window = WindowRequest {
        start: 100_000,
        end: Some(100_100),
        row_budget: 64_000,
    };
    for scheme in [TagScheme::Rho, TagScheme::Omp] {
        group.bench_function(BenchmarkId::new("window_100_rows", scheme.name()), |b| {
            b.iter(|| {
                let mut scanner = hashedit_core::LineScanner::new(scheme, window);
                for chunk in black_box(&bytes).chunks(256 * 1024) {
                    scanner.update(chunk);
                }
                scanner.finish().expect("generated text decodes")
            })
        });
    }
    group.bench_function("text_decode", |b| {
        b.iter(|| Text::decode(black_box(&bytes)).map(|t| t.line_count()))
    });
    group.bench_function("scan_in_memory_rho", |b| {
        b.iter(|| scan(TagScheme::Rho, black_box(&bytes), window).map(|o| o.total_lines))
    });
    group.finish();
}

fn edit(c: &mut Criterion) {
    let mut group = c.benchmark_group("edit");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(500));
    for lines in [1_000usize, 100_000, 1_000_000] {
        let bytes = source_text(lines, 3);
        for hunks in [1usize, 100, 10_000] {
            if hunks > lines {
                continue;
            }
            let doc = edit_document("f.rs", &bytes, lines, hunks);
            // The production entry point: decode, tag check, lower, plan,
            // apply, advice and preview (the tools layer adds only I/O).
            let run = || {
                let parsed = parse(&doc).expect("generated document parses");
                let input = FileInput {
                    section: &parsed.sections[0],
                    display: "f.rs",
                    result_display: "f.rs",
                    bytes: &bytes,
                };
                let settings = EditSettings::new(TagScheme::Rho);
                edit_file(&input, &settings, &NoHistory, &mut Registers::default())
                    .expect("generated document applies")
            };
            let mut reported = false;
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.bench_function(
                BenchmarkId::new(format!("{lines}_lines"), format!("{hunks}_hunks")),
                |b| {
                    // Criterion calls this only for benchmarks its filter
                    // selects; report the memory once, untimed.
                    if !reported {
                        reported = true;
                        let (_, peak) = peak_heap_of(run);
                        eprintln!(
                            "edit/{lines}_lines/{hunks}_hunks: file {} bytes, peak heap {} bytes \
                             ({:.2}x the file)",
                            bytes.len(),
                            peak,
                            peak as f64 / bytes.len() as f64
                        );
                    }
                    b.iter(run)
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, tag, scanner, edit);
criterion_main!(benches);
