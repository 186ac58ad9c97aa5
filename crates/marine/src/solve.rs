//! The shortest win, found by the core's layered search ([`endgame_core::search`]).
//!
//! The zerglings answer every action deterministically, so the battle is a one-agent puzzle:
//! layer `t` holds the states after `t` rounds and the first win found is the shortest.
//! Prunings (each can be switched off with [`Pruning`]):
//! - symmetry: zerglings are interchangeable, states keep them sorted by (HP, cell);
//! - dominance on the marine's HP: the rules never look at the round number (only the limit
//!   does) and more HP never hurts (every action stays allowed, the same damage follows, and
//!   the marine falls no earlier), so of two states equal but for the marine's HP, the one
//!   with more HP seen no later is kept;
//! - bound: every shot removes exactly 1 HP, so a win needs at least as many more rounds as
//!   the zerglings have HP left. When that exceeds the limit at the start (the contest's
//!   z > 17), the answer is LOSE at once.

use endgame_core::search::{
    Pruning, Puzzle, SearchStats, Step, Stopped, TooManyStates, shortest_win_cancellable,
};
use std::sync::atomic::AtomicBool;

use crate::setup::Battle;
use crate::state::{Action, Key, Outcome, State, actions, play};

/// The contest's round limit.
pub const DEFAULT_ROUNDS: u32 = 34;

/// Bytes a stored search state takes at most: the states themselves (36 bytes each, with the
/// move that led there) and the dominance table (33 bytes an entry), with room to grow. Peak RSS
/// over the states stored, measured on 8 x 8 to 16 x 16 battles with 3 to 7 zerglings: 80 to
/// 138 bytes, up to about 155 just after the table has doubled (BENCHMARKS.md).
pub const BYTES_PER_STATE: u64 = 160;

/// The default limit of stored states: as many as half the available memory holds (Linux:
/// `MemAvailable`; else 8 GiB), at [`BYTES_PER_STATE`] each.
#[must_use]
pub fn default_max_states() -> u64 {
    let available = std::fs::read_to_string("/proc/meminfo").ok().and_then(|info| {
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    });
    available.unwrap_or(8 << 30) / 2 / BYTES_PER_STATE
}

/// The battle as a puzzle for [`shortest_win`].
struct Search<'a>(&'a Battle);

impl Puzzle for Search<'_> {
    type State = State;
    type Action = Action;
    type Key = Key;

    fn start(&self) -> State {
        self.0.start()
    }

    fn for_each_action(&self, state: &State, mut f: impl FnMut(Action, Step<State>)) {
        for (action, outcome) in actions(self.0.map(), state) {
            let step = match outcome {
                Outcome::Continue { state, .. } => Step::Next(state),
                Outcome::Won(_) => Step::Won,
                Outcome::Lost => Step::Lost,
            };
            f(action, step);
        }
    }

    fn canonical(&self, state: State) -> State {
        state.canonical()
    }

    fn dominance_key(&self, state: &State) -> (Key, u64) {
        (state.key(), u64::from(state.hp))
    }

    fn lower_bound(&self, state: &State) -> u32 {
        state.zergling_hp()
    }
}

/// One round of a plan: the marine's action and the state after the zerglings acted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The marine's action; a shot's index is the zergling's place in [`Battle::labels`].
    pub action: Action,
    /// Hit points the marine lost this round.
    pub damage: u16,
    /// The state after the round (zerglings in label order); when the round won, the state
    /// right after the last shot.
    pub state: State,
    /// Whether this round won the battle.
    pub won: bool,
}

/// The answer for a battle.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The round limit searched.
    pub limit: u32,
    /// A shortest winning plan, or `None` when the marine cannot win within the limit.
    pub plan: Option<Vec<Turn>>,
    /// The search's counts (all zero when the answer was immediate).
    pub stats: SearchStats,
}

impl Solution {
    /// The fewest rounds to win, or `None` (LOSE).
    #[must_use]
    pub fn rounds(&self) -> Option<u32> {
        self.plan.as_ref().map(|p| p.len() as u32)
    }
}

impl Battle {
    /// Plays `actions` (shots by label index) from the start. `None` when an action is not
    /// allowed, or the marine falls, or the battle is won before the last action.
    #[must_use]
    pub fn replay(&self, actions: &[Action]) -> Option<Vec<Turn>> {
        let mut state = self.start();
        let mut turns = Vec::with_capacity(actions.len());
        for &action in actions {
            if turns.last().is_some_and(|t: &Turn| t.won) {
                return None;
            }
            let turn = match play(self.map(), &state, action)? {
                Outcome::Continue { state, damage } => Turn { action, damage, state, won: false },
                Outcome::Won(state) => Turn { action, damage: 0, state, won: true },
                Outcome::Lost => return None,
            };
            state = turn.state;
            turns.push(turn);
        }
        Some(turns)
    }

    /// What an action is, for people: `move left`, `shoot Z`.
    #[must_use]
    pub fn describe(&self, action: Action) -> String {
        match action {
            Action::Move(d) => format!("move {d}"),
            Action::Shoot(i) => {
                format!("shoot {}", self.labels().get(usize::from(i)).copied().unwrap_or('?'))
            }
        }
    }

    /// Finds a shortest win within `limit` rounds, with the given prunings.
    #[must_use]
    pub fn solve(&self, limit: u32, pruning: Pruning) -> Solution {
        match self.solve_within(limit, pruning, u64::MAX) {
            Ok(solution) => solution,
            Err(e) => unreachable!("no search stores u64::MAX states: {e}"),
        }
    }

    /// Like [`Battle::solve`], but stops with an error once the search would store more than
    /// `max_states` states (each takes up to about 155 bytes).
    ///
    /// # Errors
    /// When the limit is reached before the answer is known.
    pub fn solve_within(
        &self,
        limit: u32,
        pruning: Pruning,
        max_states: u64,
    ) -> Result<Solution, TooManyStates> {
        self.solve_observed(limit, pruning, max_states, &mut |_| {})
    }

    /// Like [`Battle::solve_within`], telling `progress` how far the search got (after every
    /// round searched and every 65,536 states expanded: the states stored so far and the
    /// round being searched in `layers`).
    ///
    /// # Errors
    /// When the limit is reached before the answer is known.
    pub fn solve_observed(
        &self,
        limit: u32,
        pruning: Pruning,
        max_states: u64,
        progress: &mut dyn FnMut(&SearchStats),
    ) -> Result<Solution, TooManyStates> {
        self.solve_cancellable(limit, pruning, max_states, progress, &AtomicBool::new(false)).map_err(|e| {
            match e {
                Stopped::TooManyStates(e) => e,
                Stopped::Cancelled(_) => unreachable!("nobody else holds the flag"),
            }
        })
    }

    /// Like [`Battle::solve_observed`], but stops as soon as `cancel` is set (the search reads
    /// it every 1,024 states expanded).
    ///
    /// # Errors
    /// When the state limit is reached before the answer is known, or `cancel` is set first.
    pub fn solve_cancellable(
        &self,
        limit: u32,
        pruning: Pruning,
        max_states: u64,
        progress: &mut dyn FnMut(&SearchStats),
        cancel: &AtomicBool,
    ) -> Result<Solution, Stopped> {
        if pruning.bound && self.start().zergling_hp() > limit {
            return Ok(Solution { limit, plan: None, stats: SearchStats::default() });
        }
        let result = shortest_win_cancellable(&Search(self), limit, pruning, max_states, progress, cancel)?;
        let plan = result.plan.map(|plan| {
            // Without symmetry the search's states are the battle's own, in label order.
            if !pruning.symmetry {
                return self.replay(&plan).expect("a plan found by the search replays through the rules");
            }
            // With symmetry its shots index sorted states; zerglings with equal HP and cell
            // are interchangeable there (the next state is sorted again), so a shot names any
            // of them in label order. (Without symmetry they are not: the next shot's index
            // depends on which of them was hit.)
            let mut labelled = Vec::with_capacity(plan.len());
            let mut state = self.start();
            for action in plan {
                let seen = state.canonical();
                let action = match action {
                    Action::Shoot(i) => {
                        let target = seen.zerglings()[usize::from(i)];
                        let at = state.zerglings().iter().position(|z| *z == target);
                        Action::Shoot(at.map_or(u8::MAX, |at| at as u8))
                    }
                    a @ Action::Move(_) => a,
                };
                labelled.push(action);
                if let Some(Outcome::Continue { state: next, .. }) = play(self.map(), &state, action) {
                    state = next;
                }
            }
            self.replay(&labelled).expect("a plan found by the search replays through the rules")
        });
        Ok(Solution { limit, plan, stats: result.stats })
    }
}
