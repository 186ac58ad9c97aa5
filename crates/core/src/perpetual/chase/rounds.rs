//! The chase stage's fixpoints over one layer, as nested loops (see the [parent
//! module](super) for the sets): rounds of `μZ5`, each an iteration of `νZ4` from the top;
//! each iteration a `μZ3` from `Z5`, whose rounds each solve `νZ2.μZ1` from `Z4`. Each step
//! is a method here: a round's start ([`Parity::start_round`]), an iteration
//! ([`Parity::mu_z3`]) with its rounds of `Z3` ([`Parity::nu_z2`], [`Parity::grow_z3`]), `Z4`
//! shrinking to `Z3` ([`Parity::shrink_z4`]), and the round's wins joining `Z5`
//! ([`Parity::grow_z5`]). The work lists are the members whose sets may still change.

use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use rayon::prelude::*;

use super::{
    BAD_EXIT, CHASED, CHECK, ChaseFigures, Parity, TO_Z3, TO_Z5, Z2_M, Z2_O, Z3_M, Z3_O, Z4_M, Z4_O, Z5_M,
    Z5_O, copy_at, from_z5, open_in,
};
use crate::perpetual::Checks;
use crate::perpetual::level::Level;
use crate::perpetual::work::{
    Bits, CHUNK, blocks_len, for_each_listed, gather_listed, layer_of, retain_listed, split_sides,
};
use crate::retrograde::SolveError;

/// The kinds of moves, by (the move is a check, the move is a chase): checks.
fn check(c: bool, _: bool) -> bool {
    c
}

/// Chases (no check).
fn chase(c: bool, ch: bool) -> bool {
    !c && ch
}

/// Idle moves (neither).
fn idle(c: bool, ch: bool) -> bool {
    !c && !ch
}

/// Quiet moves (chases and idle moves: no check).
fn quiet(c: bool, _: bool) -> bool {
    !c
}

impl<G: Checks, L: Level> Parity<'_, '_, G, L> {
    /// The fixpoints over the layer `start..end`, its ranks from `base` on: rounds of `Z5`
    /// until one finds nothing.
    pub(super) fn solve_layer(
        &mut self,
        base: &mut u32,
        figures: &mut ChaseFigures,
    ) -> Result<(), SolveError> {
        let mut counted = false;
        loop {
            figures.rounds += 1;
            let members = self.start_round(&mut counted, figures);
            let (round_top, round_tops3) = loop {
                figures.iterations += 1;
                let (top, tops3, open4) = self.mu_z3(&members, *base, figures)?;
                if !self.shrink_z4(open4, &members, figures) {
                    break (top, tops3);
                }
            };
            if !self.grow_z5(members, figures) {
                break;
            }
            self.tops3.extend(round_tops3);
            self.tops5.push(round_top);
            *base = round_top;
        }
        Ok(())
    }

    /// A round's start: `νZ4` from the top, the round's starting counts (made once per layer,
    /// `counted`, then kept up by [`Parity::grow_z5`]), `Z3` from `Z5`. Returns the members
    /// of the round.
    fn start_round(&mut self, counted: &mut bool, figures: &mut ChaseFigures) -> Bits {
        let clock = Instant::now();
        // νZ4 from the top: every M-state, every O-state without a bad exit; but not the
        // other state of a position of Z5 (νZ4's value is the next Z5, part of W, and
        // both sides cannot win at one position: the iteration reaches the same greatest
        // fixpoint from any start above it, with fewer iterations).
        layer_of(&mut self.flags, self.start, self.end).for_each(|(_, f)| {
            *f &= !(Z4_M | Z4_O);
            if *f & Z5_O == 0 {
                *f |= Z4_M;
            }
            if *f & (BAD_EXIT | Z5_M) == 0 {
                *f |= Z4_O;
            }
        });
        if !*counted {
            // The round's starting counts, made once per layer and then kept up as Z5
            // grows: the idle moves and chases into the top of νZ4, the checks and the
            // quiet moves of the O-states into M-states outside Z5 (as each iteration
            // starts them), the checks into Z5.
            self.idle_in_top.clear();
            self.chase_in_top.clear();
            self.add_over_where(|f| f & (Z4_O | CHECK) == Z4_O, &self.idle_in_top, 1, idle);
            self.add_over_where(|f| f & (Z4_O | CHECK) == Z4_O, &self.chase_in_top, 1, chase);
            self.checks_out_z5.clear();
            self.blockers_z5.clear();
            self.add_over_where(|f| f & Z5_M == 0, &self.checks_out_z5, 1, check);
            self.add_over_where(|f| f & Z5_M == 0, &self.blockers_z5, 1, quiet);
            layer_of(&mut self.flags, self.start, self.end).for_each(|(_, f)| *f &= !TO_Z5);
            let checked_z5_o = self.select(|f| f & (Z5_O | CHECK) == Z5_O | CHECK);
            self.mark_preds(&checked_z5_o, TO_Z5, check);
            *counted = true;
        }
        // μZ3 from Z5 over the layer: the other states leave Z3 and Z2 starts as Z4 (each
        // iteration does it again at its members, the only states that change).
        let level = &self.level;
        layer_of(&mut self.flags, self.start, self.end).for_each(|(i, f)| from_z5(i, f, level));
        // The members of the round: those with a state in Z4 outside Z5 (outside them
        // nothing changes until the round ends, and no count is read), their counts those
        // of the round's start. (A bit each, by their offset from the layer's start: until
        // issue 42's twenty-first session a list of them held 4 bytes a member at the chase
        // stage's peak, beside the iteration's work list.)
        let members = Bits::new(self.end - self.start);
        let (flags, start) = (&self.flags, self.start);
        let (idle_in_top, idle_in) = (&self.idle_in_top, &self.idle_in);
        let (chase_in_top, chase_in_z4) = (&self.chase_in_top, &self.chase_in_z4);
        (self.start..self.end).into_par_iter().with_min_len(CHUNK).for_each(|i| {
            if open_in(flags[i], Z4_M, Z4_O) {
                members.insert(i - start);
                idle_in[i].store(idle_in_top[i].load(Relaxed), Relaxed);
                chase_in_z4[i].store(chase_in_top[i].load(Relaxed), Relaxed);
            }
        });
        figures.seconds[0] += clock.elapsed().as_secs_f64();
        members
    }

    /// An iteration of `νZ4`: `μZ3` from `Z5` for the current `Z4`, over the round's
    /// `members`, its ranks from `base` on. Returns the largest rank given, the largest of
    /// each round of `Z3`, and the work list left (the members with a state in `Z4` outside
    /// `Z3`).
    fn mu_z3(
        &mut self,
        members: &Bits,
        base: u32,
        figures: &mut ChaseFigures,
    ) -> Result<(u32, Vec<u32>, Vec<u32>), SolveError> {
        let clock = Instant::now();
        // μZ3 from Z5 (again), over the members: the other states leave Z3 and lose their
        // levels; the counts of the O-states and the checks into Z3 are those of the round's
        // start. The members are listed as they start: the iteration's work list, the
        // members with a state in Z4 outside Z3 (the only ones whose sets change until Z4
        // shrinks).
        let level = &self.level;
        let (start, end) = (self.start, self.end);
        let mut open4 = members.retain_mut(&mut self.flags[start..end], start, |i, f| {
            from_z5(i, f, level);
            true
        });
        copy_at(&open4, [(&self.checks_out_z5, &self.checks_out), (&self.blockers_z5, &self.blockers)]);
        let mut offset = base;
        let mut tops3 = Vec::new();
        figures.seconds[1] += clock.elapsed().as_secs_f64();
        loop {
            figures.z3_rounds += 1;
            let Some(top) = self.nu_z2(&open4, offset, figures)? else { break };
            self.grow_z3(&mut open4, figures);
            tops3.push(top);
            offset = top;
        }
        Ok((offset, tops3, open4))
    }

    /// A round of `Z3`: `νZ2.μZ1` from `Z4` over the work list `open4`, the levels from
    /// `offset + 1` on. Returns the largest level given, or `None` when `Z1` is empty (`Z3`
    /// has reached its fixpoint).
    fn nu_z2(
        &mut self,
        open4: &[u32],
        offset: u32,
        figures: &mut ChaseFigures,
    ) -> Result<Option<u32>, SolveError> {
        let clock = Instant::now();
        // νZ2 from Z4 (outside the work list Z2 and Z4 agree: Z3, or neither),
        // with the chase counts of Z4 (read only in the work list).
        let (chase_in, chase_in_z4) = (&self.chase_in, &self.chase_in_z4);
        for_each_listed(&mut self.flags, open4, &|i, f| {
            *f &= !(Z2_M | Z2_O);
            *f |= (*f & (Z4_M | Z4_O)) << 2;
            chase_in[i].store(chase_in_z4[i].load(Relaxed), Relaxed);
        });
        // (Z2 outside Z3 is read in the list of Z4 outside Z3 itself, which it equals until
        // the first pass ends; the list is read once more, as Z2 shrinks. Until issue 42's
        // twenty-first session a copy of it, cut after its last read, held 4 bytes a member
        // of the layer at the chase stage's peak.)
        let flags = &self.flags;
        let in_z2: usize = open4
            .par_iter()
            .with_min_len(CHUNK)
            .map(|&i| {
                let f = flags[i as usize];
                usize::from(f & (Z2_M | Z3_M) == Z2_M) + usize::from(f & (Z2_O | Z3_O) == Z2_O)
            })
            .sum();
        figures.seconds[2] += clock.elapsed().as_secs_f64();
        // The first μZ1 of the round from its seeds; then, each time Z2 shrinks
        // to Z1, the next μZ1 from the last (see `shrink_z1`).
        figures.passes += 1;
        let clock = Instant::now();
        let first = offset + 1;
        let (mut in_z1, mut top) = self.pass(first, open4)?;
        figures.joined += in_z1 as u64;
        figures.seconds[3] += clock.elapsed().as_secs_f64();
        if in_z1 != in_z2 {
            let clock = Instant::now();
            // Z2 shrinks to Z1: the O-states that leave it are taken off the
            // chase counts of their predecessors.
            let level = &self.level;
            let left = gather_listed(&mut self.flags, open4, &|i, f, left| {
                if *f & (Z2_M | Z3_M) == Z2_M && level[2 * i].load(Relaxed) == 0 {
                    *f &= !Z2_M;
                }
                if *f & (Z2_O | Z3_O) == Z2_O && level[2 * i + 1].load(Relaxed) == 0 {
                    *f &= !Z2_O;
                    if *f & CHASED != 0 {
                        left.push(i as u32);
                    }
                }
            });
            let mut unseeded = self.drop_chases(&left, first);
            drop(left);
            figures.seconds[4] += clock.elapsed().as_secs_f64();
            while !unseeded.is_empty() {
                figures.passes += 1;
                let clock = Instant::now();
                let (lost, back, last) = self.shrink_z1(&unseeded, first, top)?;
                figures.joined += back as u64;
                top = last;
                in_z1 = in_z1 + back - blocks_len(&lost);
                figures.seconds[3] += clock.elapsed().as_secs_f64();
                let clock = Instant::now();
                // Z2 shrinks to Z1: the states that left and did not come back.
                let mut left = Vec::new();
                for s in lost.into_iter().flatten() {
                    let i = s as usize / 2;
                    if self.level[s as usize].load(Relaxed) != 0 {
                        continue;
                    }
                    let f = &mut self.flags[i];
                    if s % 2 == 0 {
                        *f &= !Z2_M;
                    } else {
                        *f &= !Z2_O;
                        if *f & CHASED != 0 {
                            left.push(i as u32);
                        }
                    }
                }
                unseeded = self.drop_chases(&left, first);
                figures.seconds[4] += clock.elapsed().as_secs_f64();
            }
        }
        Ok((in_z1 != 0).then_some(top))
    }

    /// `Z3` grows to `Z1`: the new states keep their levels as ranks. (`Z1` outside `Z3` is
    /// in the work list `open4`: a state outside `Z3` with a level is in `Z1`.) The members
    /// left with no state in `Z4` outside `Z3` leave the work list.
    fn grow_z3(&mut self, open4: &mut Vec<u32>, figures: &mut ChaseFigures) {
        let clock = Instant::now();
        let level = &self.level;
        let new = retain_listed(&mut self.flags, open4, &|i, f, new: &mut Vec<u32>| {
            if *f & Z3_M == 0 && level[2 * i].load(Relaxed) != 0 {
                *f |= Z3_M;
                new.push((i as u32) << 1);
            }
            if *f & Z3_O == 0 && level[2 * i + 1].load(Relaxed) != 0 {
                *f |= Z3_O;
                if *f & CHECK != 0 {
                    new.push((i as u32) << 1 | 1);
                }
            }
            open_in(*f, Z4_M, Z4_O)
        });
        let (new, k) = split_sides(new);
        let (new_m, new_o) = new.split_at(k);
        self.add_over(new_m, &self.checks_out, u8::MAX, check);
        self.add_over(new_m, &self.blockers, u8::MAX, chase);
        self.mark_preds(new_o, TO_Z3, check);
        figures.seconds[5] += clock.elapsed().as_secs_f64();
    }

    /// `Z4` shrinks to `Z3` (`open4`, the work list, is `Z4` outside `Z3`; `Z2` leaves with
    /// `Z4`): the `O`-states that leave are taken off the idle and chase counts of their
    /// predecessors, and the round's `members` are cut to those left with a state in `Z4`
    /// outside `Z5`. Returns whether `Z4` shrank (else it is the iteration's fixpoint).
    fn shrink_z4(&mut self, mut open4: Vec<u32>, members: &Bits, figures: &mut ChaseFigures) -> bool {
        let clock = Instant::now();
        let shrunk = !open4.is_empty();
        let left = retain_listed(&mut self.flags, &mut open4, &|i, f, left| {
            if *f & (Z4_M | Z3_M) == Z4_M {
                *f &= !(Z4_M | Z2_M);
            }
            if *f & (Z4_O | Z3_O) == Z4_O {
                *f &= !(Z4_O | Z2_O);
                if *f & CHECK == 0 {
                    left.push(i as u32);
                }
            }
            false
        });
        drop(open4);
        if shrunk {
            let (flags, start) = (&self.flags, self.start);
            members.retain(|k| {
                let f = flags[start + k];
                f & (Z4_M | Z5_M) == Z4_M || f & (Z4_O | Z5_O) == Z4_O
            });
        }
        figures.seconds[6] += clock.elapsed().as_secs_f64();
        if shrunk {
            self.add_over(&left, &self.idle_in, u8::MAX, idle);
            self.add_over(&left, &self.chase_in_z4, u8::MAX, chase);
        }
        shrunk
    }

    /// The round's wins join `Z5` (they keep their ranks): all are among its `members` (`Z3`
    /// grows in the work lists, cut from them). Then the round's starting counts are kept
    /// up. Returns whether any joined (else the layer is solved).
    fn grow_z5(&mut self, members: Bits, figures: &mut ChaseFigures) -> bool {
        let clock = Instant::now();
        let (start, end) = (self.start, self.end);
        let new = members.gather_mut(&mut self.flags[start..end], start, |i, f, new: &mut Vec<u32>| {
            if *f & (Z3_M | Z5_M) == Z3_M {
                *f |= Z5_M;
                new.push((i as u32) << 1);
            }
            if *f & (Z3_O | Z5_O) == Z3_O {
                *f |= Z5_O;
                new.push((i as u32) << 1 | 1);
            }
        });
        drop(members);
        if new.is_empty() {
            return false;
        }
        // The round's starting counts kept up: an M-state that joined Z5 takes its
        // position's O-state out of the top of νZ4 (both sides cannot win at one
        // position), and leaves the M-states outside Z5; an O-state in check that joined
        // marks the checks into Z5.
        let (new, k) = split_sides(new);
        let (new_m, new_o) = new.split_at(k);
        let flags = &self.flags;
        let top_o: Vec<u32> = new_m.iter().copied().filter(|&i| flags[i as usize] & BAD_EXIT == 0).collect();
        self.add_over(&top_o, &self.idle_in_top, u8::MAX, idle);
        self.add_over(&top_o, &self.chase_in_top, u8::MAX, chase);
        drop(top_o);
        self.add_over(new_m, &self.checks_out_z5, u8::MAX, check);
        self.add_over(new_m, &self.blockers_z5, u8::MAX, quiet);
        let checked: Vec<u32> = new_o.iter().copied().filter(|&i| flags[i as usize] & CHECK != 0).collect();
        self.mark_preds(&checked, TO_Z5, check);
        figures.seconds[0] += clock.elapsed().as_secs_f64();
        true
    }
}
