//! The tables of every piece kind under both rule sets: the core conformance harness, the fast
//! table generator against the plain board move generator, and the symmetries of the game.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::sync::OnceLock;

use endgame_core::conformance::{check_index_round_trip, check_solution, check_symmetry, check_unmoves};
use endgame_core::{Game, Successor, Value};
use endgame_xiangqi::{Board, Material, MemoryTables, Piece, Position, Probe, Rules, Setup, Square};

/// Small materials with every piece kind, identical pieces and Soldiers on both sides.
const MATERIALS: [&str; 13] = [
    "KvK", "KAvK", "KvKB", "KNvK", "KvKR", "KCvK", "KPvK", "KvKP", "KRvKA", "KCvKB", "KPvKP", "KvKBB",
    "KAAvK",
];

/// The materials solved once per rule set, shared by the tests.
fn solved(rules: Rules) -> &'static MemoryTables {
    static TABLES: [OnceLock<MemoryTables>; 2] = [OnceLock::new(), OnceLock::new()];
    TABLES[usize::from(rules == Rules::Standard)].get_or_init(|| {
        let mut tables = MemoryTables::new(rules);
        for m in MATERIALS {
            tables.solve(m.parse().unwrap()).unwrap();
        }
        tables
    })
}

#[test]
fn conformance_of_every_material_under_both_rule_sets() {
    for rules in [Rules::Hdu, Rules::Standard] {
        let tables = solved(rules);
        for material in tables.materials() {
            let game = tables.game(material).unwrap();
            let context = |e: String| format!("{material} {rules}: {e}");
            check_index_round_trip(&game).map_err(context).unwrap();
            check_unmoves(&game).map_err(context).unwrap();
            check_solution(&game, tables.table(material).unwrap().solution()).map_err(context).unwrap();
        }
    }
}

/// The table generator's moves (piece lists, check by looking at the few pieces there are,
/// indices updated in O(1)) are exactly the moves of the plain generator on a board.
#[test]
fn table_moves_are_the_board_moves() {
    for rules in [Rules::Hdu, Rules::Standard] {
        let tables = solved(rules);
        for material in ["KRvKA", "KCvKB", "KPvKP", "KvKBB"].map(|m| m.parse::<Material>().unwrap()) {
            let game = tables.game(material).unwrap();
            let index = tables.table(material).unwrap().index();
            // About 40,000 positions of each: all of the small ones, a spread of the others.
            let step = (game.num_positions() / 80_000).max(1) | 1;
            for pos in (0..game.num_positions()).step_by(step).filter(|&p| game.is_position(p)) {
                let position = index.decode(pos).unwrap();
                let mut fast = BTreeSet::new();
                game.for_each_move(pos, |mv, to| {
                    fast.insert((mv.to_string(), format!("{to:?}")));
                });
                let plain: BTreeSet<(String, String)> = position
                    .legal_moves(rules)
                    .into_iter()
                    .map(|mv| {
                        let after = position.play_unchecked(mv);
                        let to = if position.capture(mv).is_some() {
                            Successor::Known(tables.probe(&after).unwrap().plain())
                        } else {
                            Successor::Position(index.encode(&after).unwrap())
                        };
                        (mv.to_string(), format!("{to:?}"))
                    })
                    .collect();
                assert_eq!(fast, plain, "{material} {rules}: {}", position.setup());
            }
        }
    }
}

/// A search over the moves that stops at its break hears the moves in the order of
/// `for_each_move`, up to and with the one it broke at, and no move after it.
#[test]
fn a_search_of_the_moves_stops_where_it_breaks() {
    for rules in [Rules::Hdu, Rules::Standard] {
        let tables = solved(rules);
        for material in ["KRvKA", "KCvKB", "KPvKP", "KvKBB"].map(|m| m.parse::<Material>().unwrap()) {
            let game = tables.game(material).unwrap();
            let step = (game.num_positions() / 4_000).max(1) | 1;
            for pos in (0..game.num_positions()).step_by(step).filter(|&p| game.is_position(p)) {
                let mut all = Vec::new();
                game.for_each_move(pos, |mv, to| all.push((mv, to)));
                let mut heard = Vec::new();
                let whole = game.try_for_each_move(pos, |mv, to| {
                    heard.push((mv, to));
                    ControlFlow::Continue(())
                });
                assert_eq!((whole, &heard), (ControlFlow::Continue(()), &all), "{material} {rules} {pos}");
                for k in 0..all.len() {
                    heard.clear();
                    let flow = game.try_for_each_move(pos, |mv, to| {
                        heard.push((mv, to));
                        if heard.len() > k { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                    });
                    assert_eq!(
                        (flow, &heard[..]),
                        (ControlFlow::Break(()), &all[..=k]),
                        "{material} {rules} {pos}"
                    );
                }
            }
        }
    }
}

fn mirror(board: &Board, flip_colors: bool) -> Board {
    let mut out = Board::empty();
    for (sq, p) in board.pieces() {
        let (f, r) = (sq.file().index() as i8, sq.rank().index() as i8);
        let (to, piece) = if flip_colors {
            (Square::A0.offset(f, 9 - r).unwrap(), Piece { color: !p.color, role: p.role })
        } else {
            (Square::A0.offset(8 - f, r).unwrap(), p)
        };
        out.set(to, Some(piece));
    }
    out
}

/// The left-right mirror of a position has its value; so has the position with the colours
/// swapped (the board turned upside down), in the colour-swapped material.
#[test]
fn mirrored_and_colour_swapped_positions_have_equal_values() {
    let tables = solved(Rules::Standard);
    for material in tables.materials() {
        let table = tables.table(material).unwrap();
        let index = table.index();
        check_symmetry(table.solution(), |pos| {
            index
                .decode(pos)
                .map(|p| {
                    let setup = Setup { board: mirror(p.board(), false), turn: p.turn() };
                    vec![index.encode(&Position::from_setup(setup).unwrap()).unwrap()]
                })
                .unwrap_or_default()
        })
        .unwrap();
        for pos in 0..index.len() {
            let (Some(value), Some(p)) = (table.solution().value(pos), index.decode(pos)) else { continue };
            let setup = Setup { board: mirror(p.board(), true), turn: !p.turn() };
            let swapped = Position::from_setup(setup).unwrap();
            if let Ok(other) = tables.probe(&swapped).map(|v| v.plain()) {
                assert_eq!(value, other, "{material}: {}", p.setup());
            }
        }
    }
}

#[test]
fn standard_rules_facts() {
    let tables = solved(Rules::Standard);
    let value = |fen: &str| {
        tables.probe(&Position::from_setup(fen.parse::<Setup>().unwrap()).unwrap()).unwrap().plain()
    };
    // A lone Chariot mates: the Black General on e9, the Chariot takes the ninth rank.
    assert_eq!(value("4k4/9/9/9/9/9/9/9/9/R2K5 w"), Value::win_in(3));
    // Stalemate loses: Black's General on d9 cannot move (d8 is covered, e9 faces the Red General), not in check.
    assert_eq!(value("3k5/2R6/9/9/9/9/9/9/9/4K4 b"), Value::loss_in(0));
    // A Cannon alone cannot mate.
    assert_eq!(value("4k4/9/9/9/9/9/9/9/9/3KC4 w"), Value::ENDLESS_DRAW);
    // The Soldier on the last rank cannot win.
    assert_eq!(value("P3k4/9/9/9/9/9/9/9/9/3K5 w"), Value::ENDLESS_DRAW);
}
