//! What the test modules share: a new empty directory for a test's tables, materials and
//! positions from their names, and the certificate check and summary of a solution under a
//! ban.

use std::path::PathBuf;

use endgame_core::conformance::check_rule_solution;
use endgame_core::perpetual::RuleSolution;
use endgame_xiangqi::tables::perpetual::PerpetualGame;
use endgame_xiangqi::{Material, PerpetualStats, PerpetualTablebase, Position, Setup};

/// A new empty directory, `<tmp>/endgame-<subject>-<name>-<pid>`: `subject` names the test
/// module, so that two modules' tests of the same name, running at once, never share one.
pub fn temp_dir(subject: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("endgame-{subject}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The material written `text` (`KRvKA`).
pub fn material(text: &str) -> Material {
    text.parse().unwrap()
}

/// The position of the FEN `fen`.
pub fn position(fen: &str) -> Position {
    Position::from_setup(fen.parse::<Setup>().unwrap()).unwrap()
}

/// Checks the solution of `material` in `tables` against its certificate: every value proved
/// by the position's moves ([`check_rule_solution`]).
pub fn assert_certified(tables: &PerpetualTablebase, material: Material) {
    let game = PerpetualGame::new(tables.index(material).unwrap(), tables);
    let solution = tables.solution(material).unwrap();
    assert_eq!(check_rule_solution(&game, solution), Ok(()), "{material} under {}", tables.rules());
}

/// The start of the line a test that solves the materials named in an environment variable
/// prints for one: `KRvKN: <n> indices, <p> legal positions, <d> standard draws: <w> wins and
/// <l> losses by the rule`.
pub fn rule_summary(material: Material, solution: &RuleSolution, stats: &PerpetualStats) -> String {
    format!(
        "{material}: {} indices, {} legal positions, {} standard draws: {} wins and {} losses by the rule",
        solution.len(),
        stats.counts.positions,
        stats.counts.draws + stats.counts.wins_by_rule + stats.counts.losses_by_rule,
        stats.counts.wins_by_rule,
        stats.counts.losses_by_rule,
    )
}
