//! The solver under the rule: the plain game solved first, then the check stage and the chase
//! stage over its draws, layer by layer (see the module notes of [`super`]).

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use super::Checks;
use super::graph::Graph;
use super::level::{Level, Narrow};
use super::profile::Profile;
use super::solution::{RuleSolution, TAG_DRAW, cell, cell_of};
use super::work::{Bits, CHUNK};
use super::{chase, check};
use crate::retrograde::{
    Retrograde, Shelved, ShelvedBytes, ShelvedWords, Solution, SolveError, release_free_memory,
};
use crate::value::{Plies, RuleValue, Value};

/// The solver under the rule: the ban on perpetual check, and the ban on perpetual chase for
/// a game that marks chases ([`Checks::has_chases`]).
///
/// ```
/// use endgame_core::explicit::ExplicitGame;
/// use endgame_core::perpetual::PerpetualCheck;
/// use endgame_core::{Ban, RuleValue};
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
    chase_room: usize,
    chases: bool,
    layer_size: usize,
    search_share: u32,
    narrow_levels: u32,
    listed_draws: usize,
}

impl Default for PerpetualCheck {
    fn default() -> Self {
        Self::new()
    }
}

/// Bytes per draw of `D` while the check stage runs, besides the predecessor lists: 20 for
/// its counts and levels (3 of them for the opponent's escapes, whose levels share the array
/// of `X`'s; the levels 2 bytes a state, 4 before issue 42's sixteenth session) and about 8
/// for its work lists (`KNRvKAR`: 4,132 MiB at the stage's peak, with 1,726 MiB of lists,
/// the `standard` values and 72.1 M draws, when it held 24 and 8).
pub(crate) const CHECK_BYTES_PER_DRAW: u64 = 28;

/// Bytes per draw of `D` the check stage's state holds at its peak, besides the predecessor
/// lists: its flags, counts and levels, 9 bytes (10 before issue 42's twentieth session, whose
/// `A`'s hits took the place of the moves outside the top of `νY`; 14 before its nineteenth,
/// its counts of a round then held for every draw), and about 2 of work lists (`KNRvKAR`).
pub(crate) const CHECK_STATE_BYTES_PER_DRAW: u64 = 11;

/// Bytes per draw of `D` the check stage held that the chase stage's layer step does not: its
/// 16 bytes of counts, levels, flags and exits, less the 4-byte results, the exits kept, the
/// layer of each draw (4 bytes) and the number of each draw of `D'` (4; at most one per draw).
/// Room for the lists of `D'` renumbered from a copy of themselves (see
/// [`Graph::layers_by`]). (7 with the 4-byte levels before issue 42's sixteenth session:
/// `KNRvKAAR`'s 2,327 MiB of lists of `D'`, against 4,121 MiB of lists of `D` and 147.5 M
/// draws, then fit in half of both, not in half of the lists alone.)
const CHECK_FREED_BYTES_PER_DRAW: usize = 3;

/// The default budget of the predecessor lists (see [`PerpetualCheck::edge_budget`]): 8 GiB
/// (2 GiB where `usize` has 32 bits). Lists make a solve about 2.3 times faster than
/// un-moves on every pass (`KNRvKAR`); at about 25 bytes a draw this budget holds them for
/// 340 M draws (`KNRvKAAR` has 147 M). A generation gives them at most half the memory left
/// besides (see the Xiangqi store).
pub const DEFAULT_EDGE_BUDGET: usize = if usize::BITS >= 64 { 8 << 30 } else { 2 << 30 };

/// The default room of the chase stage's lists besides the budget, in bytes per draw of `D`
/// (see [`PerpetualCheck::chase_room`]): of the check stage's 15 bytes a draw of counts,
/// flags and levels, dropped before the chase stage makes its lists, what the 4-byte results
/// and the renumbering of the lists by layer leave. (`KNRvKAR`: 82 MiB of lists of `D'`, 1.1
/// bytes a draw of `D`; `KNRvKAAR`: 2,130 MiB, 15.1.)
pub const DEFAULT_CHASE_ROOM: usize = 8;

/// The default least size of a layer (see [`PerpetualCheck::layer_size`]).
pub const DEFAULT_LAYER_SIZE: usize = 1 << 12;

/// Moves per draw of `D'` under which the chase stage searches for layers even where the
/// check stage had one layer (no search: moves that can all be taken back, see
/// [`Checks::reversible`]) and decided less than [`PerpetualCheck::search_share`] of the
/// draws: the search reads every move once, at random (`KCCvKC`'s 200 M moves, 16.5 a draw:
/// 19.8 s for 4 layers, one of them 96 % of the draws), and pays where the draws have few
/// moves (`KNNvKR`, 5.0 a draw, 6.3 % decided by the check stage: 4 to 5 s for 5 layers,
/// whose fixpoints then take 26 to 28 s instead of 35 to 36 in one layer).
const CHEAP_SEARCH_MOVES: u64 = 8;

/// The default share of the draws, in percent, that the check stage must decide for the
/// chase stage to search its own layers (see [`PerpetualCheck::search_share`]).
pub const DEFAULT_SEARCH_SHARE: u32 = 10;

impl PerpetualCheck {
    /// A solver with 4-byte cells for the plain solution and predecessor lists within
    /// [`DEFAULT_EDGE_BUDGET`], that follows the game's chases.
    #[must_use]
    pub fn new() -> Self {
        PerpetualCheck {
            compact: false,
            edge_budget: DEFAULT_EDGE_BUDGET,
            chase_room: DEFAULT_CHASE_ROOM,
            chases: true,
            layer_size: DEFAULT_LAYER_SIZE,
            search_share: DEFAULT_SEARCH_SHARE,
            narrow_levels: Narrow::MAX,
            listed_draws: usize::MAX,
        }
    }

    /// At most this many bytes for the lists of predecessors inside the draws (compressed:
    /// about 2.3 bytes per move between two drawn positions, 2 per drawn position): with them
    /// every pass reads the lists instead of generating un-moves. When the draws have more
    /// moves between them than fit, the check stage keeps the lists of as many draws as fit
    /// and its passes generate the others' un-moves (the time grows in proportion:
    /// `KNRvKAR` in BENCHMARKS.md); the chase stage keeps all its lists or none (its search
    /// for layers needs them all), within this budget or [`PerpetualCheck::chase_room`],
    /// whichever is larger. 0: never in the check stage.
    #[must_use]
    pub fn edge_budget(mut self, bytes: usize) -> Self {
        self.edge_budget = bytes;
        self
    }

    /// Bytes per draw of `D` the chase stage's lists may take when that is more than
    /// [`PerpetualCheck::edge_budget`]: room the check stage's counts leave when they are
    /// dropped, [`DEFAULT_CHASE_ROOM`] by default. A solve within the least memory (no lists
    /// in the check stage) still keeps the chase stage's, and with them its layers (without
    /// lists the chase stage is one layer: the same values, other ranks). 0: only the budget.
    #[must_use]
    pub fn chase_room(mut self, bytes_per_draw: usize) -> Self {
        self.chase_room = bytes_per_draw;
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

    /// The chase stage searches its draws (`D'`) for layers when the check stage decided at
    /// least `percent` percent of the draws of `D`; below that share it keeps the check
    /// stage's layers, less the draws decided there (a move of `D'` still leads to its own
    /// layer or an earlier one), and one layer where the check stage had one (unless the draws
    /// have few moves each, so that the search is cheap). The search reads every move once,
    /// at random, one thread, with about 25 bytes a draw besides the lists: on `KCPvKN`
    /// (1.2 % of its 20.8 M draws decided by the check stage) 26 s for the same 16 layers;
    /// where the check stage decided much, `D'` splits further
    /// (`KNRvKAR`: 79 %, one layer in the check stage, 22 in the chase stage). The values
    /// are the same either way (the ranks differ). 0: always search; above 100: never.
    /// [`DEFAULT_SEARCH_SHARE`] by default.
    #[must_use]
    pub fn search_share(mut self, percent: u32) -> Self {
        self.search_share = percent;
        self
    }

    /// Levels (the passes' ranks) up to `max` are kept in 2-byte cells (at most 32,767, the
    /// default); a solve whose passes would give a larger one starts again with 4-byte cells
    /// (the results are the same). 0: 4-byte cells from the start. For the tests of that
    /// fallback and for measuring.
    #[doc(hidden)]
    #[must_use]
    pub fn narrow_levels(mut self, max: u32) -> Self {
        self.narrow_levels = max.min(Narrow::MAX);
        self
    }

    /// At most the first `draws` draws have their predecessor lists in the check stage (the
    /// passes generate the others' un-moves), as when the budget holds only theirs (see
    /// [`PerpetualCheck::edge_budget`]; the results are the same). For the tests of lists
    /// kept in part, whose games are smaller than one block of lists.
    #[doc(hidden)]
    #[must_use]
    pub fn listed_draws(mut self, draws: usize) -> Self {
        self.listed_draws = draws;
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
    /// draws (a bit per position, a 4-byte count per 512: 9 bytes per 64 counted) and 28
    /// bytes per draw (the search for layers: 4 for the draw's number and about 21 for
    /// Tarjan's algorithm, measured on `KNRvKR`; then 20 in the check stage, 3 of them for
    /// the opponent's escapes, and its work lists). The predecessor lists come on top, at most
    /// [`PerpetualCheck::edge_budget`] bytes.
    #[must_use]
    pub const fn memory_estimate(positions: u64, drawn: u64) -> u64 {
        let words = positions.div_ceil(64);
        words.saturating_mul(9).saturating_add(drawn.saturating_mul(CHECK_BYTES_PER_DRAW))
    }

    /// [`PerpetualCheck::memory_estimate`] for a game with chases: the larger of the check
    /// stage's bytes per draw and the chase stage's (the check stage's results, shelved, and
    /// its exits for the draws the chase stage takes, with their positions, and the chase
    /// stage's counts over them, at most all of them: 28; 30 before issue 42's nineteenth
    /// session, which shelved the results, and 34 with the 4-byte levels before its
    /// sixteenth), and the sets of both (9 bytes per 64 positions each). (It was at least 40
    /// until its fifteenth session, the headroom the chase stage's peak needs on Cannon
    /// materials, whose draws have the most moves: a game whose chase stage holds the peak
    /// adds what its lists of `D'` need besides, as the Xiangqi store does per Cannon.)
    #[must_use]
    pub const fn chase_memory_estimate(positions: u64, drawn: u64) -> u64 {
        let words = positions.div_ceil(64);
        let mut per_draw = 6 + chase::BYTES_PER_DRAW;
        if CHECK_BYTES_PER_DRAW > per_draw {
            per_draw = CHECK_BYTES_PER_DRAW;
        }
        words.saturating_mul(18).saturating_add(drawn.saturating_mul(per_draw))
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
        let wide = |plain| match self.solve_in::<AtomicU32, G>(game, plain, u32::MAX) {
            Ok(solution) => Ok(solution),
            Err(Attempt::Failed(e)) => Err(e),
            Err(Attempt::Narrow(_)) => Err(SolveError::DistanceTooLarge),
        };
        if self.narrow_levels == 0 {
            return wide(plain);
        }
        match self.solve_in::<Narrow, G>(game, plain, self.narrow_levels) {
            Ok(solution) => Ok(solution),
            Err(Attempt::Failed(e)) => Err(e),
            Err(Attempt::Narrow(plain)) => {
                Profile::new().step(|| "levels past 2-byte cells: solving again with 4-byte ones".into());
                wide(*plain)
            }
        }
    }

    /// [`PerpetualCheck::solve_plain`] with levels in cells of `L`, at most `max`.
    fn solve_in<L: Level, G: Checks>(
        &self,
        game: &G,
        plain: Solution,
        max: u32,
    ) -> Result<RuleSolution, Attempt> {
        // A level past what the cells hold: the plain values back for another try when the
        // cells are narrow.
        let past = |e: SolveError, shelf: Shelved| match e {
            SolveError::DistanceTooLarge if L::MAX < <AtomicU32 as Level>::MAX => {
                Attempt::Narrow(Box::new(shelf.restore()))
            }
            e => Attempt::Failed(e),
        };
        let mut profile = Profile::new();
        // The plain value alone: a hole has none in a right solution (the test of a position,
        // a placement decoded for each of the 72.1 M draws of `KNRvKAR`, was the costly part).
        // And whether the index holds drawn ends, drawn positions outside D.
        let drawn_ends = AtomicBool::new(false);
        let member = |p: usize| {
            if !matches!(plain.value(p), Some(Value::Draw(_))) {
                return false;
            }
            let end = game.terminal(p).is_some();
            if end {
                drawn_ends.store(true, Relaxed);
            }
            !end
        };
        let progress = game.has_progress_levels();
        let (mut graph, layers) = if progress {
            // The game's levels: the lists made at once in their order, no search.
            let level = |_, p: usize| game.progress_level(p);
            let (graph, layers) =
                Graph::new_by_levels(game, member, level, self.layer_size, self.edge_budget, false)?;
            profile.step(|| {
                format!(
                    "check stage: graph of D, {}, {} layers (the game's levels)",
                    graph.describe(),
                    layers.len() - 1
                )
            });
            (graph, layers)
        } else {
            // (The check stage keeps the lists of as many draws as the budget holds: a pass
            // over the others generates their un-moves.)
            let mut graph = Graph::new(game, member, self.edge_budget, false, Some(self.listed_draws))?;
            profile.step(|| format!("check stage: graph of D, {}", graph.describe()));
            // (The lists in the layers' order from un-moves, the first ones dropped: they are
            // the largest the solve holds.)
            let layers = graph.layers(if game.reversible() { usize::MAX } else { self.layer_size }, 0);
            profile.step(|| format!("check stage: {} layers", layers.len() - 1));
            (graph, layers)
        };
        // (Members in the set's order find their positions there, none held: the first pass
        // reads each once, in order, and needs no copy of them, 4 bytes a draw.)
        let mut look = check::look(&graph, &plain, drawn_ends.load(Relaxed))?;
        // The plain values, the members' positions and the exits by the whole rule are read
        // again only once the check stage is done (its passes read the lists): put away
        // meanwhile, a byte an index and 5 bytes a draw of its peak (`KNRvKAR`: 375, 275
        // and 69 MiB).
        let shelf = plain.shelve();
        let exits = ShelvedBytes::new(std::mem::take(&mut look.exits));
        graph.release_positions();
        profile.step(|| {
            format!(
                "check stage: first pass, the plain values shelved in {} MiB, the exits in {} MiB",
                shelf.heap_bytes() >> 20,
                exits.heap_bytes() >> 20
            )
        });
        let mut rabin = check::Rabin::<_, L>::new(&graph, look, max);
        let (mut stats, tops) = match rabin.solve(&layers) {
            Ok(found) => found,
            Err(e) => return Err(past(e, shelf)),
        };
        stats.layers = u32::try_from(layers.len() - 1).unwrap_or(u32::MAX);
        stats.lists_bytes = graph.lists_bytes() as u64;
        profile.step(|| {
            format!(
                "check stage: solved, {} rounds, {} passes, {} joined, {} left; seconds {:.1?}",
                stats.rounds, stats.passes, rabin.joined, rabin.left, rabin.seconds
            )
        });
        let results = rabin.into_results();
        let chases = self.chases && game.has_chases();
        // Half the bytes of the lists of D and of the check stage's counts are room for the
        // lists of D' to be renumbered by layer from a copy of themselves (the check stage
        // held both at once, and more besides).
        let room = (graph.lists_bytes() + CHECK_FREED_BYTES_PER_DRAW * graph.len()) / 2;
        if chases {
            // The lists of D go before the results are made (the chase stage makes its own).
            graph.drop_lists();
        }
        let m = graph.len();
        // The cells in the graph's order, then in the order of the set D.
        let mut words: Vec<u32> = (0..m)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| results.value(i).map_or(Ok(cell(TAG_DRAW, 0)), cell_of))
            .collect::<Result<_, _>>()?;
        drop(results);
        let exits = exits.restore();
        if !chases {
            graph.restore_positions();
            let plain = shelf.restore();
            let plain_value = |q: usize| plain.value(q).map(RuleValue::from);
            let dist = graph.draw_distances(
                |i| words[i] == cell(TAG_DRAW, 0),
                |i| exits[i] & check::EXIT_DRAWN != 0,
                plain_value,
            );
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
        // The chase stage's exits are those the check stage found: a move into a draw it
        // decided is no exit of D', for a move into a loss by the rule there would have won
        // the mover's position by the rule too, and one into a win by the rule is none.
        let exits = graph.in_first_order(exits);
        let words = graph.in_first_order(words);
        let check_layers = graph.layer_of_members(&layers);
        let index = graph.into_index();
        let undecided = cell(TAG_DRAW, 0);
        let d = words.len();
        // While the chase stage runs, the cells of D are put away (read again only to take its
        // results; the draws it takes are a bit each meanwhile), and the exits by the whole
        // rule are kept for the members of D' alone (`KNRvKAR`: 289 MiB of cells shelved in
        // 34, and 54 MiB of exits).
        let left = Bits::new(d);
        words.par_iter().enumerate().with_min_len(CHUNK).for_each(|(i, &w)| {
            if w == undecided {
                left.insert(i);
            }
        });
        let words = ShelvedWords::new(words);
        let exits = ShelvedBytes::new(exits);
        let member = |p: usize| index.index(p).is_some_and(|i| left.contains(i));
        let search = (d - left.count()) * 100 >= self.search_share as usize * d;
        let chase_budget = self.edge_budget.max(self.chase_room.saturating_mul(d));
        let (mut graph, layers) = match check_layers {
            Some(of) if !search => {
                // The check stage's layers, less the draws it decided: the lists made at
                // once in their order.
                let level = |_, p: usize| of[index.index(p).expect("D' is part of D")];
                let (graph, layers) =
                    Graph::new_by_levels(game, member, level, self.layer_size, chase_budget, true)?;
                profile.step(|| {
                    format!(
                        "chase stage: graph of D', {}, {} layers (the check stage's)",
                        graph.describe(),
                        layers.len() - 1
                    )
                });
                (graph, layers)
            }
            _ => {
                let mut graph = Graph::new(game, member, chase_budget, true, None)?;
                profile.step(|| format!("chase stage: graph of D', {}", graph.describe()));
                // Where the check stage had one layer and decided little, the search only
                // where it is cheap.
                let cheap =
                    graph.moves().is_some_and(|moves| moves < CHEAP_SEARCH_MOVES * graph.len() as u64);
                let layers = graph.layers(if search || cheap { self.layer_size } else { usize::MAX }, room);
                profile.step(|| format!("chase stage: {} layers", layers.len() - 1));
                (graph, layers)
            }
        };
        drop(left);
        let all_exits = exits.restore();
        let exits: Vec<u8> = (0..graph.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| index.index(graph.position(i)).map_or(0, |d| all_exits[d]))
            .collect();
        drop(all_exits);
        profile.step(|| format!("chase stage: the cells of D shelved in {} MiB", words.heap_bytes() >> 20));
        // The members' marks: the last step before the results that reads their positions.
        // Those of members renumbered by layers go meanwhile (4 bytes a draw of D'; the others
        // hold none), made again from the set after.
        let flags = chase::marks(&graph, &exits);
        graph.release_positions();
        profile.step(|| "chase stage: marks and exits out of D'".into());
        let mut parity = chase::Parity::<_, L>::new(&graph, flags, max);
        let figures = match parity.solve(&layers, &mut profile) {
            Ok(figures) => figures,
            Err(e) => return Err(past(e, shelf)),
        };
        profile.step(|| {
            format!(
                "chase stage: solved, {} rounds, {} iterations, {} rounds of Z3, {} passes, {} joined; seconds {:.1?}",
                figures.rounds, figures.iterations, figures.z3_rounds, figures.passes, figures.joined, figures.seconds
            )
        });
        stats.chase_draws = graph.len() as u64;
        stats.chase_rounds = figures.rounds;
        stats.chase_iterations = figures.iterations;
        stats.chase_passes = figures.passes;
        stats.chase_layers = u32::try_from(layers.len() - 1).unwrap_or(u32::MAX);
        // The values of D' (in its numbering), the solver's state dropped, then the distances
        // of the draws left; then the cells of D back, with them.
        let mut values = parity.into_values();
        let mut cells: Vec<u32> = (0..graph.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| values.value(i).map_or(Ok(undecided), cell_of))
            .collect::<Result<_, _>>()?;
        let (tops5, tops3) = (std::mem::take(&mut values.tops5), std::mem::take(&mut values.tops3));
        drop(values);
        // (The chase stage's state, freed, back to the system before the plain values and
        // the cells of D come back: the allocator kept it, `KNRvKAR`'s peak.)
        release_free_memory();
        graph.restore_positions();
        profile.step(|| "chase stage: values of D'".into());
        let has_end = |i: usize| exits[i] & check::EXIT_DRAWN != 0;
        let ends = (0..graph.len()).into_par_iter().any(|i| has_end(i) && cells[i] == undecided);
        // (The plain values back only where the distances read them, and put away again
        // while the cells of D come back beside the positions and cells of D': `KNRvKAR`'s
        // peak, 968 MiB against 896 in the check stage, when they stayed.)
        let shelf = if ends {
            // A drawn end a move out of D' reaches is a position outside D (D less D' is
            // decided by the rule): a hole, then, for the positions of D.
            let plain = shelf.restore();
            let outside =
                |q: usize| if index.contains(q) { None } else { plain.value(q).map(RuleValue::from) };
            let dist = graph.draw_distances(|i| cells[i] == undecided, has_end, outside);
            fill_distances(&mut cells, dist.into_iter().enumerate())?;
            plain.shelve()
        } else {
            shelf
        };
        drop(exits);
        let positions = std::mem::take(&mut graph.positions);
        drop(graph);
        let mut words = words.restore();
        for (p, c) in positions.into_iter().zip(cells) {
            if c != undecided {
                words[index.index(p as usize).expect("D' is part of D")] = c;
            }
        }
        let plain = shelf.restore();
        // The stages' many short-lived lists freed: their pages back to the system before the
        // certificate makes its copy of every value.
        release_free_memory();
        profile.step(|| "chase stage: values and draw distances".into());
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

/// How a solve with levels in cells of one width failed.
enum Attempt {
    /// A level past what narrow cells hold: the plain solution given, for a solve with wide
    /// ones.
    Narrow(Box<Solution>),
    /// Any other error.
    Failed(SolveError),
}

impl From<SolveError> for Attempt {
    fn from(e: SolveError) -> Self {
        Attempt::Failed(e)
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
