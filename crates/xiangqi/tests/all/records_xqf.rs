//! XQF files: the example of the format's own description (XQF 1.0, 2001) read to the moves
//! worked out by hand; random legal games written by a deliberately simple XQF writer (here,
//! versions 10, 11, 12 and 18, encrypted with random keys, with comments and a variation)
//! read back to the same game; damaged files refused with the byte; and, when
//! `ENDGAME_XQF_SAMPLES` names a directory, every `.xqf` file in it read (and compared with
//! the `.pgn` file of the same name, if there is one).

use endgame_xiangqi::record::{Game, Notation, Place, read_records, write_pgn};
use endgame_xiangqi::{Color, Role, Square};
use proptest::prelude::*;

use crate::records::{SPEC_GAME_ICCS, game_strategy};

/// The example file of the XQF 1.0 description (象棋演播室 1.0 XQF 文件格式说明, 过河象,
/// 2001-04-16), rows of its hex dump that are not all zero: offset, bytes.
const SPEC_EXAMPLE: &[(usize, &str)] = &[
    (0x000, "58 51 0A"),
    (0x010, "50 46 3C 32 28 1E 14 0A 00 48 0C 53 3F 2B 17 03"),
    (0x020, "09 13 1D 27 31 3B 45 4F 59 11 4D 06 1A 2E 42 56"),
    (0x030, "00 00 00 02"),
    (0x050, "10 CF C9 C8 CB D6 B8 C2 B7 B6 D4 C6 F0 C2 ED BE"),
    (0x060, "D6"),
    (0x0D0, "16 22 D6 D0 C1 A2 B1 AD 22 CF F3 C6 E5 B5 E7 CA"),
    (0x0E0, "D3 BF EC C6 E5 C8 FC"),
    (0x110, "0E 31 39 39 37 C4 EA 31 31 D4 C2 31 36 C8 D5"),
    (0x120, "04 B1 B1 BE A9"),
    (0x130, "06 C1 F8 B4 F3 BB AA"),
    (0x140, "06 C2 C0 20 20 C7 D5"),
    (0x1D0, "06 C1 F5 B5 EE D6 D0"),
    (0x1E0, "06 B9 FD BA D3 CF F3"),
    (0x400, "18 20 F0 FF 00 00 00 00 2F 38 F0 00 00 00 00 00"),
    (0x410, "67 63 F0 00 00 00 00 00 57 60 F0 00 00 00 00 00"),
    (0x420, "29 3B F0 00 00 00 00 00 2C 4A F0 00 00 00 00 00"),
    (0x430, "2B 27 F0 00 00 00 00 00 22 36 F0 00 00 00 00 00"),
    (0x440, "21 33 F0 00 00 00 00 00 18 2A F0 00 00 00 00 00"),
    (0x450, "2B 2F F0 00 00 00 00 00 24 22 F0 00 00 00 00 00"),
    (0x460, "27 6B F0 00 00 00 00 00 60 6D F0 00 00 00 00 00"),
    (0x470, "33 6D F0 00 00 00 00 00 5E 5E F0 00 00 00 00 00"),
    (0x480, "71 6F 00 00 00 00 00 00"),
];

fn spec_example() -> Vec<u8> {
    let mut bytes = vec![0u8; 0x488];
    for (offset, row) in SPEC_EXAMPLE {
        for (i, byte) in row.split_whitespace().enumerate() {
            bytes[offset + i] = u8::from_str_radix(byte, 16).unwrap();
        }
    }
    bytes
}

#[test]
fn the_descriptions_example() {
    let games = read_records(&spec_example()).unwrap();
    let game = &games[0];
    let expected: Vec<_> = SPEC_GAME_ICCS.iter().map(|m| m.parse().unwrap()).collect();
    assert_eq!(game.moves, expected);
    assert_eq!(
        game.start.setup().to_string(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    for (tag, value) in [
        ("Title", "仙人指路对起马局"),
        ("Event", "\"中立杯\"象棋电视快棋赛"),
        ("Date", "1997年11月16日"),
        ("Site", "北京"),
        ("Red", "柳大华"),
        ("Black", "吕  钦"),
        ("Annotator", "刘殿中"),
        ("Author", "过河象"),
        ("Result", "0-1"),
    ] {
        assert_eq!(game.tag(tag), Some(value), "{tag}");
    }
    assert_eq!(game.tag("FEN"), None);
    // The copy in tests/data (the docs' example) is the same file; the same game typed in
    // Chinese notation and saved in GB18030 reads to the same moves.
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records");
    assert_eq!(std::fs::read(data.join("xqf10-example.xqf")).unwrap(), spec_example());
    let typed = read_records(&std::fs::read(data.join("example-gb18030.pgn")).unwrap()).unwrap();
    assert_eq!(typed[0].moves, game.moves);
    assert_eq!(typed[0].notation, Some(Notation::Chinese));
    // As Chinese PGN, the description's own text.
    let pgn = write_pgn(&games, Notation::Chinese);
    assert!(pgn.contains("1. 兵七进一 马８进７ 2. 兵三进一 炮２平３"), "{pgn}");
    assert!(pgn.contains("8. 马二进三 车９平８ 0-1"), "{pgn}");
}

/// The keys of an encrypted header (bytes 3 to 15): the mask, the product id, the four
/// `KeyOr` bytes, the key sum and the three key bytes.
#[derive(Clone, Copy, Debug)]
struct HeaderKeys {
    mask: u8,
    or: [u8; 4],
    sum: u8,
    xy: u8,
    xyf: u8,
    xyt: u8,
}

/// A deliberately simple XQF writer: the header, the pieces in their slots, and the main line
/// as a chain of nodes, with one variation (two moves that are never played: the reader skips
/// variations) hung on the `variation_at`-th node; encrypted as the descriptions say when
/// `version > 10`. The transcription is straight from the description: no code is shared
/// with the reader.
fn write_xqf(game: &Game, version: u8, keys: HeaderKeys, variation_at: Option<usize>) -> Vec<u8> {
    let mut out = vec![0u8; 0x400];
    out[0] = b'X';
    out[1] = b'Q';
    out[2] = version;
    let (mut kxy, mut kf, mut kt, mut rmk, mut stream) = (0u8, 0u8, 0u8, 0u32, [0u8; 32]);
    if version > 10 {
        out[3] = keys.mask;
        out[8..12].copy_from_slice(&keys.or);
        out[12] = keys.sum;
        out[13] = keys.xy;
        out[14] = keys.xyf;
        out[15] = keys.xyt;
        let f = |k: u8, m: u8| -> u8 {
            let k = u64::from(k);
            ((((((k * k) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) * u64::from(m) % 256) as u8
        };
        kxy = f(keys.xy, keys.xy);
        kf = f(keys.xyf, kxy);
        kt = f(keys.xyt, kf);
        rmk = (u32::from(keys.sum) * 256 + u32::from(keys.xy)) % 32000 + 767;
        let text = b"[(C) Copyright Mr. Dong Shiwei.]";
        let k4 = [keys.sum, keys.xy, keys.xyf, keys.xyt];
        for i in 0..32 {
            stream[i] = text[i] & ((k4[i % 4] & keys.mask) | keys.or[i % 4]);
        }
    }
    // The slots: Red's R N B A K A B N R C C P P P P P, then Black's.
    let order = [
        Role::Chariot,
        Role::Horse,
        Role::Elephant,
        Role::Advisor,
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Cannon,
        Role::Soldier,
        Role::Soldier,
        Role::Soldier,
        Role::Soldier,
        Role::Soldier,
    ];
    let mut slots = [0xFFu8; 32];
    for (sq, piece) in game.start.board().pieces() {
        let base = if piece.color == Color::Red { 0 } else { 16 };
        let free = (0..16).find(|&i| order[i] == piece.role && slots[base + i] == 0xFF).unwrap();
        slots[base + free] = sq.file().index() * 10 + sq.rank().index();
    }
    if version >= 12 {
        for s in &mut slots {
            *s = s.wrapping_add(kxy);
        }
        let plain = slots;
        for i in 0..32 {
            slots[i] = plain[(usize::from(kxy) + i + 1) % 32];
        }
    }
    out[0x10..0x30].copy_from_slice(&slots);
    out[0x32] = u8::from(game.start.turn() == Color::Black);
    out[0x33] = 2;
    let (red, _, _) = encoding_rs::GB18030.encode("红方棋手");
    out[0x130] = red.len() as u8;
    out[0x131..0x131 + red.len()].copy_from_slice(&red);
    // Nodes: (from, to, comment, child, sibling).
    let comment_at = |ply: usize| -> String {
        game.comments
            .iter()
            .filter(|(at, _)| *at == ply)
            .map(|(_, c)| c.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let point = |sq: Square| sq.file().index() * 10 + sq.rank().index();
    let mut nodes: Vec<(u8, u8, String, bool, bool)> =
        vec![(0, 0, comment_at(0), !game.moves.is_empty(), false)];
    for (i, mv) in game.moves.iter().enumerate() {
        let sibling = variation_at == Some(i);
        nodes.push((point(mv.from), point(mv.to), comment_at(i + 1), i + 1 < game.moves.len(), sibling));
    }
    if variation_at.is_some_and(|v| v < game.moves.len()) {
        // Any two points: a variation is skipped, never played.
        nodes.push((0, 89, "a variation".to_string(), true, false));
        nodes.push((89, 0, String::new(), false, false));
    }
    let mut moves = Vec::new();
    for (from, to, comment, child, sibling) in nodes {
        let (comment, _, _) = encoding_rs::GB18030.encode(&comment);
        let flags = if version <= 10 {
            (if child { 0xF0 } else { 0 }) | (if sibling { 0x0F } else { 0 })
        } else {
            (if child { 0x80 } else { 0 })
                | (if sibling { 0x40 } else { 0 })
                | (if comment.is_empty() { 0 } else { 0x20 })
        };
        moves.extend_from_slice(&[
            from.wrapping_add(0x18).wrapping_add(kf),
            to.wrapping_add(0x20).wrapping_add(kt),
            flags,
            0,
        ]);
        if version <= 10 || !comment.is_empty() {
            moves.extend_from_slice(&(comment.len() as u32).wrapping_add(rmk).to_le_bytes());
            moves.extend_from_slice(&comment);
        }
    }
    for (i, b) in moves.iter_mut().enumerate() {
        *b = b.wrapping_add(stream[(0x400 + i) % 32]);
    }
    out.extend_from_slice(&moves);
    out
}

fn header_keys() -> impl Strategy<Value = HeaderKeys> {
    (any::<u8>(), any::<[u8; 4]>(), any::<u8>(), any::<u8>(), any::<u8>(), any::<u8>())
        .prop_map(|(mask, or, sum, xy, xyf, xyt)| HeaderKeys { mask, or, sum, xy, xyf, xyt })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Written as XQF (any version, any keys, with a variation or not) and read: the same
    /// start, moves and comments, the tags of the header.
    #[test]
    fn xqf_round_trip(
        game in game_strategy(),
        version in prop::sample::select(vec![10u8, 11, 12, 16, 18]),
        keys in header_keys(),
        variation in prop::option::of(0..40usize),
    ) {
        let bytes = write_xqf(&game, version, keys, variation);
        let read = read_records(&bytes).map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(read.len(), 1);
        let back = &read[0];
        prop_assert_eq!(back.start, game.start);
        prop_assert_eq!(&back.moves, &game.moves);
        // Comments of one ply are joined by the writer.
        let mut joined: Vec<(usize, String)> = Vec::new();
        for (at, text) in &game.comments {
            match joined.last_mut() {
                Some((last, t)) if last == at => {
                    t.push(' ');
                    t.push_str(text);
                }
                _ => joined.push((*at, text.clone())),
            }
        }
        prop_assert_eq!(&back.comments, &joined);
        prop_assert_eq!(back.tag("Red"), Some("红方棋手"));
        prop_assert_eq!(back.result.as_deref(), Some("0-1"));
    }

    /// A damaged XQF file is refused or read, never a panic.
    #[test]
    fn damaged_xqf_never_panics(
        game in game_strategy(),
        version in prop::sample::select(vec![10u8, 11, 12, 18]),
        keys in header_keys(),
        damage in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = write_xqf(&game, version, keys, Some(1));
        for (at, b) in damage {
            let i = at.index(bytes.len());
            bytes[i] = b;
        }
        bytes.truncate(cut.index(bytes.len() + 1).max(3));
        if let Err(e) = read_records(&bytes) {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}

#[test]
fn damaged_xqf_names_the_byte() {
    let good = spec_example();
    let error = |bytes: &[u8]| read_records(bytes).unwrap_err().to_string();
    assert_eq!(error(&good[..0x300]), "game 1, byte 768: the file ends inside the 1024-byte XQF header");
    assert_eq!(
        error(&good[..0x44A]),
        "game 1, byte 1096: the file ends inside a move (4 bytes from here, 2 left)"
    );
    // The 9th move (车九平八, a0b0) made to start from an empty point.
    let mut bad = good.clone();
    bad[0x448] = 0x18 + 11;
    let err = read_records(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "game 1, move 5. (Red, ply 9) \"b1b0\": not a legal move of Red (the move at byte 1096)"
    );
    assert!(matches!(err.place, Place::Move { ply: 9, .. }));
    // Two pieces on one point.
    let mut bad = good.clone();
    bad[0x11] = 0x50;
    assert_eq!(error(&bad), "game 1, byte 17: two pieces on i0 (R and another)");
    // A comment longer than the file.
    let mut bad = good;
    bad[0x40C] = 0xFF;
    assert_eq!(error(&bad), "game 1, byte 1036: a comment of 255 bytes, more than the 120 left in the file");
}

/// Every `.xqf` file of the directory `ENDGAME_XQF_SAMPLES` is read; one with a `.pgn` file of
/// the same name beside it reads to the same start and moves. Real files are not kept in the
/// repository (their licences are their authors'): run with
/// `ENDGAME_XQF_SAMPLES=DIR cargo test -p endgame-xiangqi --test all -- --ignored xqf_samples`.
#[test]
#[ignore = "needs ENDGAME_XQF_SAMPLES, a directory of real XQF files"]
fn xqf_samples() {
    let dir = std::env::var("ENDGAME_XQF_SAMPLES").expect("ENDGAME_XQF_SAMPLES");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.extension().is_some_and(|e| e.eq_ignore_ascii_case("xqf")) {
            continue;
        }
        let games = read_records(&std::fs::read(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!(
            "{}: version {}, {} moves",
            path.display(),
            std::fs::read(&path).unwrap()[2],
            games[0].moves.len()
        );
        for pgn in [path.with_extension("pgn"), path.with_extension("PGN")] {
            if let Ok(bytes) = std::fs::read(&pgn) {
                let pgn_games = read_records(&bytes).unwrap_or_else(|e| panic!("{}: {e}", pgn.display()));
                assert_eq!(pgn_games[0].start, games[0].start, "{}", pgn.display());
                assert_eq!(pgn_games[0].moves, games[0].moves, "{}", pgn.display());
                println!("  the same moves as {}", pgn.display());
                break;
            }
        }
        read += 1;
    }
    assert!(read > 0, "no .xqf file in {dir}");
}
