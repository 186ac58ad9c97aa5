"""endgame.review and Tablebases.review against the command line's ``review --json``: the same
dictionary for text and bytes, every rule set, the same messages for bad records."""

import pytest

import endgame
from conftest import REPOSITORY

EXAMPLE = REPOSITORY / "crates" / "xiangqi" / "examples" / "review.pgn"


def marks(review):
    return [(m["ply"], m["mark"]) for m in review["moves"] if m["mark"]]


@pytest.mark.parametrize("rules", endgame.RULES)
def test_review_is_the_command_lines(cli, tmp_path, rules):
    status, printed, err = cli("xiangqi", "review", "--json", "--rules", rules, "--dir", str(tmp_path), str(EXAMPLE))
    assert status == 0, err
    text = EXAMPLE.read_text(encoding="utf-8")
    reviewed = endgame.review(text, rules=rules, dir=tmp_path)
    assert reviewed == printed
    assert endgame.Tablebases(tmp_path, rules=rules).review(EXAMPLE.read_bytes()) == printed
    assert len(reviewed["moves"]) == 37
    if rules != "hdu":
        assert marks(reviewed) == [(13, "mistake"), (25, "blunder"), (26, "blunder")]


def test_mistake_plies_and_the_game(tmp_path):
    tb = endgame.Tablebases(tmp_path)
    text = EXAMPLE.read_text(encoding="utf-8")
    assert marks(tb.review(text, mistake_plies=13)) == [(25, "blunder"), (26, "blunder")]
    reviewed = tb.review(text, game=1)
    assert (reviewed["game"], reviewed["games"]) == (1, 1)
    assert reviewed["moves"][0]["result"] is None
    assert reviewed["moves"][1]["result"] == {"category": "loss", "dtm": -36}
    assert reviewed["summary"]["perfect_play"]["winner"] == "red"


def test_bad_records_raise_value_error_with_the_command_lines_message(cli, tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text("1. h2e2 h9g7 2. e2e9 *\n", encoding="utf-8")
    status, _, err = cli("xiangqi", "review", "--dir", str(tmp_path), str(bad))
    assert status == 2
    with pytest.raises(ValueError) as raised:
        endgame.review(bad.read_text(encoding="utf-8"), dir=tmp_path)
    assert str(raised.value) == "game 1, move 2. (Red, ply 3, line 1) \"e2e9\": not a legal move of Red's Cannon on e2 here"
    assert err.strip() == f"error: {bad}: {raised.value}"
    with pytest.raises(ValueError, match="game 2: the record holds 1 game"):
        endgame.review(EXAMPLE.read_bytes(), game=2, dir=tmp_path)
    with pytest.raises(ValueError, match="game: games are counted from 1"):
        endgame.review(EXAMPLE.read_bytes(), game=0, dir=tmp_path)
    with pytest.raises(ValueError, match="rules"):
        endgame.review(EXAMPLE.read_bytes(), rules="fide", dir=tmp_path)
    with pytest.raises(TypeError):
        endgame.review(42, dir=tmp_path)
