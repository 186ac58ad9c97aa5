//! Game records: one game typed by hand in ICCS, WXF (also full-width) and Chinese
//! (simplified and traditional, in UTF-8, UTF-16 and GB18030) reads to the same moves; the
//! tandem-piece conventions; round trips read -> write in another notation -> read over random
//! legal games (random playouts from the start and from random positions); bad records refused
//! with the game, the move and its text; arbitrary bytes never panic; and the time to read a
//! thousand games.

use std::time::Instant;

use endgame_xiangqi::record::{Game, Notation, Place, RULES, read_records, to_chinese, write_pgn};
use endgame_xiangqi::{Color, Move, Position, Setup};
use proptest::prelude::*;

use crate::common::position;
use crate::wxf::crowded_setup;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

/// The game of the XQF 1.0 description's example (柳大华 - 吕钦, 1997), its moves worked out
/// by hand in ICCS coordinates from the board.
pub const SPEC_GAME_ICCS: [&str; 16] = [
    "c3c4", "h9g7", "g3g4", "b7c7", "c0e2", "b9a7", "b0c2", "a9b9", "a0b0", "b9b5", "b2a2", "b5h5", "h2h7",
    "c7h7", "h0g2", "i9h9",
];

/// The same game in Chinese notation, as the description prints it.
const SPEC_GAME_CHINESE: &str = "1. 兵七进一  马８进７    2. 兵三进一  炮２平３
3. 相七进五  马２进１    4. 马八进七  车１平２
5. 车九平八  车２进４    6. 炮八平九  车２平８
7. 炮二进五  炮３平８    8. 马二进三  车９平８";

/// The same moves in WXF, typed by hand.
const SPEC_GAME_WXF: &str = "1. P7+1 H8+7 2. P3+1 C2.3 3. E7+5 H2+1 4. H8+7 R1.2 5. R9.8 R2+4 6. C8.9 R2.8
7. C2+5 C3.8 8. H2+3 R9.8";

fn moves(list: &[&str]) -> Vec<Move> {
    list.iter().map(|m| m.parse().unwrap()).collect()
}

fn read_one(text: &str) -> Game {
    let games = read_records(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    games.into_iter().next().unwrap()
}

fn error(text: impl AsRef<[u8]>) -> String {
    match read_records(text.as_ref()) {
        Ok(games) => panic!("read {} games", games.len()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn one_game_in_every_notation_and_encoding() {
    let expected = moves(&SPEC_GAME_ICCS);
    let iccs = SPEC_GAME_ICCS.join(" ");
    let iccs_dashes: String = SPEC_GAME_ICCS
        .iter()
        .map(|m| format!("{}-{}", &m[..2], &m[2..]).to_uppercase())
        .collect::<Vec<_>>()
        .join(" ");
    let wxf_equals: String = SPEC_GAME_WXF
        .split_whitespace()
        .map(|word| if word.ends_with('.') { word.to_string() } else { word.replace('.', "=") })
        .collect::<Vec<_>>()
        .join(" ");
    // Full-width moves (`Ｃ２＝５`), the move numbers left as they are.
    let wxf_full_width: String = SPEC_GAME_WXF
        .split_whitespace()
        .map(|word| {
            if word.ends_with('.') {
                word.to_string()
            } else {
                word.chars()
                    .map(|c| if c == '.' { '＝' } else { char::from_u32(c as u32 + 0xFEE0).unwrap() })
                    .collect()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    let traditional: String = SPEC_GAME_CHINESE
        .chars()
        .map(|c| match c {
            '马' => '馬',
            '车' => '俥',
            '炮' => '砲',
            '进' => '進',
            '相' => '象',
            c => c,
        })
        .collect();
    let ascii_digits: String = SPEC_GAME_CHINESE
        .chars()
        .map(|c| if ('１'..='９').contains(&c) { char::from_u32(c as u32 - 0xFEE0).unwrap() } else { c })
        .collect();
    let texts = [
        (iccs.clone(), Notation::Iccs),
        (iccs_dashes, Notation::Iccs),
        (SPEC_GAME_WXF.to_string(), Notation::Wxf),
        (wxf_equals, Notation::Wxf),
        (wxf_full_width, Notation::Wxf),
        (SPEC_GAME_CHINESE.to_string(), Notation::Chinese),
        (traditional, Notation::Chinese),
        (ascii_digits, Notation::Chinese),
    ];
    for (text, notation) in texts {
        let pgn = format!("[Event \"仙人指路对起马局\"]\n\n{text} 0-1\n");
        let game = read_one(&pgn);
        assert_eq!(game.moves, expected, "{text}");
        assert_eq!(game.notation, Some(notation), "{text}");
        assert_eq!(game.result.as_deref(), Some("0-1"));
        assert_eq!(game.tag("event"), Some("仙人指路对起马局"));
        // In the other encodings: UTF-8 with a BOM, UTF-16 with a BOM, GB18030.
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(pgn.as_bytes());
        let mut utf16 = vec![0xFF, 0xFE];
        utf16.extend(pgn.encode_utf16().flat_map(u16::to_le_bytes));
        let (gb, _, unmappable) = encoding_rs::GB18030.encode(&pgn);
        assert!(!unmappable);
        for bytes in [bom, utf16, gb.into_owned()] {
            let games = read_records(&bytes).unwrap();
            assert_eq!(games[0].moves, expected, "{text}");
            assert_eq!(games[0].tag("Event"), Some("仙人指路对起马局"));
        }
    }
    // The Chinese writer gives back the description's own text.
    let written = write_pgn(&[read_one(&iccs)], Notation::Chinese);
    for word in SPEC_GAME_CHINESE.split_whitespace().filter(|w| !w.ends_with('.')) {
        assert!(written.contains(word), "{word} in\n{written}");
    }
    let wxf = write_pgn(&[read_one(&iccs)], Notation::Wxf);
    for word in SPEC_GAME_WXF.split_whitespace().filter(|w| !w.ends_with('.')) {
        assert!(wxf.contains(word), "{word} in\n{wxf}");
    }
}

/// Each side counts files from its own right: 炮二平五 and 炮８平５ are both central cannons.
#[test]
fn files_are_counted_from_each_sides_right() {
    let game =
        read_one("1. 炮二平五 炮８平５ 2. 马二进三 马８进７ 3. 车一平二 车９平８ 4. 兵三进一 卒７进１");
    let expected = moves(&["h2e2", "h7e7", "h0g2", "h9g7", "i0h0", "i9h9", "g3g4", "g6g5"]);
    assert_eq!(game.moves, expected);
    let game = read_one("1. C2.5 C8.5 2. H2+3 H8+7 3. R1.2 R9.8 4. P3+1 P7+1");
    assert_eq!(game.moves, expected);
}

/// The tandem conventions, read and written: 前/中/后 and WXF `+`/`-`, 一二三四五 and `++`,
/// and two files with tandem Soldiers (`前三平四`, WXF `3+.4`).
#[test]
fn tandem_pieces() {
    // (FEN, ICCS, Chinese, WXF)
    let cases = [
        // Red Chariots on e4 and e7.
        ("5k3/9/4R4/9/1c7/4R4/1c7/9/9/3K5 w", "e7e9", "前车进二", "R++2"),
        ("5k3/9/4R4/9/1c7/4R4/1c7/9/9/3K5 w", "e4e2", "后车退二", "R--2"),
        // Black Cannons on b5 and b8: b5 is Black's front one.
        ("5k3/1c7/9/9/1c7/9/9/9/9/3K5 b", "b5b3", "前炮进２", "C++2"),
        ("5k3/1c7/9/9/1c7/9/9/9/9/3K5 b", "b8b9", "后炮退１", "C--1"),
        // Three Red Soldiers on file c (Red's 7): front, middle, rear.
        ("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c7c8", "前兵进一", "P++1"),
        ("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c6d6", "中兵平六", "P7.6"),
        ("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c5b5", "后兵平八", "P-.8"),
        // Five Black Soldiers on file a (Black's 1), a0 in front.
        ("4k4/9/9/9/9/p8/p8/p8/p8/p2K5 b", "a0b0", "一卒平２", "++.2"),
        ("4k4/9/9/9/9/p8/p8/p8/p8/p2K5 b", "a1b1", "二卒平２", "P+.2"),
        ("4k4/9/9/9/9/p8/p8/p8/p8/p2K5 b", "a2b2", "三卒平２", "P1.2"),
        ("4k4/9/9/9/9/p8/p8/p8/p8/p2K5 b", "a3b3", "四卒平２", "P-.2"),
        ("4k4/9/9/9/9/p8/p8/p8/p8/p2K5 b", "a4b4", "五卒平２", "--.2"),
        // Two files with two Red Soldiers each (files c and g: Red's 7 and 3).
        ("4k4/9/2P3P2/2P3P2/9/9/9/9/9/3K5 w", "g7f7", "前三平四", "3+.4"),
        ("4k4/9/2P3P2/2P3P2/9/9/9/9/9/3K5 w", "c6d6", "后七平六", "7-.6"),
    ];
    for (fen, iccs, chinese, wxf) in cases {
        let position = position(fen);
        let mv: Move = iccs.parse().unwrap();
        assert_eq!(to_chinese(&position, mv).as_deref(), Some(chinese), "{fen} {iccs}");
        assert_eq!(endgame_xiangqi::wxf::to_wxf(&position, mv).as_deref(), Some(wxf), "{fen} {iccs}");
        for text in [chinese, wxf, iccs] {
            let game = read_one(&format!("[FEN \"{fen}\"]\n1. {text} *"));
            assert_eq!(game.moves, vec![mv], "{fen} {text}");
        }
    }
    // Other forms of the same: `+C`/`-R` before the letter, the piece named with the file.
    let fen = "5k3/9/4R4/9/1c7/4R4/1c7/9/9/3K5 w";
    for (text, iccs) in [("+R+2", "e7e9"), ("-R-2", "e4e2"), ("前车五进二", "e7e9"), ("後車退二", "e4e2")]
    {
        assert_eq!(read_one(&format!("[FEN \"{fen}\"] {text}")).moves, moves(&[iccs]), "{text}");
    }
}

#[test]
fn pgn_syntax() {
    let text = "% an escape line
[Event \"A \\\"quoted\\\" name\"]
[FEN \"4k4/9/9/9/9/9/9/9/4A4/3RK4 w - - 0 1\"]
{before the first move} 1. d0d8! {a check} $1 (1. d0d1 {a slower way (with a comment)} ( 1. d0d2 )) 1... e9f9 ; Black's only move
2.e1f2 1-0
[Event \"second\"]
1. h2e2 h9g7 *
h2e2 {a game without tags}";
    let games = read_records(text.as_bytes()).unwrap();
    assert_eq!(games.len(), 3);
    let first = &games[0];
    assert_eq!(first.tag("Event"), Some("A \"quoted\" name"));
    assert_eq!(first.moves, moves(&["d0d8", "e9f9", "e1f2"]));
    assert_eq!(
        first.comments,
        vec![
            (0, "before the first move".to_string()),
            (1, "a check".to_string()),
            (2, "Black's only move".to_string())
        ]
    );
    assert_eq!(first.result.as_deref(), Some("1-0"));
    assert_eq!(first.positions().len(), 4);
    assert!(first.positions()[3].legal_moves(RULES).is_empty());
    assert_eq!(games[1].moves, moves(&["h2e2", "h9g7"]));
    assert_eq!(games[1].result.as_deref(), Some("*"));
    assert_eq!(games[2].moves, moves(&["h2e2"]));
    assert_eq!(games[2].result, None);
    // Punctuation after Chinese moves, as pages have it.
    assert_eq!(read_one("1. 炮二平五，马８进７。 2. 马二进三、车９平８； *").moves.len(), 4);
    // Games in different notations in one file, each detected.
    let mixed = read_records("h2e2 h9g7 *\nC2.5 H8+7 *\n炮二平五 马８进７ *".as_bytes()).unwrap();
    assert_eq!(
        mixed.iter().map(|g| g.notation).collect::<Vec<_>>(),
        vec![Some(Notation::Iccs), Some(Notation::Wxf), Some(Notation::Chinese)]
    );
    assert!(mixed.iter().all(|g| g.moves == moves(&["h2e2", "h9g7"])));
    // Black to move first: `1...`, then `2.`.
    let black = read_one("[FEN \"4k4/9/9/9/9/9/9/9/4A4/3RK4 b\"] 1... e9f9 2. e1f2 f9f8");
    assert_eq!(black.start.turn(), Color::Black);
    assert_eq!(black.moves.len(), 3);
    let written = write_pgn(&[black], Notation::Wxf);
    assert!(written.contains("1... K5.6 2. A5+4 K6+1 *"), "{written}");
}

#[test]
fn bad_records_name_the_place() {
    let cases: [(&[u8], &str); 14] = [
        (b"1. h2e2 h9g7\n2. h2e2", "game 1, move 2. (Red, ply 3, line 2) \"h2e2\": Red has no piece on h2"),
        (
            b"[Event \"one\"]\n1. h2e2 *\n[Event \"two\"]\n1. h2e2 h9g7 2. h0g2 e9e7",
            "game 2, move 2... (Black, ply 4, line 4) \"e9e7\": not a legal move of Black's General on e9 here",
        ),
        (
            "炮二平五 马８进７ 马二进三 车９平８ 车一平二 马２进３ 兵七进一 车８进九".as_bytes(),
            "game 1, move 4... (Black, ply 8, line 1) \"车８进九\": no legal move of Black fits it",
        ),
        (b"C2.5 H8+6", "game 1, move 1... (Black, ply 2, line 1) \"H8+6\": no legal move of Black fits it"),
        (
            b"C2.5 h9g7",
            "game 1, move 1... (Black, ply 2, line 1) \"h9g7\": expected a move in WXF notation, like C2.5 or H8+7, as the game's first move (found one in ICCS)",
        ),
        (
            b"[FEN \"3k5/9/9/9/9/8R/9/9/9/4K3R w\"]\nR1+1",
            "game 1, move 1. (Red, ply 1, line 2) \"R1+1\": ambiguous: it fits 2 legal moves of Red (i0i1, i4i5)",
        ),
        (b"1. e2e4", "game 1, move 1. (Red, ply 1, line 1) \"e2e4\": Red has no piece on e2"),
        (
            b"1. hello",
            "game 1, move 1. (Red, ply 1, line 1) \"hello\": expected a move in ICCS (h2e2), WXF (C2.5) or Chinese notation (炮二平五)",
        ),
        (
            b"[Event \"x\"]\n\n{a comment that never ends\n1. h2e2",
            "game 1, line 3: the comment opened here is not closed by '}'",
        ),
        (b"[Event \"x]\n", "game 1, line 1: tag Event: the value's closing '\"' is missing"),
        (
            b"[FEN \"4k4/9/9 w\"]\n1. h2e2",
            "game 1, line 1: FEN tag: expected 10 ranks separated by '/', found 3",
        ),
        (b"1. h2e2 (1. b2e2 h9g7", "game 1, line 1: the variation opened here is not closed by ')'"),
        (
            b"",
            "no game found: expected PGN (tags such as [Event \"...\"], or moves such as 1. h2e2 h9g7) or an XQF file",
        ),
        (
            b"[Event \"\xC4\xE3\"]\n\xFF\xFF",
            "byte 13: the text is neither UTF-8 nor GB18030 (GBK): expected a PGN file in one of them, or an XQF file",
        ),
    ];
    for (bytes, message) in cases {
        assert_eq!(error(bytes), message, "{}", String::from_utf8_lossy(bytes));
    }
    // The place, as a program sees it.
    let err = read_records(b"[Event \"one\"]\n1. h2e2 *\n\n\n1. h2e2 h9g7 2. h0g2 e9e7").unwrap_err();
    assert_eq!(err.game, Some(2));
    assert_eq!(
        err.place,
        Place::Move { number: 2, side: Color::Black, ply: 4, text: "e9e7".to_string(), line: Some(5) }
    );
    // A move after the end of the game.
    let mate = "[FEN \"4k4/9/9/9/9/9/9/9/4A4/3RK4 w\"] d0d8 e9f9 e1f2 f9f8";
    assert_eq!(
        error(mate),
        "game 1, move 2... (Black, ply 4, line 1) \"f9f8\": Black has no legal move: the game is over before it"
    );
}

/// A random legal game: a start (the usual one, or a random legal position) and up to
/// `seeds.len()` moves, each chosen among the legal ones by its seed.
fn random_game(start: Position, seeds: &[u32], comments: bool) -> Game {
    let mut position = start;
    let mut moves = Vec::new();
    for &seed in seeds {
        let legal = position.legal_moves(RULES);
        if legal.is_empty() {
            break;
        }
        let mv = legal[seed as usize % legal.len()];
        moves.push(mv);
        position = position.play_unchecked(mv);
    }
    let comments = if comments {
        seeds
            .iter()
            .take(3)
            .map(|&s| (s as usize % (moves.len() + 1), format!("note {s}")))
            .collect::<Vec<_>>()
    } else {
        Vec::new()
    };
    let mut sorted = comments;
    sorted.sort_by_key(|(at, _)| *at);
    Game {
        tags: vec![("Event".to_string(), "random".to_string())],
        start,
        moves,
        comments: sorted,
        result: Some("*".to_string()),
        notation: None,
    }
}

/// A start position: the usual one, or a random legal position.
pub fn start_strategy() -> impl Strategy<Value = Position> {
    prop_oneof![
        Just(position(START)),
        crowded_setup().prop_filter_map("not a legal position", |setup: Setup| {
            Position::from_setup(setup).ok().filter(|p| p.check(RULES).is_ok())
        }),
    ]
}

/// Random legal games.
pub fn game_strategy() -> impl Strategy<Value = Game> {
    (start_strategy(), prop::collection::vec(any::<u32>(), 0..120), any::<bool>())
        .prop_map(|(start, seeds, comments)| random_game(start, &seeds, comments))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Written in any notation and read back: the same start, moves and comments; written in
    /// one notation, read, written in another: the same again.
    #[test]
    fn round_trips(games in prop::collection::vec(game_strategy(), 1..4)) {
        for notation in Notation::ALL {
            let text = write_pgn(&games, notation);
            let read = read_records(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(read.len(), games.len());
            for (a, b) in games.iter().zip(&read) {
                prop_assert_eq!(a.start, b.start, "{}", text);
                prop_assert_eq!(&a.moves, &b.moves, "{}", text);
                prop_assert_eq!(&a.comments, &b.comments, "{}", text);
                if !a.moves.is_empty() {
                    prop_assert_eq!(b.notation, Some(notation));
                }
                for other in Notation::ALL {
                    let again = read_records(write_pgn(std::slice::from_ref(b), other).as_bytes()).unwrap();
                    prop_assert_eq!(&again[0].moves, &a.moves);
                }
            }
        }
    }

    /// Every legal move's WXF and Chinese names read back to that move, in crowded positions
    /// (tandem pieces everywhere).
    #[test]
    fn every_legal_move_reads_back(start in start_strategy()) {
        for mv in start.legal_moves(RULES) {
            let fen = start.setup().to_string();
            for text in [endgame_xiangqi::wxf::to_wxf(&start, mv).unwrap(), to_chinese(&start, mv).unwrap()] {
                let read = read_records(format!("[FEN \"{fen}\"] {text}").as_bytes())
                    .map_err(|e| TestCaseError::fail(format!("{fen} {mv} {text}: {e}")))?;
                prop_assert_eq!(&read[0].moves, &vec![mv], "{} {}", fen, text);
            }
        }
    }

    /// No input makes the reader panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = read_records(&bytes);
    }

    /// Nor does text that looks like PGN, cut and spliced anywhere.
    #[test]
    fn spliced_pgn_never_panics(game in game_strategy(), cut in any::<prop::sample::Index>(), junk in "[ -~\\{\\}\\(\\)\\[\\]炮二平五进１]{0,12}") {
        let text = write_pgn(&[game], Notation::Chinese);
        let mut cut_at = cut.index(text.len() + 1);
        while !text.is_char_boundary(cut_at) {
            cut_at -= 1;
        }
        let spliced = format!("{}{}{}", &text[..cut_at], junk, &text[cut_at..]);
        let _ = read_records(spliced.as_bytes());
    }
}

/// A thousand games of 80 moves (Chinese notation) read in under a second: run with
/// `cargo test -p endgame-xiangqi --release --test all -- --ignored thousand_games --nocapture`.
#[test]
#[ignore = "a measurement: prints the time"]
fn thousand_games_read_quickly() {
    let start = position(START);
    let mut games = Vec::new();
    let mut seed: u32 = 12345;
    while games.len() < 1000 {
        let seeds: Vec<u32> = (0..160)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                seed >> 8
            })
            .collect();
        let game = random_game(start, &seeds, false);
        if game.moves.len() >= 100 {
            games.push(game);
        }
    }
    // The time this thread ran on a CPU, in seconds (Linux): on a loaded machine the wall
    // clock counts the other processes' turns too.
    let cpu = || -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        Some(stat.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
    };
    for notation in Notation::ALL {
        let text = write_pgn(&games, notation);
        let (clock, cpu_before) = (Instant::now(), cpu());
        let read = read_records(text.as_bytes()).unwrap();
        let elapsed = clock.elapsed();
        let cpu_time = cpu().zip(cpu_before).map_or("?".to_string(), |(a, b)| format!("{:.3}", a - b));
        let plies: usize = read.iter().map(|g| g.moves.len()).sum();
        println!(
            "{notation}: {} games, {plies} plies, {} KiB read in {:.3} s ({cpu_time} s on the CPU)",
            read.len(),
            text.len() / 1024,
            elapsed.as_secs_f64()
        );
        assert_eq!(read.len(), 1000);
    }
}
