//! Tic-tac-toe as a worked example of an endgame game.
//!
//! The index is the board read as a base-3 number (cell `i` is digit `i`: 0 empty, 1 X, 2 O).
//! The side to move follows from the counts (X moves first), so it is not part of the index.
//! Boards that cannot arise in play (wrong counts, play after a line) are holes.

use endgame_core::conformance::Indexed;
use endgame_core::{Game, Successor, Unmoves, Value};

/// The eight lines of three.
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// Cell `i` of `board` (0 empty, 1 X, 2 O).
pub fn cell(board: usize, i: usize) -> usize {
    board / 3usize.pow(i as u32) % 3
}

fn with_cell(board: usize, i: usize, mark: usize) -> usize {
    let place = 3usize.pow(i as u32);
    board - cell(board, i) * place + mark * place
}

fn has_line(board: usize, mark: usize) -> bool {
    LINES.iter().any(|line| line.iter().all(|&i| cell(board, i) == mark))
}

fn count(board: usize, mark: usize) -> usize {
    (0..9).filter(|&i| cell(board, i) == mark).count()
}

/// The mark of the side to move: X (1) when the counts are equal, else O (2).
pub fn to_move(board: usize) -> usize {
    if count(board, 1) == count(board, 2) { 1 } else { 2 }
}

/// The eight symmetries of the square, as cell permutations.
pub const SYMMETRIES: [[usize; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

/// The board mapped by a symmetry.
pub fn transform(board: usize, symmetry: &[usize; 9]) -> usize {
    (0..9).fold(0, |b, i| with_cell(b, symmetry[i], cell(board, i)))
}

/// Tic-tac-toe on the full base-3 index.
pub struct TicTacToe;

impl Game for TicTacToe {
    /// The cell the mark goes in.
    type Move = usize;

    fn num_positions(&self) -> usize {
        3usize.pow(9)
    }

    fn is_position(&self, board: usize) -> bool {
        let (x, o) = (count(board, 1), count(board, 2));
        let (x_line, o_line) = (has_line(board, 1), has_line(board, 2));
        (x == o || x == o + 1) && !(x_line && o_line) && (!x_line || x == o + 1) && (!o_line || x == o)
    }

    fn terminal(&self, board: usize) -> Option<Value> {
        if has_line(board, 1) || has_line(board, 2) {
            // The player who just moved made a line: the side to move has lost.
            Some(Value::loss_in(0))
        } else if count(board, 0) == 0 {
            Some(Value::Draw(Some(endgame_core::Plies(0))))
        } else {
            None
        }
    }

    fn for_each_move(&self, board: usize, mut f: impl FnMut(usize, Successor)) {
        let mark = to_move(board);
        for i in (0..9).filter(|&i| cell(board, i) == 0) {
            f(i, Successor::Position(with_cell(board, i, mark)));
        }
    }
}

impl Unmoves for TicTacToe {
    fn for_each_unmove(&self, board: usize, mut f: impl FnMut(usize)) {
        // The player who moved last is the one not to move now.
        let last = 3 - to_move(board);
        for i in (0..9).filter(|&i| cell(board, i) == last) {
            let before = with_cell(board, i, 0);
            if self.is_position(before) {
                f(before);
            }
        }
    }
}

impl Indexed for TicTacToe {
    type Position = [u8; 9];

    fn decode(&self, index: usize) -> Option<[u8; 9]> {
        (index < self.num_positions() && self.is_position(index))
            .then(|| std::array::from_fn(|i| cell(index, i) as u8))
    }

    fn encode(&self, cells: &[u8; 9]) -> Option<usize> {
        let board = (0..9).fold(0, |b, i| with_cell(b, i, usize::from(cells[i])));
        self.is_position(board).then_some(board)
    }
}
