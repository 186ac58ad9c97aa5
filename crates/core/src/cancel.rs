//! Cooperative cancellation: a flag that a long computation reads from time to time and that
//! another thread sets to stop it (a server whose request ran out of time).
//!
//! Reading the flag is one relaxed atomic load; the solvers read it once per block of work
//! (per chunk of positions, per level, per 1,024 states expanded), so it costs nothing
//! measurable, and a cancelled computation stops within one block. A computation stopped this
//! way returns an error ([`Cancelled`], or the solver's own error with a `Cancelled` case),
//! never a partial answer.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A cancellation flag, shared by cloning: every clone sees [`Cancel::cancel`].
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not set.
    #[must_use]
    pub fn new() -> Self {
        Cancel::default()
    }

    /// Asks every computation holding a clone of this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(Cancelled)` once cancelled: `cancel.check()?` in a loop.
    ///
    /// # Errors
    /// When [`Cancel::cancel`] was called.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.is_cancelled() { Err(Cancelled) } else { Ok(()) }
    }
}

/// A computation stopped because its [`Cancel`] flag was set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the computation was stopped before it finished")]
pub struct Cancelled;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_clone_sees_the_flag() {
        let a = Cancel::new();
        let b = a.clone();
        assert!(!b.is_cancelled());
        assert_eq!(b.check(), Ok(()));
        a.cancel();
        assert!(b.is_cancelled());
        assert_eq!(b.check(), Err(Cancelled));
        // Another flag is not touched.
        assert!(!Cancel::new().is_cancelled());
    }
}
