//! `check-and-chase` tables: the game's chase labels (on moves and un-moves) against the
//! chase predicate on positions; materials solved under the rule against `perpetual-check`
//! (every material up to 4 men: `tests/all/perpetual.rs`; larger ones behind `#[ignore]`).

use endgame_core::perpetual::{Checks, PerpetualCheck, RuleSolution};
use endgame_core::{Ban, RuleValue};
use endgame_core::{Game, Retrograde, Successor, Unmoves};
use endgame_xiangqi::rules::chase;
use endgame_xiangqi::tables::perpetual::PerpetualGame;
use endgame_xiangqi::{Material, PerpetualTablebase, Rules};

use crate::common::{assert_certified, rule_summary};

/// How many moves into the sampled positions (every `step`-th) of `material` are chases: the
/// game's labels of those moves ([`Checks::is_chase`]) are the chase predicate's on the decoded
/// positions ([`chase::is_chase`]), and its labelled un-moves are the same multiset.
fn labels_agree(material: &str, step: usize) -> usize {
    let material: Material = material.parse().unwrap();
    let mut tables = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    tables.solve(material).unwrap();
    let index = tables.index(material).unwrap();
    let game = PerpetualGame::new(index, &tables);
    assert!(game.has_chases());
    let mut chases = 0;
    for pos in (0..game.num_positions()).step_by(step) {
        if !game.is_position(pos) || game.in_check(pos) {
            continue;
        }
        let mut back = Vec::new();
        game.for_each_labelled_unmove(pos, |_| true, |q, chase| back.push((q, chase)));
        back.retain(|&(q, _)| game.is_position(q));
        // The moves into `pos` of its parents, labelled by the game and on positions.
        let mut parents = Vec::new();
        game.for_each_unmove(pos, |q| parents.push(q));
        parents.retain(|&q| game.is_position(q));
        parents.sort_unstable();
        parents.dedup();
        let mut forward = Vec::new();
        for &q in &parents {
            let p = index.decode(q).unwrap();
            game.for_each_move(q, |mv, to| {
                if to == Successor::Position(pos) {
                    let chase = game.is_chase(q, mv);
                    assert_eq!(chase, chase::is_chase(&p, mv), "{} {mv}", p.setup());
                    forward.push((q, chase));
                }
            });
        }
        back.sort_unstable();
        forward.sort_unstable();
        assert_eq!(back, forward, "{}", index.decode(pos).unwrap().setup());
        chases += forward.iter().filter(|&&(_, c)| c).count();
    }
    chases
}

#[test]
fn the_games_chase_labels_are_the_predicates_on_moves_and_un_moves() {
    // A Cannon against a Horse (chases both ways), a Horse against a Soldier that crosses the
    // river, two Chariots (same kind: chases only of a pinned or blocked one).
    for material in ["KCvKN", "KNvKP"] {
        assert!(labels_agree(material, 17) > 1000, "{material}");
    }
}

/// The chase predicate treats both sides alike: in sampled positions (every `step`-th index) of
/// materials with results of the ban on perpetual chase, a move is a chase exactly when the same
/// move seen from the other side ([`Position::colour_twin`], points flipped) is one in the twin
/// position, and both sides' chase attacks are the twin's, flipped. With the solver treating
/// both sides alike, this is why one `check-and-chase` table answers for its colour twin
/// (`Rules::colour_symmetric`). Returns how many chases were compared.
///
/// [`Position::colour_twin`]: endgame_xiangqi::Position::colour_twin
fn chases_are_the_twins(material: &str, step: usize) -> usize {
    use endgame_xiangqi::{Color, MaterialIndex, Move};
    let material: Material = material.parse().unwrap();
    let index = MaterialIndex::new(material);
    let flipped = |attacks: Vec<(endgame_xiangqi::Square, endgame_xiangqi::Square)>| {
        let mut attacks: Vec<_> = attacks.into_iter().map(|(a, b)| (a.flip(), b.flip())).collect();
        attacks.sort_unstable();
        attacks
    };
    let mut chases = 0;
    for i in (0..index.len()).step_by(step) {
        let Some(p) = index.decode(i) else { continue };
        if p.check(Rules::CheckAndChase).is_err() || p.is_game_over() {
            continue;
        }
        let twin = p.colour_twin();
        for side in [Color::Red, Color::Black] {
            let mut theirs = chase::chase_attacks_in(&twin, !side);
            theirs.sort_unstable();
            assert_eq!(flipped(chase::chase_attacks_in(&p, side)), theirs, "{} {side:?}", p.setup());
        }
        let moves = p.legal_moves(Rules::CheckAndChase);
        let twin_moves = twin.legal_moves(Rules::CheckAndChase);
        assert_eq!(moves.len(), twin_moves.len(), "{}", p.setup());
        for mv in moves {
            let seen = Move { from: mv.from.flip(), to: mv.to.flip() };
            assert!(twin_moves.contains(&seen), "{} {mv}", p.setup());
            let chase = chase::is_chase(&p, mv);
            assert_eq!(chase, chase::is_chase(&twin, seen), "{} {mv}", p.setup());
            chases += usize::from(chase);
        }
    }
    chases
}

#[test]
fn the_chase_predicate_treats_both_colours_alike() {
    // Materials with results of the ban on perpetual chase (Soldiers on both sides of the
    // river, a Chariot or Cannon chasing, pieces of one kind on both sides).
    for (material, step) in [("KNvKPP", 199), ("KCvKNP", 499), ("KRvKRC", 997), ("KCvKCP", 499)] {
        assert!(chases_are_the_twins(material, step) > 1000, "{material}");
    }
}

/// Solves the materials named in `$XIANGQI_CHASE` (and all they rest on) under
/// `check-and-chase` and under `perpetual-check`, checks the certificate, the `standard` results
/// and the results of the ban on perpetual check kept, and prints the counts and times:
/// `XIANGQI_CHASE="KNvKPP" cargo test --release -p endgame-xiangqi --test all -- --ignored --nocapture check_and_chase::some_materials`
#[test]
#[ignore = "the materials named in $XIANGQI_CHASE"]
fn some_materials_under_check_and_chase() {
    let names = std::env::var("XIANGQI_CHASE").unwrap_or_default();
    let mut chase = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    let mut check = PerpetualTablebase::new();
    for name in names.split_whitespace() {
        let material: Material = name.parse().unwrap();
        for m in material.with_smaller() {
            if chase.solution(m).is_some() {
                continue;
            }
            let start = std::time::Instant::now();
            let plain = check.plain_step(m, None, &Retrograde::new()).unwrap();
            let copy = endgame_core::Solution::from_values_bytes(plain.values()).unwrap();
            check.rule_step(m, plain, &PerpetualCheck::new()).unwrap();
            let standard = start.elapsed();
            let plain = chase.plain_step(m, Some(copy), &Retrograde::new()).unwrap();
            let start = std::time::Instant::now();
            chase.rule_step(m, plain, &PerpetualCheck::new()).unwrap();
            let solved = start.elapsed();
            let (by_chase, by_check) = (chase.solution(m).unwrap(), check.solution(m).unwrap());
            assert_certified(&chase, m);
            keeps_check_results(m, by_chase, by_check);
            let stats = chase.stats(m).unwrap();
            assert_eq!(stats.changed_decided, 0, "{m}");
            if m.men() == material.men() || stats.counts.wins_by_chase + stats.counts.losses_by_chase > 0 {
                println!(
                    "{}, of them by the ban on perpetual chase {} wins and {} losses; {:?}; standard and perpetual-check {:.1} s, check-and-chase {:.1} s",
                    rule_summary(m, by_chase, &stats),
                    stats.counts.wins_by_chase,
                    stats.counts.losses_by_chase,
                    by_chase.stats(),
                    standard.as_secs_f64(),
                    solved.as_secs_f64()
                );
            }
        }
    }
}

/// Every material up to 4 men under `check-and-chase` (the library's test
/// `every_material_up_to_4_men_keeps_standard_wins_and_losses` runs the chase stage on some of
/// them only, to keep CI short): the certificate, every `perpetual-check` result kept, and no
/// result of the ban on perpetual chase:
/// `cargo test --release -p endgame-xiangqi --test all -- --ignored check_and_chase::every_material`
#[test]
#[ignore = "solves every material up to 4 men under three rule sets (minutes)"]
fn every_material_up_to_4_men_under_check_and_chase() {
    let mut chase = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    let mut check = PerpetualTablebase::new();
    for m in Material::all_up_to(4) {
        let plain = check.plain_step(m, None, &Retrograde::new()).unwrap();
        let copy = endgame_core::Solution::from_values_bytes(plain.values()).unwrap();
        check.rule_step(m, plain, &PerpetualCheck::new()).unwrap();
        let plain = chase.plain_step(m, Some(copy), &Retrograde::new()).unwrap();
        chase.rule_step(m, plain, &PerpetualCheck::new()).unwrap();
        let (by_chase, by_check) = (chase.solution(m).unwrap(), check.solution(m).unwrap());
        assert_certified(&chase, m);
        keeps_check_results(m, by_chase, by_check);
        let stats = chase.stats(m).unwrap();
        assert_eq!(
            (stats.counts.wins_by_chase, stats.counts.losses_by_chase, stats.changed_decided),
            (0, 0, 0),
            "{m}"
        );
    }
}

/// Every value of `check-and-chase` (`by_chase`) is that of `perpetual-check` (`by_check`),
/// but for draws there that the ban on perpetual chase decides.
fn keeps_check_results(material: Material, by_chase: &RuleSolution, by_check: &RuleSolution) {
    for i in 0..by_chase.len() {
        let (a, b) = (by_chase.value(i), by_check.value(i));
        match b {
            Some(RuleValue::Draw(_)) => assert!(
                matches!(
                    a,
                    Some(
                        RuleValue::Draw(_)
                            | RuleValue::WinByRule(Ban::Chase, _)
                            | RuleValue::LossByRule(Ban::Chase, _)
                    )
                ),
                "{material} index {i}: {a:?}"
            ),
            Some(v) if v.is_by_rule() => {
                assert_eq!(a.map(RuleValue::without_rank), Some(v.without_rank()), "{material} index {i}");
            }
            v => assert_eq!(a, v, "{material} index {i}"),
        }
    }
}

/// `check-and-chase` files keep the ban of every result by the rule. No material up to 4 men
/// has a result of the ban on perpetual chase, so the table is made: `KRvKN` solved under the
/// rule (results of the ban on perpetual check only) with the ban of every other rule result
/// turned to perpetual chase; written through the store, it reads back value for value, and
/// the store's probes (what `solve` prints) name the same ban.
#[test]
fn check_and_chase_files_keep_the_ban_of_every_rule_result() {
    use endgame_xiangqi::{Probe, Tablebases};
    let material: Material = "KRvKN".parse().unwrap();
    let mut tables = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    tables.solve(material).unwrap();
    let solved = tables.solution(material).unwrap();
    let index = tables.index(material).unwrap();
    let chased = |v: Option<RuleValue>, i: usize| match v {
        Some(RuleValue::WinByRule(_, r)) if i % 2 == 1 => Some(RuleValue::WinByRule(Ban::Chase, r)),
        Some(RuleValue::LossByRule(_, r)) if i % 2 == 1 => Some(RuleValue::LossByRule(Ban::Chase, r)),
        v => v,
    };
    let made = RuleSolution::from_values(solved.len(), |i| chased(solved.value(i), i)).unwrap();
    let bans = |s: &RuleSolution, ban: Ban| {
        s.values()
            .filter(
                |v| matches!(v, Some(RuleValue::WinByRule(b, _) | RuleValue::LossByRule(b, _)) if *b == ban),
            )
            .count()
    };
    let (chases, checks) = (bans(&made, Ban::Chase), bans(&made, Ban::Check));
    assert!(chases > 100 && checks > 100, "both bans in the table: {chases} and {checks}");
    let dir = std::env::temp_dir().join(format!("endgame-chase-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Tablebases::open(&dir, Rules::CheckAndChase);
    std::fs::create_dir_all(store.dir()).unwrap();
    store.write_rule_solution(material, &made).unwrap();
    assert!(store.read_rule_solution(material).unwrap().values().eq(made.values()));
    let mut probed = [0, 0];
    for i in 0..index.len() {
        let Some(value @ (RuleValue::WinByRule(ban, _) | RuleValue::LossByRule(ban, _))) = made.value(i)
        else {
            continue;
        };
        let Some(p) = index.decode(i) else { continue };
        if p.check(Rules::CheckAndChase).is_err() {
            continue;
        }
        assert_eq!(store.probe(&p).unwrap(), value, "{}", p.setup());
        probed[usize::from(ban == Ban::Chase)] += 1;
    }
    assert!(probed[0] > 100 && probed[1] > 100, "{probed:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Under `check-and-chase`, as under the other rule sets, one of two colour twins is written
/// and answers for the other (`tests/all/twins.rs` compares the answers with the twin's own
/// file): `KNvK` and `KvKN` asked for make one file, and `KNvKN`, whose two captures are the
/// twins, is generated from it (a generation once read one of them, took the other for its
/// twin, and panicked) as it is solved in memory.
#[test]
fn a_generation_answers_colour_twins_from_one_file_under_check_and_chase() {
    use endgame_xiangqi::{Position, Probe, Setup, Tablebases};
    let dir = std::env::temp_dir().join(format!("endgame-chase-twins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Tablebases::open(&dir, Rules::CheckAndChase);
    let m = |s: &str| s.parse::<Material>().unwrap();
    let summary = store.generate(&[m("KNvK"), m("KvKN")], &|_| {}).unwrap();
    assert_eq!((summary.generated, summary.twins), (2, 1), "KvK and one of the twins: {summary:?}");
    store.generate(&[m("KNvKN")], &|_| {}).unwrap();
    let mut tables = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    tables.solve(m("KNvKN")).unwrap();
    let solved = tables.solution(m("KNvKN")).unwrap();
    assert!(store.read_rule_solution(m("KNvKN")).unwrap().values().eq(solved.values()));
    let fen = "3k5/9/9/9/4n4/9/9/9/4N4/5K3 w".parse::<Setup>().unwrap();
    let position = Position::from_setup(fen).unwrap();
    assert_eq!(store.probe(&position).unwrap(), tables.lookup(&position).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `KNvKPP` positions of `docs/rules.md` decided by the ban on perpetual chase: their values
/// (a draw under `standard`), the values of their moves and their main lines' ends, from
/// tables generated under both rule sets into `$XIANGQI_CHASE_DIR` (tables already there are
/// kept: a scratch directory may be given again) or a temporary directory (an hour of CPU on a
/// shared machine):
/// `cargo test --release -p endgame-xiangqi --test all -- --ignored check_and_chase::knvkpp`
/// A position of [`knvkpp_positions_decided_by_the_ban_on_perpetual_chase`]: its value without
/// rank, the value of each move for the side that plays it (all of them, when any), the main
/// line, the ply the cycle starts at, the ply that brings it back, the chased Soldier's point.
struct Case {
    fen: &'static str,
    value: RuleValue,
    moves: &'static [(&'static str, RuleValue)],
    line: &'static str,
    ply: usize,
    again: usize,
    chased: &'static str,
}

#[test]
#[ignore = "generates KNvKPP under standard and check-and-chase (about 2 minutes of CPU)"]
fn knvkpp_positions_decided_by_the_ban_on_perpetual_chase() {
    use endgame_xiangqi::{Color, LineEnd, Piece, Position, Probe, Role, Setup, Tablebases};
    let (dir, temporary) = match std::env::var("XIANGQI_CHASE_DIR") {
        Ok(dir) => (std::path::PathBuf::from(dir), false),
        Err(_) => (std::env::temp_dir().join(format!("endgame-knvkpp-{}", std::process::id())), true),
    };
    let material: Material = "KNvKPP".parse().unwrap();
    let standard = Tablebases::open(&dir, Rules::Standard);
    standard.generate(&[material], &|_| {}).unwrap();
    let store = Tablebases::open(&dir, Rules::CheckAndChase);
    store.generate(&[material], &|_| {}).unwrap();
    let soldier = Piece { color: Color::Black, role: Role::Soldier };
    let cases = [
        Case {
            fen: "9/5k3/9/9/9/9/6p2/3p5/N8/4K4 w",
            value: RuleValue::LossByRule(Ban::Chase, 0),
            moves: &[
                ("a1b3", RuleValue::LossByRule(Ban::Chase, 0)),
                ("e0e1", RuleValue::LossByRule(Ban::Chase, 0)),
                ("e0d0", RuleValue::Loss(endgame_core::Plies(24))),
                ("a1c0", RuleValue::Loss(endgame_core::Plies(20))),
                ("a1c2", RuleValue::Loss(endgame_core::Plies(6))),
            ],
            line: "a1b3 d2e2 b3d4 e2d2 d4b3",
            ply: 1,
            again: 5,
            chased: "e2",
        },
        Case {
            fen: "3k5/9/9/5N3/9/9/2p6/7p1/9/5K3 b",
            value: RuleValue::WinByRule(Ban::Chase, 0),
            moves: &[],
            line: "c3d3 f0f1 d3d2 f6e4 d2e2 e4g3 e2d2 g3e4",
            ply: 4,
            again: 8,
            chased: "e2",
        },
    ];
    for Case { fen, value, moves, line, ply, again, chased } in cases {
        let p = Position::from_setup(fen.parse::<Setup>().unwrap()).unwrap();
        assert_eq!(standard.probe(&p).unwrap(), RuleValue::Draw(None), "{fen}");
        assert_eq!(store.probe(&p).unwrap().without_rank(), value, "{fen}");
        let got: Vec<(String, RuleValue)> =
            store.moves(&p).unwrap().iter().map(|m| (m.mv.to_string(), m.value.without_rank())).collect();
        for &(mv, v) in moves {
            assert!(got.contains(&(mv.to_string(), v)), "{fen} {mv}: {got:?}");
        }
        if !moves.is_empty() {
            assert_eq!(got.len(), moves.len(), "{fen}: {got:?}");
        }
        let main = store.main_line(&p).unwrap();
        let played: Vec<String> = main.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(played.join(" "), line, "{fen}");
        assert_eq!(
            main.end,
            LineEnd::PerpetualChase {
                ply,
                again,
                loser: Color::Red,
                chased: Some((soldier, chased.parse().unwrap()))
            },
            "{fen}"
        );
    }
    if temporary {
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// One `check-and-chase` table answers for its colour twin (`Rules::colour_symmetric`): each of
/// the materials in `$XIANGQI_TWINS` (default `KRvKNP KCvKNP KNvKCC`, three with results of the
/// ban on perpetual chase) and its twin, solved on their own in memory, agree index by index
/// through `ColourFlip`, ranks included (a few minutes on 2 cores):
/// `cargo test --release -p endgame-xiangqi --test all -- --ignored check_and_chase::colour_twins`.
/// Before the twins were derived, the files of every pair up to 5 men (both written by
/// `generate --all-up-to 5 --rules check-and-chase`) were compared so: all 219 pairs agreed,
/// 886,426 results of the ban on perpetual chase among them.
#[test]
#[ignore = "solves 5-man materials and their twins under check-and-chase (minutes)"]
fn colour_twins_have_the_same_values_and_ranks() {
    use endgame_xiangqi::{ColourFlip, MaterialIndex};
    use rayon::prelude::*;
    let names = std::env::var("XIANGQI_TWINS").unwrap_or_else(|_| "KRvKNP KCvKNP KNvKCC".to_string());
    let materials: Vec<Material> = names.split_whitespace().map(|m| m.parse().unwrap()).collect();
    let mut tables = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    let mut by_chase = 0usize;
    for &material in &materials {
        let twin = material.colour_twin();
        assert_ne!(twin, material, "{material} is its own twin");
        tables.solve(material).unwrap();
        // Solved again on its own: `solve` would answer it from `material`'s table.
        let plain = tables.plain_step(twin, None, &Retrograde::new()).unwrap();
        tables.rule_step(twin, plain, &PerpetualCheck::new()).unwrap();
        let (ours, theirs) = (tables.solution(material).unwrap(), tables.solution(twin).unwrap());
        let (index, twin_index) = (MaterialIndex::new(material), MaterialIndex::new(twin));
        let flip = ColourFlip::new(&index, &twin_index);
        let chased = (0..index.len())
            .into_par_iter()
            .map(|i| {
                let want = ours.value(i);
                let got = flip.index(i).and_then(|j| theirs.value(j));
                assert_eq!(got, want, "{material} index {i} against {twin}");
                usize::from(want.and_then(RuleValue::ban) == Some(Ban::Chase))
            })
            .sum::<usize>();
        assert!(chased > 0, "{material}: no result of the ban on perpetual chase to compare");
        by_chase += chased;
    }
    println!(
        "{} pairs of colour twins agree, {by_chase} results of the ban on perpetual chase among them",
        materials.len()
    );
}

#[test]
fn no_move_raises_the_soldiers_level() {
    // Every move of every position into the index keeps or lowers the steps the Soldiers have
    // left (the levels the solver layers by, unsearched); a Soldier's step forward lowers
    // them. Materials without Soldiers give no levels.
    for material in ["KPvK", "KvKP", "KPvKP", "KPPvK"] {
        let material: Material = material.parse().unwrap();
        let mut tables = PerpetualTablebase::with_rules(Rules::CheckAndChase);
        tables.solve(material).unwrap();
        let game = PerpetualGame::new(tables.index(material).unwrap(), &tables);
        assert!(game.has_progress_levels());
        let (mut kept, mut lowered) = (0, 0);
        for pos in 0..game.num_positions() {
            if !game.is_position(pos) || game.terminal(pos).is_some() {
                continue;
            }
            let level = game.progress_level(pos);
            game.for_each_move(pos, |_, to| {
                if let Successor::Position(q) = to {
                    let after = game.progress_level(q);
                    assert!(after <= level, "{material}: {pos} (level {level}) -> {q} (level {after})");
                    if after < level { lowered += 1 } else { kept += 1 }
                }
            });
        }
        assert!(kept > 0 && lowered > 0, "{material}: {kept} kept, {lowered} lowered");
    }
    let mut tables = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    let material: Material = "KRvKN".parse().unwrap();
    tables.solve(material).unwrap();
    assert!(!PerpetualGame::new(tables.index(material).unwrap(), &tables).has_progress_levels());
}

#[test]
fn the_first_look_is_the_captures_and_the_check_test() {
    // The check stage's first look at a position (`Checks::look_out`: the moves out of the
    // index with their values by the rule, and the check test, from the cached placement)
    // against every move generated with its successor and the decoded position's check test;
    // the placement's legality test against the index's.
    for material in ["KRvKN", "KCvKP", "KNvKC", "KCvKA", "KPvKR"] {
        let material: Material = material.parse().unwrap();
        let mut tables = PerpetualTablebase::with_rules(Rules::CheckAndChase);
        tables.solve(material).unwrap();
        let index = tables.index(material).unwrap();
        let game = PerpetualGame::new(index, &tables);
        let mut captures = 0;
        for pos in (0..game.num_positions()).step_by(5) {
            assert_eq!(game.is_position(pos), index.is_legal(pos), "{material}: index {pos}");
            if !game.is_position(pos) {
                continue;
            }
            let mut looked = Vec::new();
            let check = game.look_out(pos, |v| looked.push(v));
            assert_eq!(check, index.decode(pos).unwrap().in_check(), "{material}: index {pos}");
            assert_eq!(check, game.in_check(pos), "{material}: index {pos}");
            let mut moved = Vec::new();
            game.for_each_move(pos, |mv, to| {
                if let Successor::Known(v) = to {
                    moved.push(game.known_by_rule(pos, mv, v));
                }
            });
            let key = |v: &RuleValue| format!("{v:?}");
            looked.sort_by_key(key);
            moved.sort_by_key(key);
            assert_eq!(looked, moved, "{material}: index {pos}");
            captures += moved.len();
        }
        assert!(captures > 0, "{material}: no capture looked at");
    }
}
