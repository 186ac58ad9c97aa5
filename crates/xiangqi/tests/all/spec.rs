//! Every fact stated in the spec (HDU 5897), checked through the judge and the tables.

use endgame_core::Value;
use endgame_xiangqi::judge::{answer, run};
use endgame_xiangqi::{MaterialIndex, Probe, hdu, kvkn};

fn judge(input: &str) -> String {
    let mut out = Vec::new();
    run(input, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn one(case: &str) -> String {
    judge(&format!("1\n{case}\n"))
}

#[test]
fn sample() {
    let input = include_str!("../data/sample.in");
    assert_eq!(judge(input), include_str!("../data/sample.out"));
}

#[test]
fn listed_cases() {
    assert_eq!(one("0 1 7 4 0 3 0"), "Lose in 2 steps T.T!\n");
    assert_eq!(one("4 3 9 3 0 3 0"), "Lose in 10 steps T.T!\n");
    assert_eq!(one("4 3 9 3 0 3 1"), "Lose in 7 steps T.T!\n");
    assert_eq!(one("5 4 9 4 1 4 0"), "Lose in 12 steps T.T!\n");
    assert_eq!(one("0 0 7 4 0 3 1"), "Lose in 3 steps T.T!\n");
}

#[test]
fn both_of_alices_moves_lose_at_once_in_the_two_ply_case() {
    // `0 1 7 4 0 3 0`: Alice on d0 has the moves d0d1 and d0e0; each loses in 2.
    use endgame_xiangqi::{Position, Setup};
    let setup: Setup = "9/9/4k4/9/9/9/9/9/9/1n1K5 w".parse().unwrap();
    let position = Position::from_setup(setup).unwrap();
    let moves = hdu().moves(&position).unwrap();
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| m.value == Value::loss_in(2).into()), "{moves:?}");
}

#[test]
fn longest_loss_over_all_legal_cases_is_16_steps() {
    let table = hdu().table(kvkn()).unwrap();
    let mut longest = 0;
    for i in 0..table.index().len() {
        let Some(v) = table.solution().value(i) else { continue };
        let turn = MaterialIndex::turn(i);
        if let Some(n) = answer(v, turn).strip_prefix("Lose in ") {
            longest = longest.max(n.split(' ').next().unwrap().parse::<u32>().unwrap());
        }
    }
    assert_eq!(longest, 16);
}
