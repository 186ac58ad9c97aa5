//! `perpetual-check` tables against `standard` ones, and positions checked by hand.

use crate::common::{assert_certified, position, rule_summary};
use endgame_core::perpetual::{Checks, PerpetualCheck};
use endgame_core::{Ban, RuleValue};
use endgame_core::{Game, Plies, Value};
use endgame_xiangqi::tables::perpetual::PerpetualGame;
use endgame_xiangqi::{Material, PerpetualTablebase, Probe, Rules};

fn krkn() -> PerpetualTablebase {
    let mut tables = PerpetualTablebase::new();
    tables.solve("KRvKN".parse().unwrap()).unwrap();
    tables
}

/// The `standard` draws that change, per material up to 4 men (legal positions, both sides
/// to move, mirror images counted as GamesmanXiangqi counts them): wins by the rule and losses
/// by the rule for the side to move. Every other material keeps all its draws.
const CHANGED: [(&str, u64, u64); 2] = [("KNvKR", 624, 2570), ("KRvKN", 624, 2570)];

/// FNV-1a 64 of a solution's values, without ranks and with them (see
/// `tests/data/perpetual_check_digests.txt`).
fn digest(values: impl Iterator<Item = Option<RuleValue>>) -> (u64, u64) {
    let code = |v: Option<RuleValue>, rank: bool| -> u64 {
        let rank_of = |r: u32| if rank { u64::from(r) << 8 } else { 0 };
        match v {
            None => 0,
            Some(RuleValue::Win(d)) => 1 | (u64::from(d.0) << 8),
            Some(RuleValue::Loss(d)) => 2 | (u64::from(d.0) << 8),
            Some(RuleValue::Draw(None)) => 3,
            Some(RuleValue::Draw(Some(d))) => 4 | (u64::from(d.0) << 8),
            Some(RuleValue::WinByRule(Ban::Check, r)) => 5 | rank_of(r),
            Some(RuleValue::LossByRule(Ban::Check, r)) => 6 | rank_of(r),
            Some(RuleValue::WinByRule(Ban::Chase, r)) => 7 | rank_of(r),
            Some(RuleValue::LossByRule(Ban::Chase, r)) => 8 | rank_of(r),
        }
    };
    let (mut a, mut b) = (0xcbf2_9ce4_8422_2325_u64, 0xcbf2_9ce4_8422_2325_u64);
    for v in values {
        for (h, c) in [(&mut a, code(v, false)), (&mut b, code(v, true))] {
            for byte in c.to_le_bytes() {
                *h ^= u64::from(byte);
                *h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    (a, b)
}

#[test]
fn every_material_up_to_4_men_keeps_standard_wins_and_losses() {
    let digests: std::collections::HashMap<String, (usize, u64, u64)> =
        include_str!("../data/perpetual_check_digests.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let hex = |s: &str| u64::from_str_radix(s, 16).unwrap();
                (f[0].to_string(), (f[1].parse().unwrap(), hex(f[2]), hex(f[3])))
            })
            .collect();
    assert_eq!(digests.len(), Material::all_up_to(4).len());
    let mut tables = PerpetualTablebase::new();
    // The same materials under `check-and-chase`, from the same `standard` solutions: with
    // chases switched off, and on.
    let mut off = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    let mut on = PerpetualTablebase::with_rules(Rules::CheckAndChase);
    let mut changed = Vec::new();
    let mut by_chase = Vec::new();
    let mut chased = Vec::new();
    for material in Material::all_up_to(4) {
        tables.solve(material).unwrap();
        let standard = || {
            let plain = tables.standard().table(material).unwrap().solution().values();
            Some(endgame_core::Solution::from_values_bytes(plain).unwrap())
        };
        let solver = endgame_core::Retrograde::new();
        // In one layer (the solver then works as before layers existed): the same ranks.
        let plain = off.plain_step(material, standard(), &solver).unwrap();
        off.rule_step(material, plain, &PerpetualCheck::new().chases(false).layer_size(usize::MAX)).unwrap();
        let solution = off.solution(material).unwrap();
        let (without, with) = digest(solution.values());
        assert_eq!((solution.len(), without, with), digests[&material.to_string()], "{material}: chases off");
        // With chases on, the chase stage costs about twice the `standard` solve: here the
        // materials up to 3 men (all that the others' captures lead to) and those with results
        // of the ban on perpetual check or with many chases; every material up to 4 men in the
        // ignored test `every_material_up_to_4_men_under_check_and_chase`
        // (tests/all/check_and_chase.rs).
        let chases = material.men() <= 3
            || ["KRvKN", "KNvKR", "KCvKN", "KNvKC", "KNvKP", "KPvKN"].contains(&&*material.to_string());
        if chases {
            chased.push(material);
            let plain = on.plain_step(material, standard(), &solver).unwrap();
            on.rule_step(material, plain, &PerpetualCheck::new().chases(true)).unwrap();
            let solution = on.solution(material).unwrap();
            assert_certified(&on, material);
            let check = tables.solution(material).unwrap();
            for i in 0..solution.len() {
                let (a, b) = (solution.value(i), check.value(i));
                if !matches!(
                    a,
                    Some(RuleValue::WinByRule(Ban::Chase, _) | RuleValue::LossByRule(Ban::Chase, _))
                ) {
                    assert_eq!(
                        a.map(|v| v.without_rank()),
                        b.map(|v| v.without_rank()),
                        "{material} index {i}"
                    );
                } else {
                    assert!(matches!(b, Some(RuleValue::Draw(_))), "{material} index {i}");
                }
            }
            let stats = on.stats(material).unwrap();
            if stats.counts.wins_by_chase + stats.counts.losses_by_chase > 0 {
                by_chase.push((
                    material.to_string(),
                    stats.counts.wins_by_chase,
                    stats.counts.losses_by_chase,
                ));
            }
        }
        // The values of the solver before the ban on perpetual chase existed (the ranks of
        // a solve in layers are others; the certificate proves them).
        let solution = tables.solution(material).unwrap();
        let (without, _) = digest(solution.values());
        let (len, expected, _) = digests[&material.to_string()];
        assert_eq!((solution.len(), without), (len, expected), "{material}");
        let stats = tables.stats(material).unwrap();
        let standard = tables.standard().table(material).unwrap().stats();
        assert_eq!(stats.changed_decided, 0, "{material}: a standard win or loss changed");
        assert_eq!(stats.counts.positions, standard.counts.positions, "{material}");
        assert_eq!(
            (stats.counts.wins, stats.counts.losses),
            (standard.counts.wins, standard.counts.losses),
            "{material}"
        );
        assert_eq!(
            stats.counts.draws + stats.counts.wins_by_rule + stats.counts.losses_by_rule,
            standard.counts.draws,
            "{material}"
        );
        if stats.counts.wins_by_rule + stats.counts.losses_by_rule > 0 {
            changed.push((material.to_string(), stats.counts.wins_by_rule, stats.counts.losses_by_rule));
        }
        // Value by value, mate distances included.
        let solution = tables.solution(material).unwrap();
        assert_certified(&tables, material);
        let plain = &tables.standard().table(material).unwrap().solution();
        for i in 0..solution.len() {
            match (plain.value(i), solution.value(i)) {
                (Some(Value::Draw(_)), Some(_)) | (None, None) => {}
                (p, r) => assert_eq!(p.map(RuleValue::from), r, "{material} index {i}"),
            }
        }
    }
    let expected: Vec<(String, u64, u64)> = CHANGED.iter().map(|&(m, w, l)| (m.to_string(), w, l)).collect();
    assert_eq!(changed, expected);
    // A position and its colour twin have the same value, ranks included.
    assert!(twins_agree(&tables, &Material::all_up_to(4)) > 1000);
    // And under `check-and-chase` (each twin solved on its own here).
    assert!(twins_agree(&on, &chased) > 1000);
    // None of the materials solved with chases on has a result of the ban on perpetual
    // chase (every material up to 4 men: the ignored test named above).
    assert_eq!(by_chase, Vec::new());
}

#[test]
fn the_check_mark_is_the_boards_check() {
    let tables = krkn();
    let material: Material = "KRvKN".parse().unwrap();
    let index = tables.index(material).unwrap();
    let game = PerpetualGame::new(index, &tables);
    let mut checks = 0;
    for i in 0..game.num_positions() {
        if let (true, Some(p)) = (game.is_position(i), index.decode(i)) {
            assert_eq!(game.in_check(i), p.in_check(), "{}", p.setup());
            checks += usize::from(p.in_check());
        }
    }
    assert!(checks > 1000);
}

#[test]
fn the_defenders_perpetual_check_no_longer_saves_it() {
    // Black's Horse can hop between b1 and c3 checking Red's General on d0/d1 forever; under
    // `standard` that draws, under `perpetual-check` Black loses: every other move is mated.
    let tables = krkn();
    let start = position("9/9/4k4/9/9/9/n8/9/9/R2K5 b");
    assert_eq!(tables.standard().probe(&start).unwrap(), RuleValue::Draw(None));
    assert!(matches!(tables.value(&start), Some(RuleValue::LossByRule(..))));
    let moves = tables.moves(&start).unwrap();
    let best = moves[0];
    assert_eq!(best.0.to_string(), "a3b1");
    assert!(start.play_unchecked(best.0).in_check());
    assert!(matches!(best.1, RuleValue::LossByRule(..)));
    assert!(moves[1..].iter().all(|(_, v)| matches!(v, RuleValue::Loss(_))), "{moves:?}");
    // The play goes on with Black checking at every move and Red never: every move of Red
    // (forced to answer the check) keeps Red's win by the rule, and every move of Black that
    // is not a check is mated.
    let mut at = start.play_unchecked(best.0);
    let mut seen = std::collections::HashSet::new();
    while seen.insert(at.setup().to_string()) {
        assert!(at.in_check() && matches!(tables.value(&at), Some(RuleValue::WinByRule(..))));
        let red_moves = tables.moves(&at).unwrap();
        assert!(red_moves.iter().all(|(_, v)| matches!(v, RuleValue::WinByRule(..))), "{red_moves:?}");
        at = at.play_unchecked(red_moves[0].0);
        assert!(!at.in_check());
        let black_moves = tables.moves(&at).unwrap();
        for (mv, v) in &black_moves {
            assert!(
                at.play_unchecked(*mv).in_check() || matches!(v, RuleValue::Loss(_)),
                "{} {mv}",
                at.setup()
            );
        }
        assert!(matches!(black_moves[0].1, RuleValue::LossByRule(..)));
        at = at.play_unchecked(black_moves[0].0);
    }
    assert!(seen.len() >= 2, "a cycle of checks: {seen:?}");
}

#[test]
fn red_must_answer_and_wins_by_the_rule() {
    // Red to move, in check from the Horse on b1: the only move d0d1. Under `standard` a draw,
    // under `perpetual-check` a win for Red (Black can only keep checking).
    let tables = krkn();
    let p = position("9/9/4k4/9/9/9/9/9/1n7/R2K5 w");
    assert_eq!(tables.standard().probe(&p).unwrap(), RuleValue::Draw(None));
    assert!(matches!(tables.value(&p), Some(RuleValue::WinByRule(..))));
    assert_eq!(p.legal_moves(Rules::PerpetualCheck).len(), 1);
}

#[test]
fn the_checking_side_must_choose_the_check_that_is_no_perpetual() {
    // Black to move draws with a4c3+, but a4b2+ (a check too, that leads into a perpetual by
    // Black alone) now loses; every other move is mated.
    let tables = krkn();
    let p = position("9/9/4k4/9/9/n8/9/9/3K5/3R5 b");
    assert_eq!(tables.standard().probe(&p).unwrap(), RuleValue::Draw(None));
    assert_eq!(tables.value(&p), Some(RuleValue::Draw(None)));
    let moves = tables.moves(&p).unwrap();
    let named: Vec<(String, RuleValue)> =
        moves.iter().map(|(m, v)| (m.to_string(), v.without_rank())).collect();
    assert_eq!(named[0], ("a4c3".to_string(), RuleValue::Draw(None)));
    assert_eq!(named[1], ("a4b2".to_string(), RuleValue::LossByRule(Ban::Check, 0)));
    assert!(p.play_unchecked(moves[1].0).in_check());
    assert!(named[2..].iter().all(|(_, v)| matches!(v, RuleValue::Loss(_))));
    // Under `standard` both checks draw.
    for (mv, _) in &moves[..2] {
        assert_eq!(tables.standard().probe(&p.play_unchecked(*mv)).unwrap(), RuleValue::Draw(None));
    }
    let _ = Plies(0);
}

#[test]
fn the_store_round_trips_rule_values_and_rule_lines_end_in_the_losers_perpetual_check() {
    use endgame_xiangqi::{LineEnd, Tablebases};
    let dir = std::env::temp_dir().join(format!("endgame-perpetual-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let material: Material = "KRvKN".parse().unwrap();
    let store = Tablebases::open(&dir, Rules::PerpetualCheck);
    store.generate(&[material], &|_| {}).unwrap();
    let memory = krkn();
    let index = memory.index(material).unwrap();
    let solution = memory.solution(material).unwrap();
    // The file holds every value and rank of the solver's solution.
    assert!(store.read_rule_solution(material).unwrap().values().eq(solution.values()));
    let mut lines = 0;
    for i in 0..index.len() {
        let Some(value) = solution.value(i) else { continue };
        let Some(p) = index.decode(i) else { continue };
        if p.check(Rules::PerpetualCheck).is_err() {
            continue;
        }
        if i % 29 == 0 {
            assert_eq!(store.probe(&p).unwrap(), memory.probe(&p).unwrap(), "{}", p.setup());
        }
        if !value.is_by_rule() {
            continue;
        }
        // The line of a win by the rule: the winner plays the smallest rank, the loser the
        // largest; it ends when a position repeats, and in the cycle every move of the loser
        // checks and some move of the winner does not.
        let line = store.main_line(&p).unwrap();
        let LineEnd::PerpetualCheck { ply, again, loser } = line.end else {
            panic!("{}: {:?}", p.setup(), line.end)
        };
        let expected_loser = if matches!(value, RuleValue::WinByRule(..)) { !p.turn() } else { p.turn() };
        assert_eq!(loser, expected_loser, "{}", p.setup());
        let mut at = p;
        let mut winner_quiet = false;
        for (k, m) in line.moves.iter().enumerate() {
            let mover = at.turn();
            at = at.play_unchecked(m.mv);
            if k >= ply && k < again {
                if mover == loser {
                    assert!(at.in_check(), "{}: ply {k}", p.setup());
                } else {
                    winner_quiet |= !at.in_check();
                }
            }
        }
        assert!(winner_quiet, "{}", p.setup());
        lines += 1;
    }
    assert!(lines > 1000, "{lines}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Solves the materials named in `$XIANGQI_PERPETUAL` (and all they rest on) under
/// `perpetual-check` and checks them as the test above does, printing the counts and times:
/// `XIANGQI_PERPETUAL="KRvKNA" cargo test --release -p endgame-xiangqi --test all -- --ignored --nocapture perpetual::some_materials`
#[test]
#[ignore = "the materials named in $XIANGQI_PERPETUAL"]
fn some_materials_under_perpetual_check() {
    let names = std::env::var("XIANGQI_PERPETUAL").unwrap_or_default();
    let mut tables = PerpetualTablebase::new();
    for name in names.split_whitespace() {
        let material: Material = name.parse().unwrap();
        for m in material.with_smaller() {
            let start = std::time::Instant::now();
            tables.solve(m).unwrap();
            let solved = start.elapsed();
            let stats = tables.stats(m).unwrap();
            let solution = tables.solution(m).unwrap();
            assert_eq!(stats.changed_decided, 0, "{m}");
            assert_certified(&tables, m);
            if m.men() == material.men() || stats.counts.wins_by_rule + stats.counts.losses_by_rule > 0 {
                println!(
                    "{}; {:?}; solved (standard and rule) in {:.1} s",
                    rule_summary(m, solution, &stats),
                    solution.stats(),
                    solved.as_secs_f64()
                );
            }
        }
    }
}

/// The same for some 5-man materials (two minutes on 2 cores):
/// `cargo test --release -p endgame-xiangqi --test all -- --ignored perpetual::five_man_colour_twins`
#[test]
#[ignore = "5-man materials under perpetual-check: two minutes"]
fn five_man_colour_twins_have_the_same_rule_values_and_ranks() {
    let five: Vec<Material> = ["KRvKNA", "KNvKAB", "KCvKAA"].iter().map(|m| m.parse().unwrap()).collect();
    let mut tables = PerpetualTablebase::new();
    for &m in &five {
        tables.solve(m).unwrap();
        tables.solve(m.colour_twin()).unwrap();
    }
    assert!(twins_agree(&tables, &five) > 1000);
}

/// Under the bans a position and its colour twin (colours swapped, ranks flipped, the
/// other side to move) have the same value, ranks of the rule included: each of `materials`
/// and its twin, solved on their own in `tables`, compared index by index through
/// [`ColourFlip`](endgame_xiangqi::ColourFlip) (so one table answers for both). Returns how
/// many values by the rule were compared.
fn twins_agree(tables: &PerpetualTablebase, materials: &[Material]) -> usize {
    use endgame_xiangqi::{ColourFlip, MaterialIndex};
    let (mut compared, mut by_rule) = (0, 0);
    for &material in materials {
        let twin = material.colour_twin();
        if twin == material {
            continue;
        }
        let index = MaterialIndex::new(material);
        let twin_index = MaterialIndex::new(twin);
        let flip = ColourFlip::new(&index, &twin_index);
        let (ours, theirs) = (tables.solution(material).unwrap(), tables.solution(twin).unwrap());
        for i in 0..index.len() {
            let want = ours.value(i);
            let got = flip.index(i).and_then(|j| theirs.value(j));
            assert_eq!(got, want, "{material} index {i} against {twin}");
            by_rule +=
                usize::from(matches!(want, Some(RuleValue::WinByRule(..) | RuleValue::LossByRule(..))));
        }
        compared += 1;
    }
    assert!(compared > 0, "no material with a twin");
    by_rule
}
