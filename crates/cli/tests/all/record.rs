//! `endgame xiangqi record convert`: records read from files and standard input (PGN in
//! GB18030, XQF) written as PGN in each notation, and bad records refused with exit status 2
//! and a message naming the file, the game, the move and its text.

use std::path::PathBuf;

use crate::common::{endgame, stderr, stdout, temp_dir};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../xiangqi/tests/data/records").join(name)
}

#[test]
fn convert_writes_every_notation() {
    let xqf = data("xqf10-example.xqf");
    let pgn = data("example-gb18030.pgn");
    let iccs = stdout(endgame().args(["xiangqi", "record", "convert"]).arg(&xqf).args(["--to", "iccs"]));
    assert!(iccs.contains("[Red \"柳大华\"]\n"), "{iccs}");
    assert!(iccs.contains("[Format \"ICCS\"]\n\n1. c3c4 h9g7 2. g3g4 b7c7"), "{iccs}");
    assert!(iccs.ends_with("8. h0g2 i9h9 0-1\n"), "{iccs}");
    for (to, first, last) in [
        ("wxf", "1. P7+1 H8+7 2. P3+1 C2.3", "8. H2+3 R9.8 0-1"),
        ("chinese", "1. 兵七进一 马８进７ 2. 兵三进一 炮２平３", "8. 马二进三 车９平８ 0-1"),
        ("ICCS", "1. c3c4 h9g7", "8. h0g2 i9h9 0-1"),
    ] {
        for file in [&xqf, &pgn] {
            let out = stdout(endgame().args(["xiangqi", "record", "convert"]).arg(file).args(["--to", to]));
            assert!(out.contains(first) && out.contains(last), "{to} {}:\n{out}", file.display());
        }
    }
    // From standard input, and back: the written PGN reads to the same moves.
    let again = stdout(endgame().args(["xiangqi", "record", "convert", "-", "--to", "iccs"]).write_stdin(
        stdout(endgame().args(["xiangqi", "record", "convert"]).arg(&pgn).args(["--to", "chinese"])),
    ));
    assert!(again.contains("1. c3c4 h9g7 2. g3g4 b7c7"), "{again}");
}

#[test]
fn bad_records_exit_2_naming_the_place() {
    let dir = temp_dir("record-convert");
    let bad = dir.join("bad.pgn");
    std::fs::write(
        &bad,
        "[Event \"one\"]\n1. h2e2 h9g7 *\n\n[Event \"two\"]\n1. 炮二平五 马８进７\n2. 马二进三 马８进７\n",
    )
    .unwrap();
    let message = stderr(endgame().args(["xiangqi", "record", "convert"]).arg(&bad).args(["--to", "wxf"]), 2);
    assert_eq!(
        message,
        format!(
            "error: {}: game 2, move 2... (Black, ply 4, line 6) \"马８进７\": no legal move of Black fits it\n",
            bad.display()
        )
    );
    let stdin = stderr(
        endgame().args(["xiangqi", "record", "convert", "-", "--to", "chinese"]).write_stdin("1. h2e2 h2e2"),
        2,
    );
    assert_eq!(stdin, "error: game 1, move 1... (Black, ply 2, line 1) \"h2e2\": Black has no piece on h2\n");
    let missing = dir.join("missing.xqf");
    let message =
        stderr(endgame().args(["xiangqi", "record", "convert"]).arg(&missing).args(["--to", "wxf"]), 2);
    assert!(message.starts_with(&format!("error: {}: cannot read: ", missing.display())), "{message}");
    let truncated = dir.join("short.xqf");
    std::fs::write(&truncated, &std::fs::read(data("xqf10-example.xqf")).unwrap()[..0x40A]).unwrap();
    let message =
        stderr(endgame().args(["xiangqi", "record", "convert"]).arg(&truncated).args(["--to", "wxf"]), 2);
    assert_eq!(
        message,
        format!(
            "error: {}: game 1, byte 1032: the file ends inside a move (4 bytes from here, 2 left)\n",
            truncated.display()
        )
    );
    let message = stderr(endgame().args(["xiangqi", "record", "convert", "-", "--to", "xyz"]), 2);
    assert!(message.contains("expected a notation (iccs, wxf or chinese), found \"xyz\""), "{message}");
}
