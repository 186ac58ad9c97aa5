//! The longest wins on 8 x 8 boards, by winner and side to move: random boards, each solved
//! whole (every king square, every pawn square, both sides to move).
//!
//! `cargo run --release -p endgame-cheesy --example longest -- [BOARDS] [SEED]`
//!
//! No game lasts longer than 15 plies on 8 rows: the pawn moves at most 7 times before it
//! stands on the bottom row, and then the game ends with Black to move at the latest. With
//! White to move first that is at most 8 White and 7 Black moves (15 plies); with Black to move
//! first at most 7 and 7 (14 plies). The search stops early once every bound is reached.

use endgame_cheesy::random::Rng;
use endgame_cheesy::text::board_file;
use endgame_cheesy::{Board, CheesyGame, Color, Field, Position, Setup, solve};
use endgame_core::{Retrograde, Value};

/// The slots: (winner, side to move), White first.
const SLOTS: [(Color, Color); 4] = [
    (Color::White, Color::White),
    (Color::White, Color::Black),
    (Color::Black, Color::White),
    (Color::Black, Color::Black),
];

fn bound(to_move: Color) -> u32 {
    if to_move == Color::White { 15 } else { 14 }
}

fn random_board(rng: &mut Rng) -> Board {
    // Densities vary from board to board: open 1/4 to all, the rest split between D and F.
    let open = 1 + rng.below(4);
    let fields: Vec<Field> = (0..64)
        .map(|_| match rng.below(8) {
            r if r < 2 * open => Field::Open,
            r if r % 2 == 0 => Field::Dangerous,
            _ => Field::Forbidden,
        })
        .collect();
    Board::from_top_rows(8, 8, &fields).expect("8 x 8")
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (boards, seed) = (args.first().copied().unwrap_or(100_000), args.get(1).copied().unwrap_or(1));
    let mut rng = Rng(seed);
    // Per slot: plies, the board, the placement's index.
    let mut best: [(u32, Option<(Board, usize)>); 4] = Default::default();
    let mut searched = 0;
    while searched < boards && !SLOTS.iter().zip(&best).all(|((_, to_move), b)| b.0 == bound(*to_move)) {
        searched += 1;
        let board = random_board(&mut rng);
        let game = CheesyGame::whole(&board);
        let solution = Retrograde::new().solve_with_unmoves(&game).expect("8 x 8 is small");
        for (i, value) in solution.values().enumerate() {
            let to_move = game.placement(i).to_move;
            let (winner, d) = match value {
                Some(Value::Win(d)) => (to_move, d.0),
                Some(Value::Loss(d)) => (!to_move, d.0),
                _ => continue,
            };
            let slot = SLOTS.iter().position(|&s| s == (winner, to_move)).expect("every pair has a slot");
            if d > best[slot].0 {
                best[slot] = (d, Some((board.clone(), i)));
            }
        }
    }
    println!("searched {searched} random 8 x 8 boards (seed {seed}), every placement of each");
    for ((winner, to_move), (plies, found)) in SLOTS.iter().zip(&best) {
        let Some((board, index)) = found else { continue };
        let placement = CheesyGame::whole(board).placement(*index);
        let setup =
            Setup { board: board.clone(), king: placement.king, pawn: placement.pawn, to_move: *to_move };
        let position = Position::from_setup(setup).expect("a solved placement is a position");
        let answer = solve(&position).expect("8 x 8 is small");
        assert_eq!((answer.winner, answer.plies()), (*winner, *plies));
        println!();
        println!("longest {winner} win with {to_move} to move: {plies} plies (bound {})", bound(*to_move));
        print!("{}", board_file(&position));
        let moves: Vec<String> = answer.line.iter().map(|p| p.mv.to_string()).collect();
        println!("line: {}", moves.join(" "));
        println!("end: {}", answer.ending);
    }
}
