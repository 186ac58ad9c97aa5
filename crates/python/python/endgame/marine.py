"""Marine against zerglings (BZOJ 2205): the shortest win, as ``endgame marine solve --json``
prints it."""

from ._endgame import marine as _marine

solve = _marine.solve

__all__ = ["solve"]
