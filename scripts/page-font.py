#!/usr/bin/env python3
"""Writes crates/server/assets/chinese.otf: the characters of the explorer's Chinese text in
Noto Sans CJK SC Regular, so that the Chinese interface reads on a machine without Chinese
fonts (the pieces, the river and the language switch are outlines of their own, glyphs.js).

The characters are those the page can show in Chinese (the same rule as the test that checks
the font, crates/server/tests/font.rs):
- every non-ASCII character of the Chinese table of assets/i18n.js and of the examples' Chinese
  names (crates/xiangqi/src/catalogue.rs);
- every CJK or full-width character of the other page modules (Chinese notation's 进退平 and
  一…九 in xiangqi-notation.js, say), comments left out, but glyphs.js and xiangqi-board.js,
  whose characters are drawn from outlines.

The font is a subset of Noto Sans CJK SC Regular (SIL Open Font License 1.1; © 2014-2021
Adobe), renamed "Endgame Sans SC" as a modified version, its outlines unchanged: CFF in an
OpenType file, not compressed, so that the test reads its character map without a
decompressor (some tens of KB). Run it again when the Chinese text gains a character (the test
fails and says so):

    apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb font
    pip install fonttools
    python3 scripts/page-font.py font/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
"""

import pathlib
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = pathlib.Path(__file__).resolve().parent.parent
ASSETS = ROOT / "crates/server/assets"
OUT = ASSETS / "chinese.otf"
FAMILY = "Endgame Sans SC"
# Drawn from outlines (glyphs.js), not from a font.
OUTLINED = {"glyphs.js", "xiangqi-board.js"}


def code_lines(text):
    """The lines of a script, comment lines left out."""
    return [line for line in text.splitlines() if not line.lstrip().startswith("//")]


def cjk(ch):
    return 0x2E80 <= ord(ch) <= 0x9FFF or 0xFF00 <= ord(ch) <= 0xFFEF


def characters():
    """The characters the page can show in Chinese, sorted."""
    i18n = (ASSETS / "i18n.js").read_text(encoding="utf-8")
    zh = i18n[i18n.index("\n  zh: {") : i18n.index("\nexport const LANGUAGES")]
    chars = {ch for line in code_lines(zh) for ch in line if ord(ch) > 0x7F}
    catalogue = (ROOT / "crates/xiangqi/src/catalogue.rs").read_text(encoding="utf-8")
    chars |= {ch for name in re.findall(r'chinese: "([^"]*)"', catalogue) for ch in name if ord(ch) > 0x7F}
    for script in sorted(ASSETS.glob("*.js")):
        if script.name in OUTLINED or script.name == "i18n.js":
            continue
        chars |= {ch for line in code_lines(script.read_text(encoding="utf-8")) for ch in line if cjk(ch)}
    return "".join(sorted(chars))


def main():
    collection = TTCollection(sys.argv[1])
    index = next(
        i for i, f in enumerate(collection.fonts) if f["name"].getDebugName(1) == "Noto Sans CJK SC"
    )
    font = collection.fonts[index]
    version = font["name"].getDebugName(5)
    text = characters()
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    # A modified version: another name (the OFL's Reserved Font Name of Noto Sans CJK is
    # "Source"; "Noto" is Google's trademark).
    name = font["name"]
    for record in name.names:
        if record.nameID in (1, 4):
            record.string = FAMILY
        elif record.nameID == 3:
            record.string = f"{FAMILY}; subset of Noto Sans CJK SC {version}"
        elif record.nameID == 6:
            record.string = FAMILY.replace(" ", "") + "-Regular"
    font["CFF "].cff.fontNames = [FAMILY.replace(" ", "") + "-Regular"]
    font.save(OUT)
    missing = [ch for ch in text if ord(ch) not in font.getBestCmap()]
    if missing:
        sys.exit(f"the font has no glyph for {''.join(missing)}")
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, {len(text)} characters, from {version})")


if __name__ == "__main__":
    main()
