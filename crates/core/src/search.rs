//! Shortest-win search for one agent against a deterministic environment.
//!
//! The agent chooses an action each step; the environment's answer is fixed by the rules, so a
//! step maps a state to one next state, to a win, or to a loss. The search is breadth-first by
//! layers (layer `t` = states after `t` steps), so the first win found is the shortest.
//!
//! Three optional prunings, each of which can be switched off (the tests check that none of them
//! changes an answer):
//! - **symmetry**: states are replaced by [`Puzzle::canonical`] forms;
//! - **dominance**: states with equal [`Puzzle::dominance_key`] are compared by their resource
//!   (more is better); a state no better than one already seen, in this layer or an earlier
//!   one, is dropped. Without dominance, only exact repeats are dropped;
//! - **bound**: a state from which [`Puzzle::lower_bound`] steps are still needed to win, and
//!   that many steps are no longer left, is dropped.
//!
//! The plan's actions are the ones taken in the states the search stored, that is in canonical
//! states when symmetry is on: replay a plan by canonicalising after every step (or use
//! actions that mean the same in every equivalent state).
//!
//! Dropping repeats and dominated states from earlier layers is sound because the rules do
//! not depend on the step number (only the step limit does, and it favours the earlier state).

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::hash::Hash;
use std::sync::atomic::AtomicBool;

use crate::cancel;

/// What one action leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step<S> {
    /// The game goes on in this state.
    Next(S),
    /// The agent has won with this step.
    Won,
    /// The agent has lost with this step (the action is useless).
    Lost,
}

/// A one-agent puzzle against a deterministic environment.
pub trait Puzzle {
    /// A full state (the agent's and the environment's part).
    type State: Clone + Eq + Hash;
    /// An action of the agent.
    type Action: Clone;
    /// A state without its resource, for dominance.
    type Key: Eq + Hash;

    /// The state to start from.
    fn start(&self) -> Self::State;

    /// Calls `f` for every action in `state` with what it leads to (after the environment's
    /// answer).
    fn for_each_action(&self, state: &Self::State, f: impl FnMut(Self::Action, Step<Self::State>));

    /// A canonical representative of the states equivalent to `state` under the puzzle's
    /// symmetries; equivalent states must have the same future (same shortest win).
    fn canonical(&self, state: Self::State) -> Self::State {
        state
    }

    /// The state's key and resource: of two states with equal keys, the one with more resource
    /// is at least as good (wins at least as fast).
    fn dominance_key(&self, state: &Self::State) -> (Self::Key, u64);

    /// A lower bound on the steps still needed to win from `state` (0 when unknown, `u32::MAX`
    /// when no win is possible). It must never exceed the truth.
    fn lower_bound(&self, state: &Self::State) -> u32 {
        let _ = state;
        0
    }
}

/// Which prunings a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Replace states by their canonical forms.
    pub symmetry: bool,
    /// Drop states dominated by others with more resource.
    pub dominance: bool,
    /// Drop states that cannot win within the steps left.
    pub bound: bool,
}

impl Pruning {
    /// Every pruning on.
    pub const ALL: Pruning = Pruning { symmetry: true, dominance: true, bound: true };
    /// No pruning but dropping exact repeats.
    pub const NONE: Pruning = Pruning { symmetry: false, dominance: false, bound: false };
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning::ALL
    }
}

/// Counts from a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// States kept (stored in some layer).
    pub states: u64,
    /// States expanded (their actions generated).
    pub expanded: u64,
    /// Layers searched.
    pub layers: u32,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<A> {
    /// The actions of a shortest win, or `None` when no win exists within the limit.
    pub plan: Option<Vec<A>>,
    /// Counts.
    pub stats: SearchStats,
}

struct Node<S, A> {
    state: S,
    /// (layer, index) of the state this one came from, and the action.
    parent: Option<(u32, u32, A)>,
}

/// The best resource seen for a key, and where that state is stored.
#[derive(Clone, Copy)]
struct Seen {
    resource: u64,
    layer: u32,
    index: u32,
}

/// The search stored more states than it was allowed to (see [`shortest_win_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyStates {
    /// The limit.
    pub max_states: u64,
    /// Counts up to the stop.
    pub stats: SearchStats,
}

impl std::fmt::Display for TooManyStates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the search stored {} states in {} without an answer (the limit is {})",
            crate::units::count(self.stats.states),
            if self.stats.layers == 1 {
                "1 layer".to_string()
            } else {
                format!("{} layers", self.stats.layers)
            },
            crate::units::count(self.max_states)
        )
    }
}

impl std::error::Error for TooManyStates {}

/// Why a search stopped without an answer (see [`shortest_win_cancellable`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// It would have stored more states than it was allowed to.
    TooManyStates(TooManyStates),
    /// Its cancellation flag was set; the counts up to the stop.
    Cancelled(SearchStats),
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stopped::TooManyStates(e) => e.fmt(f),
            Stopped::Cancelled(stats) => {
                write!(f, "the search was stopped after storing {} states", crate::units::count(stats.states))
            }
        }
    }
}

impl std::error::Error for Stopped {}

/// How many states a search expands between two reads of its cancellation flag.
pub const CANCEL_EVERY: u64 = 1 << 10;

/// Finds a shortest win of at most `max_steps` steps.
pub fn shortest_win<P: Puzzle>(puzzle: &P, max_steps: u32, pruning: Pruning) -> SearchResult<P::Action> {
    match shortest_win_within(puzzle, max_steps, pruning, u64::MAX) {
        Ok(result) => result,
        Err(e) => unreachable!("no search stores u64::MAX states: {e}"),
    }
}

/// Finds a shortest win of at most `max_steps` steps, storing at most `max_states` states
/// (memory grows with the states stored: a bound keeps a hard search from exhausting it).
///
/// # Errors
/// When more than `max_states` states would be stored before the answer is known.
pub fn shortest_win_within<P: Puzzle>(
    puzzle: &P,
    max_steps: u32,
    pruning: Pruning,
    max_states: u64,
) -> Result<SearchResult<P::Action>, TooManyStates> {
    shortest_win_observed(puzzle, max_steps, pruning, max_states, &mut |_| {})
}

/// How often a search reports its progress: after this many expanded states, and after every
/// layer.
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// [`shortest_win_within`], telling `progress` how far it got: after every
/// [`PROGRESS_EVERY`] expanded states and after every layer, with the states stored so far
/// (the next layer's included) and `layers` the layer being expanded (1 for the start).
///
/// # Errors
/// When more than `max_states` states would be stored before the answer is known.
pub fn shortest_win_observed<P: Puzzle>(
    puzzle: &P,
    max_steps: u32,
    pruning: Pruning,
    max_states: u64,
    progress: &mut dyn FnMut(&SearchStats),
) -> Result<SearchResult<P::Action>, TooManyStates> {
    shortest_win_cancellable(puzzle, max_steps, pruning, max_states, progress, &AtomicBool::new(false))
        .map_err(|e| match e {
            Stopped::TooManyStates(e) => e,
            Stopped::Cancelled(_) => unreachable!("nobody else holds the flag"),
        })
}

/// [`shortest_win_observed`] that also stops when `cancel` is set (it reads the flag every
/// [`CANCEL_EVERY`] expanded states).
///
/// # Errors
/// When more than `max_states` states would be stored before the answer is known, or when
/// `cancel` is set first.
pub fn shortest_win_cancellable<P: Puzzle>(
    puzzle: &P,
    max_steps: u32,
    pruning: Pruning,
    max_states: u64,
    progress: &mut dyn FnMut(&SearchStats),
    cancel: &AtomicBool,
) -> Result<SearchResult<P::Action>, Stopped> {
    let canon = |s: P::State| if pruning.symmetry { puzzle.canonical(s) } else { s };
    let mut stats = SearchStats::default();
    let start = canon(puzzle.start());
    let mut layers: Vec<Vec<Node<P::State, P::Action>>> =
        vec![vec![Node { state: start.clone(), parent: None }]];
    stats.states = 1;
    // Dominance keys or exact states, with the best resource seen.
    let mut seen_keys: HashMap<P::Key, Seen> = HashMap::new();
    let mut seen_states: HashMap<P::State, ()> = HashMap::new();
    if pruning.dominance {
        let (key, resource) = puzzle.dominance_key(&start);
        seen_keys.insert(key, Seen { resource, layer: 0, index: 0 });
    } else {
        seen_states.insert(start, ());
    }
    for t in 0..max_steps {
        let mut next: Vec<Node<P::State, P::Action>> = Vec::new();
        let current = &layers[t as usize];
        stats.layers = t + 1;
        for (i, node) in current.iter().enumerate() {
            stats.expanded += 1;
            let mut won = None;
            puzzle.for_each_action(&node.state, |action, step| {
                if won.is_some() {
                    return;
                }
                let state = match step {
                    Step::Won => {
                        won = Some(action);
                        return;
                    }
                    Step::Lost => return,
                    Step::Next(state) => canon(state),
                };
                if pruning.bound && (t + 1).saturating_add(puzzle.lower_bound(&state)) > max_steps {
                    return;
                }
                let parent = Some((t, i as u32, action));
                if !pruning.dominance {
                    if seen_states.insert(state.clone(), ()).is_none() {
                        next.push(Node { state, parent });
                    }
                    return;
                }
                let (key, resource) = puzzle.dominance_key(&state);
                match seen_keys.entry(key) {
                    Entry::Vacant(e) => {
                        e.insert(Seen { resource, layer: t + 1, index: next.len() as u32 });
                        next.push(Node { state, parent });
                    }
                    Entry::Occupied(mut e) => {
                        let Seen { resource: best, layer, index } = *e.get();
                        if resource <= best {
                            return;
                        }
                        if layer == t + 1 {
                            next[index as usize] = Node { state, parent };
                            e.insert(Seen { resource, layer, index });
                        } else {
                            e.insert(Seen { resource, layer: t + 1, index: next.len() as u32 });
                            next.push(Node { state, parent });
                        }
                    }
                }
            });
            if let Some(last) = won {
                let mut plan = vec![last];
                let mut at = (t, i as u32);
                while let Some((layer, index, action)) = &layers[at.0 as usize][at.1 as usize].parent {
                    plan.push(action.clone());
                    at = (*layer, *index);
                }
                plan.reverse();
                return Ok(SearchResult { plan: Some(plan), stats });
            }
            if stats.states + next.len() as u64 > max_states {
                stats.states += next.len() as u64;
                return Err(Stopped::TooManyStates(TooManyStates { max_states, stats }));
            }
            if stats.expanded.is_multiple_of(CANCEL_EVERY) && cancel::is_set(cancel) {
                return Err(Stopped::Cancelled(SearchStats {
                    states: stats.states + next.len() as u64,
                    ..stats
                }));
            }
            if stats.expanded.is_multiple_of(PROGRESS_EVERY) {
                progress(&SearchStats { states: stats.states + next.len() as u64, ..stats });
            }
        }
        if next.is_empty() {
            break;
        }
        stats.states += next.len() as u64;
        progress(&stats);
        layers.push(next);
    }
    Ok(SearchResult { plan: None, stats })
}
