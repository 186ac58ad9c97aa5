"""Type hints of the compiled part of ``endgame`` (re-exported by the package)."""

import os
import types
from typing import Any, Callable, Dict, List, Literal, Optional, Tuple, Union

__version__: str
DEFAULT_CACHE_MIB: int
"""The default block cache of :class:`Tablebases`, in MiB."""
RULES: Tuple[str, ...]
"""The rule sets: ``"standard"``, ``"hdu"``, ``"perpetual-check"``, ``"check-and-chase"``."""

twixt: types.ModuleType
cheesy: types.ModuleType
marine: types.ModuleType

Category = Literal["win", "draw", "loss"]

class MissingTable(LookupError):
    """No table for the position's material (or one a capture leads to): the message names
    the command that generates it (or says why no table of it can exist)."""

class TableError(OSError):
    """A table file cannot be read or is damaged (the message says how to regenerate it)."""

class SearchLimit(RuntimeError):
    """A search stored more states than its limit allows (``max_states``) without an answer."""

class ProbeResult:
    """A position's value for the side to move."""

    category: Category
    """``"win"``, ``"draw"`` or ``"loss"`` for the side to move."""
    dtm: Optional[int]
    """Plies to the end under best play: positive when the side to move wins, negative when
    it loses, ``None`` for a draw or a result by the rule (the lichess API's convention)."""
    rule: Optional[str]
    """``"perpetual-check"`` or ``"perpetual-chase"`` when won or lost by that ban, else ``None``."""
    @property
    def wdl(self) -> int:
        """1, 0 or -1: the category as a number."""

class Move:
    """A legal move and its value: :attr:`for_mover` for the side that plays it (a winning move
    has ``for_mover.category == "win"``: the convention of every interface of endgame), and
    :attr:`after`, the position after it for the opponent. ``category``, ``dtm`` and ``rule``
    are ``after``'s (the lichess API's convention, as ``endgame xiangqi moves --json``)."""

    uci: str
    """The move in UCI (ICCS) coordinates, such as ``"h2e2"``."""
    wxf: Optional[str]
    """The move in WXF notation, such as ``"C2.5"``."""
    capture: Optional[str]
    """The role of the piece it captures (``"Horse"``), or ``None``."""
    for_mover: ProbeResult
    """Its value for the side that plays it: ``category`` ``"win"`` when the move wins,
    ``dtm`` in plies from the position before the move (positive when the mover wins)."""
    after: ProbeResult
    """The value of the position after the move, for the opponent (to move there)."""
    category: Category
    """``after.category``: the category of the position after the move, for the opponent
    (``"loss"`` after a winning move)."""
    dtm: Optional[int]
    """``after.dtm``: its distance in plies, signed for the opponent."""
    rule: Optional[str]
    """``after.rule``: ``"perpetual-check"`` or ``"perpetual-chase"`` when that position is won
    or lost by that ban."""

class Tablebases:
    """The Xiangqi tables of one rule set in one directory, as ``endgame xiangqi`` reads and
    writes them (in ``dir/xiangqi/<rules>/``).

    ``dir``: the directory (``None``: the command line's default: ``$ENDGAME_TB_DIR``, else
    ``$XDG_DATA_HOME/endgame``, else ``~/.local/share/endgame``); ``rules``: one of
    :data:`RULES`; ``cache_mib``: the block cache in MiB. Materials of up to 4 men are solved
    in memory on first use when they have no file. Safe to share between threads: probes
    release the GIL and run in parallel.

    Raises ``ValueError`` for unknown rules or a negative cache.
    """

    def __init__(
        self,
        dir: Union[str, os.PathLike[str], None] = None,
        rules: str = "standard",
        cache_mib: int = 64,
    ) -> None: ...
    @property
    def rules(self) -> str:
        """The rule set."""
    @property
    def dir(self) -> str:
        """The directory of the tables (the files are in ``dir/xiangqi/<rules>/``)."""
    def probe(self, fen: str) -> ProbeResult:
        """The value of the position ``fen`` (Xiangqi FEN, Pikafish letters) for the side to
        move. Raises ``ValueError`` (bad FEN, illegal position), :class:`MissingTable`,
        :class:`TableError`."""
    def probe_wdl(self, fen: str) -> int:
        """1 (the side to move wins), 0 (draw) or -1 (it loses); a result by the rule counts.
        Reads the table's WDL file only, never its DTM file (the fewest bytes, for a search).
        Raises as :meth:`probe`."""
    def moves(self, fen: str) -> List[Move]:
        """Every legal move best first (the shortest win, draws, the longest loss), each with
        its value for the side that plays it (:attr:`Move.for_mover`) and the value of the
        position after it for the opponent (:attr:`Move.after`). Raises as :meth:`probe`."""
    def main_line(self, fen: str) -> List[str]:
        """The main line in UCI moves: to the end of a win or loss, until a position repeats
        in a result by the rule, at most 20 plies of a draw. Raises as :meth:`probe`."""
    def stats(self, material: str) -> Dict[str, Any]:
        """The statistics of ``material`` (``"KRvKA"``) as ``endgame xiangqi stats --json``:
        ``positions``, ``wins``, ``losses``, ``draws``, ``longest_red_win_plies``,
        ``longest_black_win_plies`` (under perpetual-check and check-and-chase also
        ``wins_by_rule``, ``losses_by_rule``, ``standard_draws``; when the material has files,
        ``wdl_bytes``, ``dtm_bytes``, ``wdl_bits_per_position``, ``dtm_bits_per_position``),
        and ``red_to_move``, ``black_to_move``: the counts for each side to move, from every
        block of the table. Raises ``ValueError``, :class:`MissingTable`, :class:`TableError`."""
    def review(
        self,
        record: Union[str, bytes],
        game: int = 1,
        mistake_plies: int = 10,
    ) -> Dict[str, Any]:
        """Game ``game`` (1 for the first) of ``record`` (PGN text in any notation, or the
        bytes of a PGN file in any encoding or of an XQF file) reviewed against these tables,
        as ``endgame xiangqi review --json`` prints it: ``moves`` (one per ply: ``ply``,
        ``move``, ``turn``, ``uci``, ``wxf``, ``capture``, ``fen``, ``result``,
        ``for_mover``, ``mark`` (``"blunder"``, ``"mistake"`` or ``None``), ``best``,
        ``best_wxf``), ``final``, ``summary`` (``red``, ``black``, ``perfect_play``,
        ``missing``, ``plies``), ``rules``, ``mistake_plies``, ``start_fen``, ``game``,
        ``games``, ``tags``. A winning move that mates ``mistake_plies`` plies later than the
        best (or more) is a mistake.

        Raises ``ValueError`` (a record that cannot be read, naming the game and the move; no
        such game), :class:`TableError`."""
    def generate(
        self,
        material: str,
        progress: Optional[Callable[[Dict[str, Any]], object]] = None,
    ) -> Dict[str, int]:
        """Generates the tables of ``material`` and of every material a capture leads to
        (keeping files that exist and pass their check) and returns ``materials``,
        ``generated``, ``twins`` (materials answered from their colour twin's file), ``kept``,
        ``replaced``.

        ``progress`` is called with a dict per event: ``event`` (``"solving"``,
        ``"progress"``, ``"step"``, ``"written"``, ``"kept"``,
        ``"replacing"``), ``material`` and the event's fields (``positions``, ``memory``,
        ``phase``, ``done``, ``total``, ``step``, ``seconds``, ``path``,
        ``error``). An exception it raises is raised once the generation ends.

        Raises ``ValueError`` (bad material), :class:`MissingTable` (beyond the tables),
        ``MemoryError``, ``OSError``."""

def review(
    record: Union[str, bytes],
    game: int = 1,
    rules: str = "standard",
    dir: Union[str, os.PathLike[str], None] = None,
    mistake_plies: int = 10,
) -> Dict[str, Any]:
    """Game ``game`` of ``record`` reviewed against the tables of ``rules`` in ``dir``
    (``None``: the command line's default directory): :meth:`Tablebases.review` on new
    tables (keep a :class:`Tablebases` to review many games with one cache). Raises as
    :meth:`Tablebases.review`, and ``ValueError`` for unknown rules."""
