//! The contest's sample, answered byte for byte, and its positions solved with their lines.

use endgame_cheesy::{Ending, Side, judge, solve};

const SAMPLE_IN: &str = include_str!("data/sample.in");
const SAMPLE_OUT: &str = include_str!("data/sample.out");

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
    for (answer, winner) in [(&first, Side::Black), (&second, Side::White)] {
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
