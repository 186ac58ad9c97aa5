//! Reviews of games built from the tables: mostly best moves, with deviations inserted where
//! the test chooses (a move to a worse category, a slower win, a harmless other move); the
//! review must mark exactly the blunders and mistakes inserted, on every rule set. The games
//! are built from tables solved in memory ([`MemoryTables`], [`PerpetualTablebase`]); the
//! review reads the store ([`Tablebases`] over an empty directory: its materials of up to 4
//! men solved on the fly), so the two sides of the test take their values from different
//! doors.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use endgame_core::RuleValue;
use endgame_xiangqi::report::{category, dtm};
use endgame_xiangqi::review::{self, Mark, Review, ReviewError, ReviewOptions};
use endgame_xiangqi::{
    Material, MaterialIndex, MemoryTables, Move, MoveValue, PerpetualTablebase, Position, Probe, Rules,
    Tablebases,
};
use proptest::prelude::*;

use crate::common::{position, temp_dir};

/// The materials of each rule set's games: wins, draws and losses, captures into smaller
/// materials, and under the bans wins and losses by the rule.
fn materials(rules: Rules) -> &'static [&'static str] {
    match rules {
        Rules::Standard => &["KRvKA", "KCvKA", "KRvKN"],
        Rules::Hdu => &["KvKN", "KRvKA"],
        Rules::PerpetualCheck => &["KRvKN", "KCvKN"],
        Rules::CheckAndChase => &["KRvKN", "KNvKP"],
    }
}

/// Tables in memory: the games' source of values.
fn oracle(rules: Rules) -> &'static (dyn Probe + Sync) {
    static ORACLES: [OnceLock<Box<dyn Probe + Sync + Send>>; 4] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let k = Rules::ALL.iter().position(|&r| r == rules).unwrap();
    &**ORACLES[k].get_or_init(|| {
        let materials = materials(rules).iter().map(|m| m.parse::<Material>().unwrap());
        if rules.has_bans() {
            let mut tables = PerpetualTablebase::with_rules(rules);
            materials.for_each(|m| tables.solve(m).unwrap());
            Box::new(tables)
        } else {
            let mut tables = MemoryTables::new(rules);
            materials.for_each(|m| tables.solve(m).unwrap());
            Box::new(tables)
        }
    })
}

/// The store the reviews read: no files, everything solved on the fly.
fn store(rules: Rules) -> &'static Tablebases {
    static STORES: [OnceLock<Tablebases>; 4] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let k = Rules::ALL.iter().position(|&r| r == rules).unwrap();
    STORES[k].get_or_init(|| Tablebases::open(temp_dir("review", rules.name()), rules))
}

/// A small random generator (splitmix64): the games' choices depend on the moves' values.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What a move does against the best, in the test's own words: the order of the categories
/// for the mover, and the mate distances of `report::dtm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// As good as the best move.
    Best,
    /// To a worse category (`category` ranks win over draw over loss).
    Worse,
    /// A mate kept, but at least `n` plies slower, or the mate given up for a win by the rule.
    Slower,
    /// Another move no verdict marks: a slower mate by fewer than `n` plies, a faster loss, a
    /// win by the rule of another rank.
    Other,
}

fn kind(position_value: RuleValue, best: RuleValue, m: RuleValue, n: u32) -> Kind {
    let order = |v: RuleValue| ["loss", "draw", "win"].iter().position(|&c| c == category(v)).unwrap();
    if m == best {
        Kind::Best
    } else if order(m) < order(position_value) {
        Kind::Worse
    } else {
        match (dtm(position_value), category(m), dtm(m)) {
            (Some(d), "win", None) if d > 0 => Kind::Slower,
            (Some(d), "win", Some(e)) if d > 0 && e - d >= i64::from(n) => Kind::Slower,
            _ => Kind::Other,
        }
    }
}

/// The positions of `rules`' materials won or lost by a ban, found once (rare: a start among
/// them makes sure the games meet such results).
fn by_rule(rules: Rules) -> &'static [Position] {
    static FOUND: [OnceLock<Vec<Position>>; 4] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let k = Rules::ALL.iter().position(|&r| r == rules).unwrap();
    FOUND[k].get_or_init(|| {
        let mut found = Vec::new();
        for m in materials(rules) {
            let index = MaterialIndex::new(m.parse().unwrap());
            for i in 0..index.len() {
                let Some(p) = index.decode(i) else { continue };
                if p.check(rules).is_ok() && oracle(rules).probe(&p).is_ok_and(RuleValue::is_by_rule) {
                    found.push(p);
                }
            }
        }
        found
    })
}

/// A legal position of one of `rules`' materials with a legal move, drawn by `rng`; under
/// the bans, every other one won or lost by a ban.
fn start(rules: Rules, rng: &mut Rng) -> Position {
    let materials = materials(rules);
    if rules.has_bans() && rng.below(2) == 0 {
        let found = by_rule(rules);
        return found[rng.below(found.len())];
    }
    loop {
        let material: Material = materials[rng.below(materials.len())].parse().unwrap();
        let index = MaterialIndex::new(material);
        let Some(p) = index.decode(rng.below(index.len())) else { continue };
        if p.check(rules).is_ok() && !p.legal_moves(rules).is_empty() {
            return p;
        }
    }
}

/// A game of up to `length` plies from a random start: at each ply a move of the kind `plan`
/// asks for (best when the position has none), and the marks the review must give.
fn game(rules: Rules, seed: u64, plan: &[u8], n: u32) -> (Position, Vec<Move>, Vec<Option<Mark>>) {
    let tables = oracle(rules);
    let mut rng = Rng(seed);
    let first = start(rules, &mut rng);
    let (mut at, mut moves, mut marks) = (first, Vec::new(), Vec::new());
    for &wish in plan {
        if at.is_game_over() {
            break;
        }
        let options = tables.moves(&at).unwrap();
        let Some(best) = options.first().map(|m| m.value) else { break };
        let value = tables.probe(&at).unwrap();
        let of_kind = |k: Kind| -> Vec<&MoveValue> {
            options.iter().filter(|m| kind(value, best, m.value, n) == k).collect()
        };
        let wanted = match wish % 6 {
            3 => Kind::Worse,
            4 => Kind::Slower,
            5 => Kind::Other,
            _ => Kind::Best,
        };
        let (choice, k) = match of_kind(wanted) {
            some if !some.is_empty() => (some[rng.below(some.len())].mv, wanted),
            _ => {
                let best = of_kind(Kind::Best);
                (best[rng.below(best.len())].mv, Kind::Best)
            }
        };
        moves.push(choice);
        marks.push(match k {
            Kind::Worse => Some(Mark::Blunder),
            Kind::Slower => Some(Mark::Mistake),
            Kind::Best | Kind::Other => None,
        });
        at = at.play(choice, rules).unwrap();
    }
    (first, moves, marks)
}

/// How many blunders and mistakes the games of each rule set had inserted, and how many of
/// their positions were won or lost by a ban.
static INSERTED: [[AtomicUsize; 3]; 4] = [
    [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)],
    [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)],
    [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)],
    [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)],
];

/// Reviews the game of `seed` and `plan` under `rules` and checks every verdict.
fn check_game(rules: Rules, seed: u64, plan: &[u8], n: u32) -> Result<(), TestCaseError> {
    let (first, moves, marks) = game(rules, seed, plan, n);
    let review = review::review(store(rules), &first, &moves, ReviewOptions { mistake_plies: n }).unwrap();
    let found: Vec<Option<Mark>> = review.plies.iter().map(|p| p.mark).collect();
    prop_assert_eq!(&found, &marks, "{} under {}: {:?}", first.setup(), rules, moves);
    let oracle = oracle(rules);
    for p in &review.plies {
        let options = oracle.moves(&p.before).unwrap();
        prop_assert_eq!(p.value, Some(oracle.probe(&p.before).unwrap()));
        let played = options.iter().find(|m| m.mv == p.mv).unwrap();
        prop_assert_eq!(p.played, Some(played.value));
        let best = p.best.unwrap();
        prop_assert_eq!(best.value, options[0].value, "ply {}", p.ply);
        if played.value == options[0].value {
            prop_assert_eq!(best.mv, p.mv);
        }
    }
    prop_assert_eq!(review.end_value, Some(oracle.probe(&review.end).unwrap()));
    let k = Rules::ALL.iter().position(|&r| r == rules).unwrap();
    let count = |mark| marks.iter().filter(|&&m| m == Some(mark)).count();
    INSERTED[k][0].fetch_add(count(Mark::Blunder), Ordering::Relaxed);
    INSERTED[k][1].fetch_add(count(Mark::Mistake), Ordering::Relaxed);
    let by_rule = review.plies.iter().filter(|p| p.value.is_some_and(RuleValue::is_by_rule)).count();
    INSERTED[k][2].fetch_add(by_rule, Ordering::Relaxed);
    let summary = review.summary();
    prop_assert_eq!(summary.red.blunders + summary.black.blunders, count(Mark::Blunder));
    prop_assert_eq!(summary.red.mistakes + summary.black.mistakes, count(Mark::Mistake));
    prop_assert_eq!(summary.red.in_tables + summary.black.in_tables, moves.len());
    prop_assert_eq!(
        summary.perfect_play.map(|p| (p.ply, p.value)),
        Some((1, review.plies.first().map_or(review.end_value.unwrap(), |p| p.value.unwrap())))
    );
    Ok(())
}

fn run(rules: Rules, cases: u32) {
    let config = ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let strategy = (any::<u64>(), proptest::collection::vec(any::<u8>(), 1..40), 1u32..16);
    runner.run(&strategy, |(seed, plan, n)| check_game(rules, seed, &plan, n)).unwrap();
    let k = Rules::ALL.iter().position(|&r| r == rules).unwrap();
    let [blunders, mistakes, by_rule] = INSERTED[k].each_ref().map(|n| n.load(Ordering::Relaxed));
    // The games did insert both kinds, and met results by a ban (else the test would prove
    // nothing).
    eprintln!(
        "{rules}: {blunders} blunders and {mistakes} mistakes inserted, {by_rule} positions won or lost by a ban"
    );
    assert!(blunders >= 20 && mistakes >= 5, "{rules}: {blunders} blunders, {mistakes} mistakes inserted");
    assert!(by_rule >= 20 || !rules.has_bans(), "{rules}: {by_rule} positions won or lost by a ban");
}

#[test]
fn the_deviations_inserted_are_marked_under_standard_rules() {
    run(Rules::Standard, 150);
}

#[test]
fn the_deviations_inserted_are_marked_under_hdu_rules() {
    run(Rules::Hdu, 150);
}

#[test]
fn the_deviations_inserted_are_marked_under_perpetual_check() {
    run(Rules::PerpetualCheck, 150);
}

#[test]
fn the_deviations_inserted_are_marked_under_check_and_chase() {
    run(Rules::CheckAndChase, 150);
}

/// KRvKNA with Red to move: the Chariot takes the Advisor (f0f7) into KRvKN.
const INTO_THE_TABLES: &str = "4k4/9/1n3a3/9/9/9/9/9/9/3K1R3 w";

#[test]
fn positions_beyond_the_tables_have_no_value_and_the_capture_into_them_has_one() {
    let rules = Rules::Standard;
    let start = position(INTO_THE_TABLES);
    let mut moves: Vec<Move> = vec!["f0f7".parse().unwrap()];
    let mut at = start.play(moves[0], rules).unwrap();
    for _ in 0..3 {
        let best = oracle(rules).moves(&at).unwrap()[0].mv;
        moves.push(best);
        at = at.play(best, rules).unwrap();
    }
    let review = review::review(store(rules), &start, &moves, ReviewOptions::default()).unwrap();
    let first = &review.plies[0];
    assert_eq!((first.value, first.best, first.mark), (None, None, None));
    let after = oracle(rules).probe(&start.play(moves[0], rules).unwrap()).unwrap();
    assert_eq!(first.played, Some(after.before_move()));
    assert!(review.plies[1..].iter().all(|p| p.value.is_some() && p.mark.is_none()));
    assert_eq!(review.missing.len(), 1);
    let missing = &review.missing[0];
    assert_eq!(
        (missing.material.to_string(), missing.ply, missing.can_generate),
        ("KRvKAN".to_string(), 1, true)
    );
    assert!(missing.message.contains("endgame xiangqi generate KRvKAN"), "{}", missing.message);
    let summary = review.summary();
    let perfect = summary.perfect_play.unwrap();
    assert_eq!((perfect.ply, perfect.move_number, perfect.value), (2, 1, after));
    assert_eq!((summary.red.in_tables, summary.black.in_tables), (1, 2));
}

#[test]
fn an_illegal_move_or_start_is_refused_with_its_number() {
    let start = position("4k4/9/9/9/9/9/9/9/4A4/3RK4 w");
    let moves: Vec<Move> = ["d0d1", "e9e8", "d1d5", "e8e6"].iter().map(|m| m.parse().unwrap()).collect();
    let e = review::review(store(Rules::Standard), &start, &moves, ReviewOptions::default()).unwrap_err();
    assert!(matches!(e, ReviewError::Illegal { ply: 4, .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "move 2... (Black, ply 4) \"e8e6\": e8e6 is not a legal move of Black under standard rules"
    );
    // Black in check with Red to move: no game under standard rules.
    let checked = position("4k4/9/9/9/9/9/9/9/9/3KR4 w");
    let e = review::review(store(Rules::Standard), &checked, &[], ReviewOptions::default()).unwrap_err();
    assert!(e.to_string().starts_with("start position: Black is in check"), "{e}");
}

#[test]
fn the_json_has_a_line_per_ply_and_the_summary() {
    let start = position(INTO_THE_TABLES);
    // Red takes the Advisor, then Black's best, then Red gives the Chariot away (a blunder).
    let rules = Rules::Standard;
    let one = start.play("f0f7".parse().unwrap(), rules).unwrap();
    let two_mv = oracle(rules).moves(&one).unwrap()[0].mv;
    let two = one.play(two_mv, rules).unwrap();
    let options = oracle(rules).moves(&two).unwrap();
    let value = oracle(rules).probe(&two).unwrap();
    let Some(worse) = options.iter().find(|m| kind(value, options[0].value, m.value, 10) == Kind::Worse)
    else {
        panic!("no blunder from {}", two.setup())
    };
    let moves = ["f0f7".parse().unwrap(), two_mv, worse.mv];
    let review: Review = review::review(store(rules), &start, &moves, ReviewOptions::default()).unwrap();
    let json = review::json::review_json(&review);
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>().join(",");
    assert_eq!(keys(&json), "final,mistake_plies,moves,rules,start_fen,summary");
    let plies = json["moves"].as_array().unwrap();
    assert_eq!(plies.len(), 3);
    assert_eq!(keys(&plies[0]), "best,best_wxf,capture,fen,for_mover,mark,move,ply,result,turn,uci,wxf");
    assert_eq!(plies[0]["ply"], 1);
    assert_eq!(plies[0]["uci"], "f0f7");
    assert_eq!(plies[0]["capture"], "Advisor");
    assert_eq!(plies[0]["fen"], format!("{INTO_THE_TABLES} - - 0 1"));
    assert_eq!(plies[0]["result"], serde_json::Value::Null);
    assert_eq!(plies[0]["best"], serde_json::Value::Null);
    assert_eq!(plies[2]["mark"], "blunder");
    assert_eq!(plies[2]["turn"], "red");
    assert_eq!(plies[2]["move"], 2);
    assert_eq!(plies[2]["result"]["category"], category(value));
    assert_eq!(plies[2]["result"]["dtm"], serde_json::json!(dtm(value)));
    assert_eq!(plies[2]["best"], options[0].mv.to_string());
    assert_eq!(plies[1]["best"], plies[1]["uci"]);
    assert_eq!(keys(&json["summary"]), "black,missing,perfect_play,plies,red");
    assert_eq!(json["summary"]["red"]["blunders"], 1);
    assert_eq!(json["summary"]["red"]["first_blunder"], 3);
    assert_eq!(json["summary"]["black"]["in_tables"], 1);
    assert_eq!(json["summary"]["perfect_play"]["ply"], 2);
    assert_eq!(json["summary"]["missing"][0]["material"], "KRvKAN");
    assert_eq!(json["final"]["fen"], review.end.setup().to_string());
}
