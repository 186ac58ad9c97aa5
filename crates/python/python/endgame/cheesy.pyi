"""Cheesy Chess (HDU 1680), solved exactly."""

from typing import Any, Dict

def solve(board: str, to_move: str = "white") -> Dict[str, Any]:
    """Solves a Cheesy Chess board and returns what ``endgame cheesy solve --json`` prints.

    ``board``: the board file's text; ``to_move``: ``"white"`` or ``"black"``. Raises
    ``ValueError`` with the place of the first error."""
