//! The verdict of one move and the numbering of moves.

use endgame_core::{Ban, Plies, RuleValue};

use super::*;

const WIN: fn(u32) -> RuleValue = |d| RuleValue::Win(Plies(d));
const LOSS: fn(u32) -> RuleValue = |d| RuleValue::Loss(Plies(d));
const DRAW: RuleValue = RuleValue::Draw(None);

#[test]
fn a_worse_category_is_a_blunder_and_a_slow_mate_a_mistake() {
    let ten = ReviewOptions::default();
    assert_eq!(ten.mistake_plies, 10);
    assert_eq!(mark(WIN(5), WIN(5), ten), None);
    assert_eq!(mark(WIN(5), WIN(13), ten), None);
    assert_eq!(mark(WIN(5), WIN(15), ten), Some(Mark::Mistake));
    assert_eq!(mark(WIN(5), DRAW, ten), Some(Mark::Blunder));
    assert_eq!(mark(WIN(5), LOSS(8), ten), Some(Mark::Blunder));
    assert_eq!(mark(DRAW, LOSS(8), ten), Some(Mark::Blunder));
    assert_eq!(mark(DRAW, RuleValue::LossByRule(Ban::Check, 3), ten), Some(Mark::Blunder));
    assert_eq!(mark(RuleValue::WinByRule(Ban::Chase, 2), DRAW, ten), Some(Mark::Blunder));
    // A mate given up for a win by the rule; a rule win's rank, a loser's speed: not marked.
    assert_eq!(mark(WIN(5), RuleValue::WinByRule(Ban::Check, 0), ten), Some(Mark::Mistake));
    assert_eq!(mark(RuleValue::WinByRule(Ban::Check, 1), RuleValue::WinByRule(Ban::Check, 9), ten), None);
    assert_eq!(mark(RuleValue::WinByRule(Ban::Check, 1), WIN(99), ten), None);
    assert_eq!(mark(LOSS(20), LOSS(2), ten), None);
    assert_eq!(mark(DRAW, DRAW, ten), None);
    assert_eq!(mark(WIN(5), WIN(7), ReviewOptions { mistake_plies: 2 }), Some(Mark::Mistake));
    // 0 would mark every mate: it counts as 1.
    assert_eq!(mark(WIN(5), WIN(5), ReviewOptions { mistake_plies: 0 }), None);
}

#[test]
fn moves_are_numbered_from_the_first_movers_side() {
    let numbers: Vec<String> = (1..=4).map(|ply| move_label(Color::Red, ply)).collect();
    assert_eq!(numbers, ["1.", "1...", "2.", "2..."]);
    let numbers: Vec<String> = (1..=4).map(|ply| move_label(Color::Black, ply)).collect();
    assert_eq!(numbers, ["1...", "2.", "2...", "3."]);
    assert_eq!(mover(Color::Black, 2), Color::Red);
}
