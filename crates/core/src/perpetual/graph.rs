//! The draws of a game as the rule's passes see them: a dense numbering of a set of positions
//! ([`DrawIndex`]), their predecessors inside the set (compressed lists, module `lists`,
//! built once when they fit the budget, else un-moves generated on each pass), with chase
//! labels when asked; their layers (the levels of the strongly connected components, by
//! Tarjan's search, or levels given). Each stage grows its sets over them itself (modules
//! `check` and `chase`: their passes keep different counts).

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::Checks;
use super::draw_index::DrawIndex;
use super::lists::Lists;
use super::work::{CHUNK, gather};
use crate::game::Successor;
use crate::retrograde::{SolveError, release_free_memory};
use crate::value::RuleValue;

/// The level of the strongly connected component of each of `m` members in the graph of
/// their moves, given by its predecessor lists: 0 for a component no move leaves, else one
/// more than the highest level of a component a move of it leads to. Tarjan's algorithm on
/// the predecessors (without recursion) finds the components in an order where each comes
/// after every component with a move into it; the levels then follow in the reverse order.
fn component_levels(lists: &Lists, m: usize) -> Vec<u32> {
    /// Not yet entered.
    const NEW: u32 = u32::MAX;
    /// In a member's number: its component is found (the component's number below this bit).
    /// A member entered and not yet `DONE` is on the stack.
    const DONE: u32 = 1 << 31;
    /// Tarjan's search: per member its number in the search (then its component's, with
    /// `DONE`) beside the lowest number it reaches, one look-up a move (8 bytes a member,
    /// against 9 in three arrays with a flag for the stack; as fast on `KNRvKAR`'s chase
    /// stage, 3.3 s for its 15.5 M members); the stack; the search's path (member, the byte
    /// of its list where its next predecessor is, the predecessor before it or `NEW`).
    struct Search {
        node: Vec<[u32; 2]>,
        stack: Vec<u32>,
        path: Vec<(u32, u32, u32)>,
        count: u32,
    }
    impl Search {
        /// Enters member `w`.
        fn enter(&mut self, w: usize) {
            self.node[w] = [self.count; 2];
            self.count += 1;
            self.stack.push(w as u32);
            self.path.push((w as u32, 0, NEW));
        }
    }
    // (Fewer than 2^31 members: see `DrawIndex::new`.)
    let mut search = Search { node: vec![[NEW, 0]; m], stack: Vec::new(), path: Vec::new(), count: 0 };
    // The members by component, in the order found, and where each component starts.
    let mut found: Vec<u32> = Vec::with_capacity(m);
    let mut starts: Vec<u32> = Vec::new();
    for root in 0..m {
        if search.node[root][0] != NEW {
            continue;
        }
        search.enter(root);
        while let Some(&(v, next, prev)) = search.path.last() {
            let v = v as usize;
            if next < lists.row_len(v) {
                let mut at = next;
                let w = lists.next(v, v as u32, &mut at, (prev != NEW).then_some(prev));
                if let Some(last) = search.path.last_mut() {
                    (last.1, last.2) = (at, w);
                }
                let w = w as usize;
                let number = search.node[w][0];
                if number == NEW {
                    search.enter(w);
                } else if number & DONE == 0 {
                    search.node[v][1] = search.node[v][1].min(number);
                }
                continue;
            }
            search.path.pop();
            let [number, low] = search.node[v];
            if let Some(&(u, ..)) = search.path.last() {
                let u = &mut search.node[u as usize][1];
                *u = (*u).min(low);
            }
            if low == number {
                let component = starts.len() as u32;
                starts.push(found.len() as u32);
                loop {
                    let w = search.stack.pop().expect("the root of a component is on the stack") as usize;
                    search.node[w][0] = component | DONE;
                    found.push(w as u32);
                    if w == v {
                        break;
                    }
                }
            }
        }
    }
    let mut number: Vec<u32> = search.node.iter().map(|&[n, _]| n & !DONE).collect();
    drop(search);
    starts.push(m as u32);
    // Each component after those with a move into it: the reverse order sees every
    // component after those its moves lead to.
    let components = starts.len() - 1;
    let mut levels = vec![0u32; components];
    for c in (0..components).rev() {
        let level = levels[c];
        for &i in &found[starts[c] as usize..starts[c + 1] as usize] {
            lists.row(i as usize, i as usize, |j, _| {
                let d = number[j] as usize;
                if d != c {
                    levels[d] = levels[d].max(level + 1);
                }
            });
        }
    }
    drop(found);
    for n in &mut number {
        *n = levels[*n as usize];
    }
    number
}

/// Where a move of a member leads.
pub(super) enum Target {
    /// To a member.
    Inside,
    /// Out of the set, to a position of this value for the side to move there.
    Out(RuleValue),
}

/// A set of positions of a game with their predecessors inside it.
pub(super) struct Graph<'g, G> {
    pub(super) game: &'g G,
    pub(super) index: DrawIndex,
    /// The members' positions, in order (see [`Graph::position`]); none while
    /// [released](Graph::release_positions), as they are whenever the members are in the
    /// set's order (from the start, and again when [`Graph::new_by_levels`] finds no room for
    /// the lists of its layers).
    pub(super) positions: Vec<u32>,
    /// While the positions are released and some members have no list: the samples that
    /// find those members' positions in the set ([`DrawIndex::select`]).
    samples: Vec<u32>,
    /// The number of members.
    members: usize,
    /// Whether the predecessor lists carry chase labels (asked of the game for moves into
    /// members that are not in check).
    labelled: bool,
    /// The predecessor lists, a row per member (in the members' numbers): of every member,
    /// or of the first ones only (see [`Graph::new`]; the others' predecessors come from
    /// un-moves).
    preds: Option<Lists>,
    /// Once the members are renumbered by layers ([`Graph::layers`]): each member's number in
    /// the first order (that of the positions). Renumbered members always have lists (the
    /// un-moves give numbers in the first order).
    first: Option<Vec<u32>>,
}

impl<'g, G: Checks> Graph<'g, G> {
    /// The set of `member`s of `game` and their positions, no lists yet.
    fn without_lists(
        game: &'g G,
        member: impl Fn(usize) -> bool + Sync,
        labelled: bool,
    ) -> Result<Self, SolveError> {
        // (The positions are found in the set (by a sampled select) until the members are
        // renumbered: held from the start, they were the peak of `KRNvKRA`'s least path as
        // `KNRvKAR`'s graph was made, beside the plain values, 4 bytes a draw.)
        let index = DrawIndex::new(game.num_positions(), member)?;
        let (members, samples) = (index.len(), index.select_samples());
        Ok(Graph { game, index, positions: Vec::new(), members, samples, labelled, preds: None, first: None })
    }

    /// The set of `member`s of `game`, with predecessor lists when they fit in `budget` bytes
    /// (one un-move pass, given up as soon as the budget is passed), chase labels when
    /// `labelled`. When `partial` is `Some(most)`, the lists of as many of the first members
    /// (at most `most`) as fit instead: the passes generate the others' un-moves (a list is
    /// the same whoever holds it, so a budget between none and all trades memory for time in
    /// proportion). Such lists are not [complete](Graph::complete), which leaves the members
    /// in one layer.
    pub(super) fn new(
        game: &'g G,
        member: impl Fn(usize) -> bool + Sync,
        budget: usize,
        labelled: bool,
        partial: Option<usize>,
    ) -> Result<Self, SolveError> {
        let mut graph = Graph::without_lists(game, member, labelled)?;
        graph.preds = graph.build(budget, partial);
        Ok(graph)
    }

    /// Whether some members have their predecessor lists.
    pub(super) fn has_lists(&self) -> bool {
        self.preds.is_some()
    }

    /// Whether every member has its predecessor list.
    pub(super) fn complete(&self) -> bool {
        self.preds.as_ref().is_some_and(|p| p.rows() == self.members)
    }

    /// The members, and the predecessor lists' moves and bytes (none without lists): for
    /// the profile.
    pub(super) fn describe(&self) -> String {
        match &self.preds {
            Some(p) => format!(
                "{} members, {}lists of {} moves ({} MiB, {:.2} bytes a move)",
                self.len(),
                if p.rows() < self.len() {
                    format!("the first {} of them with ", p.rows())
                } else {
                    String::new()
                },
                p.moves(),
                p.heap_bytes() >> 20,
                // With no move, the offsets alone: no bytes a move to speak of.
                if p.moves() == 0 { 0.0 } else { p.heap_bytes() as f64 / p.moves() as f64 }
            ),
            None => format!("{} members, no lists (un-moves on every pass)", self.len()),
        }
    }

    /// The moves in the predecessor lists (`None` without lists, or with some members'
    /// lists missing).
    pub(super) fn moves(&self) -> Option<u64> {
        self.preds.as_ref().filter(|_| self.complete()).map(Lists::moves)
    }

    /// Bytes the predecessor lists hold (0 without lists).
    pub(super) fn lists_bytes(&self) -> usize {
        self.preds.as_ref().map_or(0, Lists::heap_bytes)
    }

    /// The number of members.
    pub(super) fn len(&self) -> usize {
        self.members
    }

    /// Drops the members' positions (4 bytes a member): members numbered in the set's order
    /// find theirs in the set ([`DrawIndex::select`], 4 bytes per 64 members); renumbered
    /// members all have predecessor lists, which make them needless, and until
    /// [`Graph::restore_positions`] nothing may ask for one of theirs. (`KNRvKAR`: 289 MiB
    /// of the check stage's first pass and passes; its peak was 1,681 MiB without lists.)
    pub(super) fn release_positions(&mut self) {
        if self.positions.is_empty() {
            return;
        }
        if self.first.is_none() {
            self.samples = self.index.select_samples();
        }
        self.positions = Vec::new();
        release_free_memory();
    }

    /// The position of member `i` (in the set's order while the positions are released).
    #[inline]
    pub(super) fn position(&self, i: usize) -> usize {
        if self.positions.len() == self.members {
            self.positions[i] as usize
        } else {
            debug_assert!(self.first.is_none(), "the position of a renumbered member asked while released");
            self.index.select(&self.samples, i)
        }
    }

    /// The members' positions made again from the set (and put in the members' order when
    /// they were renumbered), after [`Graph::release_positions`].
    pub(super) fn restore_positions(&mut self) {
        if self.positions.len() == self.members {
            return;
        }
        let sorted = self.index.members();
        self.samples = Vec::new();
        self.positions = match &self.first {
            Some(first) => first.par_iter().map(|&i| sorted[i as usize]).collect(),
            None => sorted,
        };
    }

    fn build(&self, budget: usize, partial: Option<usize>) -> Option<Lists> {
        let rows = partial.map_or(self.len(), |most| most.min(self.len()));
        Lists::build(rows, budget, self.labelled, partial.is_some(), |i, f| self.unmoves(i, f))
    }

    /// The predecessors of member `i` from un-moves (their numbers in the first order), with
    /// their labels when labelled.
    fn unmoves(&self, i: usize, mut f: impl FnMut(usize, bool)) {
        let pos = self.position(i);
        if self.labelled && !self.game.in_check(pos) {
            self.game.for_each_labelled_unmove(
                pos,
                |q| self.index.index(q).is_some(),
                |q, chase| {
                    if let Some(j) = self.index.index(q) {
                        f(j, chase);
                    }
                },
            );
        } else {
            self.game.for_each_unmove(pos, |q| {
                if let Some(j) = self.index.index(q) {
                    f(j, false);
                }
            });
        }
    }

    /// Drops the predecessor lists (nothing may read them after), their memory given back.
    pub(super) fn drop_lists(&mut self) {
        if self.preds.take().is_some() {
            release_free_memory();
        }
    }

    /// The set alone (its predecessor lists dropped).
    pub(super) fn into_index(self) -> DrawIndex {
        self.index
    }

    /// Values given by the members' numbers, put in the first order (that of the
    /// positions, before [`Graph::layers`]).
    pub(super) fn in_first_order<T: Copy + Default>(&self, values: Vec<T>) -> Vec<T> {
        let Some(first) = &self.first else { return values };
        let mut out = vec![T::default(); values.len()];
        for (&row, v) in first.iter().zip(values) {
            out[row as usize] = v;
        }
        out
    }

    /// The layer of each member, in the first order (that of the positions), when
    /// [`Graph::layers`] gave more than one (`starts`, as it returned them); else `None`.
    pub(super) fn layer_of_members(&self, starts: &[usize]) -> Option<Vec<u32>> {
        let first = self.first.as_ref()?;
        let mut layer = vec![0u32; self.len()];
        for (l, w) in starts.windows(2).enumerate() {
            for &row in &first[w[0]..w[1]] {
                layer[row as usize] = l as u32;
            }
        }
        Some(layer)
    }

    /// The moves of the later layers (members from `end` on) into the members `start..end`,
    /// the layer just solved: `(j, mark)` for each move from `j` into a member `i` and each
    /// `mark` that `mark(i, chase)` gives (`chase`: the move's label in the lists).
    pub(super) fn exits_into<T: Send>(
        &self,
        start: usize,
        end: usize,
        mark: impl Fn(usize, bool) -> Option<T> + Sync,
    ) -> Vec<(u32, T)> {
        gather(start..end, 256, |i, out| {
            self.for_each_pred(i, |j, chase| {
                if j >= end
                    && let Some(m) = mark(i, chase)
                {
                    out.push((j as u32, m));
                }
            });
        })
    }

    /// Calls `f` with the number of every predecessor of member `i` (once per move) and
    /// whether the move is a chase (always `false` when not labelled, and for a member in
    /// check: its moves in are checks).
    #[inline]
    pub(super) fn for_each_pred(&self, i: usize, f: impl FnMut(usize, bool)) {
        match &self.preds {
            Some(lists) if i < lists.rows() => lists.row(i, i, f),
            _ => {
                debug_assert!(self.first.is_none(), "renumbered members without lists");
                self.unmoves(i, f);
            }
        }
    }

    /// Fills `row` with the number of every predecessor of member `i` (once per move) that
    /// `pick` accepts (with the move's chase label), loading `warm(j)` for each: the loads
    /// are independent of each other, so that the memory answers them together, and the
    /// atomic updates a caller then makes over `row` (each holds back the loads behind it)
    /// find their cache lines there (the check stage's passes on `KNRvKR`: 5.3 s, against
    /// 5.4 to 6.4 s in two runs when each update followed its load: a small gain at most).
    #[inline]
    pub(super) fn warm_preds(
        &self,
        i: usize,
        row: &mut Vec<u32>,
        pick: impl Fn(usize, bool) -> bool,
        warm: impl Fn(usize) -> u32,
    ) {
        row.clear();
        self.for_each_pred(i, |j, chase| {
            if pick(j, chase) {
                std::hint::black_box(warm(j));
                row.push(j as u32);
            }
        });
    }

    /// Adds `delta` (wrapping: -1 is `u8::MAX`) to the count `count(j)` of every predecessor
    /// `j` of member `i` that `pick` accepts (once per move, with the move's chase label),
    /// each count loaded first ([`Graph::warm_preds`]; `row`: scratch).
    #[inline]
    pub(super) fn add_to_preds<'c>(
        &self,
        i: usize,
        row: &mut Vec<u32>,
        pick: impl Fn(usize, bool) -> bool,
        count: impl Fn(usize) -> &'c AtomicU8,
        delta: u8,
    ) {
        self.warm_preds(i, row, pick, |j| u32::from(count(j).load(Relaxed)));
        for &j in row.iter() {
            count(j as usize).fetch_add(delta, Relaxed);
        }
    }

    /// Renumbers the members so that the game on them splits into layers that can be solved
    /// one after the other, and returns where each layer starts (and, last, the number of
    /// members). A move of a member leads to a member of its own layer or of an earlier one:
    /// the layers are the levels of the strongly connected components of the moves (level 0:
    /// the components no move leaves but out of the set; else one more than the highest
    /// level a move leads to), consecutive levels merged until a layer holds at least
    /// `min_size` members. Without predecessor lists the members stay as they are, in one
    /// layer (none without members).
    ///
    /// The lists in the new numbering are made from the old ones when `room` bytes hold a
    /// second copy of them, else from un-moves (see [`Graph::layers_by`]).
    pub(super) fn layers(&mut self, min_size: usize, room: usize) -> Vec<usize> {
        let m = self.len();
        if m == 0 {
            return vec![0];
        }
        let Some(preds) = self.preds.as_ref().filter(|_| self.complete()) else { return vec![0, m] };
        if min_size >= m {
            // One layer whatever the components: no search.
            return vec![0, m];
        }
        let level = component_levels(preds, m);
        self.layers_by(level, min_size, room)
    }

    /// [`Graph::layers`] with the members' levels given (by member, in the first order)
    /// instead of searched: every move of a member must lead to a member of its own level or
    /// a lower one (the levels need not be components: the layers of a larger set restricted
    /// to this one will do). The lists are made again in the new numbering: from the old ones,
    /// each new row an old one renumbered, when `room` bytes hold a second copy (both are held
    /// at once; no move generated: `KNRvKAR`'s 15.5 M draws of the chase stage, about 3 s of
    /// un-moves); else from un-moves after the old ones are dropped (renumbering them with
    /// both held: on `KCPvKN` 1,611 MiB at the peak against 1,126 for the search). They held
    /// as many moves before, so no budget stops them.
    pub(super) fn layers_by(&mut self, level: Vec<u32>, min_size: usize, room: usize) -> Vec<usize> {
        let m = self.len();
        if m == 0 {
            return vec![0];
        }
        if !self.complete() || min_size >= m {
            return vec![0, m];
        }
        let Some((starts, new)) = self.order_by(level, min_size) else { return vec![0, m] };
        let old = self.preds.take().expect("lists to renumber");
        let lists = if old.heap_bytes() <= room {
            let first = self.first.as_deref().expect("renumbered members");
            let lists = Lists::build(m, usize::MAX, self.labelled, false, |k, f| {
                let i = first[k] as usize;
                old.row(i, i, |j, chase| f(new[j] as usize, chase));
            });
            // The old lists' blocks, freed among the new ones, go back to the system.
            drop(old);
            release_free_memory();
            lists
        } else {
            drop(old);
            Lists::build(m, usize::MAX, self.labelled, false, |k, f| {
                self.unmoves(k, |j, chase| f(new[j] as usize, chase))
            })
        };
        // (Without a budget only a block over 4 GiB fails: it held before.)
        self.preds = Some(lists.expect("the lists made again fit as before"));
        starts
    }

    /// The set of `member`s of `game` in layers by the `level` of each (given with its
    /// number in the first order and its position; as in [`Graph::layers_by`]), with
    /// predecessor lists made at once in that numbering when they fit in `budget` bytes
    /// (else in one layer in the first order, and no lists), chase labels when `labelled`.
    /// Returns the set and where each layer starts; [`SolveError::LevelRaised`] when a move
    /// leads to a later layer than its own (levels that do not hold).
    pub(super) fn new_by_levels(
        game: &'g G,
        member: impl Fn(usize) -> bool + Sync,
        level: impl Fn(usize, usize) -> u32 + Sync,
        min_size: usize,
        budget: usize,
        labelled: bool,
    ) -> Result<(Self, Vec<usize>), SolveError> {
        let mut graph = Graph::without_lists(game, member, labelled)?;
        let m = graph.len();
        let ordered = if m == 0 || budget == 0 || min_size >= m {
            None
        } else {
            let level = (0..m).into_par_iter().map(|i| level(i, graph.position(i))).collect();
            graph.order_by(level, min_size)
        };
        let Some((starts, new)) = ordered else {
            graph.preds = graph.build(budget, None);
            return Ok((graph, if m == 0 { vec![0] } else { vec![0, m] }));
        };
        // A move into a member must come from its layer or a later one (else the levels lie).
        let raised = std::sync::OnceLock::new();
        graph.preds = Lists::build(m, budget, labelled, false, |k, f| {
            let layer_start = starts[starts.partition_point(|&s| s <= k) - 1];
            graph.unmoves(k, |j, chase| {
                let from = new[j] as usize;
                if from < layer_start {
                    let _ = raised.set((from, k));
                }
                f(from, chase);
            });
        });
        if let Some(&(from, to)) = raised.get() {
            return Err(SolveError::LevelRaised { from: graph.position(from), to: graph.position(to) });
        }
        if graph.preds.is_none() {
            // No lists: back to the first order (that of the positions), in one layer, the
            // positions found in the set again.
            graph.first = None;
            graph.release_positions();
            return Ok((graph, vec![0, m]));
        }
        Ok((graph, starts))
    }

    /// Orders the members by `level` (by member, in the first order), consecutive levels
    /// merged until a layer holds at least `min_size` members: when that makes more than one
    /// layer, renumbers the members' positions and `first` and returns where each layer
    /// starts and the new number of each member by its number in the first order (the lists
    /// are left to the caller); else changes nothing.
    fn order_by(&mut self, level: Vec<u32>, min_size: usize) -> Option<(Vec<usize>, Vec<u32>)> {
        let m = self.len();
        let top = level.iter().copied().max().map_or(0, |t| t as usize + 1);
        let mut per_level = vec![0usize; top];
        for &l in &level {
            per_level[l as usize] += 1;
        }
        let mut layer_of_level = Vec::with_capacity(top);
        let mut starts = vec![0usize];
        let mut size = 0;
        for &count in &per_level {
            layer_of_level.push(starts.len() - 1);
            size += count;
            // (Given levels may hold no member.)
            if size > 0 && size >= min_size {
                starts.push(starts.last().copied().unwrap_or(0) + size);
                size = 0;
            }
        }
        if size > 0 {
            starts.push(m);
        }
        if starts.len() <= 2 {
            return None;
        }
        // The new numbers: by layer, in the first order within a layer.
        let mut next = starts.clone();
        let mut first = vec![0u32; m];
        let mut new = level;
        for (i, l) in new.iter_mut().enumerate() {
            let layer = layer_of_level[*l as usize];
            let k = next[layer];
            next[layer] += 1;
            first[k] = i as u32;
            *l = k as u32;
        }
        self.restore_positions();
        self.positions = first.par_iter().map(|&i| self.positions[i as usize]).collect();
        self.first = Some(first);
        Some((starts, new))
    }

    /// Calls `f` for every move of the position `pos`: into the set, or out of it with the
    /// value `outside` gives a position of the index outside the set (`None`: a hole, which
    /// a correct game never reaches) or the game's value under the rule of a move out of the
    /// index.
    pub(super) fn for_each_target(
        &self,
        pos: usize,
        outside: impl Fn(usize) -> Option<RuleValue>,
        mut f: impl FnMut(Target),
    ) {
        self.game.for_each_move(pos, |mv, to| match to {
            Successor::Position(q) => match self.index.index(q) {
                Some(_) => f(Target::Inside),
                None => {
                    if let Some(v) = outside(q) {
                        f(Target::Out(v));
                    }
                }
            },
            Successor::Known(v) => f(Target::Out(self.game.known_by_rule(pos, mv, v))),
        });
    }

    /// The distance to a drawn end of every member that `is_draw` accepts, breadth first
    /// among them from the drawn ends their moves out reach (`u32::MAX`: none, endless).
    /// Only the members `has_end` accepts may have a move to a drawn end (their moves are
    /// generated, the others' not).
    pub(super) fn draw_distances(
        &self,
        is_draw: impl Fn(usize) -> bool + Sync,
        has_end: impl Fn(usize) -> bool + Sync,
        outside: impl Fn(usize) -> Option<RuleValue> + Sync,
    ) -> Vec<u32> {
        let starts: Vec<(u32, u32)> = (0..self.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .filter(|&i| has_end(i) && is_draw(i))
            .filter_map(|i| self.drawn_end(i, &outside).map(|d| (d, i as u32)))
            .collect();
        self.distances_from(starts, is_draw)
    }

    /// One more than the shortest distance of a drawn end that a move of member `i` out of
    /// the set reaches (`outside` as in [`Graph::for_each_target`]), if any.
    fn drawn_end(&self, i: usize, outside: impl Fn(usize) -> Option<RuleValue>) -> Option<u32> {
        let mut best = None::<u32>;
        self.for_each_target(self.position(i), outside, |t| {
            if let Target::Out(RuleValue::Draw(Some(d))) = t {
                best = Some(best.map_or(d.0, |b| b.min(d.0)));
            }
        });
        best.map(|d| d.saturating_add(1))
    }

    /// [`Graph::draw_distances`] from the members' drawn ends (`(distance, member)`, as
    /// [`Graph::drawn_end`] gives them).
    fn distances_from(&self, starts: Vec<(u32, u32)>, is_draw: impl Fn(usize) -> bool) -> Vec<u32> {
        let m = self.len();
        let mut dist: Vec<u32> = vec![u32::MAX; m];
        let mut buckets: Vec<Vec<u32>> = Vec::new();
        for (at, i) in starts {
            let at = at as usize;
            if buckets.len() <= at {
                buckets.resize_with(at + 1, Vec::new);
            }
            buckets[at].push(i);
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
                self.for_each_pred(i, |j, _| {
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
        dist
    }
}

#[cfg(test)]
mod tests {
    use super::{Lists, component_levels};
    use proptest::prelude::*;

    /// The level of each member's component by the definition, from reachability: members
    /// reach each other both ways in one component; a component's level is 0 when no move
    /// leaves it, else one more than the highest of the components its moves lead to.
    fn levels_by_reach(moves: &[Vec<usize>]) -> Vec<u32> {
        let m = moves.len();
        let mut reach = vec![vec![false; m]; m];
        for (a, row) in moves.iter().enumerate() {
            reach[a][a] = true;
            for &b in row {
                reach[a][b] = true;
            }
        }
        for k in 0..m {
            for a in 0..m {
                if reach[a][k] {
                    for b in 0..m {
                        reach[a][b] |= reach[k][b];
                    }
                }
            }
        }
        fn level(a: usize, moves: &[Vec<usize>], reach: &[Vec<bool>], memo: &mut [Option<u32>]) -> u32 {
            if let Some(l) = memo[a] {
                return l;
            }
            let m = moves.len();
            let mut l = 0;
            for c in (0..m).filter(|&c| reach[a][c] && reach[c][a]) {
                for &b in &moves[c] {
                    if !(reach[a][b] && reach[b][a]) {
                        l = l.max(level(b, moves, reach, memo) + 1);
                    }
                }
            }
            memo[a] = Some(l);
            l
        }
        let mut memo = vec![None; m];
        (0..m).map(|a| level(a, moves, &reach, &mut memo)).collect()
    }

    proptest! {
        /// Tarjan's search gives every member its component's level by the definition, on
        /// random graphs (sparse ones with long chains, dense ones with large components).
        #[test]
        fn component_levels_agree_with_reachability(
            moves in (1usize..40).prop_flat_map(|m| {
                prop::collection::vec(prop::collection::vec(0..m, 0..4), m..=m)
            }),
        ) {
            let m = moves.len();
            let mut preds = vec![Vec::new(); m];
            for (a, row) in moves.iter().enumerate() {
                for &b in row {
                    preds[b].push(a);
                }
            }
            let lists = Lists::build(m, usize::MAX, false, false, |i, f| {
                for &j in &preds[i] {
                    f(j, false);
                }
            })
            .unwrap();
            prop_assert_eq!(component_levels(&lists, m), levels_by_reach(&moves));
        }
    }
}
