//! An ordered parallel map: the calling thread produces numbered jobs, which
//! `threads` threads work in batches of [`BATCH`] (the producer taking the
//! oldest batch back whenever the workers fall behind), and their results
//! are consumed strictly in order, so the consumer sees what a sequential
//! run would and can stop at any result.

use std::collections::{BTreeMap, VecDeque};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, mpsc};

use crate::search::Stop;

/// Jobs handed out in one batch: fewer wake-ups than one job at a time,
/// and small enough that a stop wastes little work.
const BATCH: usize = 16;

/// Jobs, each with its sequence number.
type Batch<J> = Vec<(usize, J)>;
/// Results, each with its sequence number.
type Done<R> = Vec<(usize, R)>;

/// Runs `produce` on the calling thread with a [`Feed`] it hands jobs (and
/// results known without work) to; `work`, made once per thread, turns a
/// job into its result; `consume` takes the results in order until it
/// breaks. Returns what `produce` returned, once every result it issued
/// was consumed or the consumer stopped.
pub(super) fn run_ordered<J, R, W, T>(
    threads: usize,
    work: impl Fn() -> W + Sync,
    consume: &mut dyn FnMut(R) -> ControlFlow<Stop>,
    produce: impl FnOnce(&mut Feed<'_, J, R, W>) -> T,
) -> T
where
    J: Send,
    R: Send,
    W: FnMut(J) -> R,
{
    let workers = threads.saturating_sub(1);
    let queue = JobQueue::default();
    let halted = AtomicBool::new(false);
    let (result_tx, results) = mpsc::channel::<Done<R>>();
    std::thread::scope(|s| {
        for _ in 0..workers {
            let result_tx = result_tx.clone();
            let (queue, halted, work) = (&queue, &halted, &work);
            s.spawn(move || {
                let mut work = work();
                while let Some(batch) = queue.next() {
                    let Some(done) = work_batch(&mut work, batch, halted) else {
                        return;
                    };
                    if result_tx.send(done).is_err() {
                        return;
                    }
                }
            });
        }
        drop(result_tx);
        let mut feed = Feed {
            queue: &queue,
            workers,
            halted: &halted,
            work: work(),
            results,
            pending: Vec::with_capacity(BATCH),
            order: Reorder::default(),
            consume,
            stop: None,
        };
        let produced = produce(&mut feed);
        feed.finish();
        produced
    })
}

/// Works a batch; `None` when the run was halted meanwhile (nobody
/// consumes any more).
fn work_batch<J, R>(
    work: &mut impl FnMut(J) -> R,
    batch: Batch<J>,
    halted: &AtomicBool,
) -> Option<Done<R>> {
    let mut done = Vec::with_capacity(batch.len());
    for (seq, job) in batch {
        if halted.load(Ordering::Relaxed) {
            return None;
        }
        done.push((seq, work(job)));
    }
    Some(done)
}

/// The calling thread's side of [`run_ordered`].
pub(super) struct Feed<'s, J, R, W> {
    queue: &'s JobQueue<J>,
    workers: usize,
    halted: &'s AtomicBool,
    /// This thread's worker.
    work: W,
    results: mpsc::Receiver<Done<R>>,
    /// Jobs not yet queued.
    pending: Batch<J>,
    order: Reorder<R>,
    consume: &'s mut dyn FnMut(R) -> ControlFlow<Stop>,
    /// Set once the consumer broke.
    stop: Option<Stop>,
}

impl<J, R, W: FnMut(J) -> R> Feed<'_, J, R, W> {
    /// Issues the next job; `Break` once the consumer has stopped.
    pub(super) fn job(&mut self, job: J) -> ControlFlow<Stop> {
        let seq = self.order.issue();
        if self.workers == 0 {
            let result = (self.work)(job);
            self.order.ready.insert(seq, result);
            return self.drain();
        }
        self.pending.push((seq, job));
        if self.pending.len() >= BATCH {
            let batch = std::mem::replace(&mut self.pending, Vec::with_capacity(BATCH));
            if self.queue.push(batch) > self.workers {
                // The workers are behind: work the oldest batch here.
                self.help();
            }
        }
        self.poll()
    }

    /// Issues a result that needs no work, in order with the jobs.
    pub(super) fn done(&mut self, result: R) -> ControlFlow<Stop> {
        let seq = self.order.issue();
        self.order.ready.insert(seq, result);
        self.poll()
    }

    /// Works one waiting batch on this thread; false when none waits.
    fn help(&mut self) -> bool {
        let Some(batch) = self.queue.take() else {
            return false;
        };
        if let Some(done) = work_batch(&mut self.work, batch, self.halted) {
            self.order.accept(done);
        }
        true
    }

    /// Accepts whatever results have arrived and consumes them in order.
    fn poll(&mut self) -> ControlFlow<Stop> {
        while let Ok(done) = self.results.try_recv() {
            self.order.accept(done);
        }
        self.drain()
    }

    /// Consumes the results that are next in order.
    fn drain(&mut self) -> ControlFlow<Stop> {
        if let Some(stop) = self.stop {
            return ControlFlow::Break(stop);
        }
        while let Some(result) = self.order.ready.remove(&self.order.next) {
            self.order.next += 1;
            if let ControlFlow::Break(stop) = (self.consume)(result) {
                self.stop = Some(stop);
                return ControlFlow::Break(stop);
            }
        }
        ControlFlow::Continue(())
    }

    /// After production: queues the rest, helps work it, and consumes
    /// results until every issued one is consumed or the consumer stops.
    /// Then releases the workers.
    fn finish(&mut self) {
        if self.stop.is_none() && !self.pending.is_empty() {
            let batch = std::mem::take(&mut self.pending);
            self.queue.push(batch);
        }
        while self.poll().is_continue() && self.help() {}
        self.queue.close(self.stop.is_some());
        while self.stop.is_none() && !self.order.complete() {
            if self.drain().is_break() || self.order.complete() {
                break;
            }
            match self.results.recv() {
                Ok(done) => self.order.accept(done),
                Err(_) => break,
            }
        }
        self.halted.store(true, Ordering::Relaxed);
        self.queue.close(true);
    }
}

/// Results waiting for their turn.
struct Reorder<R> {
    /// Sequence numbers handed out so far.
    issued: usize,
    /// The next sequence number the consumer needs.
    next: usize,
    ready: BTreeMap<usize, R>,
}

impl<R> Default for Reorder<R> {
    fn default() -> Reorder<R> {
        Reorder {
            issued: 0,
            next: 0,
            ready: BTreeMap::new(),
        }
    }
}

impl<R> Reorder<R> {
    /// The next sequence number.
    fn issue(&mut self) -> usize {
        self.issued += 1;
        self.issued - 1
    }

    fn accept(&mut self, done: Done<R>) {
        self.ready.extend(done);
    }

    /// Every issued result was consumed.
    fn complete(&self) -> bool {
        self.next >= self.issued
    }
}

/// Batches waiting for a worker. Workers block on it; the calling thread
/// pushes and, when the workers fall behind, takes batches back to work
/// them itself, so no core sits idle behind the production.
struct JobQueue<J> {
    state: Mutex<QueueState<J>>,
    ready: Condvar,
}

struct QueueState<J> {
    batches: VecDeque<Batch<J>>,
    closed: bool,
}

impl<J> Default for JobQueue<J> {
    fn default() -> JobQueue<J> {
        JobQueue {
            state: Mutex::new(QueueState {
                batches: VecDeque::new(),
                closed: false,
            }),
            ready: Condvar::new(),
        }
    }
}

impl<J> JobQueue<J> {
    fn lock(&self) -> MutexGuard<'_, QueueState<J>> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Queues a batch; returns how many are now waiting.
    fn push(&self, batch: Batch<J>) -> usize {
        let waiting = {
            let mut state = self.lock();
            state.batches.push_back(batch);
            state.batches.len()
        };
        self.ready.notify_one();
        waiting
    }

    /// The oldest waiting batch, without blocking.
    fn take(&self) -> Option<Batch<J>> {
        self.lock().batches.pop_front()
    }

    /// The oldest batch, waiting for one; `None` once closed and empty.
    fn next(&self) -> Option<Batch<J>> {
        let mut state = self.lock();
        loop {
            if let Some(batch) = state.batches.pop_front() {
                return Some(batch);
            }
            if state.closed {
                return None;
            }
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// No more batches will come; `discard` drops the ones still waiting.
    fn close(&self, discard: bool) {
        {
            let mut state = self.lock();
            state.closed = true;
            if discard {
                state.batches.clear();
            }
        }
        self.ready.notify_all();
    }
}

#[cfg(test)]
mod tests;
