"""Twixt records: replay and threats, as ``endgame twixt replay --json`` prints them."""

from typing import Any, Dict, Optional

def replay(
    text: str,
    format: Optional[str] = None,
    rules: Optional[str] = None,
    swap: Optional[bool] = None,
) -> Dict[str, Any]:
    """Replays a Twixt record and returns what ``endgame twixt replay --json`` prints.

    ``text``: the record (POJ 2706 judge tokens, Little Golem SGF or T1j ``.T1``; detected
    unless ``format`` is ``"judge"``, ``"sgf"`` or ``"t1"``); ``rules``: ``"poj"`` or
    ``"pp"`` (default: the format's); ``swap``: allow the pie rule (default: the format's).
    Raises ``ValueError`` with the place of the first error in the record."""

def threats(
    text: str,
    format: Optional[str] = None,
    rules: Optional[str] = None,
    swap: Optional[bool] = None,
) -> Dict[str, Any]:
    """The points where either side would win at once after the record, as
    ``endgame twixt threats --json`` prints them. Arguments and errors as :func:`replay`."""
