//! WXF notation against hand-checked examples (the WXF's own tandem-pawn examples among
//! them), and on random positions: the names of the legal moves are all different.

use crate::common::position;
use endgame_xiangqi::wxf::to_wxf;
use endgame_xiangqi::{Board, Color, Move, Piece, Position, Role, Rules, Setup, Square};
use proptest::prelude::*;

fn wxf(fen: &str, mv: &str) -> String {
    to_wxf(&position(fen), mv.parse::<Move>().unwrap()).unwrap()
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
const START_BLACK: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b";

#[test]
fn opening_moves() {
    // 炮二平五, 馬二進三, 馬八進七, 車一進一, 兵三進一, 兵九進一, 相三進五, 相七進五, 仕四進五, 帥五進一.
    for (mv, name) in [
        ("h2e2", "C2.5"),
        ("h0g2", "H2+3"),
        ("b0c2", "H8+7"),
        ("i0i1", "R1+1"),
        ("g3g4", "P3+1"),
        ("a3a4", "P9+1"),
        ("g0e2", "E3+5"),
        ("c0e2", "E7+5"),
        ("f0e1", "A4+5"),
        ("e0e1", "K5+1"),
        ("b2b9", "C8+7"),
    ] {
        assert_eq!(wxf(START, mv), name, "{mv}");
    }
    // Black counts files from its own right: 砲8平5, 馬8進7, 馬2進3, 象3進5, 卒7進1.
    for (mv, name) in
        [("h7e7", "C8.5"), ("h9g7", "H8+7"), ("b9c7", "H2+3"), ("c9e7", "E3+5"), ("g6g5", "P7+1")]
    {
        assert_eq!(wxf(START_BLACK, mv), name, "{mv}");
    }
}

#[test]
fn tandem_pieces_are_front_and_rear() {
    // Red Chariots on e4 and e7 (e7 is in front), Black Cannons on b5 and b8 (b5 in front).
    let red = "5k3/9/4R4/9/1c7/4R4/1c7/9/9/3K5 w";
    assert_eq!(wxf(red, "e7e9"), "R++2");
    assert_eq!(wxf(red, "e4e2"), "R--2");
    assert_eq!(wxf(red, "e7d7"), "R+.6");
    let black = "5k3/1c7/9/9/1c7/9/9/9/9/3K5 b";
    assert_eq!(wxf(black, "b8b9"), "C--1");
    assert_eq!(wxf(black, "b5b3"), "C++2");
    // Horses on c3 and c5: the front one jumps to d7.
    assert_eq!(wxf("5k3/9/9/9/2N6/9/2N6/9/9/3K5 w", "c5d7"), "H++6");
    // Advisors keep their file: 仕四進五 and 仕四退五 (d0 and d2).
    let advisors = "5k3/9/9/9/9/9/9/3A5/9/3AK4 w";
    assert_eq!(wxf(advisors, "d0e1"), "A6+5");
    assert_eq!(wxf(advisors, "d2e1"), "A6-5");
}

#[test]
fn tandem_soldiers_follow_the_wxf_examples() {
    // Three on Red's 3rd file (g5, g6, g7) to the 4th: P+.4, P3.4, P-.4.
    let three = "3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w";
    assert_eq!(wxf(three, "g7f7"), "P+.4");
    assert_eq!(wxf(three, "g6f6"), "P3.4");
    assert_eq!(wxf(three, "g5f5"), "P-.4");
    // Five on the 3rd file: ++.4, P+.4, P3.4, P-.4, --.4.
    let five = "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w";
    for (mv, name) in
        [("g9f9", "++.4"), ("g8f8", "P+.4"), ("g7f7", "P3.4"), ("g6f6", "P-.4"), ("g5f5", "--.4")]
    {
        assert_eq!(wxf(five, mv), name, "{mv}");
    }
    // Four: no middle one.
    let four = "3k2P2/6P2/6P2/6P2/9/9/9/9/9/4K4 w";
    for (mv, name) in [("g9f9", "++.4"), ("g8f8", "P+.4"), ("g7f7", "P-.4"), ("g6f6", "--.4")] {
        assert_eq!(wxf(four, mv), name, "{mv}");
    }
    // Three on the 3rd file and two on the 7th: the file comes first.
    let two_files = "3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w";
    for (mv, name) in [
        ("g7f7", "3+.4"),
        ("g6f6", "33.4"),
        ("g5f5", "3-.4"),
        ("c7d7", "7+.6"),
        ("c6d6", "7-.6"),
        ("c7c8", "7++1"),
    ] {
        assert_eq!(wxf(two_files, mv), name, "{mv}");
    }
    // Black Soldiers on d3 and d4: d3 is in front (nearer Red), Black's 4th file.
    let black = "3k5/9/9/9/9/3p5/3p5/9/9/4K4 b";
    assert_eq!(wxf(black, "d3d2"), "P++1");
    assert_eq!(wxf(black, "d4c4"), "P-.3");
}

#[test]
fn an_empty_origin_has_no_name() {
    assert_eq!(to_wxf(&position(START), "e5e6".parse().unwrap()), None);
}

/// Positions with many pieces of few kinds (tandem pieces are frequent), not all valid.
pub fn crowded_setup() -> impl Strategy<Value = Setup> {
    let role = prop_oneof![
        Just(Role::Chariot),
        Just(Role::Cannon),
        Just(Role::Horse),
        Just(Role::Soldier),
        Just(Role::Soldier),
        Just(Role::Advisor),
        Just(Role::Elephant),
    ];
    let piece = (any::<bool>(), role)
        .prop_map(|(red, role)| Piece { color: if red { Color::Red } else { Color::Black }, role });
    (prop::collection::vec((piece, 0..Square::COUNT), 4..16), 0..9usize, 0..9usize, any::<bool>()).prop_map(
        |(pieces, red_king, black_king, red)| {
            let mut board = Board::empty();
            let palace = |color, i: usize| Square::palace(color)[i];
            board.set(palace(Color::Red, red_king), Some(Piece { color: Color::Red, role: Role::General }));
            board.set(
                palace(Color::Black, black_king),
                Some(Piece { color: Color::Black, role: Role::General }),
            );
            for (piece, at) in pieces {
                let sq = Square::from_index(at).unwrap();
                // Only where the piece may stand; the Generals stay.
                let count = board.pieces().filter(|(_, p)| *p == piece).count();
                if board.get(sq).is_none()
                    && count < usize::from(piece.role.max_count())
                    && piece.points().contains(&sq)
                {
                    board.set(sq, Some(piece));
                }
            }
            Setup { board, turn: if red { Color::Red } else { Color::Black } }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Every legal move has a name of four characters, and no two share one.
    #[test]
    fn names_are_unambiguous(setup in crowded_setup()) {
        let position = Position::from_setup(setup);
        prop_assume!(position.is_ok());
        let position = position.unwrap();
        let mut seen = std::collections::HashMap::new();
        for mv in position.legal_moves(Rules::Hdu) {
            let name = to_wxf(&position, mv).unwrap();
            prop_assert_eq!(name.chars().count(), 4, "{} {}", mv, name);
            if let Some(other) = seen.insert(name.clone(), mv) {
                prop_assert!(false, "{} and {} are both {} in {}", other, mv, name, setup);
            }
        }
    }
}
