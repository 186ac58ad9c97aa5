//! Random games against the naive engine: the same links after every move, the incremental
//! winner equal to a from-scratch connectivity search, and mirror images with equal answers.

use crate::common::Naive;
use endgame_twixt::generate::XorShift;
use endgame_twixt::{Color, Config, Move, MoveErrorKind, Outcome, Played, Point, Position, Rules};
use proptest::prelude::*;

/// A random legal game: the points, chosen until a win or `limit` moves.
fn random_points(n: i32, rules: Rules, seed: u64, limit: usize) -> Vec<Point> {
    let mut rng = XorShift::new(seed);
    let mut naive = Naive::new(n, rules);
    let mut points = Vec::new();
    let side = u64::try_from(n).unwrap() + 1;
    while points.len() < limit {
        let color = Color::of_move(points.len() + 1);
        let legal: Vec<Point> = (0..side * side)
            .map(|i| Point::new((i % side) as i32, (i / side) as i32))
            .filter(|&p| naive.legal(p, color))
            .collect();
        if legal.is_empty() {
            break;
        }
        // Favour knight neighbours of own pegs so links (and crossings) are frequent.
        let near: Vec<Point> = legal
            .iter()
            .copied()
            .filter(|p| {
                crate::common::KNIGHT
                    .iter()
                    .any(|&(dx, dy)| naive.pegs.contains(&(Point::new(p.x + dx, p.y + dy), color)))
            })
            .collect();
        let pool = if !near.is_empty() && rng.below(3) > 0 { &near } else { &legal };
        let p = pool[rng.below(pool.len() as u64) as usize];
        naive.place(p, color);
        points.push(p);
        if naive.connected(color) {
            break;
        }
    }
    points
}

fn check_game(n: i32, rules: Rules, seed: u64) -> Result<(), TestCaseError> {
    let points = random_points(n, rules, seed, 400);
    let mut game = Position::new(n.into(), Config { rules, swap: false }).unwrap();
    let mut naive = Naive::new(n, rules);
    for (k, &p) in points.iter().enumerate() {
        let color = Color::of_move(k + 1);
        let Played::Placed(placed) = game.play(Move::Place(p)).unwrap() else { unreachable!() };
        let mut links: Vec<Point> = placed.links().collect();
        links.sort();
        prop_assert_eq!(&links, &naive.place(p, color), "move {}", k + 1);
        for (q, blocker) in placed.refused() {
            prop_assert_eq!(game.peg_at(q), Some(color));
            prop_assert!(endgame_twixt::geometry::cross(
                (p.x.into(), p.y.into()),
                (q.x.into(), q.y.into()),
                (blocker.from.x.into(), blocker.from.y.into()),
                (blocker.to.x.into(), blocker.to.y.into())
            ));
        }
        let black = naive.connected(Color::Black);
        let white = naive.connected(Color::White);
        let expected = if black || white { Some(color) } else { None };
        prop_assert_eq!(game.outcome().map(Outcome::winner), expected, "move {}", k + 1);
        prop_assert_eq!(placed.wins, expected.is_some());
        // The threats the engine lists are exactly the points that win (checked by playing them).
        if k % 7 == 3 && expected.is_none() {
            for c in [Color::Black, Color::White] {
                let threats = game.threats(c);
                for &t in &threats {
                    prop_assert!(game.would_win(t, c));
                }
            }
        }
    }
    // After a win, every move is refused and names its number.
    if game.outcome().is_some() {
        let err = game.play(Move::Resign).unwrap_err();
        prop_assert_eq!(err.number, points.len() + 1);
        prop_assert!(matches!(err.kind, MoveErrorKind::GameOver(_)));
    }
    Ok(())
}

/// Threats against brute force: play every empty point on a copy of the game.
fn check_threats(n: i32, rules: Rules, seed: u64, moves: usize) -> Result<(), TestCaseError> {
    let points = random_points(n, rules, seed, moves);
    let mut game = Position::new(n.into(), Config { rules, swap: false }).unwrap();
    for &p in &points {
        game.play(Move::Place(p)).unwrap();
    }
    if game.outcome().is_some() {
        return Ok(());
    }
    for color in [Color::Black, Color::White] {
        let mut brute = Vec::new();
        for x in 0..=n {
            for y in 0..=n {
                let p = Point::new(x, y);
                if game.check_place(p, color).is_ok() {
                    let mut copy = game.clone();
                    // Let `color` move: a pass is not a move, so add an opponent move if needed.
                    if copy.to_move() != color {
                        let spare = (0..=n).flat_map(|a| (0..=n).map(move |b| Point::new(a, b))).find(|&q| {
                            q != p && copy.check_place(q, !color).is_ok() && !copy.would_win(q, !color)
                        });
                        let Some(spare) = spare else { continue };
                        // The spare peg could change links near `p`; skip points near it.
                        if (spare.x - p.x).abs() <= 4 && (spare.y - p.y).abs() <= 4 {
                            continue;
                        }
                        copy.play(Move::Place(spare)).unwrap();
                    }
                    if let Ok(Played::Placed(placed)) = copy.play(Move::Place(p))
                        && placed.wins
                    {
                        brute.push(p);
                    }
                }
            }
        }
        let threats = game.threats(color);
        for p in &brute {
            prop_assert!(threats.contains(p), "{:?} wins for {:?} but is not listed", p, color);
        }
        for p in &threats {
            prop_assert!(game.would_win(*p, color));
        }
    }
    Ok(())
}

/// The game mirrored `x -> N - x` has the same links (mirrored) and the same winner.
fn check_mirror(n: i32, rules: Rules, seed: u64) -> Result<(), TestCaseError> {
    let points = random_points(n, rules, seed, 400);
    let config = Config { rules, swap: false };
    let mut a = Position::new(n.into(), config).unwrap();
    let mut b = Position::new(n.into(), config).unwrap();
    let mirror = |p: Point| Point::new(n - p.x, p.y);
    for &p in &points {
        let (Played::Placed(pa), Played::Placed(pb)) =
            (a.play(Move::Place(p)).unwrap(), b.play(Move::Place(mirror(p))).unwrap())
        else {
            unreachable!()
        };
        let mut la: Vec<Point> = pa.links().map(mirror).collect();
        let mut lb: Vec<Point> = pb.links().collect();
        la.sort();
        lb.sort();
        prop_assert_eq!(la, lb);
        prop_assert_eq!(pa.wins, pb.wins);
    }
    prop_assert_eq!(a.outcome(), b.outcome());
    Ok(())
}

/// The judge on a generated game (no win before the last move) against the naive engine.
fn check_judge(n: i32, moves: usize, seed: u64) -> Result<(), TestCaseError> {
    let Some(points) = endgame_twixt::generate::random_game(n.into(), moves, Config::POJ, seed) else {
        return Ok(());
    };
    let mut naive = Naive::new(n, Rules::Poj);
    for (k, &p) in points.iter().enumerate() {
        let color = Color::of_move(k + 1);
        prop_assert!(naive.legal(p, color));
        naive.place(p, color);
        if k + 1 < points.len() {
            prop_assert!(!naive.connected(Color::Black) && !naive.connected(Color::White));
        }
    }
    let mut out = Vec::new();
    endgame_twixt::judge::run(&endgame_twixt::generate::judge_text(n.into(), &points), &mut out).unwrap();
    let expected = if naive.connected(Color::Black) { "yes\n" } else { "no\n" };
    prop_assert_eq!(String::from_utf8(out).unwrap(), expected);
    Ok(())
}

fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![Just(Rules::Poj), Just(Rules::Pp)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn engine_agrees_with_the_naive_engine(n in 3i32..=11, rules in rules(), seed in any::<u64>()) {
        check_game(n, rules, seed)?;
    }

    #[test]
    fn judge_agrees_with_the_naive_engine(n in 4i32..=16, half in 2usize..60, seed in any::<u64>()) {
        check_judge(n, 2 * half + 1, seed)?;
    }

    #[test]
    fn mirrored_games_have_the_same_answers(n in 3i32..=14, rules in rules(), seed in any::<u64>()) {
        check_mirror(n, rules, seed)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn threats_are_the_winning_points(n in 4i32..=8, rules in rules(), seed in any::<u64>(), moves in 4usize..40) {
        check_threats(n, rules, seed, moves)?;
    }
}

#[test]
fn random_games_are_not_trivial() {
    let (mut wins, mut refusals, mut threats) = (0, 0, 0);
    for seed in 1..=200u64 {
        let n = 3 + (seed % 9) as i32;
        let rules = if seed % 2 == 0 { Rules::Poj } else { Rules::Pp };
        let points = random_points(n, rules, seed * 7919, 400);
        let mut game = Position::new(n.into(), Config { rules, swap: false }).unwrap();
        for (k, &p) in points.iter().enumerate() {
            if k + 1 == points.len() {
                threats += usize::from(!game.threats(game.to_move()).is_empty());
            }
            if let Played::Placed(placed) = game.play(Move::Place(p)).unwrap() {
                refusals += placed.refused().count();
            }
        }
        wins += usize::from(game.outcome().is_some());
    }
    // Generated judge games end with a winning last move often enough to test `yes` too.
    let yes = (1..=100u64)
        .filter_map(|seed| endgame_twixt::generate::random_game(6, 41, Config::POJ, seed))
        .filter(|points| {
            let mut game = Position::new(6, Config::POJ).unwrap();
            for &p in points {
                game.play(Move::Place(p)).unwrap();
            }
            game.outcome().is_some()
        })
        .count();
    eprintln!(
        "{wins} wins, {refusals} refusals, {threats} threats, {yes} generated games won by the last move"
    );
    assert!(yes > 5, "{yes} generated games end with a win");
    assert!(wins > 100, "{wins} wins");
    assert!(refusals > 200, "{refusals} refusals");
    assert!(threats > 50, "{threats} threats before the last move");
}

#[test]
fn swap_takes_the_first_peg_over_mirrored() {
    let mut g = Position::new(10, Config { rules: Rules::Pp, swap: true }).unwrap();
    g.play(Move::Place(Point::new(0, 3))).unwrap();
    assert_eq!(g.play(Move::Swap).unwrap(), Played::Swapped { from: Point::new(0, 3), to: Point::new(3, 0) });
    assert_eq!(g.peg_at(Point::new(3, 0)), Some(Color::White));
    assert_eq!(g.peg_at(Point::new(0, 3)), None);
    assert_eq!(g.to_move(), Color::Black);
    g.play(Move::Place(Point::new(0, 3))).unwrap();
    let err = g.play(Move::Swap).unwrap_err();
    assert_eq!(err.to_string(), "move 4: a swap is only allowed as move 2 (after Black's first peg)");
    let mut g = Position::new(10, Config::POJ).unwrap();
    g.play(Move::Place(Point::new(1, 3))).unwrap();
    assert_eq!(g.play(Move::Swap).unwrap_err().kind, MoveErrorKind::SwapOff);
}

#[test]
fn huge_boards_hold_only_their_pegs() {
    let n = 1_000_000_000;
    let mut g = Position::new(n, Config::POJ).unwrap();
    let mut k = 0;
    // A short Black chain in the middle of the board, White pegs far away, then a move off it.
    for (x, y) in [(500_000_000, 7), (500_000_001, 9), (500_000_003, 10)] {
        k += 1;
        g.play(Move::Place(Point::new(x, y))).unwrap();
        k += 1;
        g.play(Move::Place(Point::new(x, 900_000_000))).unwrap();
    }
    assert_eq!(g.links().count(), 2);
    let err = g.play(Move::Place(Point::new(1_000_000_001, 5))).unwrap_err();
    assert_eq!(err.number, k + 1);
    assert!(Position::new(2, Config::POJ).is_err());
    assert!(Position::new(i64::from(i32::MAX), Config::POJ).is_err());
}
