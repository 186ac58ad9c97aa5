//! Ranks of a partitioned solve in one process: a [`Transport`] for each of `k` threads,
//! meeting at a barrier, so that the partitioned algorithm is tested (and usable) without a
//! cluster.

use std::sync::{Arc, Barrier, Mutex};

use super::partition::{Transport, TransportError};

/// What the ranks share: the mail of an exchange (`mail[to][from]`) and the values of a
/// reduction, each read by all after one barrier and cleared after a second.
struct Shared {
    barrier: Barrier,
    mail: Mutex<Vec<Vec<Vec<u64>>>>,
    values: Mutex<Vec<u64>>,
}

/// One of `k` ranks in threads of one process ([`LocalRanks::new`]): give each to its own
/// thread, which calls [`Retrograde::solve_part`](super::Retrograde::solve_part) with it.
pub struct LocalRanks {
    rank: usize,
    ranks: usize,
    shared: Arc<Shared>,
}

impl LocalRanks {
    /// The `k` ranks (at least one), rank 0 first.
    #[must_use]
    pub fn new(k: usize) -> Vec<LocalRanks> {
        let k = k.max(1);
        let shared = Arc::new(Shared {
            barrier: Barrier::new(k),
            mail: Mutex::new(vec![vec![Vec::new(); k]; k]),
            values: Mutex::new(vec![0; k]),
        });
        (0..k).map(|rank| LocalRanks { rank, ranks: k, shared: Arc::clone(&shared) }).collect()
    }
}

/// A lock whose holder cannot have panicked in it (the code below holds none across a call
/// that panics); a poisoned one is a rank's thread that panicked elsewhere: an error.
fn lock<T>(m: &Mutex<T>) -> Result<std::sync::MutexGuard<'_, T>, TransportError> {
    m.lock().map_err(|_| TransportError("a rank's thread panicked".into()))
}

impl Transport for LocalRanks {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.ranks
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Result<Vec<u64>, TransportError> {
        {
            let mut mail = lock(&self.shared.mail)?;
            for (to, list) in outgoing.into_iter().enumerate() {
                mail[to][self.rank] = list;
            }
        }
        self.shared.barrier.wait();
        let received: Vec<u64> =
            lock(&self.shared.mail)?[self.rank].iter_mut().flat_map(std::mem::take).collect();
        // Nobody writes the next exchange's mail before every rank took this one's.
        self.shared.barrier.wait();
        Ok(received)
    }

    fn max(&self, value: u64) -> Result<u64, TransportError> {
        lock(&self.shared.values)?[self.rank] = value;
        self.shared.barrier.wait();
        let max = lock(&self.shared.values)?.iter().copied().max().unwrap_or(0);
        self.shared.barrier.wait();
        Ok(max)
    }
}
