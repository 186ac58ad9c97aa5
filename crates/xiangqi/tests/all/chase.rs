//! The chase-attack predicate and the chase label against positions checked by hand, one or
//! more for every row of the definition (see `endgame_xiangqi::chase`).

use crate::common::position;
use endgame_xiangqi::rules::chase::{chase_attacks_in, is_chase, new_chase_attacks};
use endgame_xiangqi::{Color, Move};

/// The chase-attacks of `side` as `attacker target` point pairs (`c3d5`), sorted.
fn attacks(fen: &str, side: Color) -> Vec<String> {
    let mut pairs: Vec<String> =
        chase_attacks_in(&position(fen), side).into_iter().map(|(a, t)| format!("{a}{t}")).collect();
    pairs.sort();
    pairs
}

fn chased(fen: &str, mv: &str) -> Vec<String> {
    let p = position(fen);
    let mv: Move = mv.parse().unwrap();
    assert!(p.legal_moves(endgame_xiangqi::Rules::Standard).contains(&mv), "{mv} is not legal in {fen}");
    new_chase_attacks(&p, mv).into_iter().map(|(a, t)| format!("{a}{t}")).collect()
}

#[test]
fn a_horse_or_a_cannon_chases_a_chariot_protected_or_not() {
    // Red's Horse c3 on Black's Chariot d5 (its leg c4 empty), unprotected.
    assert_eq!(attacks("5k3/9/9/9/3r5/9/2N6/9/9/4K4 w", Color::Red), ["c3d5"]);
    // Protected by the Cannon d8 over the Advisor d7: still a chase-attack; the Cannon's own
    // pieces are no targets of it.
    let protected = "5k3/3c5/3a5/9/3r5/9/2N6/9/9/4K4 w";
    assert_eq!(attacks(protected, Color::Red), ["c3d5"]);
    assert!(attacks(protected, Color::Black).is_empty());
    // Red's Cannon d2 on the Chariot d5 over a screen of its own colour (the Horse d3), and
    // the Chariot on that Horse, which nothing of Red's can take back on d3 (a Cannon next to
    // it has no screen).
    let own_screen = "5k3/9/9/9/3r5/9/3N5/3C5/9/4K4 w";
    assert_eq!(attacks(own_screen, Color::Red), ["d2d5"]);
    assert_eq!(attacks(own_screen, Color::Black), ["d5d3"]);
    // Over a screen of the other colour (Black's Horse d3, whose way to c1 and e1 the Cannon
    // blocks): the same chase-attack; the Cannon next to the Horse is no attack on it.
    let their_screen = "5k3/9/9/9/3r5/9/3n5/3C5/9/4K4 w";
    assert_eq!(attacks(their_screen, Color::Red), ["d2d5"]);
    assert!(attacks(their_screen, Color::Black).is_empty());
}

#[test]
fn other_pieces_chase_only_what_is_unprotected() {
    // Red's Chariot e5 on Black's Horse e7: nothing of Black's can take back on e7.
    assert_eq!(attacks("4k4/9/4n4/9/4R4/9/9/9/9/3K5 w", Color::Red), ["e5e7"]);
    // The Horse on e8, next to its General (which may take back): protected.
    assert!(attacks("4k4/4n4/9/9/4R4/9/9/9/9/3K5 w", Color::Red).is_empty());
    // Protected by the Chariot e8 (stepping down to e7)...
    assert!(attacks("5k3/R3r4/4n4/9/4R4/9/9/9/9/3K5 w", Color::Red).is_empty());
    // ... unless that Chariot is pinned: leaving rank 8 would open the General f8 to Red's
    // Chariot a8 (pins count). The Chariots a8 and e8 attack each other: no chase-attack.
    assert_eq!(attacks("9/R3rk3/4n4/9/4R4/9/9/9/9/3K5 w", Color::Red), ["e5e7"]);
    assert!(attacks("9/R3rk3/4n4/9/4R4/9/9/9/9/3K5 w", Color::Black).is_empty());
    // Protected by the Cannon e9 over a screen of its own colour (the Advisor e8) or of the
    // other colour (Red's Horse e8); without a screen the Cannon cannot take back.
    assert!(attacks("3kc4/4a4/4n4/9/9/4R4/9/9/9/5K3 w", Color::Red).is_empty());
    assert!(attacks("3kc4/4N4/4n4/9/9/4R4/9/9/9/5K3 w", Color::Red).is_empty());
    let no_screen = "3kc4/9/4n4/9/9/4R4/9/9/9/5K3 w";
    assert_eq!(attacks(no_screen, Color::Red), ["e4e7"]);
    // And that Cannon, over its own Horse, on Red's Chariot: always.
    assert_eq!(attacks(no_screen, Color::Black), ["e9e4"]);
    // An Elephant on an unprotected Horse in its own half; protected by the Chariot e1.
    assert_eq!(attacks("9/5k3/4N4/9/2b6/9/9/9/9/3K5 w", Color::Black), ["c5e7"]);
    assert!(attacks("9/5k3/4N4/9/2b6/9/9/9/4R4/3K5 w", Color::Black).is_empty());
}

#[test]
fn pieces_of_one_kind_chase_only_what_cannot_take_back() {
    // Chariots on one rank, nothing between: each could take the other: no chase-attack.
    assert!(attacks("4k4/9/R3r4/9/9/9/9/9/9/3K5 w", Color::Red).is_empty());
    assert!(attacks("4k4/9/R3r4/9/9/9/9/9/9/3K5 w", Color::Black).is_empty());
    // Black's Chariot e7 pinned on its file by Red's Chariot e2: it cannot take a7 back, so
    // a7 chase-attacks it (unprotected); e2 and e7 may take each other.
    let pinned = "4k4/9/R3r4/9/9/9/9/4R4/9/3K5 w";
    assert_eq!(attacks(pinned, Color::Red), ["a7e7"]);
    assert!(attacks(pinned, Color::Black).is_empty());
    // Horses: c3 on d5, whose leg d4 is blocked (by a crossed Soldier, which cannot take
    // back on d5 either): a chase-attack; with the leg free they attack each other.
    assert_eq!(attacks("5k3/9/9/9/3n5/3p5/2N6/9/9/4K4 w", Color::Red), ["c3d5"]);
    assert!(attacks("5k3/9/9/9/3n5/9/2N6/9/9/4K4 w", Color::Red).is_empty());
    assert!(attacks("5k3/9/9/9/3n5/9/2N6/9/9/4K4 w", Color::Black).is_empty());
    // Cannons on one file over one screen attack each other.
    let cannons = "3k5/9/4c4/9/4N4/9/9/4C4/9/3K5 w";
    assert!(attacks(cannons, Color::Red).is_empty());
    assert!(attacks(cannons, Color::Black).is_empty());
}

#[test]
fn a_soldier_is_a_target_once_across_the_river_and_never_an_attacker() {
    assert!(attacks("3k5/9/9/2p6/9/9/9/9/9/2R1K4 w", Color::Red).is_empty());
    assert_eq!(attacks("3k5/9/9/9/9/9/2p6/9/9/2R1K4 w", Color::Red), ["c0c3"]);
    // A crossed Soldier next to an unprotected Horse, a General next to another: no
    // chase-attacks (neither chases).
    assert!(attacks("4k4/4N4/9/9/9/9/3p5/3N5/9/4K4 b", Color::Black).is_empty());
}

#[test]
fn an_illegal_capture_is_no_chase_attack() {
    // Red's Chariot e3 is pinned on the e-file by Black's Chariot e8: taking a3 would
    // expose its General.
    assert!(attacks("3k5/4r4/9/9/9/9/n3R4/9/9/4K4 w", Color::Red).is_empty());
    // Red's Chariot e4 is the one piece between the Generals: taking a4 would leave them
    // facing each other.
    assert!(attacks("4k4/9/9/9/9/n3R4/9/9/9/4K4 b", Color::Red).is_empty());
    // The same Chariot with Red's General off the file may take the unprotected Horse.
    assert_eq!(attacks("4k4/9/9/9/9/n3R4/9/9/9/3K5 b", Color::Red), ["e4a4"]);
}

#[test]
fn only_new_chase_attacks_make_a_chase() {
    // Sliding along the line it attacks on: the same pair, no chase; moving off the line
    // attacks nothing.
    let slide = "3k5/9/9/9/R3n4/9/9/9/9/4K4 w";
    assert_eq!(attacks(slide, Color::Red), ["a5e5"]);
    assert!(chased(slide, "a5b5").is_empty());
    assert!(chased(slide, "a5a6").is_empty());
    assert!(!is_chase(&position(slide), "a5b5".parse().unwrap()));
    // A discovered attack: the Horse c5 leaves the Chariot's line; the Horse d7 and e5
    // attack each other (no chase-attack).
    let discovered = "3k5/9/9/9/R1N1n4/9/9/9/9/4K4 w";
    assert_eq!(chased(discovered, "c5d7"), ["a5e5"]);
    assert!(is_chase(&position(discovered), "c5d7".parse().unwrap()));
    // A move that cuts the protection: the Horse b5 (chase-attacking the Chariot a7) goes to
    // c7, between that Chariot and the Horse e7, which Red's Chariot e4 now chases.
    let cut = "5k3/9/r3n4/9/1N7/4R4/9/9/9/3K5 w";
    assert_eq!(attacks(cut, Color::Red), ["b5a7"]);
    assert_eq!(chased(cut, "b5c7"), ["e4e7"]);
    // A check is no chase, whatever it attacks: the Horse d7 checks and attacks the Chariot.
    let check = "4k4/9/9/5r3/4N4/9/9/9/9/3K5 w";
    assert!(chased(check, "e5d7").is_empty());
    assert!(position(check).play_unchecked("e5d7".parse().unwrap()).in_check());
    // Nor is a capture.
    assert!(chased("3k5/9/9/9/R3n4/9/9/9/9/4K4 w", "a5e5").is_empty());
}

#[test]
fn a_line_won_by_the_ban_on_perpetual_chase_names_the_ban_and_the_chased_piece() {
    use endgame_core::{Ban, RuleValue};
    use endgame_xiangqi::{LineEnd, MainLine, Piece, Role, report};
    let p = position("3k5/9/9/9/R3n4/9/9/9/9/4K4 w");
    let horse = Piece { color: Color::Black, role: Role::Horse };
    let end = LineEnd::PerpetualChase {
        ply: 2,
        again: 6,
        loser: Color::Red,
        chased: Some((horse, "e5".parse().unwrap())),
    };
    assert_eq!(end.name(), "perpetual_chase");
    assert_eq!(
        end.describe(),
        "Ply 6 brings back the position after ply 2: Red can only check or chase forever (chasing Black's Horse on e5) and loses by perpetual chase."
    );
    let line = MainLine { moves: Vec::new(), end, last: p };
    let json = report::solve_json(
        &p,
        endgame_xiangqi::Rules::CheckAndChase,
        RuleValue::LossByRule(Ban::Chase, 4),
        &line,
    );
    assert_eq!(
        (&json["category"], &json["rule"], &json["dtm"]),
        (&"loss".into(), &"perpetual-chase".into(), &serde_json::Value::Null)
    );
    assert_eq!((&json["rules"], &json["line_end"]), (&"check-and-chase".into(), &"perpetual_chase".into()));
    assert_eq!(json["chased"], serde_json::json!({ "color": "black", "role": "Horse", "square": "e5" }));
    // A loser that only checks in the cycle: no piece named.
    let end = LineEnd::PerpetualChase { ply: 0, again: 4, loser: Color::Black, chased: None };
    assert!(
        end.describe()
            .ends_with("Black can only check or chase forever (checking) and loses by perpetual chase.")
    );
}
