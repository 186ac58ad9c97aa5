//! Cheesy Chess benchmarks: the judge on random 8 x 8 cases, one position with its line, a whole
//! 8 x 8 board, and the largest region (a pawn on the top row of a 64 x 64 board).

use endgame_cheesy::text::parse_position;
use endgame_cheesy::{Board, CheesyGame, Color, Setup, Square, judge, random, solve};
use endgame_core::Retrograde;

fn main() {
    divan::main();
}

#[divan::bench(args = [1000])]
fn judge_random_8x8(bencher: divan::Bencher, cases: usize) {
    let input = random::judge_input(cases, 1);
    bencher.bench(|| {
        let mut out = Vec::new();
        judge::run(&input, &mut out).unwrap();
        out
    });
}

#[divan::bench]
fn solve_sample_with_line(bencher: divan::Bencher) {
    let position = parse_position(include_str!("../examples/sample1.txt"), Color::White).unwrap();
    bencher.bench(|| solve(&position).unwrap());
}

#[divan::bench]
fn whole_8x8_board(bencher: divan::Bencher) {
    let board = Board::open(8, 8).unwrap();
    bencher.bench(|| Retrograde::new().solve_with_unmoves(&CheesyGame::whole(&board)).unwrap());
}

#[divan::bench(sample_count = 10)]
fn pawn_on_top_of_64x64(bencher: divan::Bencher) {
    let board = Board::open(64, 64).unwrap();
    let setup = Setup { board, king: Square::new(1, 1), pawn: Square::new(32, 64), to_move: Color::White };
    let position = endgame_cheesy::Position::from_setup(setup).unwrap();
    bencher.bench(|| solve(&position).unwrap());
}
