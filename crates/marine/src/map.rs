//! The grid: cells, walls, directions, and the zerglings' chase table.
//!
//! A zergling that does not attack steps to the first neighbour, in the order left, up, right,
//! down, that is one step closer to the marine along passable cells. That step depends only on
//! the marine's cell and the zergling's cell, so [`Map::new`] runs one breadth-first search from
//! every passable cell and stores the answer for every pair: the rules then look it up.

use std::fmt;
use std::str::FromStr;

/// The most cells a map may have (cells are numbered by one byte).
pub const MAX_CELLS: usize = 256;

/// A cell of a map, numbered row by row from the top left corner (row-major index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cell(pub u8);

impl Cell {
    /// The cell's index, row by row.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A direction of a step, in the zerglings' order of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// One column to the left.
    Left,
    /// One row up.
    Up,
    /// One column to the right.
    Right,
    /// One row down.
    Down,
}

impl Direction {
    /// Every direction, in the zerglings' order of preference (left, up, right, down).
    pub const ALL: [Direction; 4] = [Direction::Left, Direction::Up, Direction::Right, Direction::Down];

    /// The lower-case English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Left => "left",
            Direction::Up => "up",
            Direction::Right => "right",
            Direction::Down => "down",
        }
    }

    /// (row, column) offset.
    const fn offset(self) -> (i32, i32) {
        match self {
            Direction::Left => (0, -1),
            Direction::Up => (-1, 0),
            Direction::Right => (0, 1),
            Direction::Down => (1, 0),
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A direction's name that is not `left`, `up`, `right` or `down`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDirectionError(pub String);

impl fmt::Display for ParseDirectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected left, up, right or down, found {}", endgame_core::input::quote(&self.0))
    }
}

impl std::error::Error for ParseDirectionError {}

impl FromStr for Direction {
    type Err = ParseDirectionError;
    fn from_str(s: &str) -> Result<Self, ParseDirectionError> {
        Direction::ALL.into_iter().find(|d| d.name() == s).ok_or_else(|| ParseDirectionError(s.to_string()))
    }
}

/// Why a grid cannot be a map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MapError {
    /// No rows or no columns.
    Empty,
    /// More than [`MAX_CELLS`] cells.
    TooBig {
        /// Rows of the grid.
        rows: usize,
        /// Columns of the grid.
        cols: usize,
    },
    /// The wall flags do not fill `rows * cols` cells.
    WrongLength,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::Empty => write!(f, "a map needs at least one row and one column"),
            MapError::TooBig { rows, cols } => {
                write!(f, "a {rows} x {cols} map has more than {MAX_CELLS} cells")
            }
            MapError::WrongLength => write!(f, "the wall flags do not fill the grid"),
        }
    }
}

impl std::error::Error for MapError {}

/// A grid of passable and blocked cells, with the chase table of the zerglings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    rows: usize,
    cols: usize,
    wall: Vec<bool>,
    /// `neighbours[c][d]`: the passable cell next to `c` in direction `d`.
    neighbours: Vec<[Option<Cell>; 4]>,
    /// `chase[m * n + z]`: where a zergling on `z` steps when the marine is on `m` (`z` itself
    /// when it has no path).
    chase: Vec<Cell>,
}

impl Map {
    /// A map of `rows x cols` cells; `wall[i]` says whether cell `i` (row by row) is blocked.
    ///
    /// # Errors
    /// An empty grid, more than [`MAX_CELLS`] cells, or flags that do not fill the grid.
    pub fn new(rows: usize, cols: usize, wall: Vec<bool>) -> Result<Map, MapError> {
        if rows == 0 || cols == 0 {
            return Err(MapError::Empty);
        }
        if rows.saturating_mul(cols) > MAX_CELLS {
            return Err(MapError::TooBig { rows, cols });
        }
        let n = rows * cols;
        if wall.len() != n {
            return Err(MapError::WrongLength);
        }
        let mut neighbours = vec![[None; 4]; n];
        for (i, cell) in neighbours.iter_mut().enumerate() {
            if wall[i] {
                continue;
            }
            let (r, c) = ((i / cols) as i32, (i % cols) as i32);
            for (d, dir) in Direction::ALL.into_iter().enumerate() {
                let (dr, dc) = dir.offset();
                let (r2, c2) = (r + dr, c + dc);
                if r2 < 0 || c2 < 0 || r2 >= rows as i32 || c2 >= cols as i32 {
                    continue;
                }
                let j = r2 as usize * cols + c2 as usize;
                if !wall[j] {
                    cell[d] = Some(Cell(j as u8));
                }
            }
        }
        let mut map = Map { rows, cols, wall, neighbours, chase: Vec::new() };
        map.chase = map.chase_table();
        Ok(map)
    }

    /// One breadth-first search per marine cell; then the first neighbour (left, up, right,
    /// down) strictly closer to the marine is the step.
    fn chase_table(&self) -> Vec<Cell> {
        let n = self.cells();
        let mut chase: Vec<Cell> = Vec::with_capacity(n * n);
        let mut dist = vec![u32::MAX; n];
        let mut queue = Vec::with_capacity(n);
        for m in 0..n {
            dist.fill(u32::MAX);
            queue.clear();
            if !self.wall[m] {
                dist[m] = 0;
                queue.push(m);
            }
            let mut head = 0;
            while head < queue.len() {
                let c = queue[head];
                head += 1;
                for next in self.neighbours[c].into_iter().flatten() {
                    if dist[next.index()] == u32::MAX {
                        dist[next.index()] = dist[c] + 1;
                        queue.push(next.index());
                    }
                }
            }
            for z in 0..n {
                let step = self.neighbours[z].into_iter().flatten().find(|c| dist[c.index()] < dist[z]);
                chase.push(step.unwrap_or(Cell(z as u8)));
            }
        }
        chase
    }

    /// Rows of the grid.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns of the grid.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of cells (`rows * cols`).
    #[must_use]
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The cell at (`row`, `col`), counted from 0, if it is on the grid.
    #[must_use]
    pub fn cell(&self, row: usize, col: usize) -> Option<Cell> {
        (row < self.rows && col < self.cols).then(|| Cell((row * self.cols + col) as u8))
    }

    /// (row, column) of a cell, counted from 0.
    #[must_use]
    pub fn coords(&self, cell: Cell) -> (usize, usize) {
        (cell.index() / self.cols, cell.index() % self.cols)
    }

    /// A cell's name for people: `r3c2` is row 3, column 2, counted from 1 at the top left.
    #[must_use]
    pub fn name(&self, cell: Cell) -> String {
        let (r, c) = self.coords(cell);
        format!("r{}c{}", r + 1, c + 1)
    }

    /// Whether a cell is blocked.
    #[must_use]
    pub fn is_wall(&self, cell: Cell) -> bool {
        self.wall[cell.index()]
    }

    /// The passable cell next to a passable `cell` in `dir`, if any.
    #[must_use]
    pub fn neighbour(&self, cell: Cell, dir: Direction) -> Option<Cell> {
        self.neighbours[cell.index()][dir as usize]
    }

    /// Whether two cells are orthogonally adjacent (both passable).
    #[must_use]
    pub fn adjacent(&self, a: Cell, b: Cell) -> bool {
        self.neighbours[a.index()].contains(&Some(b))
    }

    /// Where a zergling on `zergling` steps when it chases a marine on `marine` (it stays when
    /// it has no path).
    #[must_use]
    pub fn chase(&self, marine: Cell, zergling: Cell) -> Cell {
        self.chase[marine.index() * self.cells() + zergling.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(rows: &[&str]) -> Map {
        let wall = rows.iter().flat_map(|r| r.chars().map(|c| c == '#')).collect();
        Map::new(rows.len(), rows[0].len(), wall).unwrap()
    }

    #[test]
    fn directions_parse_with_a_typed_error() {
        for d in Direction::ALL {
            assert_eq!(d.to_string().parse::<Direction>(), Ok(d));
        }
        let e = "north".parse::<Direction>().unwrap_err();
        assert_eq!(e, ParseDirectionError("north".into()));
        assert_eq!(e.to_string(), "expected left, up, right or down, found \"north\"");
    }

    #[test]
    fn chase_prefers_left_up_right_down() {
        let m = map(&["...", "...", "..."]);
        let at = |r, c| m.cell(r, c).unwrap();
        // Marine at the top left, zergling at the bottom right: left and up are both shortest.
        assert_eq!(m.chase(at(0, 0), at(2, 2)), at(2, 1));
        // Marine at the bottom right, zergling at the top left: right before down.
        assert_eq!(m.chase(at(2, 2), at(0, 0)), at(0, 1));
        // Marine at the top right, zergling at the bottom left: up before right.
        assert_eq!(m.chase(at(0, 2), at(2, 0)), at(1, 0));
    }

    #[test]
    fn walls_make_detours_and_cut_paths() {
        let m = map(&["...", "##.", "..."]);
        let at = |r, c| m.cell(r, c).unwrap();
        // From the bottom left the only way up goes right first.
        assert_eq!(m.chase(at(0, 0), at(2, 0)), at(2, 1));
        let cut = map(&[".#.", ".#.", ".#."]);
        let at = |r, c| cut.cell(r, c).unwrap();
        assert_eq!(cut.chase(at(0, 0), at(1, 2)), at(1, 2));
        assert!(!cut.adjacent(at(0, 0), at(0, 2)));
    }

    #[test]
    fn bad_grids_are_refused() {
        assert_eq!(Map::new(0, 3, vec![]), Err(MapError::Empty));
        assert_eq!(Map::new(17, 16, vec![false; 272]), Err(MapError::TooBig { rows: 17, cols: 16 }));
        assert_eq!(Map::new(2, 2, vec![false; 3]), Err(MapError::WrongLength));
        assert!(Map::new(16, 16, vec![false; 256]).is_ok());
    }
}
