//! The core's conformance harness on the cheesy game: index round trip, un-moves against
//! moves, mirror symmetry, and the full consistency check of solutions.

use endgame_cheesy::{Board, CheesyGame, Field, Placement, Square};
use endgame_core::Retrograde;
use endgame_core::conformance::{check_index_round_trip, check_solution, check_symmetry, check_unmoves};
use endgame_core::{Game, Value};
use proptest::prelude::*;

fn board(rows: usize, cols: usize, fields: &[u8]) -> Board {
    let fields: Vec<Field> = fields.iter().map(|&b| Field::from_char(char::from(b)).unwrap()).collect();
    Board::from_top_rows(rows, cols, &fields).unwrap()
}

fn any_board(max: usize) -> impl Strategy<Value = Board> {
    (1..=max, 1..=max).prop_flat_map(|(rows, cols)| {
        let field = prop_oneof![2 => Just(b'.'), 1 => Just(b'D'), 1 => Just(b'F')];
        prop::collection::vec(field, rows * cols).prop_map(move |f| board(rows, cols, &f))
    })
}

fn check_game(game: &CheesyGame<'_>) -> Result<(), String> {
    check_index_round_trip(game)?;
    check_unmoves(game)?;
    let solution = Retrograde::new().solve_with_unmoves(game).map_err(|e| e.to_string())?;
    check_solution(game, &solution)?;
    // The same values through the solver's own reverse edges.
    let plain = Retrograde::new().solve(game).map_err(|e| e.to_string())?;
    if !solution.values().eq(plain.values()) {
        return Err("solving with and without un-moves differs".into());
    }
    // Every game ends: no draws.
    if solution.summary().draws != 0 {
        return Err("a draw in a game that always ends".into());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn whole_boards_conform(board in any_board(7)) {
        check_game(&CheesyGame::whole(&board)).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn pawn_regions_conform(board in any_board(9), x in 1u8..=9, y in 1u8..=9) {
        let pawn = Square::new(x.min(board.cols()), y.min(board.rows()));
        prop_assume!(board.field(pawn) != Field::Forbidden);
        let region = CheesyGame::for_pawn(&board, pawn);
        check_game(&region).map_err(TestCaseError::fail)?;
        // The region's values are the whole board's values.
        let whole = CheesyGame::whole(&board);
        let all = Retrograde::new().solve_with_unmoves(&whole).unwrap();
        let part = Retrograde::new().solve_with_unmoves(&region).unwrap();
        for i in (0..region.num_positions()).filter(|&i| region.is_position(i)) {
            let j = whole.index(region.placement(i)).unwrap();
            prop_assert_eq!(part.value(i), all.value(j));
        }
    }
}

/// The mirror image (x -> cols + 1 - x) of a board has mirrored values.
#[test]
fn mirrored_boards_have_mirrored_values() {
    let rows = ["..D.F.", ".F....", "...D..", "D..F..", "......"];
    let text: Vec<u8> = rows.iter().flat_map(|r| r.bytes()).collect();
    let mirrored: Vec<u8> = rows.iter().flat_map(|r| r.bytes().rev()).collect();
    let (a, b) = (board(5, 6, &text), board(5, 6, &mirrored));
    let (ga, gb) = (CheesyGame::whole(&a), CheesyGame::whole(&b));
    let sa = Retrograde::new().solve_with_unmoves(&ga).unwrap();
    let sb = Retrograde::new().solve_with_unmoves(&gb).unwrap();
    let flip = |s: Square| Square::new(7 - s.x, s.y);
    for i in (0..ga.num_positions()).filter(|&i| ga.is_position(i)) {
        let Placement { king, pawn, to_move } = ga.placement(i);
        let j = gb.index(Placement { king: flip(king), pawn: flip(pawn), to_move }).unwrap();
        assert_eq!(sa.value(i), sb.value(j), "{king} {pawn} {to_move:?}");
    }
    // The symmetry check of the harness on a board that is its own mirror image.
    let own = board(4, 4, b"D..D.FF.....F..F");
    let game = CheesyGame::whole(&own);
    let solution = Retrograde::new().solve_with_unmoves(&game).unwrap();
    check_symmetry(&solution, |i| {
        let Placement { king, pawn, to_move } = game.placement(i);
        let flip = |s: Square| Square::new(5 - s.x, s.y);
        game.index(Placement { king: flip(king), pawn: flip(pawn), to_move }).into_iter().collect()
    })
    .unwrap();
    assert!(solution.values().flatten().any(|v| matches!(v, Value::Win(_))));
}
