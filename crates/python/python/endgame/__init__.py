"""Exact Xiangqi endgame tables from Python, as ``chess.syzygy`` serves Syzygy tables.

>>> import endgame
>>> tb = endgame.Tablebases()           # the command line's default directory
>>> tb.probe("4k4/9/9/9/9/9/9/9/4A4/3RK4 w")
ProbeResult(category='win', dtm=3, rule=None)

Materials of up to 4 men are solved in memory on first use; larger ones need their tables
(``tb.generate("KRvKNN")`` or ``endgame xiangqi generate KRvKNN``). A game record (PGN or
XQF) against the tables: ``endgame.review(text)`` (or ``tb.review(text)``). The other games:
:mod:`endgame.twixt`, :mod:`endgame.cheesy`, :mod:`endgame.marine`.
"""

from ._endgame import (
    DEFAULT_CACHE_MIB,
    RULES,
    MissingTable,
    Move,
    ProbeResult,
    SearchLimit,
    TableError,
    Tablebases,
    __version__,
    review,
)
from . import cheesy, marine, twixt

__all__ = [
    "DEFAULT_CACHE_MIB",
    "RULES",
    "MissingTable",
    "Move",
    "ProbeResult",
    "SearchLimit",
    "TableError",
    "Tablebases",
    "__version__",
    "cheesy",
    "marine",
    "review",
    "twixt",
]
