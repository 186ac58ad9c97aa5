//! Generation on demand: make sure a material has its tables, with an estimate first, progress
//! while it runs, a memory budget, and a queue that shares and cancels generations.
//!
//! - [`estimate`] says what a material still needs: the tables missing of it and of every
//!   material its captures lead to, their positions, the peak memory of the generation and the
//!   time it would take at a measured speed ([`default_speed`]). Nothing is read but the
//!   directory. (Room: `estimate`.)
//! - [`ensure`] generates what is missing in this thread ([`Tablebases::generate_cancellable`]),
//!   reporting [`JobProgress`] (tables done of all, positions per second, seconds left), after
//!   refusing up front, with the estimate, what does not fit the memory budget. A generation
//!   that stops (cancelled, an error, the process killed) keeps the tables it finished: the
//!   next one resumes from them. (Room: `ensure`; its time left, from the measured speed of
//!   the tables finished: `time_left`.)
//! - [`Jobs`] is a queue for a server: one generation at a time, on a thread of its own; two
//!   requests for the same material (and rules and directory) share one job; a job can be
//!   cancelled, queued or running; every job's state and progress can be read at any time.
//!   (Room: `queue`.)
//!
//! [`Tablebases::generate_cancellable`]: crate::Tablebases::generate_cancellable
//! [`default_speed`]: crate::store::cost::default_speed

mod ensure;
mod estimate;
mod queue;
mod time_left;

pub use ensure::{EnsureError, EnsureOptions, Ensured, JobProgress, ensure};
pub use estimate::{Estimate, estimate};
pub use queue::{JobState, JobStatus, Jobs, Submitted};
