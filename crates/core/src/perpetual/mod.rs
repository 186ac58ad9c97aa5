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
//! A [`RuleValue`] (defined in [`crate::value`], beside [`Value`]) adds wins and losses by the rule to [`Value`], ordered as "infinitely far"
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
//!    O(positions + moves), in parallel. Within a round only the first `μX` grows from the
//!    seeds: `Y` then shrinks to `X`, and the next `μX` is the last one less what loses its
//!    hold (an `O`-state that was a seed by `F ∩ Cpre(Y)` and has a move out of the new `Y`;
//!    then an `O`-state with a move to a state that left, an `M`-state whose last move into
//!    `X` of a lower level left), the states that left with a move into what stays coming
//!    back above the levels given so far (a decremental attractor: counts per `M`-state of
//!    its moves into `X`, and of those of a lower level). The rule is the same for both sides, so one
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
//!    chase label of each move). Within a round of `Z3` only the first `μZ1` grows from the
//!    seeds: `Z2` then shrinks to `Z1`, and the next `μZ1` is the last one less what loses
//!    its hold, as in the check stage (an `M`-state whose chase into `Z2` left stays as an
//!    idle seed when it has an idle move into `Z4`, else leaves; then an `O`-state with a
//!    check to a state that left, an `M`-state whose last check into `Z1` of a lower level
//!    left), the states that left with a check into what stays coming back above the
//!    levels given so far (`KRCvKR`: 1,223 passes joining 111 M states instead of 1,917
//!    joining 390 M, the passes 8.5 s instead of 16.4).
//!
//!    The counts each round of `Z5` and each iteration of `νZ4` start from (moves into the
//!    top of `νZ4`, into `Z5`) are made once per layer and kept up as `Z5` grows, those each
//!    `νZ2` starts from (chases into `Z4`) kept up as `Z4` shrinks; each round, iteration and
//!    round of `Z3` copies them at its members only (those with a state in `Z4` outside
//!    `Z5`, then outside `Z3`: nothing else is read), not over the layer. A position not in
//!    check that no chase enters (most of them) has its predecessor list read for no chase
//!    count (`KCPvKN`: `Z2` shrinking 14.0 s before, 2.5 s after; `Z3` growing 5.5, 3.0 s).
//!
//!    **Work lists.** The inner fixpoints look only at what can change: a pass of the check
//!    stage at the members with a state in `Y` outside `Z` (listed when a round starts, the
//!    list cut as `Y` shrinks), a pass of the chase stage at those with a state in `Z2`
//!    outside `Z3` (cut from the list of `Z4` outside `Z3`, made once per iteration of
//!    `νZ4`). The counts of moves into the top of `νY` are counted once per layer and kept up
//!    as `Z` grows; each round copies them. Before, every pass scanned the whole layer: on
//!    `KNRvKAR` 3,367 passes of the chase stage joined 80 thousand states each on average in
//!    a layer of 4.3 million.
//!
//!    **The opponent's escapes.** An *escape* is a state outside `Z` and outside the top of
//!    `νY` (an `M`-state not in check, without a winning exit or a move into `Z`; an
//!    `O`-state with an exit that does not lose for the opponent, or whose position's
//!    `M`-state is in `Z`). From `A`, the opponent's attractor of the escapes, the opponent
//!    forces one before `Z`, so no state of `A` is in the next `Z`, and each round's `νY`
//!    starts outside `A`. `A` only loses states as `Z` grows (an `M`-state that gets a move
//!    into `Z` is no escape), and is kept up from round to round by the same decremental
//!    attractor with the roles of the sides swapped. Its first levels are counted without a
//!    search: the escapes; the `O`-states with a move to an escape (moves into `D` less
//!    those into the top); the `M`-states whose moves all lead to those (counted from the
//!    few `O`-states outside). Without `A`, each round's first `μX` took in the states the
//!    opponent escapes from, and the next passes took them out again: on `KNRvKAR`, from
//!    round 14 on, about 4 M states a round for a round that added fewer than 1 M, 139.2 M
//!    leaving in all. With it, 0 leave: 36 passes instead of 183, the stage 74.6 s instead
//!    of 107.7, for 3 bytes a draw of `D` (its counts): its levels share the array of `X`'s
//!    levels, told apart by a tag bit, since no state is in `A` and in `X` or `Z` at once.
//! 4. Draws get the distance to a drawn end again (breadth first among the remaining draws).
//!
//! **One pass generates the moves of `D`**: the check stage's first, which also keeps per
//! position of `D` its exits by the whole rule (a move out of `D` into a loss, into a draw or
//! a loss, into a drawn end: a byte). The chase stage's exits out of `D'` are those: a move
//! into a draw the check stage decided is none, since a move into a loss by the rule there
//! would have won the mover's position by the rule too. The draw distances generate the
//! moves only of the draws with a drawn end. (`KCCvKC`: the chase stage's marks 9.1 s
//! before, 1.5 s after; the draw distances 8.0 s, 0.3 s.)
//!
//! # Layers
//!
//! Both stages solve their set (`D`, then `D'`) in **layers**, one after the other: the
//! strongly connected components of its moves, by level (0: no move leads to another
//! component; else one more than the highest level a move leads to), consecutive levels
//! merged up to a least size ([`PerpetualCheck::layer_size`]). A game that gives levels no
//! move raises ([`Checks::progress_level`]: in Xiangqi the steps its Soldiers have left)
//! layers the check stage's draws by them instead, without the search, its lists made at
//! once in that order (`KCPvKN`: 7 layers for the search's 16 of about the same sizes, the
//! 23 s of the search and of the lists made again saved; `KRPvKR`: 7 for 25, the stage's
//! fixpoints 8.2 s against 7.8). A game whose moves can all
//! be taken back ([`Checks::reversible`]: Xiangqi without Soldiers) solves the check stage's
//! draws as one layer: they are then mostly one component, and the search costs more than
//! it saves (`KNRvKAR`: 115 s and 1 GiB for 10 layers, the stage 106 s with them, 110 s
//! without). The chase stage searches its draws `D'` again only when the check stage
//! decided a tenth of `D` or more ([`PerpetualCheck::search_share`]); else it keeps the
//! check stage's layers less the draws decided there (a move of `D'` still leads to its own
//! layer or an earlier one), and one layer where the check stage had one (unless its draws
//! have under 8 moves each, where the search is cheap): on `KCPvKN` the
//! check stage decides 1.2 % of 20.8 M draws, and a second search found the same 16 layers in
//! 26 s. Renumbered by layers, the members get their predecessor lists made again in the new
//! numbering from un-moves, the old lists dropped first (renumbering them in place held both
//! copies at once); the chase stage that keeps the check stage's layers makes its lists in
//! their order at once. A layer's moves into the
//! layers solved before it end the play there with the value found, which is how the
//! fixpoints over the whole set count them: a win of mine there is in every `Z` from the
//! start, anything else is an escape. A layer's ranks and rounds continue those of the
//! layers before, so they stay a certificate of the whole set. The fixpoints' iterations
//! are then those of each layer, not all of them over every draw: Soldiers only advance, so
//! their materials split into many layers (`KNvKPP`: 47 in the chase stage; the times in
//! BENCHMARKS.md).
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
//! certificate ([`crate::conformance::check_rule_solution`]) checks all this on every
//! position.
//!
//! # Memory
//!
//! The plain solution, a bit per position with a 4-byte count per 512 positions (the set
//! `D`), and 9 bytes per position of `D` while the check stage runs (its flags, its counts
//! of moves outside `Z`, 3 counts for `A`, whose hits are also the moves outside the top of
//! `νY`, the levels of both states; the layers' search for components before it about 25, with the members'
//! numbers), besides its work lists: the counts a round reads only at its work list's
//! members (the attractor's counter, hits and support, the moves outside `Y`) are held for
//! those alone, 4 bytes each found by rank in a bit per member of the layer, and the
//! members a round gathers with repeats are a bit per member (`KNRvKAR` without lists:
//! 15 bytes a draw for every draw before issue 42's nineteenth session, the stage's peak
//! 1,415 MiB, 984 after it, 867 after its twentieth). Then 4 bytes per position of `D` (its results), shelved while the
//! chase stage runs, which holds 22 bytes per position of `D'` in one layer (10 of them,
//! its flags, levels and new numbering, for every position of `D'`; its 12 counts for the
//! members of the largest layer alone, reset at each layer's start), its exits (a byte
//! more; and the positions of members renumbered by layers, 4 bytes, until their marks are
//! made), and a bit per position of `D` while it finds `D'`. A state's level (its rank) takes 2 bytes while every level of the solve
//! fits in 15 bits, else the solve starts again with 4 (module `level`). The plain solution is read by the check stage's first pass and not again
//! until the results are made: in between it is **shelved** (compressed with zstd,
//! [`Solution::shelve`](crate::Solution::shelve): `KNRvKAR`'s 375 MiB in 27 MiB), and so are
//! the exits by the whole rule; the draws' positions (4 bytes each) are not made while the
//! draws are numbered in the set's order (they find theirs in the set, by a sampled select),
//! and are dropped after the first pass where they are renumbered by layers, made again from
//! the set when asked. The counts of moves are bytes: a position with more than 255 moves into `D` is refused
//! ([`SolveError::TooManyMoves`](crate::SolveError::TooManyMoves)); Xiangqi has at most
//! about 60. Besides, the predecessors inside `D` (then `D'`) of each member, compressed
//! (module `lists`: sorted gaps of 1 to 3 bytes, 2.31 bytes a move on `KNRvKAR` with 2 bytes
//! per member for where its row starts), built with one un-move pass, when they fit in
//! [`PerpetualCheck::edge_budget`]; else the check stage keeps those of the first draws that
//! fit, the chase stage all of its own or none (within the budget or
//! [`PerpetualCheck::chase_room`]), and the passes generate the others' un-moves (without
//! lists about twice as slow on `KNRvKAR`, whose 686 M moves took 2.6 GiB at 4 bytes each).
//! The work lists and the levels of a pass are kept in blocks of 4,096 numbers and cut in
//! place, never joined two by two into one vector (which held two to three times a list of
//! a whole layer at once: the chase stage's peak on `KCCvKC` fell from 1,035 to 987 MiB).
//! The chase stage holds one list of members at a time, its iteration's work list (`Z4`
//! outside `Z3`, read for `Z2` too), its round's members a bit each, and parts the states
//! that join `Z3` and `Z5` by side in place (`KCCvKC`'s chase stage 892 MiB before issue 42's
//! twenty-first session, 830 after: 37 bytes a draw of `D'` besides its lists, 31 after).
//! Its counts were held for every draw of `D'` until issue 42's twenty-second session
//! (`KCPvKC`, 7 layers of at most 3.6 M of its 20.1 M draws: 1,211 MiB before, 1,050
//! after), and the positions of members renumbered by layers while the layers are solved.
//!
//! # Fewer iterations
//!
//! The value of `νY` in a round of the check stage is the next `Z`, part of `W`; so is
//! that of `νZ4` in a round of `Z5`. Both sides cannot win at one position, so these
//! iterations start without the other state of every position already decided (an
//! `O`-state whose position's `M`-state is in `Z`, and the reverse): a greatest fixpoint is
//! reached from any start above it, so values do not change, only the passes that took
//! those states out again. (That alone left the ranks as they were; starting outside the
//! opponent's escapes `A` changes them, as the last pass's levels change. The certificate
//! checks them.)
//!
//! With `ENDGAME_RULE_PROFILE` set in the environment, a solve writes the time, resident
//! memory and figures of each stage to standard error (module `profile`).
//!
//! # Rooms
//!
//! This file holds the rule and what a game supplies for it ([`Checks`], [`Label`]);
//! `solver` the solver ([`PerpetualCheck`]); `profile` the stages' clock; `graph` the
//! draws' moves and layers; `lists` the compressed predecessor lists; `attractor` the
//! decremental attractor both stages grow and shrink (each saying what may join and what
//! is a seed); `work` the parallel work over lists of members and states that both stages
//! share; `check` and `chase` the two stages; `solution` the [`RuleSolution`] with its ranks and
//! rounds; `winner` the winner's move ([`winning_move`]). The moves of a position under the
//! rule are read in [`crate::line::perpetual`], the certificate is
//! [`crate::conformance::check_rule_solution`].
//!
//! [`Ban`]: crate::value::Ban
//! [`Ban::Check`]: crate::value::Ban::Check
//! [`Ban::Chase`]: crate::value::Ban::Chase
use crate::game::{Successor, Unmoves};
use crate::value::{RuleValue, Value};

mod attractor;
mod chase;
mod check;
mod draw_index;
mod graph;
mod level;
mod lists;
mod profile;
mod solution;
mod solver;
mod winner;
mod work;

pub(crate) use solution::value_of_word;
pub use solution::{RuleSolution, RuleStats};
pub(crate) use solver::CHECK_STATE_BYTES_PER_DRAW;
pub use solver::{
    DEFAULT_CHASE_ROOM, DEFAULT_EDGE_BUDGET, DEFAULT_LAYER_SIZE, DEFAULT_SEARCH_SHARE, PerpetualCheck,
};
pub use winner::{Choice, winning_move};

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

    /// The check stage's first look at `pos`, a non-terminal position: whether the side to
    /// move is in check ([`Checks::in_check`]), with `f` called once for every move out of the
    /// index with its value under the rule ([`Checks::known_by_rule`]). The moves into the
    /// index are not reported: the solver counts those into its draws from its lists of
    /// predecessors, so a game may skip them (and their indices). The default: through
    /// [`crate::Game::for_each_move`].
    fn look_out(&self, pos: usize, mut f: impl FnMut(RuleValue)) -> bool {
        self.for_each_move(pos, |mv, to| {
            if let Successor::Known(v) = to {
                f(self.known_by_rule(pos, mv, v));
            }
        });
        self.in_check(pos)
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

    /// Whether every move of the game can in general be taken back by later moves (no move
    /// that can never be undone, such as a Soldier's advance): a hint that the draws form
    /// one large strongly connected set, so that the check stage skips the search for layers
    /// (on `KNRvKAR`, 72.1 M draws: 115 s and 1 GiB for a solve no faster). The chase stage
    /// still searches its fewer draws. The default: `false` (both stages search).
    fn reversible(&self) -> bool {
        false
    }

    /// Whether the game gives its positions levels that no move raises
    /// ([`Checks::progress_level`]). The default: `false`.
    fn has_progress_levels(&self) -> bool {
        false
    }

    /// A level of `pos` that no move raises: every move of `pos` to a position of the index
    /// leads to one of the same level or a lower one (in Xiangqi, the steps its Soldiers have
    /// left to take: a Soldier never steps back). Asked only when
    /// [`Checks::has_progress_levels`], for drawn positions of the plain game. With them
    /// both stages split their draws into layers by level (consecutive levels merged, see
    /// [`PerpetualCheck::layer_size`]) instead of searching for the strongly connected
    /// components of their moves; a move that raises the level is an error
    /// ([`SolveError::LevelRaised`](crate::SolveError::LevelRaised)). The default: 0.
    fn progress_level(&self, pos: usize) -> u32 {
        let _ = pos;
        0
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
