//! Exact solving under the bans on perpetual check and perpetual chase.
//!
//! # The rule
//!
//! A game marks every move with a label: a **check** when the side to move after it is in
//! check ([`Checks::in_check`]), else a **chase** when the game says so ([`Checks::is_chase`]),
//! else **idle**. Finite play is as in the plain game ([`crate::Retrograde`]): terminal values,
//! no move = loss, known values of moves out of the index. In an endless play each side has a
//! *level*: 2 if from some point on all its moves are checks, 1 if from some point on all are
//! checks or chases (not all checks), 0 otherwise. The side of the higher level loses; equal
//! levels draw. A game that marks no chase (the default) is under the ban on perpetual check
//! alone: the side that checks forever while the other does not loses.
//!
//! # Values
//!
//! A [`RuleValue`] adds wins and losses by the rule to [`Value`], ordered as "infinitely far"
//! wins and losses (`Win(d)` > wins by the rule > draws > losses by the rule > `Loss(d)`), each
//! with the [`Ban`] that decided it: [`Ban::Check`] when the result is one under the ban on
//! perpetual check alone (the loser is forced to check forever), [`Ban::Chase`] when only the
//! ban on perpetual chase makes it (the loser can avoid checking forever, not chasing). A rule
//! value carries a *rank*, a progress measure of the winner (below); it is no distance.
//!
//! # Algorithm
//!
//! 1. The plain game is solved ([`crate::Retrograde`]); its wins and losses keep winner and
//!    distance. Let `D` be its non-terminal draws. A state is a position with who is to move
//!    (`M`: me, `O`: the opponent); moves out of `D` end the play with a result for me.
//! 2. **Ban on perpetual check** (module `check`): my endless play wins iff `E` = {me to
//!    move, not in check} is seen finitely often and `F` = {opponent to move, not in check}
//!    infinitely often, a one-pair Rabin condition: `W = μZ. νY. μX. Cpre(Z) ∪ (F ∩ Cpre(Y))
//!    ∪ (¬E ∩ Cpre(X))`, where a move out of `D` wins for me only into a mate or a result of
//!    this ban. Each `μX` is a retrograde pass with move counters over the predecessor lists,
//!    O(positions + moves), in parallel. The rule is the same for both sides, so one
//!    computation serves both: a position is won if its `M`-state is in `W`, lost if its
//!    `O`-state is. These are exactly the results under the ban on perpetual check alone.
//! 3. **Ban on perpetual chase** (module `chase`, only when the game marks chases): on the
//!    draws left, `D'`, a max-parity game on moves with priorities O-idle 5, M-idle 4, O-chase
//!    3, M-chase 2, checks 1 (I win when the largest priority seen infinitely often is even),
//!    every move out of `D'` ending the play with its value (step 2's results included):
//!    `W = μZ5. νZ4. μZ3. νZ2. μZ1. Pre`, where a state is in `Pre` when I can make (`M`) or
//!    the opponent must make (`O`) a move into a win of mine or into `Z_p`, `p` its priority.
//!    The sets stay nested (`Z5 ⊆ Z3 ⊆ Z1 ⊆ Z2 ⊆ Z4`); each `μZ1` is a retrograde pass that
//!    follows checks only, the idle moves and chases being counted against `Z5`, `Z4`, `Z3`,
//!    `Z2` as those change (counts kept up through the predecessor lists, which carry the
//!    chase label of each move).
//!
//!    The counts each iteration of `νZ4` starts from (moves into `Z5`) are made once per
//!    round of `Z5`, and those each `νZ2` starts from once per iteration of `νZ4`, then
//!    copied.
//! 4. Draws get the distance to a drawn end again (breadth first among the remaining draws).

//! # Layers
//!
//! Both stages solve their set (`D`, then `D'`) in **layers**, one after the other: the
//! strongly connected components of its moves, by level (0: no move leads to another
//! component; else one more than the highest level a move leads to), consecutive levels
//! merged up to a least size ([`PerpetualCheck::layer_size`]). A layer's moves into the
//! layers solved before it end the play there with the value found, which is how the
//! fixpoints over the whole set count them: a win of mine there is in every `Z` from the
//! start, anything else is an escape. A layer's ranks and rounds continue those of the
//! layers before, so they stay a certificate of the whole set. The fixpoints' iterations
//! are then those of each layer, not all of them over every draw: Soldiers only advance, so
//! their materials split into many layers (`KNvKPP`: 47 in the chase stage, which took 29 s
//! instead of 196 s).
//!
//! # Ranks and the winner's move
//!
//! Check: a state of `W` added in round `r` of `Z` at level `j` of its last `μX` has rank
//! `offset(r) + j`. Winner's move: to the smallest rank (see [`winning_move`]); it keeps
//! the win, the rank falls at each move except after the winner's moves that give no check,
//! and the round never grows, so the opponent checks forever while the winner does not.
//!
//! Chase: a state gets `ρ` = its level in the last `μZ1` of its round of `Z3` (numbered on
//! through the rounds); `R5(ρ)`, `R3(ρ)` are its rounds of `Z5` and `Z3`. Every move of the
//! loser goes down: idle `R5`, chase `R3`, check `ρ` strictly; the winner has a move with
//! idle `R5 ≤`, chase `R3 ≤`, check `ρ <`. So on any play idle moves of the loser stop, then
//! (if the winner stops idling) its chases, then it could only check and `ρ` would fall
//! forever: the play is won. The rank kept is `2ρ`, plus 1 for an `M`-state whose move is an
//! idle one (no winning check or chase): the winner takes a win out of `D'`, else a check to
//! a smaller `ρ`, else the idle move (odd rank) or the chase (even) to the smallest rank. The
//! certificate ([`check_rule_solution`]) checks all this on every position.
//!
//! # Memory
//!
//! The plain solution, a bit per position with a 4-byte count per 64 positions (the set
//! `D`), and 29 bytes per position of `D` while the check stage runs; then 4 bytes per
//! position of `D` (the results) and, for chases, 46 bytes per position of `D'` (the
//! layers' search for components takes less, before). Besides, the
//! predecessors inside `D` (then `D'`) of each member (4 bytes per move between two members,
//! 4 per member), built once with two un-move passes, when they fit in
//! [`PerpetualCheck::edge_budget`]; else every pass generates un-moves.

use rayon::prelude::*;

use crate::game::{Successor, Unmoves};
use crate::retrograde::{Retrograde, Solution, SolveError};
// compat: removed after the house merge
pub use crate::value::{Ban, RuleValue};
use crate::value::{Plies, Value, Wdl};

mod chase;
mod check;
mod graph;

use graph::{CHUNK, DrawIndex, Graph};

/// The label of a move under the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Label {
    /// Neither a check nor a chase.
    Idle,
    /// A chase (no check).
    Chase,
    /// The side to move after it is in check.
    Check,
}


/// A game with the marks that the rule needs: checks and, optionally, chases.
pub trait Checks: Unmoves {
    /// Whether the side to move is in check at `pos` (the move that led here gave check).
    /// Asked only for non-terminal positions.
    fn in_check(&self, pos: usize) -> bool;

    /// The value under the rule of the position outside the index that the move `mv` of `pos`
    /// leads to, for the side to move there; `plain` is the value [`crate::Game::for_each_move`]
    /// reported for it ([`Successor::Known`]). The default: the same value (right for a game
    /// whose outside positions are all decided by mate or drawn ends).
    ///
    /// The two must agree as [`RuleValue::plain`] says: the same mates, and a draw in the plain
    /// game for every rule value.
    fn known_by_rule(&self, pos: usize, mv: Self::Move, plain: Value) -> RuleValue {
        let _ = (pos, mv);
        plain.into()
    }

    /// Whether the game marks chases at all, or a move out of the index may lead to a result
    /// of the ban on perpetual chase ([`Checks::known_by_rule`]); `false` (the default): the
    /// rule is the ban on perpetual check alone, and [`Checks::is_chase`] is never asked.
    fn has_chases(&self) -> bool {
        false
    }

    /// Whether the move `mv` of `pos`, a move to a position of the index where the side to
    /// move is not in check, is a chase. The default: never.
    fn is_chase(&self, pos: usize, mv: Self::Move) -> bool {
        let _ = (pos, mv);
        false
    }

    /// Calls `f` once for every un-move into `pos` (a position not in check) as
    /// [`Unmoves::for_each_unmove`] does, with whether the move is a chase
    /// ([`Checks::is_chase`] of the move; the multiset of the two must agree). The game may
    /// skip the positions `wanted` refuses (the solver ignores them), and so spare working out
    /// their labels. The default: every un-move, no chase.
    fn for_each_labelled_unmove(
        &self,
        pos: usize,
        wanted: impl Fn(usize) -> bool,
        mut f: impl FnMut(usize, bool),
    ) {
        let _ = wanted;
        self.for_each_unmove(pos, |p| f(p, false));
    }

    /// The label of the move `mv` of `pos` that leads to `to`.
    fn label(&self, pos: usize, mv: Self::Move, to: Successor) -> Label {
        match to {
            Successor::Position(q) if self.in_check(q) => Label::Check,
            Successor::Position(_) if self.has_chases() && self.is_chase(pos, mv) => Label::Chase,
            _ => Label::Idle,
        }
    }
}

/// Figures of one solve under the rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleStats {
    /// Drawn positions of the plain game (non-terminal), the set `D`.
    pub plain_draws: u64,
    /// Rounds of the outer fixpoint (`Z`) of the check stage over all its layers, the last
    /// one of each finding nothing.
    pub rounds: u32,
    /// Attractor passes (`X`) of the check stage in all.
    pub passes: u32,
    /// Draws left after the check stage, the set `D'` of the chase stage (0 when the game
    /// marks no chase).
    pub chase_draws: u64,
    /// Rounds of `Z5` of the chase stage over all its layers, the last one of each finding
    /// nothing.
    pub chase_rounds: u32,
    /// Iterations of `νZ4` of the chase stage in all.
    pub chase_iterations: u32,
    /// Attractor passes (`μZ1`) of the chase stage in all.
    pub chase_passes: u32,
    /// Layers of the check stage, solved one after the other (see
    /// [`PerpetualCheck::layer_size`]).
    pub layers: u32,
    /// Layers of the chase stage.
    pub chase_layers: u32,
}

/// The largest rank of each productive round, in order: a rank `r` belongs to the first round
/// whose largest rank is at least `r`.
fn round_of(tops: &[u32], rank: u32) -> usize {
    tops.partition_point(|&top| top < rank)
}

/// The solver under the rule: the ban on perpetual check, and the ban on perpetual chase for
/// a game that marks chases ([`Checks::has_chases`]).
///
/// ```
/// use endgame_core::explicit::ExplicitGame;
/// use endgame_core::perpetual::{Ban, PerpetualCheck, RuleValue};
///
/// // 0 <-> 1 forever; the side to move at 0 is always in check: the side moving from 1
/// // checks forever and loses.
/// let game = ExplicitGame::new(vec![vec![1], vec![0]]).with_check(0);
/// let solution = PerpetualCheck::new().solve(&game).unwrap();
/// assert!(matches!(solution.value(0), Some(RuleValue::WinByRule(Ban::Check, _))));
/// assert!(matches!(solution.value(1), Some(RuleValue::LossByRule(Ban::Check, _))));
///
/// // The same with the move 1 -> 0 a chase instead of a check: the chaser loses.
/// let game = ExplicitGame::new(vec![vec![1], vec![0]]).with_chase(1, 0);
/// let solution = PerpetualCheck::new().solve(&game).unwrap();
/// assert!(matches!(solution.value(0), Some(RuleValue::WinByRule(Ban::Chase, _))));
/// assert!(matches!(solution.value(1), Some(RuleValue::LossByRule(Ban::Chase, _))));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PerpetualCheck {
    compact: bool,
    edge_budget: usize,
    chases: bool,
    layer_size: usize,
}

impl Default for PerpetualCheck {
    fn default() -> Self {
        Self::new()
    }
}

/// The default budget of the predecessor lists (see [`PerpetualCheck::edge_budget`]): 2 GiB.
pub const DEFAULT_EDGE_BUDGET: usize = 2 << 30;

/// The default least size of a layer (see [`PerpetualCheck::layer_size`]).
pub const DEFAULT_LAYER_SIZE: usize = 1 << 12;

/// The payload of a cell of [`RuleSolution`]: a rank, or a draw's distance plus one.
const TAG_SHIFT: u32 = 29;
const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
const TAG_DRAW: u32 = 0;
const TAG_WIN_CHECK: u32 = 1;
const TAG_LOSS_CHECK: u32 = 2;
const TAG_WIN_CHASE: u32 = 3;
const TAG_LOSS_CHASE: u32 = 4;

const fn cell(tag: u32, payload: u32) -> u32 {
    (tag << TAG_SHIFT) | payload
}

/// The cell of a value of `D`, when its rank or distance fits.
fn cell_of(value: RuleValue) -> Result<u32, SolveError> {
    let (tag, payload) = match value {
        RuleValue::WinByRule(Ban::Check, r) => (TAG_WIN_CHECK, r),
        RuleValue::LossByRule(Ban::Check, r) => (TAG_LOSS_CHECK, r),
        RuleValue::WinByRule(Ban::Chase, r) => (TAG_WIN_CHASE, r),
        RuleValue::LossByRule(Ban::Chase, r) => (TAG_LOSS_CHASE, r),
        RuleValue::Draw(Some(d)) => (TAG_DRAW, d.0.saturating_add(1)),
        _ => (TAG_DRAW, 0),
    };
    if payload > PAYLOAD { Err(SolveError::DistanceTooLarge) } else { Ok(cell(tag, payload)) }
}

/// The value of a cell.
const fn value_of(word: u32) -> RuleValue {
    let payload = word & PAYLOAD;
    match word >> TAG_SHIFT {
        TAG_WIN_CHECK => RuleValue::WinByRule(Ban::Check, payload),
        TAG_LOSS_CHECK => RuleValue::LossByRule(Ban::Check, payload),
        TAG_WIN_CHASE => RuleValue::WinByRule(Ban::Chase, payload),
        TAG_LOSS_CHASE => RuleValue::LossByRule(Ban::Chase, payload),
        _ if payload == 0 => RuleValue::Draw(None),
        _ => RuleValue::Draw(Some(Plies(payload - 1))),
    }
}

impl PerpetualCheck {
    /// A solver with 4-byte cells for the plain solution and predecessor lists within
    /// [`DEFAULT_EDGE_BUDGET`], that follows the game's chases.
    #[must_use]
    pub fn new() -> Self {
        PerpetualCheck {
            compact: false,
            edge_budget: DEFAULT_EDGE_BUDGET,
            chases: true,
            layer_size: DEFAULT_LAYER_SIZE,
        }
    }

    /// At most this many bytes for the lists of predecessors inside the draws (4 bytes per
    /// move between two drawn positions, 4 per drawn position): with them every pass reads
    /// the lists instead of generating un-moves. When the draws have more moves between them
    /// than fit, the passes generate un-moves (slower, no extra memory). 0: never.
    #[must_use]
    pub fn edge_budget(mut self, bytes: usize) -> Self {
        self.edge_budget = bytes;
        self
    }

    /// The least number of draws in a layer of either stage (see the module notes),
    /// [`DEFAULT_LAYER_SIZE`] by default: the draws are split into the levels of the
    /// strongly connected components of their moves, solved one after the other, and
    /// consecutive levels are merged until they hold this many. 0: every level apart. The
    /// results are the same whatever the size (the ranks differ); smaller layers cost a few
    /// scans each, larger ones more passes over more draws. Without predecessor lists (see
    /// [`PerpetualCheck::edge_budget`]) the draws are one layer.
    #[must_use]
    pub fn layer_size(mut self, draws: usize) -> Self {
        self.layer_size = draws;
        self
    }

    /// Whether to follow the chases the game marks (the default); `false`: the ban on
    /// perpetual check alone, as for a game without chases.
    #[must_use]
    pub fn chases(mut self, chases: bool) -> Self {
        self.chases = chases;
        self
    }

    /// Bytes a solve under the ban on perpetual check needs besides the plain solution, for a
    /// game of `positions` positions of which `drawn` are drawn under plain rules: the set of
    /// draws (a bit per position, a 4-byte count per 64) and 29 bytes per draw. The
    /// predecessor lists come on top, at most [`PerpetualCheck::edge_budget`] bytes.
    #[must_use]
    pub const fn memory_estimate(positions: u64, drawn: u64) -> u64 {
        let words = positions.div_ceil(64);
        words.saturating_mul(12).saturating_add(drawn.saturating_mul(29))
    }

    /// [`PerpetualCheck::memory_estimate`] for a game with chases: up to 54 bytes per draw
    /// (the results of the check stage, and the chase stage's counts over the draws it
    /// leaves, at most all of them).
    #[must_use]
    pub const fn chase_memory_estimate(positions: u64, drawn: u64) -> u64 {
        let words = positions.div_ceil(64);
        words.saturating_mul(24).saturating_add(drawn.saturating_mul(8 + chase::BYTES_PER_DRAW))
    }

    /// Solves the plain game with 2-byte cells (see [`Retrograde::compact`]).
    #[must_use]
    pub fn compact(mut self, compact: bool) -> Self {
        self.compact = compact;
        self
    }

    /// Solves a game under the rule.
    ///
    /// # Errors
    /// When the game is larger than the solver's limits (see [`SolveError`]).
    pub fn solve<G: Checks>(&self, game: &G) -> Result<RuleSolution, SolveError> {
        let plain = Retrograde::new().compact(self.compact).solve_with_unmoves(game)?;
        self.solve_plain(game, plain)
    }

    /// Solves a game under the rule, given its plain solution (which must be right), with
    /// this solver's settings.
    ///
    /// # Errors
    /// When the game is larger than the solver's limits (see [`SolveError`]).
    pub fn solve_plain<G: Checks>(&self, game: &G, plain: Solution) -> Result<RuleSolution, SolveError> {
        let n = game.num_positions();
        if plain.len() != n {
            return Err(SolveError::WrongSize { expected: n, found: plain.len() });
        }
        let mut graph = Graph::new(
            game,
            |p| {
                game.is_position(p)
                    && game.terminal(p).is_none()
                    && matches!(plain.value(p), Some(Value::Draw(_)))
            },
            self.edge_budget,
            false,
        )?;
        let layers = graph.layers(self.layer_size);
        let mut rabin = check::Rabin::new(&graph, &plain);
        let (mut stats, tops) = rabin.solve(&layers)?;
        stats.layers = u32::try_from(layers.len() - 1).unwrap_or(u32::MAX);
        let m = graph.len();
        // The cells in the graph's order, then in the order of the set D.
        let mut words: Vec<u32> = (0..m)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| rabin.value(i).map_or(Ok(cell(TAG_DRAW, 0)), cell_of))
            .collect::<Result<_, _>>()?;
        drop(rabin);
        let plain_value = |q: usize| plain.value(q).map(RuleValue::from);
        if !(self.chases && game.has_chases()) {
            let dist = graph.draw_distances(|i| words[i] == cell(TAG_DRAW, 0), plain_value);
            fill_distances(&mut words, dist.iter().copied().enumerate())?;
            let words = graph.in_first_order(words);
            let index = graph.into_index();
            return Ok(RuleSolution {
                plain,
                index,
                words,
                stats,
                tops,
                tops5: Vec::new(),
                tops3: Vec::new(),
            });
        }
        let mut words = graph.in_first_order(words);
        // The lists of D go before those of D' are made.
        let index = graph.into_index();
        let outside = |q: usize| match index.index(q) {
            Some(i) => Some(value_of(words[i])),
            None => plain_value(q),
        };
        let mut graph = Graph::new(
            game,
            |p| index.index(p).is_some_and(|i| words[i] == cell(TAG_DRAW, 0)),
            self.edge_budget,
            true,
        )?;
        let layers = graph.layers(self.layer_size);
        let mut parity = chase::Parity::new(&graph, outside);
        let figures = parity.solve(&layers)?;
        stats.chase_draws = graph.len() as u64;
        stats.chase_rounds = figures.rounds;
        stats.chase_iterations = figures.iterations;
        stats.chase_passes = figures.passes;
        stats.chase_layers = u32::try_from(layers.len() - 1).unwrap_or(u32::MAX);
        let decided: Vec<(usize, u32)> = (0..graph.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .filter_map(|i| parity.value(i).map(|v| (i, v)))
            .map(|(i, v)| Ok((i, cell_of(v)?)))
            .collect::<Result<_, SolveError>>()?;
        let undecided = |i: usize| parity.value(i).is_none();
        let dist = graph.draw_distances(undecided, outside);
        let (tops5, tops3) = (std::mem::take(&mut parity.tops5), std::mem::take(&mut parity.tops3));
        drop(parity);
        let d_number = |i: usize| index.index(graph.positions[i] as usize).expect("D' is part of D");
        let distances: Vec<(usize, u32)> = dist.iter().enumerate().map(|(i, &d)| (d_number(i), d)).collect();
        let decided: Vec<(usize, u32)> = decided.into_iter().map(|(i, c)| (d_number(i), c)).collect();
        drop(graph);
        for (i, c) in decided {
            words[i] = c;
        }
        fill_distances(&mut words, distances.into_iter())?;
        Ok(RuleSolution { plain, index, words, stats, tops, tops5, tops3 })
    }

    /// Solves a game under the rule, given its plain solution (which must be right).
    ///
    /// # Errors
    /// When the game is larger than the solver's limits (see [`SolveError`]).
    pub fn solve_from_plain<G: Checks>(game: &G, plain: Solution) -> Result<RuleSolution, SolveError> {
        PerpetualCheck::new().solve_plain(game, plain)
    }
}

/// Writes the distances to a drawn end (`u32::MAX`: none) into the cells of the draws they
/// are given for (the cells of decided positions are left alone).
fn fill_distances(
    words: &mut [u32],
    distances: impl Iterator<Item = (usize, u32)>,
) -> Result<(), SolveError> {
    for (i, d) in distances {
        if words[i] != cell(TAG_DRAW, 0) || d == u32::MAX {
            continue;
        }
        words[i] = cell_of(RuleValue::Draw(Some(Plies(d))))?;
    }
    Ok(())
}

/// The value of every position under the rule.
#[derive(Debug)]
pub struct RuleSolution {
    plain: Solution,
    index: DrawIndex,
    /// Per position of `D` (the plain draws): tag and rank or draw distance.
    words: Vec<u32>,
    stats: RuleStats,
    /// The largest rank of each round of the check stage (see [`round_of`]).
    tops: Vec<u32>,
    /// The largest `ρ` of each round of `Z5`, and of `Z3`, of the chase stage.
    tops5: Vec<u32>,
    tops3: Vec<u32>,
}

impl RuleSolution {
    /// The solution of the plain game (endless play always drawn).
    #[must_use]
    pub fn plain(&self) -> &Solution {
        &self.plain
    }

    /// Figures of the solve.
    #[must_use]
    pub fn stats(&self) -> RuleStats {
        self.stats
    }

    /// Bytes the solution takes: the plain solution, the set of its draws and a word per draw
    /// (as allocated).
    #[must_use]
    pub fn heap_bytes(&self) -> u64 {
        let tops = self.tops.capacity() + self.tops5.capacity() + self.tops3.capacity();
        self.plain.heap_bytes()
            + self.index.heap_bytes()
            + ((self.words.capacity() + tops) * size_of::<u32>()) as u64
    }

    /// The number of indexed positions (holes included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.plain.len()
    }

    /// Whether the index is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.plain.is_empty()
    }

    /// A solution from the value of every position (read from a table file): `n` positions,
    /// `value(p)` for each. Such a solution has no rounds ([`RuleSolution::round`] and
    /// [`RuleSolution::chase_round`] are 0 for every rank) and no figures of a solve; its
    /// values and ranks are what was written.
    ///
    /// # Errors
    /// When `n` exceeds the solver's limits, or a rank or distance does not fit in its cell.
    pub fn from_values(
        n: usize,
        value: impl Fn(usize) -> Option<RuleValue> + Sync,
    ) -> Result<RuleSolution, SolveError> {
        let plain = Solution::from_values_bytes((0..n).map(|p| value(p).map(RuleValue::plain)))?;
        let (index, positions) = DrawIndex::new(n, |p| {
            matches!(
                value(p),
                Some(RuleValue::Draw(_) | RuleValue::WinByRule(..) | RuleValue::LossByRule(..))
            )
        })?;
        let words = positions
            .par_iter()
            .map(|&p| cell_of(value(p as usize).unwrap_or(RuleValue::Draw(None))))
            .collect::<Result<Vec<u32>, SolveError>>()?;
        let stats = RuleStats { plain_draws: words.len() as u64, ..RuleStats::default() };
        Ok(RuleSolution {
            plain,
            index,
            words,
            stats,
            tops: Vec::new(),
            tops5: Vec::new(),
            tops3: Vec::new(),
        })
    }

    /// The value of a position for the side to move; `None` for a hole or an index out of range.
    #[must_use]
    pub fn value(&self, pos: usize) -> Option<RuleValue> {
        match self.index.index(pos) {
            Some(i) => Some(value_of(self.words[i])),
            None => self.plain.value(pos).map(RuleValue::from),
        }
    }

    /// Every value in index order (`None` for holes).
    pub fn values(&self) -> impl Iterator<Item = Option<RuleValue>> + '_ {
        (0..self.len()).map(|p| self.value(p))
    }

    /// The round of the outer fixpoint of the check stage in which a rank of a result of the
    /// ban on perpetual check was given (0 for the first).
    #[must_use]
    pub fn round(&self, rank: u32) -> usize {
        round_of(&self.tops, rank)
    }

    /// The rounds of `Z5` and of `Z3` (numbered on through the rounds of `Z5`) of the chase
    /// stage in which a rank of a result of the ban on perpetual chase was given.
    #[must_use]
    pub fn chase_round(&self, rank: u32) -> (usize, usize) {
        let rho = rank >> 1;
        (round_of(&self.tops5, rho), round_of(&self.tops3, rho))
    }

    /// Counts over all positions.
    #[must_use]
    pub fn summary(&self) -> RuleSummary {
        (0..self.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .fold(RuleSummary::default, |mut s, p| {
                s.add(self.value(p));
                s
            })
            .reduce(RuleSummary::default, RuleSummary::merge)
    }

    /// A copy with the value of `pos`, a position of `D` (a draw of the plain game), replaced
    /// by `value` (rounds and figures kept): to see a certificate refuse a wrong value.
    ///
    /// `None` when `pos` is not in `D`, or the rank or distance does not fit.
    #[must_use]
    pub fn with_value(&self, pos: usize, value: RuleValue) -> Option<RuleSolution> {
        let i = self.index.index(pos)?;
        let mut words = self.words.clone();
        words[i] = cell_of(value).ok()?;
        let index = DrawIndex::new(self.len(), |p| self.index.index(p).is_some()).ok()?.0;
        Some(RuleSolution {
            plain: Solution::from_values_bytes(self.plain.values()).ok()?,
            index,
            words,
            stats: self.stats,
            tops: self.tops.clone(),
            tops5: self.tops5.clone(),
            tops3: self.tops3.clone(),
        })
    }

    /// Bytes held besides the plain solution.
    #[must_use]
    pub fn rule_bytes(&self) -> usize {
        self.index.bytes() + self.words.len() * 4
    }
}

/// Counts of the values of a game solved under the rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleSummary {
    /// Positions won by mate (or the game's terminal values).
    pub wins: u64,
    /// Positions won by the rule (draws of the plain game), by either ban.
    pub wins_by_rule: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the rule (draws of the plain game), by either ban.
    pub losses_by_rule: u64,
    /// Positions lost by mate.
    pub losses: u64,
    /// Holes in the index.
    pub holes: u64,
    /// The longest win by mate (plies), 0 when there is none.
    pub longest_win: u32,
    /// The longest loss by mate (plies), 0 when there is none.
    pub longest_loss: u32,
    /// Of the wins by the rule, those by the ban on perpetual chase.
    pub wins_by_chase: u64,
    /// Of the losses by the rule, those by the ban on perpetual chase.
    pub losses_by_chase: u64,
}

impl RuleSummary {
    fn add(&mut self, value: Option<RuleValue>) {
        match value {
            Some(RuleValue::Win(d)) => {
                self.wins += 1;
                self.longest_win = self.longest_win.max(d.0);
            }
            Some(RuleValue::Loss(d)) => {
                self.losses += 1;
                self.longest_loss = self.longest_loss.max(d.0);
            }
            Some(RuleValue::WinByRule(ban, _)) => {
                self.wins_by_rule += 1;
                self.wins_by_chase += u64::from(ban == Ban::Chase);
            }
            Some(RuleValue::LossByRule(ban, _)) => {
                self.losses_by_rule += 1;
                self.losses_by_chase += u64::from(ban == Ban::Chase);
            }
            Some(RuleValue::Draw(_)) => self.draws += 1,
            None => self.holes += 1,
        }
    }

    fn merge(self, o: RuleSummary) -> RuleSummary {
        RuleSummary {
            wins: self.wins + o.wins,
            wins_by_rule: self.wins_by_rule + o.wins_by_rule,
            draws: self.draws + o.draws,
            losses_by_rule: self.losses_by_rule + o.losses_by_rule,
            losses: self.losses + o.losses,
            holes: self.holes + o.holes,
            longest_win: self.longest_win.max(o.longest_win),
            longest_loss: self.longest_loss.max(o.longest_loss),
            wins_by_chase: self.wins_by_chase + o.wins_by_chase,
            losses_by_chase: self.losses_by_chase + o.losses_by_chase,
        }
    }
}

/// A move as the winner's choice sees it: its label, the value of the position it leads to
/// for the side to move there, and whether that position is in the same index (a rank of
/// another index means nothing here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move's label.
    pub label: Label,
    /// The value after the move, for the side to move then.
    pub after: RuleValue,
    /// Whether the move stays in the index.
    pub inside: bool,
}

/// The move to play from a position of value `value` among `moves` (in the game's order), as
/// the solution's certificate proves it: for a win by the ban on perpetual chase, a win out
/// of the index or into a result of the ban on perpetual check (the best such), else a check
/// to a smaller progress measure, else the idle move (odd rank) or the chase (even rank) to
/// the smallest rank; for every other value the best move by value (the first of equals),
/// which for a win by the ban on perpetual check is the move to the smallest rank. `None`
/// when there is no move (or, for a broken solution, no move that keeps the win).
#[must_use]
pub fn winning_move(value: RuleValue, moves: &[Choice]) -> Option<usize> {
    let best = |keep: &dyn Fn(&Choice) -> bool| {
        let mut best: Option<(usize, RuleValue)> = None;
        for (k, m) in moves.iter().enumerate() {
            let v = m.after.before_move();
            if keep(m) && best.is_none_or(|(_, b)| v > b) {
                best = Some((k, v));
            }
        }
        best.map(|(k, _)| k)
    };
    let RuleValue::WinByRule(Ban::Chase, rank) = value else { return best(&|_| true) };
    let into_chase_loss = |m: &Choice| m.inside && matches!(m.after, RuleValue::LossByRule(Ban::Chase, _));
    if let Some(k) = best(&|m| m.after.wdl() == Wdl::Loss && !into_chase_loss(m)) {
        return Some(k);
    }
    let smaller = |m: &Choice| matches!(m.after, RuleValue::LossByRule(_, r) if r >> 1 < rank >> 1);
    if let Some(k) = best(&|m| into_chase_loss(m) && m.label == Label::Check && smaller(m)) {
        return Some(k);
    }
    let label = if rank & 1 == 1 { Label::Idle } else { Label::Chase };
    best(&|m| into_chase_loss(m) && m.label == label)
}

/// A move with the value it gives the side to move, under the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleScoredMove<M> {
    /// The move.
    pub mv: M,
    /// Where it leads.
    pub to: Successor,
    /// The value of making this move, for the side to move before it.
    pub value: RuleValue,
}

/// Every move of a non-terminal position with its value under the rule, best first: the
/// shortest mate, then the move the winner of a win by the rule plays ([`winning_move`]: it
/// keeps the win *and* wins; a move out of the index that wins by the rule counts as rank 0),
/// the other wins by the rule, draws, losses by the rule, the longest loss. Moves of equal
/// value keep the game's order.
#[must_use]
pub fn scored_moves<G: Checks>(
    game: &G,
    solution: &RuleSolution,
    pos: usize,
) -> Vec<RuleScoredMove<G::Move>> {
    let mut moves = Vec::new();
    let mut choices = Vec::new();
    if game.terminal(pos).is_some() || !game.is_position(pos) {
        return moves;
    }
    game.for_each_move(pos, |mv, to| {
        let (child, inside) = match to {
            Successor::Position(q) => (solution.value(q), true),
            // A rank from another solution means nothing here; a move out of the index that
            // wins by the rule wins at once as far as this index is concerned: rank 0.
            Successor::Known(v) => (Some(game.known_by_rule(pos, mv, v).without_rank()), false),
        };
        if let Some(child) = child {
            moves.push(RuleScoredMove { mv, to, value: child.before_move() });
            choices.push(Choice { label: game.label(pos, mv, to), after: child, inside });
        }
    });
    let first = solution.value(pos).and_then(|v| winning_move(v, &choices));
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&k| (Some(k) != first, std::cmp::Reverse(moves[k].value)));
    order.into_iter().map(|k| moves[k]).collect()
}

/// The best move under the rule (the first of [`scored_moves`]).
#[must_use]
pub fn best_move<G: Checks>(
    game: &G,
    solution: &RuleSolution,
    pos: usize,
) -> Option<RuleScoredMove<G::Move>> {
    scored_moves(game, solution, pos).into_iter().next()
}

/// Checks a solution under the rule against the game, position by position, as a certificate:
///
/// - mates and drawn ends are those of the plain solution (check that one with
///   [`crate::conformance::check_solution`]); every result by the rule is a plain draw;
/// - a win by the ban on perpetual check of rank `r` has a move to a loss by that ban of
///   smaller rank (or out of the index to a loss by that ban), in an earlier round when the
///   side to move is not in check, and no move to a mate; from a loss by that ban of rank `r`
///   every move leads to a win of the opponent by mate or by that ban, in the same round or an
///   earlier one and of smaller rank when the side to move is in check;
/// - for a win by the ban on perpetual chase, the move [`winning_move`] plays is a win out
///   of the index, into a result of the ban on perpetual check, or to a loss by the ban on
///   perpetual chase whose `ρ` (rank / 2) is smaller for a check, whose round of `Z3` is not
///   later for a chase, whose round of `Z5` is not later for an idle move; from a loss by
///   that ban every move leads to a win of the opponent: by mate, by the ban on perpetual
///   check, out of the index, or to a win by the ban on perpetual chase whose `ρ` is smaller
///   for a check, whose round of `Z3` is earlier for a chase, whose round of `Z5` is earlier
///   for an idle move;
/// - a draw has no move to a loss of any kind and some move to a draw.
///
/// These prove every result by the rule (see the module notes: the winner's moves keep the
/// win, and along any play the rounds and `ρ` cannot fall forever); a result of the ban on
/// perpetual check stays among them. The draws' rule is only necessary (that no side can
/// force a win, and which ban a result needs, is the solver's fixpoint, proven on small games
/// against a brute-force oracle).
///
/// # Errors
/// A message naming the first position that fails.
pub fn check_rule_solution<G: Checks>(game: &G, solution: &RuleSolution) -> Result<(), String> {
    (0..game.num_positions()).into_par_iter().with_min_len(CHUNK).try_for_each(|pos| {
        if !game.is_position(pos) || game.terminal(pos).is_some() {
            return Ok(());
        }
        let Some(value) = solution.value(pos) else { return Err(format!("position {pos} has no value")) };
        let plain = solution.plain().value(pos);
        if !value.is_by_rule() && value.wdl() != Wdl::Draw {
            return if plain.map(RuleValue::from) == Some(value) {
                Ok(())
            } else {
                Err(format!("position {pos}: {value:?} but {plain:?} in the plain game"))
            };
        }
        if !matches!(plain, Some(Value::Draw(_))) {
            return Err(format!("position {pos}: {value:?} but {plain:?} in the plain game"));
        }
        let check = game.in_check(pos);
        let mut children = Vec::new();
        game.for_each_move(pos, |mv, to| {
            let (after, inside) = match to {
                Successor::Position(q) => (solution.value(q), true),
                Successor::Known(v) => (Some(game.known_by_rule(pos, mv, v)), false),
            };
            children.push((after, inside, game.label(pos, mv, to)));
        });
        let fail = |what: &str| Err(format!("position {pos} ({value:?}, in check: {check}): {what}"));
        if value.wdl() != Wdl::Draw && children.iter().any(|(c, ..)| matches!(c, Some(RuleValue::Loss(_)))) {
            return fail("a move mates");
        }
        let rho_round = |r: u32| (solution.chase_round(r), r >> 1);
        match value {
            RuleValue::WinByRule(Ban::Check, rank) => {
                let progress = children.iter().any(|&(child, inside, _)| match child {
                    Some(RuleValue::LossByRule(Ban::Check, r)) if inside => {
                        r < rank && (check || solution.round(r) < solution.round(rank))
                    }
                    Some(RuleValue::LossByRule(Ban::Check, _)) => true,
                    _ => false,
                });
                if !progress {
                    return fail("no move to a smaller rank (of an earlier round when not in check)");
                }
            }
            RuleValue::LossByRule(Ban::Check, rank) => {
                for &(child, inside, _) in &children {
                    let ok = match child {
                        Some(RuleValue::Win(_)) => true,
                        Some(RuleValue::WinByRule(Ban::Check, r)) if inside => {
                            solution.round(r) <= solution.round(rank) && (!check || r < rank)
                        }
                        Some(RuleValue::WinByRule(Ban::Check, _)) => true,
                        _ => false,
                    };
                    if !ok {
                        return fail(&format!("a move to {child:?}"));
                    }
                }
            }
            RuleValue::WinByRule(Ban::Chase, rank) => {
                let choices: Vec<Choice> = children
                    .iter()
                    .map(|&(after, inside, label)| Choice {
                        label,
                        after: after.unwrap_or(RuleValue::Draw(None)),
                        inside,
                    })
                    .collect();
                let Some(k) = winning_move(value, &choices) else {
                    return fail("no move keeps the win as the ranks say");
                };
                let ((r5, r3), rho) = rho_round(rank);
                let ok = match choices[k] {
                    Choice { after: RuleValue::LossByRule(Ban::Chase, r), inside: true, label } => {
                        let ((t5, t3), t) = rho_round(r);
                        match label {
                            Label::Check => t < rho,
                            Label::Chase => t3 <= r3,
                            Label::Idle => t5 <= r5,
                        }
                    }
                    Choice { after, .. } => after.wdl() == Wdl::Loss,
                };
                if !ok {
                    return fail(&format!(
                        "the winning move (number {k}, {:?}) makes no progress",
                        choices[k]
                    ));
                }
            }
            RuleValue::LossByRule(Ban::Chase, rank) => {
                let ((r5, r3), rho) = rho_round(rank);
                for &(child, inside, label) in &children {
                    let ok = match child {
                        Some(RuleValue::Win(_) | RuleValue::WinByRule(Ban::Check, _)) => true,
                        Some(RuleValue::WinByRule(Ban::Chase, r)) if inside => {
                            let ((t5, t3), t) = rho_round(r);
                            match label {
                                Label::Check => t < rho,
                                Label::Chase => t3 < r3,
                                Label::Idle => t5 < r5,
                            }
                        }
                        Some(RuleValue::WinByRule(Ban::Chase, _)) => true,
                        _ => false,
                    };
                    if !ok {
                        return fail(&format!("a move ({label:?}) to {child:?}"));
                    }
                }
            }
            _ => {
                if children.iter().any(|(c, ..)| c.is_some_and(|c| c.wdl() == Wdl::Loss)) {
                    return fail("a move wins");
                }
                if !children.iter().any(|(c, ..)| c.is_some_and(|c| c.wdl() == Wdl::Draw)) {
                    return fail("no move draws");
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_hold_every_value() {
        for v in [
            RuleValue::Draw(None),
            RuleValue::Draw(Some(Plies(0))),
            RuleValue::Draw(Some(Plies(PAYLOAD - 1))),
            RuleValue::WinByRule(Ban::Check, PAYLOAD),
            RuleValue::LossByRule(Ban::Check, 0),
            RuleValue::WinByRule(Ban::Chase, 17),
            RuleValue::LossByRule(Ban::Chase, PAYLOAD),
        ] {
            assert_eq!(value_of(cell_of(v).unwrap()), v);
        }
        assert_eq!(cell_of(RuleValue::WinByRule(Ban::Chase, PAYLOAD + 1)), Err(SolveError::DistanceTooLarge));
        assert_eq!(cell_of(RuleValue::Draw(Some(Plies(PAYLOAD)))), Err(SolveError::DistanceTooLarge));
    }

    #[test]
    fn the_winner_takes_an_exit_then_a_check_then_the_ranks_kind_of_move() {
        let chase_loss = |r| RuleValue::LossByRule(Ban::Chase, r);
        let inside = |label, after| Choice { label, after, inside: true };
        let moves = [
            inside(Label::Idle, chase_loss(2)),
            inside(Label::Chase, chase_loss(4)),
            inside(Label::Check, chase_loss(20)),
            inside(Label::Check, chase_loss(8)),
        ];
        let win = |r| RuleValue::WinByRule(Ban::Chase, r);
        // A check to a smaller ρ first, whatever the rank's class.
        assert_eq!(winning_move(win(11), &moves), Some(3));
        // No check below: an odd rank plays the idle move, an even one the chase.
        assert_eq!(winning_move(win(7), &moves), Some(0));
        assert_eq!(winning_move(win(6), &moves), Some(1));
        // A win out of the index beats all.
        let mut out = moves.to_vec();
        out.push(Choice { label: Label::Idle, after: chase_loss(0), inside: false });
        assert_eq!(winning_move(win(6), &out), Some(4));
        // Other values: the best by value.
        assert_eq!(winning_move(RuleValue::Draw(None), &moves), Some(0));
    }
}
