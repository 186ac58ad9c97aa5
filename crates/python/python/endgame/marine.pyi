"""Marine against zerglings (BZOJ 2205): the shortest win."""

from typing import Any, Dict, Optional

def solve(battle: str, rounds: int = 34, max_states: Optional[int] = None) -> Dict[str, Any]:
    """Solves a battle and returns what ``endgame marine solve --json`` prints: ``result``
    (``"win"``/``"lose"``), ``rounds``, ``limit``, ``states``, ``expanded``, ``start`` and
    ``plan``.

    ``battle``: the battle file's text; ``rounds``: the round limit; ``max_states``: stop once
    the search stores this many states (default: as many as half the available memory holds).
    Raises ``ValueError`` with the place of the first error, :class:`endgame.SearchLimit` past
    ``max_states``."""
