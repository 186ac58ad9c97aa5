#!/usr/bin/env python3
"""Writes crates/server/assets/glyphs.js: the outlines of the Xiangqi piece characters and the
river text, as SVG paths, so that the explorer draws them the same on any machine (with or
without Chinese fonts).

The outlines are those of LXGW WenKai Bold (a Kai style, as pieces are cut), SIL Open Font
License 1.1, Copyright 2021-2022 lxgw; the page ships them as a modified version (20 glyphs,
coordinates rounded) under that licence, without the Reserved Font Names (crates/server/assets/
OFL.txt). Run it again only to change the characters or the font:

    apt-get download fonts-lxgw-wenkai && dpkg-deb -x fonts-lxgw-wenkai_*.deb font
    apt-get install python3-fonttools
    python3 scripts/page-glyphs.py font/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf
"""

import pathlib
import sys

from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen
from fontTools.ttLib import TTFont

# Red's pieces, Black's pieces (General, Advisor, Elephant, Horse, Chariot, Cannon, Soldier),
# the river (楚河 漢界), and the language switch's 中文.
CHARACTERS = "帥仕相傌俥炮兵將士象馬車砲卒楚河漢界中文"

HEADER = """\
// The outlines of the Xiangqi piece characters, the river text and the language switch's 中文,
// drawn as SVG paths so that they look the same on every machine, with or without Chinese fonts.
//
// Written by scripts/page-glyphs.py from LXGW WenKai Bold: Copyright 2021-2022 lxgw
// <calxgw2018@gmail.com>. These outlines (a modified version of that font: 20 glyphs,
// coordinates rounded, each centred in its box) are licensed under the SIL Open Font License,
// Version 1.1 (crates/server/assets/OFL.txt, served at /assets/OFL.txt); they do not use the
// font's Reserved Font Names.
//
// Each path fills a 1000 x 1000 box (y down) with its ink centred at (500, 500).
"""


def main() -> None:
    font = TTFont(sys.argv[1])
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    lines = [HEADER, "export const GLYPHS = {"]
    for ch in CHARACTERS:
        glyph = glyphs[cmap[ord(ch)]]
        bounds = BoundsPen(glyphs)
        glyph.draw(bounds)
        x0, y0, x1, y1 = bounds.bounds
        # Font units are y up; the box is y down with the ink's centre at (500, 500).
        dx, dy = 500 - (x0 + x1) / 2, 500 + (y0 + y1) / 2
        pen = SVGPathPen(glyphs, ntos=lambda v: str(int(round(v))))
        glyph.draw(TransformPen(pen, (1, 0, 0, -1, dx, dy)))
        lines.append(f"  '{ch}': '{pen.getCommands()}',")
    lines.append("};")
    out = pathlib.Path(__file__).resolve().parent.parent / "crates/server/assets/glyphs.js"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
