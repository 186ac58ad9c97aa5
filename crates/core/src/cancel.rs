//! Cooperative cancellation, one mechanism for the whole code base: a `&AtomicBool` that a
//! long computation reads from time to time and that another thread sets to stop it (a
//! server whose request ran out of time, a generation job cancelled by its user).
//!
//! Every cancellable computation takes the flag as `&AtomicBool` ([`Retrograde::cancel`],
//! [`shortest_win_cancellable`], the games' `*_cancellable` functions, the Xiangqi store's
//! `generate_cancellable` and job options); the owner keeps it where it likes (an
//! `Arc<AtomicBool>` shared with another thread, or a local). Reading it is one relaxed atomic
//! load ([`is_set`]); the solvers read it once per block of work (per chunk of positions, per
//! level, per 1,024 states expanded), so it costs nothing measurable, and a cancelled
//! computation stops within one block. A computation stopped this way returns an error
//! ([`Cancelled`], or the solver's own error with a `Cancelled` case), never a partial answer.
//!
//! [`Retrograde::cancel`]: crate::Retrograde::cancel
//! [`shortest_win_cancellable`]: crate::shortest_win_cancellable

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether `flag` was set.
#[must_use]
pub fn is_set(flag: &AtomicBool) -> bool {
    flag.load(Ordering::Relaxed)
}

/// `Err(Cancelled)` once `flag` is set: `cancel::check(flag)?` in a loop.
///
/// # Errors
/// When `flag` is set.
pub fn check(flag: &AtomicBool) -> Result<(), Cancelled> {
    if is_set(flag) { Err(Cancelled) } else { Ok(()) }
}

/// A computation stopped because its cancellation flag was set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the computation was stopped before it finished")]
pub struct Cancelled;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_follows_the_flag() {
        let flag = AtomicBool::new(false);
        assert!(!is_set(&flag));
        assert_eq!(check(&flag), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert!(is_set(&flag));
        assert_eq!(check(&flag), Err(Cancelled));
    }
}
