//! FEN, squares, moves and position validation: round trips and errors that name the reason.

use endgame_xiangqi::rules::fen::FenError;
use endgame_xiangqi::{Board, Color, Move, Piece, Position, PositionError, Role, Setup, Square};
use proptest::prelude::*;

fn setup_strategy() -> impl Strategy<Value = Setup> {
    let piece = prop_oneof![
        Just(None),
        Just(None),
        Just(None),
        (any::<bool>(), any::<bool>()).prop_map(|(red, general)| Some(Piece {
            color: if red { Color::Red } else { Color::Black },
            role: if general { Role::General } else { Role::Horse },
        })),
    ];
    (prop::collection::vec(piece, Square::COUNT), any::<bool>()).prop_map(|(points, red)| {
        let mut board = Board::empty();
        for (sq, p) in Square::all().zip(points) {
            board.set(sq, p);
        }
        Setup { board, turn: if red { Color::Red } else { Color::Black } }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fen_round_trip(setup in setup_strategy()) {
        let text = setup.to_string();
        prop_assert_eq!(text.parse::<Setup>(), Ok(setup));
        // The short form (board and side only) reads the same.
        let short: String = text.split(' ').take(2).collect::<Vec<_>>().join(" ");
        prop_assert_eq!(short.parse::<Setup>(), Ok(setup));
    }
}

#[test]
fn fen_errors_name_the_reason() {
    let err = |s: &str| s.parse::<Setup>().unwrap_err();
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("4k4/9/9 w"), FenError::RankCount(3));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4"), FenError::MissingTurn);
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 x"), FenError::BadTurn("x".into()));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 r"), FenError::BadTurn("r".into()));
    assert!("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".parse::<Setup>().is_ok());
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K3x w"), FenError::BadChar { rank: 0, found: 'x' });
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K3 w"),
        FenError::RankWidth { rank: 0, nth: "10th".into(), files: 8 }
    );
    assert_eq!(
        err("4k5/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::RankWidth { rank: 9, nth: "1st".into(), files: 10 }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/4K4 w x"),
        FenError::BadField { field: 3, expected: "-", found: "x".into() }
    );
    assert!(matches!(err("4k4/9/9/9/9/9/9/9/9/4K4 w - - z 1"), FenError::BadField { field: 5, .. }));
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 7"), FenError::TooManyFields(7));
    assert!(err("4k4/9/9/9/9/9/9/9/9/4K3x w").to_string().contains("rank 0"));
}

#[test]
fn invalid_positions_name_the_reason() {
    let check = |s: &str| Position::from_setup(s.parse::<Setup>().unwrap()).map(|_| ());
    assert_eq!(check("4k4/9/9/9/9/9/9/9/9/4K4 w"), Ok(()));
    assert_eq!(check("9/9/9/9/9/9/9/9/9/4K4 w"), Err(PositionError::MissingGeneral(Color::Black)));
    assert_eq!(check("4k4/9/9/9/9/9/9/9/9/9 w"), Err(PositionError::MissingGeneral(Color::Red)));
    assert_eq!(check("3kk4/9/9/9/9/9/9/9/9/4K4 w"), Err(PositionError::TooManyGenerals(Color::Black, 2)));
    let outside = check("4k4/9/9/9/9/9/4K4/9/9/9 w").unwrap_err();
    assert!(matches!(outside, PositionError::GeneralOutsidePalace { color: Color::Red, .. }));
    assert_eq!(outside.to_string(), "Red's General on e3 is outside its palace (files d-f, ranks 0-2)");
    assert!(matches!(
        check("k8/9/9/9/9/9/9/9/9/4K4 w"),
        Err(PositionError::GeneralOutsidePalace { color: Color::Black, .. })
    ));
    let three = check("4k4/9/9/9/9/9/9/RRR6/9/4K4 w").unwrap_err();
    assert_eq!(three.to_string(), "Red has 3 Chariots, at most 2 in a game");
    assert_eq!(
        check("4k4/9/9/9/ppppp4/p8/9/9/9/4K4 w").unwrap_err().to_string(),
        "Black has 6 Soldiers, at most 5 in a game"
    );
    // Under standard rules the side not to move may not be in check (the library says so).
    let facing = Position::from_setup("4k4/9/9/9/9/9/9/9/9/4K4 w".parse::<Setup>().unwrap()).unwrap();
    assert!(facing.check(endgame_xiangqi::Rules::Hdu).is_ok());
    assert_eq!(
        facing.check(endgame_xiangqi::Rules::Standard).unwrap_err().to_string(),
        "Black is in check (or the Generals face each other) with Red to move: illegal under standard rules"
    );
}

#[test]
fn moves_print_in_iccs_and_parse() {
    let mv: Move = "h2e2".parse().unwrap();
    assert_eq!(mv.from, "h2".parse::<Square>().unwrap());
    assert_eq!(mv.to.to_string(), "e2");
    assert_eq!(mv.to_string(), "h2e2");
    assert!("h2e".parse::<Move>().is_err());
    assert_eq!(
        "h2e2x".parse::<Move>().unwrap_err().to_string(),
        "expected a move in ICCS coordinates (from-point, to-point, like h2e2), found \"h2e2x\""
    );
    assert_eq!("é2e2".parse::<Move>().unwrap_err(), endgame_xiangqi::ParseMoveError("é2e2".into()));
}

#[test]
fn play_checks_legality_and_play_unchecked_does_not() {
    use endgame_xiangqi::Rules;
    let p = Position::from_setup("4k4/9/9/9/9/9/9/9/4A4/3RK4 w".parse::<Setup>().unwrap()).unwrap();
    let legal: Move = "d0d8".parse().unwrap();
    assert_eq!(p.play(legal, Rules::Standard).unwrap(), p.play_unchecked(legal));
    // The Advisor may not leave the file the Generals would then face each other on.
    let pinned: Move = "e1d2".parse().unwrap();
    assert!(p.play(pinned, Rules::Hdu).is_ok());
    let e = p.play(pinned, Rules::Standard).unwrap_err();
    assert_eq!(e.to_string(), "e1d2 is not a legal move of Red under standard rules");
    assert!(p.play("a0a1".parse().unwrap(), Rules::Hdu).is_err());
}

#[test]
fn general_and_horse_moves_follow_the_hdu_rules() {
    use endgame_xiangqi::Rules;
    let moves = |fen: &str| {
        let p = Position::from_setup(fen.parse::<Setup>().unwrap()).unwrap();
        let mut m: Vec<String> = p.legal_moves(Rules::Hdu).iter().map(ToString::to_string).collect();
        m.sort();
        m
    };
    // Generals facing on the e-file: Red may fly to capture; steps stay inside the palace.
    assert_eq!(moves("4k4/9/9/9/9/9/9/9/9/4K4 w"), ["e0d0", "e0e1", "e0e9", "e0f0"]);
    // The Horse between them blocks the flying general; its legs e6, e4, d5, f5 are free.
    assert_eq!(
        moves("4k4/9/9/9/4n4/9/9/9/9/4K4 b"),
        ["e5c4", "e5c6", "e5d3", "e5d7", "e5f3", "e5f7", "e5g4", "e5g6", "e9d9", "e9e8", "e9f9"]
    );
    // A Horse on e7 below its General on e8: the jumps to d9 and f9 need the leg e8, blocked
    // by its own General, and the General may not step onto its Horse.
    assert_eq!(
        moves("9/4k4/4n4/9/9/9/9/9/9/3K5 b"),
        ["e7c6", "e7c8", "e7d5", "e7f5", "e7g6", "e7g8", "e8d8", "e8e9", "e8f8"]
    );
    // Red's General may capture the Horse by stepping onto it.
    assert_eq!(moves("4k4/9/9/9/9/9/9/9/3n5/3K5 w"), ["d0d1", "d0e0"]);
}
