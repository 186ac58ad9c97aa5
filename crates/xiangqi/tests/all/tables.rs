//! The core conformance harness on the solved materials, and facts about the tables.

use endgame_core::conformance::{check_index_round_trip, check_solution, check_unmoves};
use endgame_core::{Game, Successor, Value, Wdl};
use endgame_xiangqi::{Material, Position, Probe, Setup, hdu, kvkn};

#[test]
fn index_round_trip_and_exact_solution_for_every_material() {
    let tables = hdu();
    let materials: Vec<Material> = tables.materials().collect();
    assert_eq!(materials, vec!["KvK".parse().unwrap(), kvkn()]);
    for material in materials {
        let game = tables.game(material).unwrap();
        check_index_round_trip(&game).unwrap();
        check_unmoves(&game).unwrap();
        check_solution(&game, tables.table(material).unwrap().solution()).unwrap();
    }
    assert_eq!(tables.table(kvkn()).unwrap().index().len(), 9_720);
}

/// The consistency conditions spelled out (check_solution proves the same, as one equation).
#[test]
fn every_value_is_justified_by_its_moves() {
    let tables = hdu();
    let game = tables.game(kvkn()).unwrap();
    let solution = tables.table(kvkn()).unwrap().solution();
    let child = |to: Successor| match to {
        Successor::Position(q) => solution.value(q).unwrap(),
        Successor::Known(v) => v,
    };
    for p in (0..game.num_positions()).filter(|&p| game.is_position(p)) {
        let mut children = Vec::new();
        game.for_each_move(p, |_, to| children.push(child(to)));
        match solution.value(p).unwrap() {
            Value::Win(n) => {
                assert!(children.iter().any(|&c| c == Value::Loss(endgame_core::Plies(n.0 - 1))));
                assert!(children.iter().all(|c| c.wdl() != Wdl::Loss || c.plies().unwrap().0 >= n.0 - 1));
            }
            Value::Loss(n) => {
                assert!(children.iter().all(|c| c.wdl() == Wdl::Win && c.plies().unwrap().0 < n.0));
                assert!(children.iter().any(|&c| c == Value::Win(endgame_core::Plies(n.0 - 1))));
            }
            Value::Draw(_) => {
                assert!(children.iter().any(|c| c.wdl() == Wdl::Draw));
                assert!(children.iter().all(|c| c.wdl() != Wdl::Loss));
            }
        }
    }
}

#[test]
fn kvk_is_won_only_by_the_side_to_move_facing_the_other_general() {
    let tables = hdu();
    let facing = Position::from_setup("4k4/9/9/9/9/9/9/9/9/4K4 b".parse::<Setup>().unwrap()).unwrap();
    assert_eq!(tables.probe(&facing).unwrap(), Value::win_in(1).into());
    let apart = Position::from_setup("3k5/9/9/9/9/9/9/9/9/4K4 b".parse::<Setup>().unwrap()).unwrap();
    assert_eq!(tables.probe(&apart).unwrap(), Value::ENDLESS_DRAW.into());
}

#[test]
fn every_draw_is_alice_capturing_the_horse_safely() {
    // Endless play counts as Alice's win ("Lucky guy!"). The only way there: Alice, to move,
    // takes the Horse and the Generals do not face each other afterwards.
    let tables = hdu();
    let table = tables.table(kvkn()).unwrap();
    let mut draws = 0;
    for i in 0..table.index().len() {
        let Some(Value::Draw(_)) = table.solution().value(i) else { continue };
        let position = table.index().decode(i).unwrap();
        assert_eq!(position.turn(), endgame_xiangqi::Color::Red, "{:?}", position.setup().to_string());
        let best = tables.moves(&position).unwrap()[0];
        let (best, value) = (best.mv, best.value);
        assert!(
            position.capture(best).is_some() && value == Value::ENDLESS_DRAW.into(),
            "{}",
            position.setup()
        );
        draws += 1;
    }
    assert!(draws > 0);
}

#[test]
fn every_indexed_position_survives_fen() {
    let table = hdu().table(kvkn()).unwrap();
    for i in 0..table.index().len() {
        let Some(position) = table.index().decode(i) else { continue };
        let fen = position.setup().to_string();
        let back = Position::from_setup(fen.parse::<Setup>().unwrap()).unwrap();
        assert_eq!(table.index().encode(&back), Some(i), "{fen}");
    }
}

/// A table derived from its colour twin's (`Table::colour_twin`, and `MemoryTables::solve` when the
/// twin is solved first) against the same table solved, value for value: every material up to
/// 4 men (up to 3 under `hdu`, whose tables differ in their holes only) and some small 5-man
/// ones (identical pieces, Soldiers), under both rule sets that derive tables.
#[test]
fn colour_twins_are_the_solved_tables() {
    use endgame_xiangqi::{MemoryTables, Rules};
    let five: Vec<Material> =
        ["KAvKAB", "KBBvKA", "KPvKAA", "KPPvKB"].iter().map(|m| m.parse().unwrap()).collect();
    for rules in [Rules::Standard, Rules::Hdu] {
        let men = if rules == Rules::Hdu { 3 } else { 4 };
        let materials: Vec<Material> = Material::all_up_to(men).into_iter().chain(five.clone()).collect();
        let mut solved = MemoryTables::new(rules).colour_twins(false);
        let mut derived = MemoryTables::new(rules);
        let mut compared = 0;
        for &material in &materials {
            let twin = material.colour_twin();
            if twin == material {
                continue;
            }
            solved.solve(material).unwrap();
            solved.solve(twin).unwrap();
            // Through the tablebase: the twin first, then the material derived from it.
            derived.solve(twin).unwrap();
            derived.solve(material).unwrap();
            let by_table = solved.table(twin).unwrap().colour_twin().unwrap();
            let want = solved.table(material).unwrap().solution();
            for got in [by_table.solution(), derived.table(material).unwrap().solution()] {
                assert_eq!(got.len(), want.len(), "{material} under {rules:?}");
                for i in 0..want.len() {
                    assert_eq!(got.value(i), want.value(i), "{material} under {rules:?}, index {i}");
                }
            }
            compared += 1;
        }
        // Every material of the list but those that are their own twin (`KvK`, `KNvKN`, ...).
        assert_eq!(compared, if rules == Rules::Hdu { 16 } else { 88 }, "{rules}");
    }
}

/// `encode` (one pass over the board) gives back the index of every decoded position of
/// materials with identical pieces on both sides, and nothing for a position of another
/// material: a piece too many, a piece missing, or a piece of another kind;
/// `encode_colour_twin` gives the index of the position seen from the other side in the colour
/// twin's index, as building that position and encoding it does.
#[test]
fn encode_inverts_decode_and_refuses_other_materials() {
    use endgame_xiangqi::MaterialIndex;
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for name in ["KNNvKR", "KAABBvKPP", "KRCvKAB", "KvKNN"] {
        let material: Material = name.parse().unwrap();
        let index = MaterialIndex::new(material);
        let others: Vec<MaterialIndex> = ["KNvKR", "KNNvKRA", "KNCvKR", "KvK"]
            .iter()
            .map(|m| MaterialIndex::new(m.parse().unwrap()))
            .collect();
        let mut decoded = 0;
        while decoded < 2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let i = (state % index.len() as u64) as usize;
            let Some(p) = index.decode(i) else { continue };
            decoded += 1;
            assert_eq!(index.encode(&p), Some(i), "{name}: {}", p.setup());
            // Seen from the other side, in the twin's index: as the twin position encodes.
            let twin = MaterialIndex::new(material.colour_twin());
            let flipped = twin.encode(&p.colour_twin());
            assert!(flipped.is_some(), "{name}: {}", p.setup());
            assert_eq!(twin.encode_colour_twin(&p), flipped, "{name}: {}", p.setup());
            assert_eq!(index.encode_colour_twin(&p).is_some(), material.colour_twin() == material, "{name}");
            for other in others.iter().filter(|o| o.material() != material) {
                assert_eq!(other.encode(&p), None, "{name} as {}", other.material());
            }
        }
    }
}
