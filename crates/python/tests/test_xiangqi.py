"""endgame.Tablebases against the command line's JSON: the same values, moves, lines and
statistics, the same messages for bad input; missing tables, generation, threads."""

import pathlib
import threading

import pytest

import endgame

# Materials of up to 4 men: solved in memory, no table files needed.
STANDARD = [
    "4k4/9/9/9/9/9/9/9/4A4/3RK4 w",  # KARvK: a win
    "4k4/9/9/9/9/9/9/9/4A4/3RK4 b",  # the same, a loss
    "R2k5/R8/9/9/9/9/9/9/9/4K4 b",  # checkmated: no move
    "3k5/4a4/9/9/9/9/9/9/4A4/4K4 w",  # an Advisor each: a draw
    "3k5/9/9/9/9/9/9/9/3n5/4K4 w",  # a Horse against a lone General: Red loses (stalemates)
    "4ka3/9/9/9/9/9/9/9/9/3K1R3 w",  # a capture into a smaller material
]
HDU = ["3k5/9/9/9/9/3n5/9/9/9/3K5 b", "4k4/9/9/9/9/9/9/9/3n5/3K5 w"]
PERPETUAL = ["9/9/4k4/9/9/9/9/9/1n7/R2K5 w", "9/9/4k4/9/9/9/9/9/1n1K5/R8 b"]
CASES = [("standard", f) for f in STANDARD] + [("hdu", f) for f in HDU] + [("perpetual-check", f) for f in PERPETUAL]


@pytest.fixture
def tables(tmp_path):
    """Tables of every rule set in an empty directory."""
    return {rules: endgame.Tablebases(tmp_path, rules=rules) for rules in endgame.RULES}


@pytest.mark.parametrize("rules,fen", CASES)
def test_probe_moves_and_line_are_the_command_lines(tables, cli, tmp_path, rules, fen):
    tb = tables[rules]
    status, solved, err = cli("xiangqi", "solve", "--json", "--rules", rules, "--dir", str(tmp_path), fen)
    assert status == 0, err
    result = tb.probe(fen)
    assert (result.category, result.dtm, result.rule) == (solved["category"], solved["dtm"], solved.get("rule"))
    assert tb.probe_wdl(fen) == {"win": 1, "draw": 0, "loss": -1}[solved["category"]] == result.wdl
    assert tb.main_line(fen) == solved["main_line"]
    status, listed, err = cli("xiangqi", "moves", "--json", "--rules", rules, "--dir", str(tmp_path), fen)
    assert status == 0, err
    moves = tb.moves(fen)
    fields = ("uci", "wxf", "capture", "category", "dtm", "rule")
    assert [{k: getattr(m, k) for k in fields} for m in moves] == [
        {k: m.get(k) for k in fields} for m in listed["moves"]
    ]
    # A move's value for its mover is the JSON's `for_mover`; `after` its flat fields.
    value = lambda v: (v.category, v.dtm, v.rule)  # noqa: E731
    assert [value(m.for_mover) for m in moves] == [
        (m["for_mover"]["category"], m["for_mover"]["dtm"], m["for_mover"].get("rule")) for m in listed["moves"]
    ]
    assert [value(m.after) for m in moves] == [(m.category, m.dtm, m.rule) for m in moves]


def test_a_moves_value_is_for_the_side_that_plays_it(tables):
    # KRAvK: Red's best move wins in 3 plies for Red, who plays it (as C's eg_moves and the
    # page say); Black, to move after it, loses in 2.
    best = tables["standard"].moves(STANDARD[0])[0]
    assert best.uci == "d0d8"
    assert (best.for_mover.category, best.for_mover.dtm, best.for_mover.wdl) == ("win", 3, 1)
    assert (best.after.category, best.after.dtm) == (best.category, best.dtm) == ("loss", -2)
    assert repr(best) == (
        "Move(uci='d0d8', wxf='R6+8', capture=None, "
        "for_mover=ProbeResult(category='win', dtm=3, rule=None), "
        "after=ProbeResult(category='loss', dtm=-2, rule=None))"
    )
    # Every move of a lost position loses for its mover; a win by the rule wins by the rule.
    assert all(m.for_mover.category == "loss" for m in tables["standard"].moves(STANDARD[1]))
    rule = tables["perpetual-check"].moves(PERPETUAL[0])[0]
    assert (rule.for_mover.category, rule.for_mover.dtm, rule.for_mover.rule) == ("win", None, "perpetual-check")
    assert (rule.after.category, rule.after.rule) == ("loss", "perpetual-check")


def test_the_cases_cover_what_they_say(tables):
    standard = tables["standard"]
    assert repr(standard.probe(STANDARD[0])) == "ProbeResult(category='win', dtm=3, rule=None)"
    assert standard.probe(STANDARD[1]).dtm < 0
    assert standard.moves(STANDARD[2]) == [] and standard.main_line(STANDARD[2]) == []
    assert standard.probe(STANDARD[3]).category == "draw" and standard.probe(STANDARD[3]).dtm is None
    assert any(m.capture for m in standard.moves(STANDARD[5]))
    rule = tables["perpetual-check"].probe(PERPETUAL[0])
    assert (rule.category, rule.dtm, rule.rule) == ("win", None, "perpetual-check")
    assert tables["perpetual-check"].probe(PERPETUAL[1]).category == "loss"
    assert tables["hdu"].probe(HDU[0]).dtm == 7


STATS_CASES = [
    # KRvKA's file answers for its colour twin KAvKR (the file's sizes included).
    ("standard", "KAvKR"),
    ("perpetual-check", "KRvKN"),
    ("hdu", "KvKN"),
]


@pytest.mark.parametrize("rules,material", STATS_CASES)
def test_stats_are_the_command_lines(tables, cli, tmp_path, rules, material):
    status, stats, err = cli("xiangqi", "stats", "--json", "--rules", rules, "--dir", str(tmp_path / "cli"), material)
    assert status == 0, err
    # The command line generated the files: their sizes are in its answer, and in the module's
    # from the same files.
    sizes = {"wdl_bytes", "dtm_bytes", "wdl_bits_per_position", "dtm_bits_per_position"}
    assert sizes <= stats.keys()
    assert endgame.Tablebases(tmp_path / "cli", rules=rules).stats(material) == stats
    # Without files (up to 4 men: solved in memory), the same counts and no sizes.
    assert tables[rules].stats(material) == {k: v for k, v in stats.items() if k not in sizes}


def test_stats_take_materials_and_rules_in_any_case(tables, tmp_path):
    # Materials and rules in any case, as the command line reads them.
    assert tables["standard"].stats("krvka") == tables["standard"].stats("KRvKA")
    assert endgame.Tablebases(tmp_path, rules="Perpetual-Check").rules == "perpetual-check"


def message(cli_stderr: str) -> str:
    assert cli_stderr.startswith("error: "), cli_stderr
    return cli_stderr[len("error: ") :]


@pytest.mark.parametrize(
    "fen",
    [
        "not a fen",
        "4k4/9/9 w",
        "4k4/9/9/9/9/9/9/9/9/9 w",  # no red General
        "4k4/9/9/9/9/9/9/9/9/3KR4 w",  # the side not to move in check
        "4k4/9/9/9/9/9/9/9/9/4K4 x",
        "",
    ],
)
def test_bad_positions_raise_value_error_with_the_command_lines_message(tables, cli, tmp_path, fen):
    status, _, err = cli("xiangqi", "solve", "--dir", str(tmp_path), fen)
    assert status == 2
    for call in (tables["standard"].probe, tables["standard"].probe_wdl, tables["standard"].moves, tables["standard"].main_line):
        with pytest.raises(ValueError) as raised:
            call(fen)
        assert str(raised.value) == message(err)


def test_bad_materials_rules_and_cache(tables, cli, tmp_path):
    status, _, err = cli("xiangqi", "stats", "--dir", str(tmp_path), "KQvK")
    assert status == 2
    with pytest.raises(ValueError) as raised:
        tables["standard"].stats("KQvK")
    assert str(raised.value) == message(err)
    with pytest.raises(ValueError) as raised:
        tables["standard"].generate("KvK5")
    assert str(raised.value).startswith('material "KvK5": ')
    with pytest.raises(ValueError) as raised:
        endgame.Tablebases(tmp_path, rules="fide")
    assert str(raised.value) == 'rules: expected a rule set (standard, hdu, perpetual-check, check-and-chase), found "fide"'
    with pytest.raises(ValueError, match="cache_mib"):
        endgame.Tablebases(tmp_path, cache_mib=-1)
    with pytest.raises(TypeError):
        tables["standard"].probe(None)  # type: ignore[arg-type]


def test_a_missing_table_names_the_generate_command(tables, cli, tmp_path):
    fen = "9/5n3/4k4/9/4n4/9/3R5/4K4/9/9 w"  # KRvKNN: 5 men, no file
    status, _, err = cli("xiangqi", "solve", "--dir", str(tmp_path), fen)
    assert status == 2
    for call in (tables["standard"].probe, tables["standard"].moves):
        with pytest.raises(endgame.MissingTable) as raised:
            call(fen)
        assert isinstance(raised.value, LookupError)
        cli_hint = " (or add --generate to this command)"
        assert message(err).endswith(cli_hint), err
        assert str(raised.value) == message(err).removesuffix(cli_hint) + ' (or call generate("KRvKNN") on these Tablebases)'
        assert "run `endgame xiangqi generate KRvKNN --rules standard`" in str(raised.value)
    with pytest.raises(endgame.MissingTable, match="endgame xiangqi generate KRvKNN"):
        tables["standard"].stats("KRvKNN")


def test_a_damaged_table_raises_table_error(tmp_path):
    endgame.Tablebases(tmp_path).generate("KRvK")
    # Every file of KRvK (whatever the table format names them), damaged in the middle.
    paths = sorted((tmp_path / "xiangqi" / "standard").glob("KRvK.*"))
    assert paths
    for path in paths:
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    # The statistics are in the header (checked when a file is opened), the values in blocks
    # (checked when read): a probe reads a block of each file.
    with pytest.raises(endgame.TableError) as raised:
        endgame.Tablebases(tmp_path).probe("5k3/9/9/9/9/9/9/9/9/3RK4 w")
    assert isinstance(raised.value, OSError)
    assert "regenerate it with `endgame xiangqi generate KRvK --rules standard`" in str(raised.value)


def test_generate_reports_progress_and_writes_the_files(tmp_path, cli):
    tb = endgame.Tablebases(tmp_path / "py")
    events = []
    summary = tb.generate("KRvKA", progress=events.append)
    status, out, err = cli("xiangqi", "generate", "--dry-run", "--dir", str(tmp_path / "cli"), "KRvKA")
    assert status == 0, err
    # One line per file to write, then two summary lines.
    planned = len(out.strip().splitlines()) - 2
    assert summary == {"materials": planned, "generated": planned, "twins": summary["twins"], "kept": 0, "replaced": 0}
    written = [e for e in events if e["event"] == "written"]
    assert len(written) == planned
    for e in written:
        assert pathlib.Path(e["path"]).is_file() and e["positions"] > 0
    assert {e["event"] for e in events} >= {"solving", "written"}
    assert all(isinstance(e["material"], str) for e in events)
    # A second run keeps every file.
    again = tb.generate("KRvKA", progress=events.append)
    assert again["kept"] == planned and again["generated"] == 0
    # From the files, the same answers as solved in memory.
    memory = endgame.Tablebases(tmp_path / "empty")
    for fen in ["4k4/4a4/9/9/9/9/9/9/9/3K1R3 w", "4k4/4a4/9/9/9/9/9/9/9/3K1R3 b"]:
        assert tb.probe(fen) == memory.probe(fen)
        assert tb.moves(fen) == memory.moves(fen)


def test_probe_wdl_reads_the_wdl_file_only(tmp_path):
    """With the DTM files deleted, probe_wdl answers a generated material and its colour twin
    (read from the same file) as probe did before, while probe of a win fails."""
    tb = endgame.Tablebases(tmp_path)
    tb.generate("KRvKAA")
    # KRvKAA from both sides: Red's Chariot, then Black's (the colour twin).
    fens = all_positions(tb, "3aka3/9/9/9/9/9/9/9/9/3K1R3 w", 2)
    fens += all_positions(tb, "3k1r3/9/9/9/9/9/9/9/9/3AKA3 b", 2)
    want = {f: tb.probe(f) for f in fens}
    assert {r.category for r in want.values()} >= {"win", "draw"}
    dtm = list((tmp_path / "xiangqi" / "standard").glob("*.dtm"))
    assert any(p.name == "KRvKAA.dtm" for p in dtm)
    for path in dtm:
        path.unlink()
    fresh = endgame.Tablebases(tmp_path)
    assert {f: fresh.probe_wdl(f) for f in fens} == {f: r.wdl for f, r in want.items()}
    win = next(f for f, r in want.items() if r.category == "win" and r.dtm > 1)
    with pytest.raises(endgame.TableError, match=r"\.dtm"):
        fresh.probe(win)


def test_an_exception_in_the_progress_callback_is_raised(tmp_path):
    tb = endgame.Tablebases(tmp_path)

    def fail(event):
        raise RuntimeError(f"stop at {event['event']}")

    with pytest.raises(RuntimeError, match="stop at"):
        tb.generate("KRvK", progress=fail)


def all_positions(tb, start, plies):
    """Every position reached in `plies` plies from `start` (FENs), with the start."""
    seen = {start}
    frontier = [start]
    for _ in range(plies):
        nxt = []
        for fen in frontier:
            for m in tb.moves(fen):
                after = apply(fen, m.uci)
                if after not in seen:
                    seen.add(after)
                    nxt.append(after)
        frontier = nxt
    return sorted(seen)


def apply(fen, uci):
    """The FEN after the move `uci` (a small FEN mover for the tests)."""
    board, turn = fen.split()[:2]
    rows = []
    for rank in board.split("/"):
        row = []
        for ch in rank:
            row.extend(["."] * int(ch) if ch.isdigit() else [ch])
        rows.append(row)
    f0, r0, f1, r1 = ord(uci[0]) - 97, int(uci[1]), ord(uci[2]) - 97, int(uci[3])
    piece = rows[9 - r0][f0]
    rows[9 - r0][f0] = "."
    rows[9 - r1][f1] = piece
    out = []
    for row in rows:
        text, run = "", 0
        for ch in row:
            if ch == ".":
                run += 1
            else:
                text += (str(run) if run else "") + ch
                run = 0
        out.append(text + (str(run) if run else ""))
    return "/".join(out) + (" b" if turn == "w" else " w")


def test_threads_probe_at_once(tmp_path):
    tb = endgame.Tablebases(tmp_path)
    fens = all_positions(tb, "4k4/4a4/9/9/9/9/9/9/9/3K1R3 w", 3)
    assert len(fens) > 200
    want = [tb.probe(f) for f in fens]
    wdl = [tb.probe_wdl(f) for f in fens]
    errors = []
    barrier = threading.Barrier(4)

    def work(offset):
        try:
            barrier.wait()
            for _ in range(3):
                for i in range(offset, len(fens), 1):
                    assert tb.probe(fens[i]) == want[i]
                    assert tb.probe_wdl(fens[i]) == wdl[i]
                # Bad input in one thread does not disturb the others.
                with pytest.raises(ValueError):
                    tb.probe("bad")
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
