"""Twixt records (POJ 2706 judge tokens, Little Golem SGF, T1j .T1): replay and threats, as
``endgame twixt replay --json`` and ``endgame twixt threats --json`` print them."""

from ._endgame import twixt as _twixt

replay = _twixt.replay
threats = _twixt.threats

__all__ = ["replay", "threats"]
