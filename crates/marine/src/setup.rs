//! A battle as written down ([`Setup`], unvalidated) and as played ([`Battle`], validated).

use std::fmt;

use crate::map::{Cell, Map};
use crate::state::{MAX_ZERGLINGS, State, Zergling};

/// A zergling of a setup: its label (a letter), cell and hit points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The letter that names it on boards.
    pub label: char,
    /// Its starting cell.
    pub cell: Cell,
    /// Its hit points.
    pub hp: u8,
}

/// A battle as read from a file: not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The grid.
    pub map: Map,
    /// The marine's starting cell.
    pub marine: Cell,
    /// The marine's hit points.
    pub marine_hp: u16,
    /// The zerglings, in the order they are named.
    pub zerglings: Vec<Unit>,
}

/// Why a setup is not a battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// No zergling at all.
    NoZerglings,
    /// More than [`MAX_ZERGLINGS`] zerglings.
    TooManyZerglings(usize),
    /// Two zerglings with one label.
    DuplicateLabel(char),
    /// A cell outside the grid.
    OffGrid,
    /// The marine stands on a wall.
    MarineOnWall,
    /// A zergling stands on a wall.
    ZerglingOnWall(char),
    /// A zergling stands on the marine's cell.
    ZerglingOnMarine(char),
    /// The marine has no hit points.
    MarineDead,
    /// A zergling has no hit points.
    ZerglingDead(char),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NoZerglings => write!(f, "expected at least one zergling"),
            SetupError::TooManyZerglings(n) => {
                write!(f, "expected at most {MAX_ZERGLINGS} zerglings, found {n}")
            }
            SetupError::DuplicateLabel(c) => write!(f, "zergling '{c}' appears twice"),
            SetupError::OffGrid => write!(f, "a unit stands outside the grid"),
            SetupError::MarineOnWall => write!(f, "the marine stands on a wall"),
            SetupError::ZerglingOnWall(c) => write!(f, "zergling '{c}' stands on a wall"),
            SetupError::ZerglingOnMarine(c) => write!(f, "zergling '{c}' stands on the marine's cell"),
            SetupError::MarineDead => write!(f, "the marine needs at least 1 hit point"),
            SetupError::ZerglingDead(c) => write!(f, "zergling '{c}' needs at least 1 hit point"),
        }
    }
}

impl std::error::Error for SetupError {}

/// A checked battle: the map with its chase table, the zerglings' labels and the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battle {
    map: Map,
    labels: Vec<char>,
    start: State,
}

impl Battle {
    /// Checks a setup.
    ///
    /// # Errors
    /// No zerglings or too many, a repeated label, a unit off the grid or on a wall, a zergling
    /// on the marine, or a unit without hit points.
    pub fn new(setup: Setup) -> Result<Battle, SetupError> {
        let Setup { map, marine, marine_hp, zerglings } = setup;
        if zerglings.is_empty() {
            return Err(SetupError::NoZerglings);
        }
        if zerglings.len() > MAX_ZERGLINGS {
            return Err(SetupError::TooManyZerglings(zerglings.len()));
        }
        let on_grid = |c: Cell| c.index() < map.cells();
        if !on_grid(marine) || zerglings.iter().any(|z| !on_grid(z.cell)) {
            return Err(SetupError::OffGrid);
        }
        if map.is_wall(marine) {
            return Err(SetupError::MarineOnWall);
        }
        if marine_hp == 0 {
            return Err(SetupError::MarineDead);
        }
        for (i, z) in zerglings.iter().enumerate() {
            if zerglings[..i].iter().any(|y| y.label == z.label) {
                return Err(SetupError::DuplicateLabel(z.label));
            }
            if map.is_wall(z.cell) {
                return Err(SetupError::ZerglingOnWall(z.label));
            }
            if z.cell == marine {
                return Err(SetupError::ZerglingOnMarine(z.label));
            }
            if z.hp == 0 {
                return Err(SetupError::ZerglingDead(z.label));
            }
        }
        let units: Vec<Zergling> = zerglings.iter().map(|z| Zergling { hp: z.hp, cell: z.cell }).collect();
        let start = State::new(marine, marine_hp, &units);
        Ok(Battle { map, labels: zerglings.iter().map(|z| z.label).collect(), start })
    }

    /// The map.
    #[must_use]
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The zerglings' labels, in the order of the start state's zerglings.
    #[must_use]
    pub fn labels(&self) -> &[char] {
        &self.labels
    }

    /// The state before round 1 (zerglings in label order).
    #[must_use]
    pub fn start(&self) -> State {
        self.start
    }

    /// The board of a state whose zerglings are in label order: `#` walls, `.` floor, `M` the
    /// marine, the labels of live zerglings, `+` for a cell with several.
    #[must_use]
    pub fn board(&self, state: &State) -> Vec<String> {
        let mut rows: Vec<Vec<char>> = (0..self.map.rows())
            .map(|r| {
                (0..self.map.cols())
                    .map(
                        |c| if self.map.is_wall(self.map.cell(r, c).unwrap_or_default()) { '#' } else { '.' },
                    )
                    .collect()
            })
            .collect();
        let mut put = |cell: Cell, ch: char| {
            let (r, c) = self.map.coords(cell);
            let slot = &mut rows[r][c];
            *slot = if *slot == '.' || *slot == '#' { ch } else { '+' };
        };
        put(state.marine, 'M');
        for (z, &label) in state.zerglings().iter().zip(&self.labels) {
            if z.alive() {
                put(z.cell, label);
            }
        }
        rows.into_iter().map(|r| r.into_iter().collect()).collect()
    }
}

impl Battle {
    /// Every unit of a state whose zerglings are in label order, for people:
    /// `M r3c3 15 HP, z r1c1 15 HP, Z dead`.
    #[must_use]
    pub fn status(&self, state: &State) -> String {
        let mut s = format!("M {} {} HP", self.map.name(state.marine), state.hp);
        for (z, label) in state.zerglings().iter().zip(&self.labels) {
            if z.alive() {
                s.push_str(&format!(", {label} {} {} HP", self.map.name(z.cell), z.hp));
            } else {
                s.push_str(&format!(", {label} dead"));
            }
        }
        s
    }
}
