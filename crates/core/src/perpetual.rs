//! Exact solving under the ban on perpetual check.
//!
//! # The rule
//!
//! A game with a "the side to move is in check" marking ([`Checks::in_check`]) is played as
//! usual, except for the outcome of endless play. In an endless play, look at its tail: if from
//! some point on every move of one side gives check (every position where the *other* side is
//! to move is marked) and not every move of the other side does, the side that checks forever
//! loses; otherwise (both check forever, or neither) the play is a draw. Finite play is as in
//! the plain game ([`crate::Retrograde`]): terminal values, no move = loss, known values of
//! moves out of the index.
//!
//! # Values
//!
//! A [`RuleValue`] adds two categories to [`Value`]: a win by the rule and a loss by the rule,
//! ordered as "infinitely far" wins and losses: `Win(d)` > `WinByRule` > draws > `LossByRule` >
//! `Loss(d)`. A rule value carries a *rank*, a progress measure of the winner (see below); it is
//! no distance and only serves to choose moves.
//!
//! # Algorithm
//!
//! 1. The plain game is solved ([`crate::Retrograde`]). Its wins and losses keep their winner
//!    and distance under the rule: a forced mate stays forced, and the recursion that defines
//!    mate distances does not look at how the other values are ordered. Only its draws can
//!    change. Let `D` be the non-terminal drawn positions. Every position of `D` has a move that
//!    stays in `D` or reaches a non-losing value outside; a move out of `D` into a mate loses
//!    for the mover.
//! 2. Inside `D` the game is an infinite game. Fix a player *me*; a state is a position with
//!    who is to move (`M`: me, `O`: the opponent), so the game need not be bipartite. Moves out
//!    of `D` end the play with a result for me (a win, or not). An endless play is my win iff
//!    `E` = {me to move, not in check} is visited finitely often (the opponent checks forever)
//!    and `F` = {opponent to move, not in check} infinitely often (I do not): a one-pair Rabin
//!    condition. My winning region is the nested fixpoint
//!
//!    `W = μZ. νY. μX. Cpre(Z) ∪ (F ∩ Cpre(Y)) ∪ (¬E ∩ Cpre(X))`
//!
//!    where `Cpre(S)` are the states from which I can force the next state into `S` (or out of
//!    `D` into a win for me). Moves are generated once (marks, moves out of `D`, the number of
//!    moves into `D`); after that everything runs on the predecessors inside `D` (lists built
//!    once, see Memory, or un-moves): the moves into `Z` are counted
//!    as `Z` grows, the moves into `Y` once per round (and taken off as `Y` shrinks), and each `μX`
//!    is a breadth-first pass from its seeds (`O`-states count their moves down, as in the
//!    plain solver): O(positions + moves) per pass, in parallel. `νY` starts from the states
//!    any `μX` can hold (an `M`-state in check or in `Cpre(Z)`, an `O`-state without a move out
//!    that does not lose for the opponent), and a pass looks only at states still in `Y`.
//! 3. Because the rule is the same for both sides, one computation serves both: a position is
//!    a win by the rule if its `M`-state is in `W`, a loss by the rule if its `O`-state is;
//!    otherwise a draw. Draws get the distance to a drawn end again (breadth first among the
//!    remaining draws).
//!
//! # Ranks and the winner's move
//!
//! A state of `W` added in the `r`-th round of `Z` at attractor level `j` gets the rank
//! `offset(r) + j`, where `offset(r)` is the largest rank of the earlier rounds. Then from every
//! state of `W` with me to move some move leads to a state of smaller rank (or out of `D` into a
//! win), and every move of the opponent leads to a smaller rank, except from a state of `F`
//! (the opponent was not in check), after which the rank may grow but not past the round's
//! largest rank. So the winner who always plays the move to the smallest rank ([`best_move`])
//! never leaves `W`, sees `E` only finitely often (the round can only fall) and `F` infinitely
//! often (ranks cannot fall forever): the play is won. Staying in `W` alone would not be
//! enough.
//!
//! # Memory
//!
//! The plain solution, a bit per position with a 4-byte count per 64 positions (the set `D`),
//! and 29 bytes per position of `D` while solving (4 afterwards). Besides, while solving, the
//! predecessors inside `D` of each position of `D` (4 bytes per move between two positions of
//! `D`, 4 per position), built once with two un-move passes so that every later pass reads
//! lists instead of generating un-moves, when they fit in [`PerpetualCheck::edge_budget`].

use std::cmp::Ordering;
use std::fmt;
use std::ops::Neg;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use crate::game::{Successor, Unmoves};
use crate::retrograde::{Retrograde, Solution, SolveError};
use crate::value::{Plies, Value, Wdl};

/// Positions handled by one parallel task of a scan.
const CHUNK: usize = 1 << 12;

/// The exact value of a position for the side to move under the ban on perpetual check.
///
/// The rank of a rule value is the winner's progress measure (smaller is closer to the win);
/// it is not a distance and is meaningful only within one solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleValue {
    /// The side to move mates (or wins otherwise by the game's terminal values) in this many
    /// plies.
    Win(Plies),
    /// The side to move wins by the rule: the opponent can only avoid losing by checking
    /// forever.
    WinByRule(u32),
    /// Neither side can force a win (`Some(d)`: a drawn end in `d` plies).
    Draw(Option<Plies>),
    /// The side to move loses by the rule: it can only avoid a mate by checking forever.
    LossByRule(u32),
    /// The side to move is mated in this many plies.
    Loss(Plies),
}

impl RuleValue {
    /// The value without its distance or rank.
    #[must_use]
    pub const fn wdl(self) -> Wdl {
        match self {
            RuleValue::Win(_) | RuleValue::WinByRule(_) => Wdl::Win,
            RuleValue::Draw(_) => Wdl::Draw,
            RuleValue::Loss(_) | RuleValue::LossByRule(_) => Wdl::Loss,
        }
    }

    /// Whether the value is decided by the rule (a win or loss with no mate distance).
    #[must_use]
    pub const fn is_by_rule(self) -> bool {
        matches!(self, RuleValue::WinByRule(_) | RuleValue::LossByRule(_))
    }

    /// The same value with the rank set to 0: what two solvers must agree on.
    #[must_use]
    pub const fn without_rank(self) -> RuleValue {
        match self {
            RuleValue::WinByRule(_) => RuleValue::WinByRule(0),
            RuleValue::LossByRule(_) => RuleValue::LossByRule(0),
            v => v,
        }
    }

    /// The value of the same position in the plain game (where endless play is always a draw):
    /// rule values become endless draws.
    #[must_use]
    pub const fn plain(self) -> Value {
        match self {
            RuleValue::Win(d) => Value::Win(d),
            RuleValue::Loss(d) => Value::Loss(d),
            RuleValue::Draw(d) => Value::Draw(d),
            RuleValue::WinByRule(_) | RuleValue::LossByRule(_) => Value::Draw(None),
        }
    }

    /// The value, for the side to move, of a position whose move leads to a position of value
    /// `self`: the sides swap, a mate or drawn end is one ply further, a rank stays.
    #[must_use]
    pub const fn before_move(self) -> RuleValue {
        match self {
            RuleValue::Win(d) => RuleValue::Loss(d.next()),
            RuleValue::Loss(d) => RuleValue::Win(d.next()),
            RuleValue::WinByRule(r) => RuleValue::LossByRule(r),
            RuleValue::LossByRule(r) => RuleValue::WinByRule(r),
            RuleValue::Draw(Some(d)) => RuleValue::Draw(Some(d.next())),
            RuleValue::Draw(None) => RuleValue::Draw(None),
        }
    }

    /// A key whose natural order is the preference of the side to move.
    fn preference(self) -> (u8, i64) {
        match self {
            RuleValue::Loss(d) => (0, i64::from(d.0)),
            RuleValue::LossByRule(r) => (1, i64::from(r)),
            RuleValue::Draw(None) => (2, 0),
            RuleValue::Draw(Some(d)) => (3, -i64::from(d.0)),
            RuleValue::WinByRule(r) => (4, -i64::from(r)),
            RuleValue::Win(d) => (5, -i64::from(d.0)),
        }
    }
}

impl From<Value> for RuleValue {
    fn from(value: Value) -> RuleValue {
        match value {
            Value::Win(d) => RuleValue::Win(d),
            Value::Draw(d) => RuleValue::Draw(d),
            Value::Loss(d) => RuleValue::Loss(d),
        }
    }
}

impl Neg for RuleValue {
    type Output = RuleValue;
    /// The same value seen from the other side (no ply added).
    fn neg(self) -> RuleValue {
        match self {
            RuleValue::Win(d) => RuleValue::Loss(d),
            RuleValue::Loss(d) => RuleValue::Win(d),
            RuleValue::WinByRule(r) => RuleValue::LossByRule(r),
            RuleValue::LossByRule(r) => RuleValue::WinByRule(r),
            draw @ RuleValue::Draw(_) => draw,
        }
    }
}

impl Ord for RuleValue {
    /// Greater is better for the side to move: a shorter mate, a win by the rule (a smaller
    /// rank first), a draw, a loss by the rule (a larger rank first), a longer loss.
    fn cmp(&self, other: &RuleValue) -> Ordering {
        self.preference().cmp(&other.preference())
    }
}

impl PartialOrd for RuleValue {
    fn partial_cmp(&self, other: &RuleValue) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for RuleValue {
    /// `win in 3 plies`, `win by rule`, `draw`, `loss by rule`, `loss in 0 plies`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleValue::WinByRule(_) => f.write_str("win by rule"),
            RuleValue::LossByRule(_) => f.write_str("loss by rule"),
            v => Value::fmt(&v.plain(), f),
        }
    }
}

/// A game with the marking that the ban on perpetual check needs.
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
}

/// The set `D` of non-terminal drawn positions, with a dense numbering.
#[derive(Debug, Default)]
struct DrawIndex {
    bits: Vec<u64>,
    /// Members before each word of `bits`.
    before: Vec<u32>,
}

impl DrawIndex {
    fn new(n: usize, member: impl Fn(usize) -> bool + Sync) -> Result<(Self, Vec<u32>), SolveError> {
        // Drawn positions are kept as 32-bit position numbers.
        if n > u32::MAX as usize {
            return Err(SolveError::TooManyPositions(n));
        }
        let bits: Vec<u64> = (0..n.div_ceil(64))
            .into_par_iter()
            .map(|w| {
                let mut word = 0u64;
                for b in 0..64 {
                    let p = w * 64 + b;
                    if p < n && member(p) {
                        word |= 1 << b;
                    }
                }
                word
            })
            .collect();
        let mut before = Vec::with_capacity(bits.len());
        let mut total = 0u64;
        for w in &bits {
            before.push(u32::try_from(total).map_err(|_| SolveError::TooManyPositions(n))?);
            total += u64::from(w.count_ones());
        }
        // The passes number two states per drawn position in 32 bits.
        if total >= 1 << 31 {
            return Err(SolveError::TooManyPositions(n));
        }
        let positions: Vec<u32> = bits
            .par_iter()
            .enumerate()
            .flat_map_iter(|(w, &word)| {
                (0..64u32).filter(move |b| word >> b & 1 == 1).map(move |b| w as u32 * 64 + b)
            })
            .collect();
        Ok((DrawIndex { bits, before }, positions))
    }

    /// The number of `pos` in `D`, if it is a member.
    fn index(&self, pos: usize) -> Option<usize> {
        let word = *self.bits.get(pos / 64)?;
        let bit = pos % 64;
        if word >> bit & 1 == 0 {
            return None;
        }
        Some(self.before[pos / 64] as usize + (word & ((1u64 << bit) - 1)).count_ones() as usize)
    }
}

const CHECK: u8 = 1;
/// The mover has a move out of `D` that wins (for `M`: good).
const GOOD_EXIT: u8 = 2;
/// The mover has a move out of `D` that does not lose (for `O`: bad for me).
const SAFE_EXIT: u8 = 4;
const Z_M: u8 = 8;
const Z_O: u8 = 16;
const Y_M: u8 = 32;
const Y_O: u8 = 64;
/// The `M`-state has a move to an `O`-state in `Z`.
const TO_Z: u8 = 128;

/// Where a move of a position of `D` leads.
enum Target {
    /// To a position of `D`.
    Inside,
    /// Out of `D`, to a position of this value for the side to move there.
    Out(RuleValue),
}

/// Figures of one solve under the rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleStats {
    /// Drawn positions of the plain game (non-terminal), the set `D`.
    pub plain_draws: u64,
    /// Rounds of the outer fixpoint (`Z`), the last one finding nothing.
    pub rounds: u32,
    /// Attractor passes (`X`) in all.
    pub passes: u32,
}

/// The largest rank of each productive round, in order: a rank `r` belongs to the first round
/// whose largest rank is at least `r`.
fn round_of(tops: &[u32], rank: u32) -> usize {
    tops.partition_point(|&top| top < rank)
}

/// The solver under the ban on perpetual check.
///
/// ```
/// use endgame_core::explicit::ExplicitGame;
/// use endgame_core::perpetual::{PerpetualCheck, RuleValue};
///
/// // 0 <-> 1 forever; the side to move at 0 is always in check: the side moving from 1
/// // checks forever and loses.
/// let game = ExplicitGame::new(vec![vec![1], vec![0]]).with_check(0);
/// let solution = PerpetualCheck::new().solve(&game).unwrap();
/// assert!(matches!(solution.value(0), Some(RuleValue::WinByRule(_))));
/// assert!(matches!(solution.value(1), Some(RuleValue::LossByRule(_))));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PerpetualCheck {
    compact: bool,
    edge_budget: usize,
}

impl Default for PerpetualCheck {
    fn default() -> Self {
        Self::new()
    }
}

/// The default budget of the predecessor lists (see [`PerpetualCheck::edge_budget`]): 2 GiB.
pub const DEFAULT_EDGE_BUDGET: usize = 2 << 30;

impl PerpetualCheck {
    /// A solver with 4-byte cells for the plain solution and predecessor lists within
    /// [`DEFAULT_EDGE_BUDGET`].
    #[must_use]
    pub fn new() -> Self {
        PerpetualCheck { compact: false, edge_budget: DEFAULT_EDGE_BUDGET }
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

    /// Bytes a solve under the rule needs besides the plain solution, for a game of
    /// `positions` positions of which `drawn` are drawn under plain rules: the set of draws
    /// (a bit per position, a 4-byte count per 64) and 29 bytes per draw. The predecessor
    /// lists come on top, at most [`PerpetualCheck::edge_budget`] bytes.
    #[must_use]
    pub const fn memory_estimate(positions: u64, drawn: u64) -> u64 {
        let words = positions.div_ceil(64);
        words.saturating_mul(12).saturating_add(drawn.saturating_mul(29))
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
        let (index, positions) = DrawIndex::new(n, |p| {
            game.is_position(p)
                && game.terminal(p).is_none()
                && matches!(plain.value(p), Some(Value::Draw(_)))
        })?;
        let mut rabin = Rabin::new(game, &plain, &index, positions);
        rabin.preds = Preds::build(game, &index, &rabin.positions, self.edge_budget);
        let (stats, tops) = rabin.solve()?;
        let words = rabin.finish()?;
        Ok(RuleSolution { plain, index, words, stats, tops })
    }

    /// Solves a game under the rule, given its plain solution (which must be right).
    ///
    /// # Errors
    /// When the game is larger than the solver's limits (see [`SolveError`]).
    pub fn solve_from_plain<G: Checks>(game: &G, plain: Solution) -> Result<RuleSolution, SolveError> {
        PerpetualCheck::new().solve_plain(game, plain)
    }
}

/// The predecessors inside `D` of every position of `D`, by `D`-number (compressed rows).
struct Preds {
    offsets: Vec<u32>,
    edges: Vec<u32>,
}

impl Preds {
    /// The lists, when they fit in `budget` bytes (counted first, then filled: un-moves are
    /// generated twice, once more than the passes would need per round).
    fn build<G: Unmoves>(game: &G, index: &DrawIndex, positions: &[u32], budget: usize) -> Option<Preds> {
        let m = positions.len();
        if (m + 1).saturating_mul(4) > budget {
            return None;
        }
        let counts: Vec<u32> = positions
            .par_iter()
            .with_min_len(CHUNK)
            .map(|&p| {
                let mut c = 0u32;
                game.for_each_unmove(p as usize, |q| c += u32::from(index.index(q).is_some()));
                c
            })
            .collect();
        let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
        if total >= u64::from(u32::MAX) || (total as usize).saturating_add(m + 1).saturating_mul(4) > budget {
            return None;
        }
        let mut offsets = Vec::with_capacity(m + 1);
        let mut at = 0u32;
        offsets.push(0);
        for c in counts {
            at += c;
            offsets.push(at);
        }
        let mut edges = vec![0u32; total as usize];
        // Disjoint slices of the edges, one per chunk of positions.
        let mut slices = Vec::with_capacity(m.div_ceil(CHUNK));
        let mut rest: &mut [u32] = &mut edges;
        for c in 0..m.div_ceil(CHUNK) {
            let (start, end) = (offsets[c * CHUNK], offsets[((c + 1) * CHUNK).min(m)]);
            let (head, tail) = rest.split_at_mut((end - start) as usize);
            slices.push(head);
            rest = tail;
        }
        slices.into_par_iter().enumerate().for_each(|(c, slice)| {
            let mut k = 0;
            for &p in &positions[c * CHUNK..((c + 1) * CHUNK).min(m)] {
                game.for_each_unmove(p as usize, |q| {
                    if let Some(j) = index.index(q) {
                        slice[k] = j as u32;
                        k += 1;
                    }
                });
            }
            debug_assert_eq!(k, slice.len(), "un-moves differ between two calls");
        });
        Some(Preds { offsets, edges })
    }

    fn of(&self, i: usize) -> &[u32] {
        &self.edges[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
}

struct Rabin<'g, G> {
    game: &'g G,
    plain: &'g Solution,
    index: &'g DrawIndex,
    positions: Vec<u32>,
    flags: Vec<u8>,
    /// Per state `2 i + copy` (copy 0: me to move, 1: the opponent): 0 outside the current
    /// `X`, else the rank.
    level: Vec<AtomicU32>,
    /// Per position of `D`, for its `O`-state: moves into `D` to an `M`-state not yet in `X`.
    counter: Vec<AtomicU32>,
    /// Per position of `D`: its moves into `D`.
    inside: Vec<u32>,
    /// Per position of `D`: its moves into `D` to an `M`-state in `Z` (kept up as `Z` grows).
    to_z: Vec<AtomicU32>,
    /// Per position of `D`: its moves into `D` to an `M`-state in `Y` (counted each pass).
    to_y: Vec<AtomicU32>,
    /// The predecessors inside `D`, when they fit in the budget.
    preds: Option<Preds>,
}

impl<'g, G: Checks> Rabin<'g, G> {
    fn new(game: &'g G, plain: &'g Solution, index: &'g DrawIndex, positions: Vec<u32>) -> Self {
        let m = positions.len();
        Rabin {
            game,
            plain,
            index,
            flags: vec![0; m],
            level: (0..2 * m).map(|_| AtomicU32::new(0)).collect(),
            counter: (0..m).map(|_| AtomicU32::new(0)).collect(),
            inside: Vec::new(),
            to_z: (0..m).map(|_| AtomicU32::new(0)).collect(),
            to_y: (0..m).map(|_| AtomicU32::new(0)).collect(),
            positions,
            preds: None,
        }
    }

    /// Calls `f` with the `D`-number of every predecessor inside `D` of `D`-number `i`.
    #[inline]
    fn for_each_pred(&self, i: usize, mut f: impl FnMut(usize)) {
        match &self.preds {
            Some(preds) => preds.of(i).iter().for_each(|&j| f(j as usize)),
            None => self.game.for_each_unmove(self.positions[i] as usize, |p| {
                if let Some(j) = self.index.index(p) {
                    f(j);
                }
            }),
        }
    }

    fn for_each_target(&self, pos: usize, mut f: impl FnMut(Target)) {
        self.game.for_each_move(pos, |mv, to| match to {
            Successor::Position(q) => match self.index.index(q) {
                Some(_) => f(Target::Inside),
                // A hole would be a game bug; the plain solver gives it no value either.
                None => {
                    if let Some(v) = self.plain.value(q) {
                        f(Target::Out(v.into()));
                    }
                }
            },
            Successor::Known(v) => f(Target::Out(self.game.known_by_rule(pos, mv, v))),
        });
    }

    fn solve(&mut self) -> Result<(RuleStats, Vec<u32>), SolveError> {
        let m = self.positions.len();
        let mut stats = RuleStats { plain_draws: m as u64, ..RuleStats::default() };
        // Marks, exits and moves into D, once: the only pass that generates moves.
        let (flags, inside): (Vec<u8>, Vec<u32>) = (0..m)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| {
                let pos = self.positions[i] as usize;
                let mut f = if self.game.in_check(pos) { CHECK } else { 0 };
                let mut inside = 0u32;
                self.for_each_target(pos, |t| match t {
                    Target::Inside => inside += 1,
                    Target::Out(v) => match v.wdl() {
                        Wdl::Loss => f |= GOOD_EXIT | SAFE_EXIT,
                        Wdl::Draw => f |= SAFE_EXIT,
                        Wdl::Win => {}
                    },
                });
                (f, inside)
            })
            .unzip();
        self.flags = flags;
        self.inside = inside;
        let mut offset = 0u32;
        let mut tops = Vec::new();
        loop {
            stats.rounds += 1;
            // The top of νY, cut down to what any μX can hold: an M-state only in check or in
            // Cpre(Z), an O-state only without a move out that does not lose for the opponent.
            let mut in_y: usize = self
                .flags
                .par_iter_mut()
                .map(|f| {
                    *f &= !(Y_M | Y_O);
                    if *f & (Z_M | CHECK | GOOD_EXIT | TO_Z) != 0 {
                        *f |= Y_M;
                    }
                    if *f & SAFE_EXIT == 0 {
                        *f |= Y_O;
                    }
                    usize::from(*f & (Y_M | Z_M) == Y_M) + usize::from(*f & (Y_O | Z_O) == Y_O)
                })
                .sum();
            self.count_to_y();
            let mut top;
            let in_x = loop {
                stats.passes += 1;
                let (in_x, last) = self.attractor(offset + 1)?;
                top = last;
                if in_x == in_y {
                    break in_x;
                }
                in_y = in_x;
                let level = &self.level;
                // Y shrinks to X (X ⊆ Y): the M-states that leave it are taken off the counts
                // of moves into Y of their predecessors.
                let left: Vec<u32> = self
                    .flags
                    .par_iter_mut()
                    .enumerate()
                    .with_min_len(CHUNK)
                    .fold(Vec::new, |mut left, (i, f)| {
                        let was = *f & Y_M != 0;
                        *f &= !(Y_M | Y_O);
                        if *f & Z_M != 0 || level[2 * i].load(Relaxed) != 0 {
                            *f |= Y_M;
                        }
                        if *f & Z_O != 0 || level[2 * i + 1].load(Relaxed) != 0 {
                            *f |= Y_O;
                        }
                        if was && *f & Y_M == 0 {
                            left.push(i as u32);
                        }
                        left
                    })
                    .reduce(Vec::new, |mut a, mut b| {
                        a.append(&mut b);
                        a
                    });
                left.par_iter().with_min_len(256).for_each(|&i| {
                    self.for_each_pred(i as usize, |j| {
                        self.to_y[j].fetch_sub(1, Relaxed);
                    });
                });
            };
            if in_x == 0 {
                break;
            }
            offset = top;
            tops.push(top);
            let level = &self.level;
            let new: Vec<u32> = self
                .flags
                .par_iter_mut()
                .enumerate()
                .with_min_len(CHUNK)
                .fold(Vec::new, |mut new, (i, f)| {
                    if *f & Z_M == 0 && level[2 * i].load(Relaxed) != 0 {
                        *f |= Z_M;
                        new.push(2 * i as u32);
                    }
                    if *f & Z_O == 0 && level[2 * i + 1].load(Relaxed) != 0 {
                        *f |= Z_O;
                        new.push(2 * i as u32 + 1);
                    }
                    new
                })
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                });
            // Cpre(Z) kept up: counts of moves into Z_M, marks of moves into Z_O.
            let marked: Vec<u32> = new
                .par_iter()
                .with_min_len(256)
                .fold(Vec::new, |mut marked, &s| {
                    self.for_each_pred(s as usize / 2, |j| {
                        if s % 2 == 0 {
                            self.to_z[j].fetch_add(1, Relaxed);
                        } else {
                            marked.push(j as u32);
                        }
                    });
                    marked
                })
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                });
            for j in marked {
                self.flags[j as usize] |= TO_Z;
            }
        }
        Ok((stats, tops))
    }

    /// The moves into `Y_M` (`Z` included) of every position, counted from the `M`-states of
    /// `Y` through their predecessors (at the start of a round; the passes keep them up).
    fn count_to_y(&self) {
        let flags = &self.flags;
        self.to_y.par_iter().with_min_len(CHUNK).for_each(|c| c.store(0, Relaxed));
        (0..self.positions.len()).into_par_iter().with_min_len(CHUNK).for_each(|i| {
            if flags[i] & Y_M != 0 {
                self.for_each_pred(i, |j| {
                    self.to_y[j].fetch_add(1, Relaxed);
                });
            }
        });
    }

    /// One `μX` for the current `Z` and `Y`: levels from `first` on for the new states; returns
    /// how many states outside `Z` are in `X`, and the largest level given.
    fn attractor(&self, first: u32) -> Result<(usize, u32), SolveError> {
        if first >= 1 << 30 {
            return Err(SolveError::DistanceTooLarge);
        }
        let m = self.positions.len();
        let flags = &self.flags;
        // The seeds: Cpre(Z) and F ∩ Cpre(Y); the counters for the rest. Only states of Y
        // outside Z can join X (X ⊆ Y: Y only shrinks within a round).
        let mut frontier: Vec<u32> = (0..m)
            .into_par_iter()
            .with_min_len(CHUNK)
            .fold(Vec::new, |mut seeds, i| {
                let f = flags[i];
                let open_m = f & (Z_M | Y_M) == Y_M;
                let open_o = f & (Z_O | Y_O | SAFE_EXIT) == Y_O;
                if f & Z_M == 0 {
                    let seed = open_m && f & (GOOD_EXIT | TO_Z) != 0;
                    self.level[2 * i].store(if seed { first } else { 0 }, Relaxed);
                    if seed {
                        seeds.push(2 * i as u32);
                    }
                }
                if f & Z_O == 0 {
                    let outside_z_m = self.inside[i] - self.to_z[i].load(Relaxed);
                    self.counter[i].store(outside_z_m, Relaxed);
                    let all_in_y_m = self.to_y[i].load(Relaxed) == self.inside[i];
                    let seed = open_o && (outside_z_m == 0 || (f & CHECK == 0 && all_in_y_m));
                    self.level[2 * i + 1].store(if seed { first } else { 0 }, Relaxed);
                    if seed {
                        seeds.push(2 * i as u32 + 1);
                    }
                }
                seeds
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
        let mut count = frontier.len();
        let mut level = first;
        let mut top = first;
        while !frontier.is_empty() {
            if level + 1 >= 1 << 30 {
                return Err(SolveError::DistanceTooLarge);
            }
            let next_level = level + 1;
            let next: Vec<u32> = frontier
                .par_iter()
                .with_min_len(256)
                .fold(Vec::new, |mut next, &s| {
                    let (i, copy) = (s as usize / 2, s % 2);
                    self.for_each_pred(i, |j| {
                        let g = flags[j];
                        if copy == 1 {
                            // The M-state of the predecessor: I move into X (only in check).
                            if g & (Z_M | Y_M | CHECK) == Y_M | CHECK
                                && self.level[2 * j].compare_exchange(0, next_level, Relaxed, Relaxed).is_ok()
                            {
                                next.push(2 * j as u32);
                            }
                        } else if g & (Z_O | Y_O | SAFE_EXIT) == Y_O {
                            let before = self.counter[j].fetch_sub(1, Relaxed);
                            debug_assert!(before > 0, "un-moves disagree with moves at D-number {j}");
                            if before == 1
                                && self.level[2 * j + 1]
                                    .compare_exchange(0, next_level, Relaxed, Relaxed)
                                    .is_ok()
                            {
                                next.push(2 * j as u32 + 1);
                            }
                        }
                    });
                    next
                })
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                });
            if !next.is_empty() {
                top = next_level;
            }
            count += next.len();
            frontier = next;
            level = next_level;
        }
        Ok((count, top))
    }

    /// The cells of `D`: the rule value (tag and rank) or a draw with its distance.
    fn finish(self) -> Result<Vec<u32>, SolveError> {
        let m = self.positions.len();
        let is_draw = |i: usize| self.flags[i] & (Z_M | Z_O) == 0;
        // Draw distances: breadth first from drawn ends among the remaining draws.
        let mut dist: Vec<u32> = vec![u32::MAX; m];
        let mut buckets: Vec<Vec<u32>> = Vec::new();
        for i in 0..m {
            if !is_draw(i) {
                continue;
            }
            let mut best = None::<u32>;
            self.for_each_target(self.positions[i] as usize, |t| {
                if let Target::Out(RuleValue::Draw(Some(d))) = t {
                    best = Some(best.map_or(d.0, |b| b.min(d.0)));
                }
            });
            if let Some(d) = best {
                let at = d as usize + 1;
                if buckets.len() <= at {
                    buckets.resize_with(at + 1, Vec::new);
                }
                buckets[at].push(i as u32);
            }
        }
        let mut d = 0;
        while d < buckets.len() {
            let bucket = std::mem::take(&mut buckets[d]);
            for i in bucket {
                let i = i as usize;
                if dist[i] != u32::MAX {
                    continue;
                }
                dist[i] = d as u32;
                self.for_each_pred(i, |j| {
                    if is_draw(j) && dist[j] == u32::MAX {
                        if buckets.len() <= d + 1 {
                            buckets.resize_with(d + 2, Vec::new);
                        }
                        buckets[d + 1].push(j as u32);
                    }
                });
            }
            d += 1;
        }
        (0..m)
            .map(|i| {
                let f = self.flags[i];
                if f & Z_M != 0 {
                    debug_assert!(f & Z_O == 0, "both sides win by the rule at D-number {i}");
                    Ok(cell(TAG_WIN_BY_RULE, self.level[2 * i].load(Relaxed)))
                } else if f & Z_O != 0 {
                    Ok(cell(TAG_LOSS_BY_RULE, self.level[2 * i + 1].load(Relaxed)))
                } else if dist[i] == u32::MAX {
                    Ok(cell(TAG_DRAW, 0))
                } else if dist[i] + 1 >= 1 << 30 {
                    Err(SolveError::DistanceTooLarge)
                } else {
                    Ok(cell(TAG_DRAW, dist[i] + 1))
                }
            })
            .collect()
    }
}

const TAG_SHIFT: u32 = 30;
const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
const TAG_DRAW: u32 = 0;
const TAG_WIN_BY_RULE: u32 = 1;
const TAG_LOSS_BY_RULE: u32 = 2;

const fn cell(tag: u32, payload: u32) -> u32 {
    (tag << TAG_SHIFT) | payload
}

/// The value of every position under the ban on perpetual check.
#[derive(Debug)]
pub struct RuleSolution {
    plain: Solution,
    index: DrawIndex,
    /// Per position of `D` (the plain draws): tag and rank or draw distance.
    words: Vec<u32>,
    stats: RuleStats,
    /// The largest rank of each round (see [`round_of`]).
    tops: Vec<u32>,
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
    /// `value(p)` for each. Such a solution has no rounds ([`RuleSolution::round`] is 0 for
    /// every rank) and no figures of a solve; its values and ranks are what was written.
    ///
    /// # Errors
    /// When `n` exceeds the solver's limits, or a rank or distance does not fit in its cell.
    pub fn from_values(
        n: usize,
        value: impl Fn(usize) -> Option<RuleValue> + Sync,
    ) -> Result<RuleSolution, SolveError> {
        let plain = Solution::from_values_bytes((0..n).map(|p| value(p).map(RuleValue::plain)))?;
        let (index, positions) = DrawIndex::new(n, |p| {
            matches!(value(p), Some(RuleValue::Draw(_) | RuleValue::WinByRule(_) | RuleValue::LossByRule(_)))
        })?;
        let words = positions
            .par_iter()
            .map(|&p| {
                let (tag, payload) = match value(p as usize) {
                    Some(RuleValue::WinByRule(r)) => (TAG_WIN_BY_RULE, r),
                    Some(RuleValue::LossByRule(r)) => (TAG_LOSS_BY_RULE, r),
                    Some(RuleValue::Draw(Some(d))) => (TAG_DRAW, d.0.saturating_add(1)),
                    _ => (TAG_DRAW, 0),
                };
                if payload > PAYLOAD { Err(SolveError::DistanceTooLarge) } else { Ok(cell(tag, payload)) }
            })
            .collect::<Result<Vec<u32>, SolveError>>()?;
        let stats = RuleStats { plain_draws: words.len() as u64, ..RuleStats::default() };
        Ok(RuleSolution { plain, index, words, stats, tops: Vec::new() })
    }

    /// The value of a position for the side to move; `None` for a hole or an index out of range.
    #[must_use]
    pub fn value(&self, pos: usize) -> Option<RuleValue> {
        let Some(i) = self.index.index(pos) else { return self.plain.value(pos).map(RuleValue::from) };
        let word = self.words[i];
        let payload = word & PAYLOAD;
        Some(match word >> TAG_SHIFT {
            TAG_WIN_BY_RULE => RuleValue::WinByRule(payload),
            TAG_LOSS_BY_RULE => RuleValue::LossByRule(payload),
            _ if payload == 0 => RuleValue::Draw(None),
            _ => RuleValue::Draw(Some(Plies(payload - 1))),
        })
    }

    /// Every value in index order (`None` for holes).
    pub fn values(&self) -> impl Iterator<Item = Option<RuleValue>> + '_ {
        (0..self.len()).map(|p| self.value(p))
    }

    /// The round of the outer fixpoint in which a rank was given (0 for the first).
    #[must_use]
    pub fn round(&self, rank: u32) -> usize {
        round_of(&self.tops, rank)
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
}

/// Counts of the values of a game solved under the rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleSummary {
    /// Positions won by mate (or the game's terminal values).
    pub wins: u64,
    /// Positions won by the rule (draws of the plain game).
    pub wins_by_rule: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the rule (draws of the plain game).
    pub losses_by_rule: u64,
    /// Positions lost by mate.
    pub losses: u64,
    /// Holes in the index.
    pub holes: u64,
    /// The longest win by mate (plies), 0 when there is none.
    pub longest_win: u32,
    /// The longest loss by mate (plies), 0 when there is none.
    pub longest_loss: u32,
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
            Some(RuleValue::WinByRule(_)) => self.wins_by_rule += 1,
            Some(RuleValue::LossByRule(_)) => self.losses_by_rule += 1,
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
        }
    }
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
/// shortest mate, then a win by the rule to the smallest rank (see the module notes: this move
/// keeps the win *and* wins; a move out of the index that wins by the rule counts as rank 0),
/// draws, a loss by the rule, the longest loss. Moves of equal value keep the game's order.
#[must_use]
pub fn scored_moves<G: Checks>(
    game: &G,
    solution: &RuleSolution,
    pos: usize,
) -> Vec<RuleScoredMove<G::Move>> {
    let mut moves = Vec::new();
    if game.terminal(pos).is_some() || !game.is_position(pos) {
        return moves;
    }
    game.for_each_move(pos, |mv, to| {
        let child = match to {
            Successor::Position(q) => solution.value(q),
            // A rank from another solution means nothing here; a move out of the index that
            // wins by the rule wins at once as far as this index is concerned: rank 0.
            Successor::Known(v) => Some(game.known_by_rule(pos, mv, v).without_rank()),
        };
        if let Some(child) = child {
            moves.push(RuleScoredMove { mv, to, value: child.before_move() });
        }
    });
    moves.sort_by_key(|m| std::cmp::Reverse(m.value));
    moves
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
///   [`crate::conformance::check_solution`]);
/// - a win by the rule of rank `r` has a move to a loss by the rule of smaller rank (or out of
///   the index to a loss by the rule), in an earlier round when the side to move is not in
///   check (the opponent stopped checking), and no move to a mate;
/// - from a loss by the rule of rank `r` every move leads to a win of the opponent: by mate, or
///   by the rule in the same round or an earlier one, and of smaller rank when the side to move
///   is in check;
/// - a draw has no move to a loss of any kind and some move to a draw.
///
/// The first two rules prove every win and loss by the rule: the winner who plays the move to
/// the smallest rank sees the round never grow, so it settles; after that the opponent checks
/// at every move, and the rank falls at every move except after the winner's moves that give
/// no check, which must come again and again (a rank cannot fall forever). The draws' rule is
/// only necessary (that no side can force a win is the solver's fixpoint, proven on small games
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
        if !value.is_by_rule() && value.wdl() != crate::Wdl::Draw {
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
            children.push(match to {
                Successor::Position(q) => (solution.value(q), true),
                Successor::Known(v) => (Some(game.known_by_rule(pos, mv, v)), false),
            });
        });
        let fail = |what: &str| Err(format!("position {pos} ({value:?}, in check: {check}): {what}"));
        match value {
            RuleValue::WinByRule(rank) => {
                let progress = children.iter().any(|&(child, inside)| match child {
                    Some(RuleValue::LossByRule(r)) if inside => {
                        r < rank && (check || solution.round(r) < solution.round(rank))
                    }
                    Some(RuleValue::LossByRule(_)) => true,
                    _ => false,
                });
                if children.iter().any(|(c, _)| matches!(c, Some(RuleValue::Loss(_)))) {
                    return fail("a move mates");
                }
                if !progress {
                    return fail("no move to a smaller rank (of an earlier round when not in check)");
                }
            }
            RuleValue::LossByRule(rank) => {
                for &(child, inside) in &children {
                    let ok = match child {
                        Some(RuleValue::Win(_)) => true,
                        Some(RuleValue::WinByRule(r)) if inside => {
                            solution.round(r) <= solution.round(rank) && (!check || r < rank)
                        }
                        Some(RuleValue::WinByRule(_)) => true,
                        _ => false,
                    };
                    if !ok {
                        return fail(&format!("a move to {child:?}"));
                    }
                }
            }
            _ => {
                if children.iter().any(|(c, _)| c.is_some_and(|c| c.wdl() == crate::Wdl::Loss)) {
                    return fail("a move wins");
                }
                if !children.iter().any(|(c, _)| c.is_some_and(|c| c.wdl() == crate::Wdl::Draw)) {
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
    fn order_puts_rule_results_between_mates_and_draws() {
        let ordered = [
            RuleValue::Loss(Plies(0)),
            RuleValue::Loss(Plies(9)),
            RuleValue::LossByRule(1),
            RuleValue::LossByRule(5),
            RuleValue::Draw(None),
            RuleValue::Draw(Some(Plies(2))),
            RuleValue::WinByRule(5),
            RuleValue::WinByRule(1),
            RuleValue::Win(Plies(9)),
            RuleValue::Win(Plies(1)),
        ];
        for pair in ordered.windows(2) {
            assert!(pair[0] < pair[1], "{} should be worse than {}", pair[0], pair[1]);
        }
        assert_eq!(RuleValue::LossByRule(3).before_move(), RuleValue::WinByRule(3));
        assert_eq!(-RuleValue::WinByRule(3), RuleValue::LossByRule(3));
        assert_eq!(RuleValue::WinByRule(7).plain(), Value::Draw(None));
        assert_eq!(RuleValue::WinByRule(7).to_string(), "win by rule");
        assert_eq!(RuleValue::Win(Plies(1)).to_string(), "win in 1 ply");
    }

    #[test]
    fn draw_index_numbers_members_densely() {
        let (index, positions) = DrawIndex::new(200, |p| p % 3 == 0 || p == 130).unwrap();
        for (i, &p) in positions.iter().enumerate() {
            assert_eq!(index.index(p as usize), Some(i));
        }
        assert_eq!(index.index(1), None);
        assert_eq!(index.index(500), None);
    }
}
