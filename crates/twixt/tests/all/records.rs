//! Real records (Little Golem `.tsgf`, T1j `.T1`), parser round trips and rejections.

use endgame_twixt::record::{Format, Record, RecordMove, detect};
use endgame_twixt::replay::{Report, replay, threats};
use endgame_twixt::{Color, Move, Outcome, Point, Rules};
use proptest::prelude::*;

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn play(name: &str, rules: Option<Rules>) -> (Record, Report) {
    let record = Record::parse(&data(name), None).unwrap();
    let mut config = record.default_config();
    if let Some(r) = rules {
        config.rules = r;
    }
    let played = replay(&record, config).unwrap();
    let report = Report::new(&record, &played);
    (record, report)
}

#[test]
fn little_golem_records() {
    for (name, moves, outcome) in [
        ("game2206555.tsgf", 18, Some(Outcome::Resignation { winner: Color::Black, number: 18 })),
        ("game2209801.tsgf", 40, None),
        ("game2220939.tsgf", 22, Some(Outcome::Resignation { winner: Color::Black, number: 22 })),
        ("game2232217.tsgf", 38, None),
    ] {
        let (record, report) = play(name, None);
        assert_eq!(record.format, Format::Sgf);
        assert_eq!(record.n, 23);
        assert_eq!(report.rules, Rules::Pp);
        assert_eq!(report.moves.len(), moves, "{name}");
        assert_eq!(report.outcome, outcome, "{name}");
    }
    let (record, report) = play("game2206555.tsgf", None);
    assert_eq!(record.players, ["Hekate".to_string(), "Goro56".to_string()]);
    // b[dd]: column d, row d: the engine's (3, 3); r[th]: column t = 19, row h = 7.
    assert_eq!(record.moves[0].mv, Move::Place(Point::new(3, 3)));
    assert_eq!(record.moves[1].mv, Move::Place(Point::new(7, 19)));
    assert_eq!(report.moves[1].point.as_ref().unwrap().name, "th");
    // A draw offer rides on move 28 of game 2232217 and is kept as a note.
    let (record, _) = play("game2232217.tsgf", None);
    assert_eq!(record.moves[27].note.as_deref(), Some("draw"));
}

#[test]
fn t1_records() {
    let (record, report) = play("sample.T1", None);
    assert_eq!(record.players, ["Tom".to_string(), "Jerry".to_string()]);
    assert_eq!(record.moves[1].mv, Move::Swap);
    // e15 (column e, row 15) is taken over as o5 (column o, row 5).
    assert_eq!(report.moves[1].kind, "swap");
    assert_eq!(report.moves[1].point.as_ref().unwrap().name, "o5");
    assert_eq!(report.outcome, Some(Outcome::Resignation { winner: Color::Black, number: 6 }));

    // The drawn game: nobody connects, under either rule set; the files' first player plays
    // top-down (the record is illegal read the other way round: see the tests below).
    for rules in [Rules::Poj, Rules::Pp] {
        let (_, report) = play("drawngame.T1", Some(rules));
        assert_eq!(report.moves.len(), 58);
        assert_eq!(report.outcome, None);
    }
    // Own links cross under pencil-and-paper rules: White's q6-p4 crosses White's q5-p7.
    let (_, poj) = play("drawngame.T1", Some(Rules::Poj));
    let (_, pp) = play("drawngame.T1", Some(Rules::Pp));
    let m16 = |r: &Report| {
        let m = &r.moves[15];
        (m.links.iter().map(|p| p.name.clone()).collect::<Vec<_>>(), m.refused.len())
    };
    assert_eq!(m16(&poj), (vec![], 1));
    assert_eq!(poj.moves[15].refused[0].blocked_by.from.name, "q5");
    assert_eq!(m16(&pp), (vec!["p4".to_string()], 0));

    let (record, report) = play("full_board.T1", None);
    assert_eq!(record.moves.len(), 572);
    assert_eq!(report.outcome, None);

    let (record, report) = play("scl-issue.T1", None);
    assert_eq!(record.moves.len(), 43);
    assert_eq!(report.moves[1].point.as_ref().unwrap().name, "w17");
    assert_eq!(report.outcome, None);
}

#[test]
fn records_read_the_other_way_round_are_illegal() {
    // Mirrored across the diagonal, the T1 records put pegs in the opponent's endzone:
    // evidence that their first player connects the top and bottom rows.
    for name in ["drawngame.T1", "full_board.T1", "scl-issue.T1"] {
        let mut record = Record::parse(&data(name), None).unwrap();
        for m in &mut record.moves {
            if let Move::Place(p) = m.mv {
                m.mv = Move::Place(p.transposed());
            }
        }
        let err = replay(&record, record.default_config()).unwrap_err();
        assert!(err.message.contains("endzone"), "{name}: {err}");
    }
}

#[test]
fn little_golem_records_read_the_other_way_round_give_the_same_game() {
    // No peg of these records is on an edge, so legality cannot tell which edges the first
    // player owns; it does not matter for any answer: mirroring every point across the diagonal
    // maps knight links to knight links and crossings to crossings.
    for name in ["game2206555.tsgf", "game2209801.tsgf", "game2220939.tsgf", "game2232217.tsgf"] {
        let record = Record::parse(&data(name), None).unwrap();
        let mut mirrored = record.clone();
        for m in &mut mirrored.moves {
            if let Move::Place(p) = m.mv {
                m.mv = Move::Place(p.transposed());
            }
        }
        let (a, b) = (
            replay(&record, record.default_config()).unwrap(),
            replay(&mirrored, record.default_config()).unwrap(),
        );
        assert_eq!(a.position.outcome(), b.position.outcome(), "{name}");
        assert_eq!(a.position.links().count(), b.position.links().count(), "{name}");
        let edge =
            |p: Point| p.x == 0 || p.y == 0 || i64::from(p.x) == record.n || i64::from(p.y) == record.n;
        assert!(a.position.pegs().all(|(p, _)| !edge(p)), "{name}");
    }
}

#[test]
fn threats_after_a_record() {
    // Black to move after 4 moves on the judge's first sample board: (2,1) wins at once.
    let record = Record::parse("4 5\n0 2 2 4 4 2 3 2 2 1\n", None).unwrap();
    let mut short = record.clone();
    short.moves.pop();
    let played = replay(&short, short.default_config()).unwrap();
    let t = threats(&short, &played.position);
    assert_eq!(t.to_move, Color::Black);
    assert_eq!(t.winning_now.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["(2,1)"]);
    let played = replay(&record, record.default_config()).unwrap();
    assert_eq!(
        played.position.winning_path(),
        Some(vec![Point::new(0, 2), Point::new(2, 1), Point::new(4, 2)])
    );
}

#[test]
fn detection() {
    assert_eq!(detect("4 5\n0 2").unwrap(), Format::Judge);
    assert_eq!(detect("  (;FF[4]").unwrap(), Format::Sgf);
    assert_eq!(detect("# T1\n").unwrap(), Format::T1);
    let with_bom = format!("\u{feff}{}", data("game2206555.tsgf"));
    assert_eq!(Record::parse(&with_bom, None).unwrap().moves.len(), 18);
    assert_eq!(detect("\n\nhello").unwrap_err().to_string().split(':').next().unwrap(), "line 3");
}

fn err(text: &str, format: Format) -> String {
    Record::parse(text, Some(format)).unwrap_err().to_string()
}

fn t1(moves: &str) -> String {
    format!("#\n#\n1\nA\nB\n6\n6\nH\nH\n1\nV\nY\nN\n{moves}")
}

#[test]
fn rejections_name_the_place() {
    assert_eq!(
        err("(;SZ[24];b[dd];b[ee])", Format::Sgf),
        "line 1, column 16: move 2: expected a move of the second (r) player, found \"b\""
    );
    assert_eq!(
        err("(;SZ[24];b[dd];r[zz])", Format::Sgf),
        "line 1, column 18 (move 2): \"zz\" is off the 24 x 24 board"
    );
    assert_eq!(
        err("(;SZ[24]\n;b[d1])", Format::Sgf),
        "line 2, column 4 (move 1): expected a point (two letters, column then row), `swap` or `resign`, found \"d1\""
    );
    assert_eq!(
        err("(;GM[1];b[dd])", Format::Sgf),
        "line 1, column 6: GM[1]: expected GM[21], the SGF number of TwixT"
    );
    assert_eq!(
        err("(;SZ[24];b[dd](;r[ee]))", Format::Sgf),
        "line 1, column 15: variations are not supported: expected `;` or `)`"
    );
    assert_eq!(
        err("(;SZ[24];b[dd]", Format::Sgf),
        "line 1, column 15: expected `)` closing the game, found the end of the input"
    );
    assert_eq!(
        err("(;SZ[24];b[dd", Format::Sgf),
        "line 1, column 14: expected `]` closing the property value, found the end of the input"
    );
    assert_eq!(err("#\n#\n", Format::T1), "line 3: expected 13 header lines, found 2 lines");
    assert_eq!(
        err(&t1("b2\nzz\n"), Format::T1),
        "line 15 (move 2): expected a move (column letter and row number like `e15`), `swap` or `resign`, found \"zz\""
    );
    assert_eq!(err(&t1("b2\ng3\n"), Format::T1), "line 15 (move 2): \"g3\" is off the 6 x 6 board");
    // A move that starts with a character of several bytes is refused, not a panic.
    assert_eq!(
        err(&t1("b2\né15\n"), Format::T1),
        "line 15 (move 2): expected a move (column letter and row number like `e15`), `swap` or `resign`, found \"é15\""
    );
    assert_eq!(err(&t1("b2\nb7\n"), Format::T1), "line 15 (move 2): \"b7\" is off the 6 x 6 board");
    assert_eq!(
        err(&t1("").replacen("6\n6", "6\n7", 1), Format::T1),
        "line 7: x-size 7: expected a square board (y-size is 6)"
    );
    assert_eq!(
        err("5 4\n1 1 2 2 1 2 2 1", Format::Judge),
        "line 1: M = 4: expected an odd, positive number of moves (Black moves last)"
    );
    assert_eq!(err("5 1\n1 x", Format::Judge), "move 1 (line 2): expected y (an integer), found \"x\"");
    assert_eq!(
        err("5 1\n1 1\n0 0\n3", Format::Judge),
        "line 4: expected the end of the record (one game, optionally `0 0`), found \"3\""
    );

    // Legality errors come from the replay and name the move, its line and the point.
    let bad = |text: &str| {
        let record = Record::parse(text, None).unwrap();
        replay(&record, record.default_config()).unwrap_err().to_string()
    };
    assert_eq!(bad("(;SZ[24];b[dd];r[dd])"), "move 2 (line 1): dd is already occupied");
    assert_eq!(bad("(;SZ[24];b[ad])"), "move 1 (line 1): ad is in White's endzone, forbidden to Black");
    assert_eq!(
        bad("(;SZ[24];b[dd];r[ee];b[swap])"),
        "move 3 (line 1): a swap is only allowed as move 2 (after Black's first peg)"
    );
    assert_eq!(
        bad(&t1("b2\nresign\nc3\n")),
        "move 3 (line 16): the game is already over (White resigned with move 2)"
    );
    assert_eq!(bad(&t1("a2\n")), "move 1 (line 14): a2 is in White's endzone, forbidden to Black");
    assert_eq!(bad(&t1("b1\nb6\n")), "move 2 (line 15): b6 is in Black's endzone, forbidden to White");
    assert_eq!(bad("4 3\n0 2 0 1 1 1"), "move 2 (line 2): (0,1) is in Black's endzone, forbidden to White");
}

fn arb_record(format: Format) -> impl Strategy<Value = Record> {
    let max_n: i64 = match format {
        Format::Judge => 60,
        Format::Sgf => 51,
        Format::T1 => 25,
    };
    (3..=max_n).prop_flat_map(move |n| {
        let point = (0..=n as i32, 0..=n as i32).prop_map(|(x, y)| Point::new(x, y));
        let names = if format == Format::T1 { "[A-Za-z ]{0,8}" } else { "[A-Za-z \\]\\\\]{0,8}" };
        (
            proptest::collection::vec(point, 1..60),
            any::<bool>(),
            any::<bool>(),
            names,
            names,
            proptest::option::of(any::<bool>()),
            proptest::option::of("[a-z]{1,5}"),
        )
            .prop_map(move |(points, swap, resign, a, b, pie, note)| {
                let mut moves: Vec<RecordMove> = points
                    .into_iter()
                    .map(|p| RecordMove { mv: Move::Place(p), line: 0, note: None })
                    .collect();
                if format != Format::Judge {
                    if swap && moves.len() > 1 {
                        moves[1].mv = Move::Swap;
                    }
                    if resign {
                        moves.push(RecordMove { mv: Move::Resign, line: 0, note: None });
                    }
                    if format == Format::Sgf {
                        moves[0].note = note;
                    }
                } else if moves.len().is_multiple_of(2) {
                    moves.pop();
                }
                let (players, swap) = match format {
                    Format::Judge => ([String::new(), String::new()], None),
                    Format::Sgf => ([a, b], None),
                    Format::T1 => ([a.trim().to_string(), b.trim().to_string()], pie),
                };
                Record { format, n, players, swap, moves }
            })
    })
}

fn same(a: &Record, b: &Record) -> bool {
    let strip = |r: &Record| r.moves.iter().map(|m| (m.mv, m.note.clone())).collect::<Vec<_>>();
    a.format == b.format && a.n == b.n && a.players == b.players && a.swap == b.swap && strip(a) == strip(b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn judge_round_trip(r in arb_record(Format::Judge)) {
        let text = r.write(Format::Judge).unwrap();
        prop_assert!(same(&Record::parse(&text, None).unwrap(), &r), "{}", text);
    }

    #[test]
    fn sgf_round_trip(r in arb_record(Format::Sgf)) {
        let text = r.write(Format::Sgf).unwrap();
        prop_assert!(same(&Record::parse(&text, None).unwrap(), &r), "{}", text);
    }

    #[test]
    fn t1_round_trip(r in arb_record(Format::T1)) {
        let text = r.write(Format::T1).unwrap();
        prop_assert!(same(&Record::parse(&text, None).unwrap(), &r), "{}", text);
    }
}

#[test]
fn real_records_round_trip_through_every_format() {
    for name in ["game2209801.tsgf", "game2232217.tsgf", "drawngame.T1", "scl-issue.T1", "sample.T1"] {
        let record = Record::parse(&data(name), None).unwrap();
        for format in [Format::Sgf, Format::T1] {
            let text = record.write(format).unwrap();
            let back = Record::parse(&text, None).unwrap();
            assert_eq!(back.format, format);
            let moves = |r: &Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
            assert_eq!(moves(&back), moves(&record), "{name} as {format}");
        }
    }
    let record = Record::parse(&data("sample.T1"), None).unwrap();
    assert!(record.write(Format::Judge).unwrap_err().to_string().contains("no swap or resign"));
}

#[test]
fn names_of_rules_and_formats_parse_with_typed_errors() {
    use endgame_twixt::{ParseFormatError, ParseRulesError, Rules};
    assert_eq!("pp".parse::<Rules>(), Ok(Rules::Pp));
    assert_eq!("PP".parse::<Rules>(), Err(ParseRulesError("PP".into())));
    assert_eq!("TSGF".parse::<Format>(), Ok(Format::Sgf));
    let e = "x".repeat(100).parse::<Format>().unwrap_err();
    assert_eq!(e, ParseFormatError("x".repeat(100)));
    assert_eq!(e.to_string(), format!("expected `judge`, `sgf` or `t1`, found \"{}\"...", "x".repeat(40)));
    let _: &dyn std::error::Error = &e;
}
