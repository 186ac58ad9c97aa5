"""Cheesy Chess (HDU 1680): a white king against a black pawn, solved exactly, as
``endgame cheesy solve --json`` prints it."""

from ._endgame import cheesy as _cheesy

solve = _cheesy.solve

__all__ = ["solve"]
