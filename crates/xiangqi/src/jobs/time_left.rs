//! The time left of a running generation ([`TimeLeft`]), from the measured speed of the tables
//! finished so far, weighted by their work (the positions each solved per second of its own
//! time), not from the phases of the table being solved.
//!
//! A solve's phases do not advance with time alike (the start pass counts positions, the level
//! passes count the positions decided, the end is a jump), so a time left drawn from them
//! stalls and jumps: "about 10 s left" for 13 s. Here each table is expected to take a fixed
//! time (its checks, its files) and its work at a speed, both measured on the tables finished
//! (a least-squares line through their times); the table being solved has its time left fall
//! by one second each second, and only when it runs over its expected time does its own
//! progress say how much more it needs, once: that guess then falls a second each second too
//! (the phases stall at the end of a solve and while its files are written, so a guess drawn
//! from them anew would rise), and is made again only if it runs out. With a steady speed the
//! time left falls steadily (the tests feed synthetic reports).

/// The speed assumed is worth this many seconds of measurement: it steers the first seconds,
/// the tables finished take over after them.
const PRIOR_SECONDS: f64 = 2.0;

/// The table being solved.
#[derive(Clone, Copy, Debug)]
struct Current {
    /// Its work (positions times the rule set's cost).
    work: f64,
    /// When its solve started, in seconds from the start of the generation.
    started: f64,
    /// The part of its solve done, by its phases (0 to 1).
    fraction: f64,
}

/// The sums of the finished tables' works and times, for the line through them.
#[derive(Clone, Copy, Debug, Default)]
struct Finished {
    tables: f64,
    work: f64,
    time: f64,
    work_squared: f64,
    work_time: f64,
}

/// The books of the time left of one generation. Times are seconds from its start.
#[derive(Clone, Debug)]
pub(super) struct TimeLeft {
    /// The speed assumed before anything is measured, in work per second.
    prior: f64,
    /// The work and the number of the tables not finished, the current one included.
    unfinished: f64,
    unfinished_tables: f64,
    finished: Finished,
    /// When the last table finished (0 before the first).
    finished_at: f64,
    current: Option<Current>,
    /// A current table past its expected time: when its time left was last guessed from its
    /// phases, and that guess.
    overrun: Option<(f64, f64)>,
}

impl TimeLeft {
    /// A generation of `tables` tables of `work` in all (positions times cost), at an assumed
    /// `prior` speed.
    pub(super) fn new(tables: usize, work: f64, prior: f64) -> TimeLeft {
        TimeLeft {
            prior: prior.max(1.0),
            unfinished: work,
            unfinished_tables: tables as f64,
            finished: Finished::default(),
            finished_at: 0.0,
            current: None,
            overrun: None,
        }
    }

    /// A table the plan did not count (a damaged file generated anew).
    pub(super) fn add(&mut self, work: f64) {
        self.unfinished += work;
        self.unfinished_tables += 1.0;
    }

    /// The time up to `now` went to work outside the plan (a table there already, checked and
    /// kept): it counts for no table, so that it does not pass for a slow one.
    pub(super) fn skip(&mut self, now: f64) {
        if self.current.is_none() {
            self.finished_at = now.max(self.finished_at);
        }
    }

    /// The solve of a table of `work` starts at `now`.
    pub(super) fn start(&mut self, work: f64, now: f64) {
        self.current = Some(Current { work, started: now, fraction: 0.0 });
        self.overrun = None;
    }

    /// The current solve has done `fraction` of itself (by its phases).
    pub(super) fn progress(&mut self, fraction: f64) {
        if let Some(c) = &mut self.current {
            c.fraction = fraction.clamp(c.fraction, 1.0);
        }
    }

    /// A table of `work` is finished (written) at `now`: all the time since the last one
    /// finished (its solve, its files, the checks before it) counts for it.
    pub(super) fn finish(&mut self, work: f64, now: f64) {
        let time = (now - self.finished_at).max(0.0);
        self.unfinished = (self.unfinished - work).max(0.0);
        self.unfinished_tables = (self.unfinished_tables - 1.0).max(0.0);
        let f = &mut self.finished;
        f.tables += 1.0;
        f.work += work;
        f.time += time;
        f.work_squared += work * work;
        f.work_time += work * time;
        self.finished_at = now.max(self.finished_at);
        self.current = None;
        self.overrun = None;
    }

    /// The time each table takes besides its work, and the speed of the work (work per
    /// second), from the tables finished: the least-squares line through their times, the
    /// fixed time within what they took, the speed matching their whole time, and the assumed
    /// speed counting for [`PRIOR_SECONDS`].
    pub(super) fn model(&self) -> (f64, f64) {
        let f = self.finished;
        let spread = f.tables * f.work_squared - f.work * f.work;
        let fixed = if f.tables >= 2.0 && spread > 1e-9 * f.work * f.work {
            let per_work = (f.tables * f.work_time - f.work * f.time) / spread;
            ((f.time - per_work * f.work) / f.tables).clamp(0.0, f.time / f.tables)
        } else {
            0.0
        };
        let working = (f.time - fixed * f.tables).max(0.0);
        let speed = ((f.work + self.prior * PRIOR_SECONDS) / (working + PRIOR_SECONDS)).max(1.0);
        (fixed, speed)
    }

    /// Seconds left at `now`: each table not finished at the fixed time and the speed so far,
    /// less the time spent since the last table finished; a current table that runs over its
    /// expected time adds what its phases say it still needs (guessed once, then falling; `now`
    /// never goes back).
    pub(super) fn seconds_left(&mut self, now: f64) -> f64 {
        if self.unfinished <= 0.0 && self.unfinished_tables <= 0.0 {
            return 0.0;
        }
        let (fixed, speed) = self.model();
        let since = (now - self.finished_at).max(0.0);
        let all = self.unfinished_tables * fixed + self.unfinished / speed;
        let left = match self.current {
            None => all - since,
            Some(c) => {
                let expected = fixed + c.work / speed;
                let others = (all - expected).max(0.0);
                if since <= expected {
                    others + expected - since
                } else {
                    // Slower than the speed so far: its own pace says the rest, once; the
                    // guess falls from then on, and is made again when it ran out.
                    let spent = (now - c.started).max(0.0);
                    let pace = if c.fraction > 0.0 { spent * (1.0 - c.fraction) / c.fraction } else { spent };
                    let carried =
                        self.overrun.map(|(at, guess)| guess - (now - at)).filter(|&left| left > 0.0);
                    let tail = match carried {
                        Some(left) if left <= pace => left,
                        _ => {
                            self.overrun = Some((now, pace));
                            pace
                        }
                    };
                    others + tail
                }
            }
        };
        left.max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic generation: tables of these works, solved one after another at `speed`
    /// work per second (plus `gap` seconds before each, the checks and the file), with a
    /// phase fraction that runs ahead of time and then lags, as the real phases do (the start
    /// pass quickly, the level passes slowly, the end a jump). Reports every 0.1 s: the time
    /// and the time left.
    fn run(works: &[f64], speed: f64, gap: f64, prior: f64) -> Vec<(f64, f64)> {
        let total: f64 = works.iter().sum();
        let mut books = TimeLeft::new(works.len(), total, prior);
        let mut seen = Vec::new();
        let mut now = 0.0;
        let step = 0.1;
        for &work in works {
            let end_of_gap = now + gap;
            while now < end_of_gap {
                seen.push((now, books.seconds_left(now)));
                now += step;
            }
            books.start(work, now);
            let took = work / speed;
            let started = now;
            while now < started + took {
                let t = (now - started) / took;
                // Ahead at first (0.45 at a quarter of the time), behind later, 0.95 until the end.
                let fraction =
                    if t < 0.25 { 1.8 * t } else { (0.45 + 0.5 * ((t - 0.25) / 0.75).powi(3)).min(0.95) };
                books.progress(fraction);
                seen.push((now, books.seconds_left(now)));
                now += step;
            }
            now = started + took;
            books.finish(work, now);
            seen.push((now, books.seconds_left(now)));
        }
        seen
    }

    /// The tables of a generation of some tens: many small, a few large, as with captures.
    fn works() -> Vec<f64> {
        let mut works: Vec<f64> = (0..30).map(|i| 1e5 * f64::from(1 + i % 7)).collect();
        works.extend([2e7, 5e6, 8e7, 3e7, 1.5e8]);
        works
    }

    #[test]
    fn with_a_steady_speed_the_time_left_falls_a_second_each_second() {
        let speed = 5e6;
        let seen = run(&works(), speed, 0.0, speed);
        let total = seen.last().unwrap().0;
        for pair in seen.windows(2) {
            let ((t0, left0), (t1, left1)) = (pair[0], pair[1]);
            assert!(left1 <= left0 + 1e-6, "{left0} s left at {t0} s, then {left1} s at {t1} s");
        }
        // Steady: the elapsed time and the time left add up to the whole time throughout.
        for &(t, left) in &seen {
            assert!((t + left - total).abs() <= 1e-6 * total, "{left} s left at {t} s of {total} s");
        }
        assert_eq!(seen.last().unwrap().1, 0.0);
    }

    #[test]
    fn a_fixed_time_per_table_and_a_wrong_assumed_speed_are_measured_away() {
        let speed = 5e6;
        // Each table also takes 0.05 s besides its work (checks, its files): learnt from the
        // first tables finished (the time left goes up by the fixed times of all the others
        // while they are), so that with the right speed assumed the time left is exact after.
        let rises = |seen: &[(f64, f64)]| {
            let total = seen.last().unwrap().0;
            let late: Vec<_> = seen.iter().filter(|(t, _)| *t >= 0.05 * total).collect();
            late.windows(2).map(|p| p[1].1 - p[0].1).fold(0.0, f64::max)
        };
        let off = |seen: &[(f64, f64)], after: f64| {
            let total = seen.last().unwrap().0;
            let late = seen.iter().filter(|(t, _)| *t >= after * total);
            late.map(|(t, left)| (t + left - total).abs() / total).fold(0.0, f64::max)
        };
        let seen = run(&works(), speed, 0.05, speed);
        assert!(rises(&seen) < 1e-6 && off(&seen, 0.05) < 1e-3, "{seen:?}");
        // Assumed three times too slow: the time left only falls, faster than time at first,
        // and the whole is known within 5 % past half of it.
        let seen = run(&works(), speed, 0.05, speed / 3.0);
        assert!(rises(&seen) < 1e-6, "{seen:?}");
        assert!(off(&seen, 0.5) < 0.05, "{}", off(&seen, 0.5));
        // Three times too fast: a table that runs over its expected time says so (the time
        // left goes up then), and the whole is known within 10 % past half of it.
        let seen = run(&works(), speed, 0.05, speed * 3.0);
        assert!(off(&seen, 0.5) < 0.1, "{}", off(&seen, 0.5));
    }

    /// The same reports, the time left from the phases (the work done so far, the current table
    /// by its fraction, over the time so far): the estimate this module replaces stalls and
    /// rises on them, so the test above can tell the two apart.
    #[test]
    fn the_phases_alone_would_not_fall_steadily() {
        let speed = 5e6;
        let works = works();
        let total: f64 = works.iter().sum();
        let (mut done, mut now, mut rises) = (0.0, 0.0, 0);
        let mut last = f64::INFINITY;
        for &work in &works {
            let took = work / speed;
            let mut t = 0.0;
            while t < took {
                let x = t / took;
                let fraction =
                    if x < 0.25 { 1.8 * x } else { (0.45 + 0.5 * ((x - 0.25) / 0.75).powi(3)).min(0.95) };
                let worked = done + work * fraction;
                let rate = (worked + speed * PRIOR_SECONDS) / (now + t + PRIOR_SECONDS);
                let left = (total - worked) / rate;
                if left > last + 1e-6 {
                    rises += 1;
                }
                last = left;
                t += 0.1;
            }
            done += work;
            now += took;
        }
        assert!(rises > 10, "{rises} rises");
    }

    #[test]
    fn a_slow_table_says_what_its_phases_say_past_its_expected_time() {
        let mut books = TimeLeft::new(2, 300.0, 100.0);
        books.start(100.0, 0.0);
        assert!((books.seconds_left(0.0) - 3.0).abs() < 1e-9);
        assert!((books.seconds_left(0.5) - 2.5).abs() < 1e-9);
        // At 2 s (expected 1 s) with half of it done: 2 s more for it, 2 s for the rest.
        books.progress(0.5);
        assert!((books.seconds_left(2.0) - 4.0).abs() < 1e-9);
        // Its phases stalled (its file being written, say): the guess falls all the same...
        assert!((books.seconds_left(2.5) - 3.5).abs() < 1e-9);
        assert!((books.seconds_left(3.5) - 2.5).abs() < 1e-9);
        // ... and a lower guess of its phases is taken at once.
        books.progress(0.95);
        assert!((books.seconds_left(3.6) - (2.0 + 3.6 * 0.05 / 0.95)).abs() < 1e-9);
        // That guess run out (at 3.79 s): guessed again, from its phases.
        assert!((books.seconds_left(4.1) - (2.0 + 4.1 * 0.05 / 0.95)).abs() < 1e-9);
        books.finish(100.0, 4.0);
        // Measured: 100 in 4 s, with the assumed 100 per second for 2 s: 50 per second.
        assert_eq!(books.model(), (0.0, 50.0));
        assert!((books.seconds_left(4.0) - 4.0).abs() < 1e-9);
        // Checking a table there already (10 s) counts for none: the time left stays.
        books.skip(14.0);
        assert!((books.seconds_left(14.0) - 4.0).abs() < 1e-9);
        books.finish(200.0, 18.0);
        assert_eq!(books.seconds_left(18.0), 0.0);
    }
}
