//! A state of the battle and one round of the rules.
//!
//! A round: the marine moves one cell (onto a passable cell without a live zergling) or shoots
//! one live zergling (1 HP). Killing the last one wins at once. Then every live zergling next
//! to the marine attacks and the others take their chase step, all at the same time: the
//! marine loses 1 HP per distinct cell attacked from, and at 0 HP the battle is lost.

use std::hash::{Hash, Hasher};

use crate::map::{Cell, Direction, Map};

/// The most zerglings a battle may have.
pub const MAX_ZERGLINGS: usize = 7;

/// A zergling: its hit points and its cell. A dead zergling has 0 HP and, by convention,
/// cell 0. The order (HP, then cell) is the canonical order of a state's zerglings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Zergling {
    /// Hit points; 0 when dead.
    pub hp: u8,
    /// The cell it stands on (cell 0 when dead).
    pub cell: Cell,
}

impl Zergling {
    /// Whether it is alive.
    #[must_use]
    pub const fn alive(self) -> bool {
        self.hp > 0
    }
}

/// The whole state between rounds: the marine's cell and HP, and every zergling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// The marine's cell.
    pub marine: Cell,
    /// The marine's hit points.
    pub hp: u16,
    len: u8,
    zerglings: [Zergling; MAX_ZERGLINGS],
}

impl Hash for State {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
        state.write_u16(self.hp);
    }
}

/// A state without the marine's hit points, packed in 128 bits (the marine's cell, then
/// 16 bits per zergling): the key of the dominance on HP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(u128);

impl State {
    /// A state with these zerglings (at most [`MAX_ZERGLINGS`]; dead ones are moved to cell 0).
    ///
    /// # Panics
    /// With more than [`MAX_ZERGLINGS`] zerglings.
    #[must_use]
    pub fn new(marine: Cell, hp: u16, zerglings: &[Zergling]) -> State {
        assert!(zerglings.len() <= MAX_ZERGLINGS, "at most {MAX_ZERGLINGS} zerglings");
        let mut all = [Zergling::default(); MAX_ZERGLINGS];
        for (slot, z) in all.iter_mut().zip(zerglings) {
            *slot = if z.alive() { *z } else { Zergling::default() };
        }
        State { marine, hp, len: zerglings.len() as u8, zerglings: all }
    }

    /// The zerglings, dead ones included, in their order in this state.
    #[must_use]
    pub fn zerglings(&self) -> &[Zergling] {
        &self.zerglings[..self.len as usize]
    }

    /// The zerglings' hit points left in total (every shot removes exactly one).
    #[must_use]
    pub fn zergling_hp(&self) -> u32 {
        self.zerglings().iter().map(|z| u32::from(z.hp)).sum()
    }

    /// Whether a live zergling stands on `cell`.
    #[must_use]
    pub fn occupied(&self, cell: Cell) -> bool {
        self.zerglings().iter().any(|z| z.alive() && z.cell == cell)
    }

    /// The same state with its zerglings in canonical order (HP, then cell): zerglings are
    /// interchangeable, so this changes nothing in the future of the battle.
    #[must_use]
    pub fn canonical(mut self) -> State {
        self.zerglings[..self.len as usize].sort_unstable();
        self
    }

    /// The state without the marine's hit points.
    #[must_use]
    pub fn key(&self) -> Key {
        let mut packed = 0u128;
        for z in &self.zerglings {
            packed = packed << 16 | u128::from(z.hp) << 8 | u128::from(z.cell.0);
        }
        Key(packed << 8 | u128::from(self.marine.0))
    }
}

/// What the marine does in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Step one cell.
    Move(Direction),
    /// Stay and shoot the zergling with this index in the state's list.
    Shoot(u8),
}

/// How a round ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The battle goes on from this state; the marine lost `damage` HP this round.
    Continue {
        /// The state after the zerglings acted.
        state: State,
        /// Hit points the marine lost this round.
        damage: u16,
    },
    /// The shot killed the last zergling: the state after the shot.
    Won(State),
    /// The zerglings' attacks took the marine's last hit points.
    Lost,
}

/// Plays one round. `None` when the action is not allowed: a move off the map, into a wall or
/// onto a live zergling, or a shot at a dead or missing zergling.
#[must_use]
pub fn play(map: &Map, state: &State, action: Action) -> Option<Outcome> {
    let mut next = *state;
    match action {
        Action::Move(dir) => {
            let to = map.neighbour(state.marine, dir)?;
            if state.occupied(to) {
                return None;
            }
            next.marine = to;
        }
        Action::Shoot(i) => {
            let z = next.zerglings[..next.len as usize].get_mut(usize::from(i)).filter(|z| z.alive())?;
            z.hp -= 1;
            if z.hp == 0 {
                *z = Zergling::default();
                if next.zergling_hp() == 0 {
                    return Some(Outcome::Won(next));
                }
            }
        }
    }
    // Attacks first (from the cells before anyone steps), then the steps.
    let mut attack_cells = [Cell(0); MAX_ZERGLINGS];
    let mut damage = 0u16;
    let len = next.len as usize;
    for z in &mut next.zerglings[..len] {
        if !z.alive() {
            continue;
        }
        if map.adjacent(next.marine, z.cell) {
            if !attack_cells[..damage as usize].contains(&z.cell) {
                attack_cells[damage as usize] = z.cell;
                damage += 1;
            }
        } else {
            z.cell = map.chase(next.marine, z.cell);
        }
    }
    if damage >= next.hp {
        return Some(Outcome::Lost);
    }
    next.hp -= damage;
    Some(Outcome::Continue { state: next, damage })
}

/// Every action the marine may take in `state` (moves first, then shots), with its outcome.
pub fn actions(map: &Map, state: &State) -> impl Iterator<Item = (Action, Outcome)> {
    let moves = Direction::ALL.into_iter().map(Action::Move);
    let shots = (0..state.len).map(Action::Shoot);
    moves.chain(shots).filter_map(|a| play(map, state, a).map(|o| (a, o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(rows: usize, cols: usize) -> Map {
        Map::new(rows, cols, vec![false; rows * cols]).unwrap()
    }

    #[test]
    fn two_zerglings_in_one_cell_hit_once() {
        let map = open(1, 3);
        let z = Zergling { hp: 2, cell: Cell(1) };
        let s = State::new(Cell(0), 5, &[z, z]);
        // Moving right is blocked by the zerglings; shooting one leaves both attacking from b.
        assert_eq!(play(&map, &s, Action::Move(Direction::Right)), None);
        assert_eq!(play(&map, &s, Action::Move(Direction::Left)), None);
        let Some(Outcome::Continue { state, damage }) = play(&map, &s, Action::Shoot(0)) else { panic!() };
        assert_eq!((state.hp, damage), (4, 1));
        assert_eq!(state.zerglings()[0].hp, 1);
    }

    #[test]
    fn attacks_from_two_cells_add_up_and_kill() {
        let map = open(1, 3);
        let s =
            State::new(Cell(1), 2, &[Zergling { hp: 3, cell: Cell(0) }, Zergling { hp: 3, cell: Cell(2) }]);
        assert_eq!(play(&map, &s, Action::Shoot(1)), Some(Outcome::Lost));
        let s3 = State { hp: 3, ..s };
        let Some(Outcome::Continue { state, damage }) = play(&map, &s3, Action::Shoot(1)) else { panic!() };
        assert_eq!((state.hp, damage), (1, 2));
    }

    #[test]
    fn the_last_kill_wins_before_the_attack() {
        let map = open(1, 3);
        let s =
            State::new(Cell(1), 1, &[Zergling { hp: 0, cell: Cell(0) }, Zergling { hp: 1, cell: Cell(2) }]);
        assert!(matches!(play(&map, &s, Action::Shoot(1)), Some(Outcome::Won(_))));
        assert_eq!(play(&map, &s, Action::Shoot(0)), None);
        assert_eq!(play(&map, &s, Action::Shoot(2)), None);
    }
}
