//! The solver against an independent, deliberately simple oracle: memoised minimax written
//! straight from the contest's rules, sharing no code with the crate's rules, on random boards
//! of several sizes, both sides to move. Winner and distance must agree for every placement of
//! every board, and the line of play must be legal and optimal under the oracle's rules.

use std::collections::HashMap;

use endgame_cheesy::{
    Board, CheesyGame, Color, Field, Move, Placement, Position, Setup, Square, solve, winner,
};
use endgame_core::{Game, Retrograde, Value};
use proptest::prelude::*;

/// White to move?, king x, king y, pawn x, pawn y (0-based).
type State = (bool, i32, i32, i32, i32);

/// A board as the oracle sees it: `grid[y][x]` with `y = 0` the bottom row, bytes `.`, `D`, `F`.
struct Oracle {
    grid: Vec<Vec<u8>>,
    memo: HashMap<State, (bool, u32)>,
}

impl Oracle {
    fn new(grid: Vec<Vec<u8>>) -> Self {
        Oracle { grid, memo: HashMap::new() }
    }

    fn at(&self, x: i32, y: i32) -> Option<u8> {
        if y < 0 || x < 0 {
            return None;
        }
        self.grid.get(y as usize).and_then(|row| row.get(x as usize)).copied()
    }

    /// The king's legal targets (0-based), with whether each captures.
    fn king_targets(&self, kx: i32, ky: i32, px: i32, py: i32) -> Vec<(i32, i32, bool)> {
        let mut out = Vec::new();
        for dx in -1..=1 {
            for dy in -1..=1 {
                let (nx, ny) = (kx + dx, ky + dy);
                if (dx, dy) == (0, 0) {
                    continue;
                }
                let Some(field) = self.at(nx, ny) else { continue };
                let capture = (nx, ny) == (px, py);
                let diagonal_below_pawn = ny == py - 1 && (nx - px).abs() == 1;
                let ok = if capture { field != b'D' } else { field == b'.' && !diagonal_below_pawn };
                if ok {
                    out.push((nx, ny, capture));
                }
            }
        }
        out
    }

    /// (White wins?, plies) with `white` to move; winner fastest, loser slowest.
    fn value(&mut self, white: bool, kx: i32, ky: i32, px: i32, py: i32) -> (bool, u32) {
        let key = (white, kx, ky, px, py);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = if white {
            let mut best_win: Option<u32> = None;
            let mut longest_loss: Option<u32> = None;
            for (nx, ny, capture) in self.king_targets(kx, ky, px, py) {
                let (white_wins, d) = if capture { (true, 0) } else { self.value(false, nx, ny, px, py) };
                if white_wins {
                    best_win = Some(best_win.map_or(d + 1, |b| b.min(d + 1)));
                } else {
                    longest_loss = Some(longest_loss.map_or(d + 1, |b| b.max(d + 1)));
                }
            }
            match (best_win, longest_loss) {
                (Some(d), _) => (true, d),
                (None, Some(d)) => (false, d),
                (None, None) => (false, 0),
            }
        } else if py == 0 {
            (false, 0)
        } else if self.at(px, py - 1) == Some(b'F') || (kx, ky) == (px, py - 1) {
            (true, 0)
        } else {
            let (w, d) = self.value(true, kx, ky, px, py - 1);
            (w, d + 1)
        };
        self.memo.insert(key, v);
        v
    }
}

fn board_of(grid: &[Vec<u8>]) -> Board {
    let fields: Vec<Field> = grid
        .iter()
        .rev()
        .flat_map(|row| row.iter().map(|&b| Field::from_char(char::from(b)).unwrap()))
        .collect();
    Board::from_top_rows(grid.len(), grid[0].len(), &fields).unwrap()
}

fn value_of(white_wins: bool, plies: u32, to_move: Color) -> Value {
    if white_wins == (to_move == Color::White) { Value::win_in(plies) } else { Value::loss_in(plies) }
}

/// A random board: rows, columns and fields (`.` about half, `D` and `F` a quarter each).
fn grid(max_rows: usize, max_cols: usize) -> impl Strategy<Value = Vec<Vec<u8>>> {
    (1..=max_rows, 1..=max_cols).prop_flat_map(|(rows, cols)| sized_grid(rows, cols))
}

fn sized_grid(rows: usize, cols: usize) -> impl Strategy<Value = Vec<Vec<u8>>> {
    let field = prop_oneof![2 => Just(b'.'), 1 => Just(b'D'), 1 => Just(b'F')];
    prop::collection::vec(prop::collection::vec(field, cols), rows)
}

/// Every placement of the board, solved at once, equals the oracle.
fn check_whole_board(grid: Vec<Vec<u8>>) -> Result<(), TestCaseError> {
    let board = board_of(&grid);
    let game = CheesyGame::whole(&board);
    let solution = Retrograde::new().solve_with_unmoves(&game).unwrap();
    let mut oracle = Oracle::new(grid);
    for i in 0..game.num_positions() {
        let Some(got) = solution.value(i) else {
            prop_assert!(!game.is_position(i));
            continue;
        };
        let Placement { king, pawn, to_move } = game.placement(i);
        let c = |s: Square| (i32::from(s.x) - 1, i32::from(s.y) - 1);
        let ((kx, ky), (px, py)) = (c(king), c(pawn));
        let (white_wins, plies) = oracle.value(to_move == Color::White, kx, ky, px, py);
        prop_assert_eq!(
            got,
            value_of(white_wins, plies, to_move),
            "king {} pawn {} {:?}",
            king,
            pawn,
            to_move
        );
        // The judge's fast winner-only search agrees too.
        let setup = Setup { board: board.clone(), king, pawn, to_move };
        let position = Position::from_setup(setup).unwrap();
        prop_assert_eq!(winner(&position), if white_wins { Color::White } else { Color::Black });
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn whole_small_boards_agree_with_the_oracle(g in grid(5, 5)) {
        check_whole_board(g)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn whole_8x8_boards_agree_with_the_oracle(g in sized_grid(8, 8)) {
        check_whole_board(g)?;
    }
}

/// One position of a board up to `max x max`, solved through the public API, with its line.
fn position(max: usize) -> impl Strategy<Value = (Vec<Vec<u8>>, usize, usize, bool)> {
    grid(max, max).prop_flat_map(|g| {
        let n = g.len() * g[0].len();
        (Just(g), 0..n, 0..n, any::<bool>())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn positions_and_lines_agree_with_the_oracle((mut g, k, p, white) in position(16)) {
        let cols = g[0].len();
        prop_assume!(k != p);
        let (kx, ky, px, py) = ((k % cols) as i32, (k / cols) as i32, (p % cols) as i32, (p / cols) as i32);
        // The king stands on an open field, the pawn on any but a forbidden one.
        g[ky as usize][kx as usize] = b'.';
        if g[py as usize][px as usize] == b'F' {
            g[py as usize][px as usize] = b'.';
        }
        let to_move = if white { Color::White } else { Color::Black };
        let sq = |x: i32, y: i32| Square::new(x as u8 + 1, y as u8 + 1);
        let setup = Setup { board: board_of(&g), king: sq(kx, ky), pawn: sq(px, py), to_move };
        let position = Position::from_setup(setup).unwrap();
        let answer = solve(&position).unwrap();
        let mut oracle = Oracle::new(g);
        let (white_wins, plies) = oracle.value(white, kx, ky, px, py);
        prop_assert_eq!(answer.value, value_of(white_wins, plies, to_move));
        prop_assert_eq!(answer.winner, if white_wins { Color::White } else { Color::Black });
        prop_assert_eq!(winner(&position), answer.winner);
        prop_assert_eq!(answer.line.len() as u32, plies);
        prop_assert_eq!(answer.ending.winner(), answer.winner);
        // Replay the line under the oracle's rules: every move legal and keeping the value.
        let (mut state, mut side_white) = ((kx, ky, px, py), white);
        for (i, ply) in answer.line.iter().enumerate() {
            let left = plies - i as u32;
            prop_assert_eq!(oracle.value(side_white, state.0, state.1, state.2, state.3), (white_wins, left));
            let c = |s: Square| (i32::from(s.x) - 1, i32::from(s.y) - 1);
            match ply.mv {
                Move::King { from, to, capture } => {
                    prop_assert!(side_white);
                    prop_assert_eq!(c(from), (state.0, state.1));
                    let (tx, ty) = c(to);
                    prop_assert!(oracle.king_targets(state.0, state.1, state.2, state.3).contains(&(tx, ty, capture)));
                    if capture {
                        prop_assert_eq!(left, 1);
                        prop_assert!(white_wins);
                    }
                    state = (tx, ty, state.2, state.3);
                }
                Move::Pawn { from, to } => {
                    prop_assert!(!side_white);
                    prop_assert_eq!(c(from), (state.2, state.3));
                    prop_assert_eq!(c(to), (state.2, state.3 - 1));
                    state = (state.0, state.1, state.2, state.3 - 1);
                }
            }
            side_white = !side_white;
        }
    }
}
