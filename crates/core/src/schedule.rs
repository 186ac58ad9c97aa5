//! Tiers solved in dependency order: a game split into pieces (Xiangqi materials) whose
//! dependency graph has no cycles, each solved after every tier it depends on.
//!
//! [`Scheduler`] hands out the tiers that are ready (every dependency finished), the largest
//! first so that the long ones start early when several workers share the run; tiers finished
//! before (files on disk) are skipped, so a run that stopped resumes where it stopped. It only
//! keeps the books: who solves a tier (a thread, an MPI rank) is the caller's business, so one
//! code path serves a single process and a cluster.

use std::collections::{BinaryHeap, HashMap};
use std::fmt;
use std::hash::Hash;

/// One tier as the scheduler sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tier<T> {
    /// The tier.
    pub id: T,
    /// Its size (work, memory): the larger ready tiers go first.
    pub size: u64,
    /// The tiers it depends on.
    pub needs: Vec<T>,
}

/// Why tiers cannot be scheduled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError<T: fmt::Debug> {
    /// A tier depends on a tier that is not in the plan (nor finished).
    #[error("{tier:?} depends on {needs:?}, which is not in the plan")]
    Missing {
        /// The tier.
        tier: T,
        /// The unknown dependency.
        needs: T,
    },
    /// The dependencies form a cycle through this tier.
    #[error("the dependencies form a cycle through {0:?}")]
    Cycle(T),
    /// A tier was named twice.
    #[error("{0:?} is in the plan twice")]
    Twice(T),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Waiting,
    Ready,
    Running,
    Done,
}

/// The books of a run over tiers (see the [module](self) docs).
#[derive(Debug)]
pub struct Scheduler<T> {
    ids: Vec<T>,
    number: HashMap<T, usize>,
    sizes: Vec<u64>,
    state: Vec<State>,
    /// Dependencies not finished yet.
    waiting_for: Vec<usize>,
    dependents: Vec<Vec<usize>>,
    ready: BinaryHeap<(u64, std::cmp::Reverse<usize>)>,
    running: usize,
    left: usize,
}

impl<T: Clone + Eq + Hash + fmt::Debug> Scheduler<T> {
    /// The books for `tiers`, of which those `finished` says are done already.
    ///
    /// # Errors
    /// When a dependency is neither in the plan nor finished, a tier is named twice, or the
    /// dependencies form a cycle.
    pub fn new(tiers: Vec<Tier<T>>, finished: impl Fn(&T) -> bool) -> Result<Self, ScheduleError<T>> {
        let mut number = HashMap::with_capacity(tiers.len());
        for (i, t) in tiers.iter().enumerate() {
            if number.insert(t.id.clone(), i).is_some() {
                return Err(ScheduleError::Twice(t.id.clone()));
            }
        }
        let n = tiers.len();
        let mut state = vec![State::Waiting; n];
        let mut waiting_for = vec![0; n];
        let mut dependents = vec![Vec::new(); n];
        for (i, t) in tiers.iter().enumerate() {
            if finished(&t.id) {
                state[i] = State::Done;
            }
        }
        for (i, t) in tiers.iter().enumerate() {
            for need in &t.needs {
                match number.get(need) {
                    Some(&j) => {
                        dependents[j].push(i);
                        if state[j] != State::Done {
                            waiting_for[i] += 1;
                        }
                    }
                    None if finished(need) => {}
                    None => return Err(ScheduleError::Missing { tier: t.id.clone(), needs: need.clone() }),
                }
            }
        }
        let mut scheduler = Scheduler {
            ids: tiers.iter().map(|t| t.id.clone()).collect(),
            number,
            sizes: tiers.iter().map(|t| t.size).collect(),
            state,
            waiting_for,
            dependents,
            ready: BinaryHeap::new(),
            running: 0,
            left: 0,
        };
        for i in 0..n {
            if scheduler.state[i] != State::Done {
                scheduler.left += 1;
                if scheduler.waiting_for[i] == 0 {
                    scheduler.make_ready(i);
                }
            }
        }
        scheduler.check_acyclic()?;
        Ok(scheduler)
    }

    /// Every unfinished tier must be reachable from the ready ones (Kahn's algorithm on a
    /// copy of the counts).
    fn check_acyclic(&self) -> Result<(), ScheduleError<T>> {
        let mut waiting = self.waiting_for.clone();
        let mut stack: Vec<usize> = self.ready.iter().map(|&(_, std::cmp::Reverse(i))| i).collect();
        let mut reached = stack.len();
        while let Some(i) = stack.pop() {
            for &d in &self.dependents[i] {
                if self.state[d] == State::Done {
                    continue;
                }
                waiting[d] -= 1;
                if waiting[d] == 0 {
                    reached += 1;
                    stack.push(d);
                }
            }
        }
        if reached == self.left {
            return Ok(());
        }
        let stuck = (0..self.ids.len()).find(|&i| self.state[i] != State::Done && waiting[i] > 0);
        Err(ScheduleError::Cycle(self.ids[stuck.expect("a tier left waiting")].clone()))
    }

    fn make_ready(&mut self, i: usize) {
        self.state[i] = State::Ready;
        self.ready.push((self.sizes[i], std::cmp::Reverse(i)));
    }

    fn index(&self, id: &T) -> Option<usize> {
        self.number.get(id).copied()
    }

    /// The largest ready tier, now running; `None` when none is ready (all finished, or the
    /// ready ones wait for running ones).
    pub fn hand_out(&mut self) -> Option<T> {
        let (_, std::cmp::Reverse(i)) = self.ready.pop()?;
        self.state[i] = State::Running;
        self.running += 1;
        Some(self.ids[i].clone())
    }

    /// Hands out `id` now, out of the largest-first order, if it is ready (the caller prefers it,
    /// e.g. because it reads what is in memory now); `false` when it is not ready or not in the
    /// plan.
    pub fn take(&mut self, id: &T) -> bool {
        let Some(i) = self.index(id).filter(|&i| self.state[i] == State::Ready) else { return false };
        self.ready.retain(|&(_, std::cmp::Reverse(j))| j != i);
        self.state[i] = State::Running;
        self.running += 1;
        true
    }

    /// Records that a running tier is finished: the tiers waiting only for it become ready.
    ///
    /// # Panics
    /// When `id` is not a running tier of the plan (a caller's bug).
    pub fn finish(&mut self, id: &T) {
        let i = self.index(id).unwrap_or_else(|| panic!("{id:?} is not in the plan"));
        assert_eq!(self.state[i], State::Running, "{id:?} is not running");
        self.state[i] = State::Done;
        self.running -= 1;
        self.left -= 1;
        for d in self.dependents[i].clone() {
            self.waiting_for[d] -= 1;
            if self.waiting_for[d] == 0 && self.state[d] == State::Waiting {
                self.make_ready(d);
            }
        }
    }

    /// Records that a running tier was not finished (its worker failed): it is ready again.
    ///
    /// # Panics
    /// When `id` is not a running tier of the plan (a caller's bug).
    pub fn give_back(&mut self, id: &T) {
        let i = self.index(id).unwrap_or_else(|| panic!("{id:?} is not in the plan"));
        assert_eq!(self.state[i], State::Running, "{id:?} is not running");
        self.running -= 1;
        self.make_ready(i);
    }

    /// Whether every tier is finished.
    #[must_use]
    pub const fn is_finished(&self) -> bool {
        self.left == 0
    }

    /// Tiers handed out and not finished.
    #[must_use]
    pub const fn running(&self) -> usize {
        self.running
    }

    /// Tiers not finished (running ones included).
    #[must_use]
    pub const fn left(&self) -> usize {
        self.left
    }

    /// Whether `id` is finished (before the run or in it).
    #[must_use]
    pub fn is_done(&self, id: &T) -> bool {
        self.index(id).is_some_and(|i| self.state[i] == State::Done)
    }

    /// The unfinished tiers that depend on `id` (directly): while one is left, a worker may
    /// want to keep `id`'s table in memory.
    #[must_use]
    pub fn still_needed(&self, id: &T) -> bool {
        self.index(id).is_some_and(|i| self.dependents[i].iter().any(|&d| self.state[d] != State::Done))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tier(id: u32, size: u64, needs: &[u32]) -> Tier<u32> {
        Tier { id, size, needs: needs.to_vec() }
    }

    #[test]
    fn ready_tiers_go_largest_first_after_their_dependencies() {
        let mut s = Scheduler::new(
            vec![tier(1, 5, &[]), tier(2, 9, &[]), tier(3, 100, &[1, 2]), tier(4, 7, &[1])],
            |_| false,
        )
        .unwrap();
        assert_eq!(s.hand_out(), Some(2));
        assert_eq!(s.hand_out(), Some(1));
        assert_eq!(s.hand_out(), None);
        s.finish(&1);
        assert_eq!(s.hand_out(), Some(4));
        assert!(s.still_needed(&2));
        s.finish(&2);
        assert_eq!(s.hand_out(), Some(3));
        s.give_back(&3);
        assert_eq!(s.hand_out(), Some(3));
        s.finish(&3);
        assert!(!s.still_needed(&2) && s.still_needed(&1));
        s.finish(&4);
        assert!(s.is_finished());
    }

    #[test]
    fn a_ready_tier_can_be_taken_out_of_order() {
        let mut s =
            Scheduler::new(vec![tier(1, 5, &[]), tier(2, 9, &[]), tier(3, 1, &[1]), tier(4, 8, &[])], |_| {
                false
            })
            .unwrap();
        // Not ready (waits for 1), not in the plan: refused.
        assert!(!s.take(&3) && !s.take(&9));
        assert_eq!(s.hand_out(), Some(2));
        assert!(s.take(&1));
        // Running: not taken twice, and no longer handed out.
        assert!(!s.take(&1));
        s.finish(&1);
        assert!(s.take(&3));
        assert_eq!(s.hand_out(), Some(4));
        assert_eq!(s.hand_out(), None);
        for t in [2, 3, 4] {
            s.finish(&t);
        }
        assert!(s.is_finished());
    }

    #[test]
    fn finished_tiers_are_skipped_and_bad_plans_refused() {
        let mut s =
            Scheduler::new(vec![tier(1, 5, &[]), tier(2, 9, &[1, 7])], |&t| t == 1 || t == 7).unwrap();
        assert_eq!(s.left(), 1);
        assert_eq!(s.hand_out(), Some(2));
        assert_eq!(
            Scheduler::new(vec![tier(1, 1, &[2])], |_| false).unwrap_err(),
            ScheduleError::Missing { tier: 1, needs: 2 }
        );
        assert_eq!(
            Scheduler::new(vec![tier(1, 1, &[2]), tier(2, 1, &[1]), tier(3, 1, &[])], |_| false).unwrap_err(),
            ScheduleError::Cycle(1)
        );
        assert_eq!(
            Scheduler::new(vec![tier(1, 1, &[]), tier(1, 2, &[])], |_| false).unwrap_err(),
            ScheduleError::Twice(1)
        );
    }
}
