"""endgame.twixt, endgame.cheesy, endgame.marine against the command line's JSON, and their
messages for bad input."""

import pytest

import endgame
from endgame import cheesy, marine, twixt

from conftest import REPOSITORY

TWIXT = sorted((REPOSITORY / "crates/twixt/tests/data").glob("*.T1")) + sorted(
    (REPOSITORY / "crates/twixt/tests/data").glob("*.tsgf")
)


def message(cli_stderr: str, path) -> str:
    """The command line's message without `error: <file>: `."""
    prefix = f"error: {path}: "
    assert cli_stderr.startswith(prefix), cli_stderr
    return cli_stderr[len(prefix) :]


@pytest.mark.parametrize("path", TWIXT + [REPOSITORY / "crates/twixt/tests/data/poj2706-sample.txt"], ids=lambda p: p.name)
def test_twixt_replay_and_threats_are_the_command_lines(cli, path):
    text = path.read_text()
    for command, function in [("replay", twixt.replay), ("threats", twixt.threats)]:
        status, out, err = cli("twixt", command, "--json", str(path))
        if status == 2:
            with pytest.raises(ValueError) as raised:
                function(text)
            assert str(raised.value) == message(err, path)
        else:
            assert status == 0, err
            assert function(text) == out


def test_twixt_options_are_the_command_lines(cli):
    path = REPOSITORY / "crates/twixt/tests/data/sample.T1"
    status, out, err = cli("twixt", "replay", "--json", "--rules", "pp", "--swap", "on", "--format", "T1", str(path))
    assert status == 0, err
    assert twixt.replay(path.read_text(), format="T1", rules="pp", swap=True) == out
    assert twixt.replay(path.read_text(), format="t1", rules="PP", swap=True) == out
    with pytest.raises(ValueError, match="^format: expected `judge`, `sgf` or `t1`"):
        twixt.replay("", format="png")
    with pytest.raises(ValueError, match="^rules: expected `poj` or `pp`"):
        twixt.replay(path.read_text(), rules="go")
    with pytest.raises(ValueError, match='^line 1: cannot tell the record format: .*; name it with format="judge", "sgf" or "t1"$'):
        twixt.replay("hello")


def test_twixt_bad_records(cli, tmp_path):
    bad = REPOSITORY / "crates/twixt/tests/data/poj2706-bad.txt"
    status, _, err = cli("twixt", "replay", "--json", str(bad))
    assert status == 2
    with pytest.raises(ValueError) as raised:
        twixt.replay(bad.read_text())
    assert str(raised.value) == message(err, bad)


@pytest.mark.parametrize("name", ["sample1.txt", "sample2.txt", "corner.txt", "longest.txt"])
@pytest.mark.parametrize("to_move", ["white", "black"])
def test_cheesy_is_the_command_lines(cli, name, to_move):
    path = REPOSITORY / "crates/cheesy/examples" / name
    status, out, err = cli("cheesy", "solve", "--json", "--to-move", to_move, str(path))
    if status == 2:
        with pytest.raises(ValueError) as raised:
            cheesy.solve(path.read_text(), to_move)
        assert str(raised.value) == message(err, path)
    else:
        assert status == 0, err
        assert cheesy.solve(path.read_text(), to_move=to_move) == out


def test_cheesy_bad_input(cli, tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("..K\n.Q.\n")
    status, _, err = cli("cheesy", "solve", "--json", str(path))
    assert status == 2
    with pytest.raises(ValueError) as raised:
        cheesy.solve(path.read_text())
    assert str(raised.value) == message(err, path)
    with pytest.raises(ValueError, match="^to_move: expected `white` or `black`"):
        cheesy.solve("", to_move="red")


@pytest.mark.parametrize("name", ["examples/corner.txt", "tests/data/battle8.txt", "tests/data/sample.in"])
def test_marine_is_the_command_lines(cli, name):
    path = REPOSITORY / "crates/marine" / name
    for rounds in ("34", "5"):
        status, out, err = cli("marine", "solve", "--json", "--rounds", rounds, str(path))
        assert status == 0, err
        got = marine.solve(path.read_text(), rounds=int(rounds))
        assert got == out


def test_marine_bad_input_and_the_state_limit(cli, tmp_path):
    path = tmp_path / "battle.txt"
    path.write_text("M.a\nM 5\n")
    status, _, err = cli("marine", "solve", str(path))
    assert status == 2
    with pytest.raises(ValueError) as raised:
        marine.solve(path.read_text())
    assert str(raised.value) == message(err, path)
    corner = (REPOSITORY / "crates/marine/examples/corner.txt").read_text()
    with pytest.raises(endgame.SearchLimit) as raised:
        marine.solve(corner, max_states=3)
    assert isinstance(raised.value, RuntimeError)
    assert "the limit is 3" in str(raised.value) and "max_states" in str(raised.value)
