//! The statistics for each side to move (`Tablebases::stats_by_side`, counted from a table's
//! WDL blocks) against a count of its own: every placement of the material's men on the
//! points they may stand on, both sides to move, kept when legal and probed one by one.

use crate::common::{material, temp_dir};
use endgame_core::RuleValue;
use endgame_xiangqi::{
    Board, Color, Compression, Material, Piece, Position, Probe, Rules, Setup, SideStats, StatsBySide,
    Tablebases,
};

/// Every placement of `pieces` (identical men on increasing points) completing `board`,
/// passed to `f`.
fn place(pieces: &[Piece], board: &mut Board, after: Option<(Piece, usize)>, f: &mut impl FnMut(&Board)) {
    let Some((&piece, rest)) = pieces.split_first() else {
        f(board);
        return;
    };
    for sq in piece.points() {
        // Identical men are one set of points: each after the one before it.
        let first = match after {
            Some((p, at)) if p == piece => at + 1,
            _ => 0,
        };
        if sq.index() < first || board.get(sq).is_some() {
            continue;
        }
        board.set(sq, Some(piece));
        place(rest, board, Some((piece, sq.index())), f);
        board.set(sq, None);
    }
}

/// The statistics of `material` counted position by position: each legal position (the side
/// not to move not in check) probed in `tables`.
fn counted(tables: &Tablebases, material: Material) -> StatsBySide {
    let mut sides = [SideStats::default(); 2];
    let mut pieces = material.pieces();
    pieces.sort_by_key(|p| (p.color == Color::Black, p.role));
    place(&pieces, &mut Board::default(), None, &mut |board| {
        for turn in Color::ALL {
            let position = Position::from_setup(Setup { board: *board, turn }).unwrap();
            if position.opponent_in_check() {
                continue;
            }
            let side = &mut sides[usize::from(turn == Color::Black)];
            side.positions += 1;
            match tables.probe(&position).unwrap() {
                RuleValue::Win(d) => {
                    side.wins += 1;
                    side.longest_win_plies = side.longest_win_plies.max(d.0);
                }
                RuleValue::Loss(_) => side.losses += 1,
                RuleValue::Draw(_) => side.draws += 1,
                RuleValue::WinByRule(..) => side.wins_by_rule += 1,
                RuleValue::LossByRule(..) => side.losses_by_rule += 1,
            }
        }
    });
    StatsBySide { red: sides[0], black: sides[1] }
}

/// `stats_by_side` of `materials` in `tables` equals the count of their positions one by one.
fn check(tables: &Tablebases, materials: &[&str]) {
    for m in materials.iter().map(|m| material(m)) {
        let sides = tables.stats_by_side(m).unwrap();
        assert_eq!(sides, counted(tables, m), "{m} under {}", tables.rules());
        assert!(sides.agrees_with(&tables.stats(m).unwrap()), "{m} under {}", tables.rules());
        assert!(sides.red.positions > 0 && sides.black.positions > 0, "{m}");
    }
}

/// From files in their own order and in their colour twin's (`KRvKN` under the best
/// compression), a colour twin answered from its twin's files, solved in memory (no file),
/// and under `hdu`.
#[test]
fn each_side_to_move_is_counted_as_its_positions_one_by_one() {
    let dir = temp_dir("side-stats", "standard");
    let normal = Tablebases::open(dir.join("normal"), Rules::Standard);
    normal.generate(&[material("KNvKA")], &|_| {}).unwrap();
    check(&normal, &["KNvKA", "KAvKN", "KNvK", "KvKN"]);
    let best = Tablebases::open(dir.join("best"), Rules::Standard).with_compression(Compression::Best);
    best.generate(&[material("KRvKN")], &|_| {}).unwrap();
    check(&best, &["KRvKN", "KNvKR"]);
    // Small materials without files are solved in memory.
    let memory = Tablebases::open(dir.join("none"), Rules::Standard);
    check(&memory, &["KRvKA", "KAvKR", "KCvK"]);
    assert!(!memory.path(material("KRvKA")).exists());
    // Under `hdu` the files also value positions that are not legal: not counted.
    let hdu = Tablebases::open(dir.join("hdu"), Rules::Hdu);
    hdu.generate(&[material("KNvKA")], &|_| {}).unwrap();
    check(&hdu, &["KNvKA", "KAvKN"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Under the bans the results by the rule are counted for each side too, from files and from
/// solutions in memory.
#[test]
fn each_side_to_move_is_counted_under_the_bans() {
    let dir = temp_dir("side-stats", "bans");
    for rules in [Rules::PerpetualCheck, Rules::CheckAndChase] {
        let files = Tablebases::open(&dir, rules);
        files.generate(&[material("KRvKN")], &|_| {}).unwrap();
        check(&files, &["KRvKN"]);
        // Results by the rule to count, for the test to mean something.
        let s = files.stats_by_side(material("KRvKN")).unwrap();
        assert!(s.red.wins_by_rule + s.black.wins_by_rule > 0, "{rules}: {s:?}");
        assert!(s.red.losses_by_rule + s.black.losses_by_rule > 0, "{rules}: {s:?}");
        check(&Tablebases::open(dir.join("none"), rules), &["KRvKA", "KCvKA"]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
