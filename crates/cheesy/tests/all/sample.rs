//! The contest's sample, answered byte for byte, and its positions solved with their lines.

use endgame_cheesy::text::parse_position;
use endgame_cheesy::{CheesyGame, Color, Ending, Move, Square, judge, solve};
use endgame_core::{Retrograde, Value, scored_moves};

const SAMPLE_IN: &str = include_str!("../data/sample.in");
const SAMPLE_OUT: &str = include_str!("../data/sample.out");

#[test]
fn judge_answers_the_sample() {
    let mut out = Vec::new();
    judge::run(SAMPLE_IN, &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), SAMPLE_OUT);
}

#[test]
fn sample_lines_of_play() {
    let (positions, error) = judge::parse(SAMPLE_IN);
    assert!(error.is_none());
    let first = solve(&positions[0]).unwrap();
    let second = solve(&positions[1]).unwrap();
    for (answer, winner) in [(&first, Color::Black), (&second, Color::White)] {
        assert_eq!(answer.winner, winner);
        assert_eq!(answer.line.len() as u32, answer.plies());
        assert_eq!(answer.ending.winner(), winner);
        eprintln!("{} in {} plies, {:?}", answer.winner, answer.plies(), answer.ending);
        for ply in &answer.line {
            eprintln!("  {} {}", ply.mv, ply.value);
        }
    }
    assert!(matches!(second.ending, Ending::Captured | Ending::PawnBlocked));
}

/// The pitfall the spec warns of: one king move gets the king stuck (Black would win), another
/// blocks the pawn at once. White chooses, so White wins.
#[test]
fn white_wins_when_only_some_king_moves_get_stuck() {
    let input =
        "1\nFFFFFFFF\nFFFFFFFF\nFFFFFFFF\nFFFFFFFF\nFFFFFFFF\nD.D.FFFF\nFD..FFFF\n....FFFF\n2 1\n3 3\n";
    let mut out = Vec::new();
    judge::run(input, &mut out).unwrap();
    assert_eq!(out, b"White\n");
    let (positions, _) = judge::parse(input);
    let answer = solve(&positions[0]).unwrap();
    assert_eq!(answer.value, Value::win_in(1));
    assert_eq!(answer.ending, Ending::PawnBlocked);
    // K(2,1)-(1,1) loses: after P(3,3)-(3,2) the king's only exits are F, D and (2,1), which is
    // now floating dangerous.
    let game = CheesyGame::for_pawn(positions[0].board(), positions[0].placement().pawn);
    let solution = Retrograde::new().solve_with_unmoves(&game).unwrap();
    let start = game.index(positions[0].placement()).unwrap();
    let corner = Square::new(1, 1);
    let moves = scored_moves(&game, &solution, start);
    let stuck = moves.iter().find(|m| matches!(m.mv, Move::King { to, .. } if to == corner)).unwrap();
    assert_eq!(stuck.value, Value::loss_in(2));
}

/// A longest win on 8 x 8 (found by `examples/longest.rs`): 15 plies, the most any game on 8
/// rows can last (7 pawn moves, 8 king moves).
#[test]
fn a_longest_white_win_takes_15_plies() {
    let position = parse_position(include_str!("../../examples/longest.txt"), Color::White).unwrap();
    let answer = solve(&position).unwrap();
    assert_eq!((answer.winner, answer.value), (Color::White, Value::win_in(15)));
    assert_eq!(answer.ending, Ending::Captured);
    assert_eq!(answer.line.len(), 15);
}

/// A set flag stops the solve with `Cancelled`; an unset one gives the same answer.
#[test]
fn a_cancelled_solve_stops() {
    use endgame_core::SolveError;
    use std::sync::atomic::AtomicBool;
    let position = parse_position(include_str!("../../examples/longest.txt"), Color::White).unwrap();
    let cancel = AtomicBool::new(true);
    assert_eq!(endgame_cheesy::solve_cancellable(&position, &cancel).unwrap_err(), SolveError::Cancelled);
    assert_eq!(
        endgame_cheesy::solve_cancellable(&position, &AtomicBool::new(false)).unwrap(),
        solve(&position).unwrap()
    );
}
