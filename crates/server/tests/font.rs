//! The page's Chinese font (`assets/chinese.otf`, a subset of Noto Sans CJK SC written by
//! `scripts/page-font.py`) has a glyph for every character the page can show in Chinese, and
//! no other: the interface reads on a machine without Chinese fonts, and the font stays small.
//!
//! The characters, by the script's rule: every non-ASCII character of the Chinese table of
//! `assets/i18n.js` and of the examples' Chinese names (the catalogue), and every CJK or
//! full-width character of the other page modules (comments left out), but `glyphs.js` and
//! `xiangqi-board.js`, whose characters are drawn from outlines. The font's character map is
//! read here from the OpenType file itself (format 4, the Unicode BMP map).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

/// The lines of a script, comment lines left out.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|line| !line.trim_start().starts_with("//"))
}

fn cjk(c: char) -> bool {
    matches!(u32::from(c), 0x2E80..=0x9FFF | 0xFF00..=0xFFEF)
}

/// The characters the page can show in Chinese.
fn chinese_characters() -> BTreeSet<char> {
    let i18n = std::fs::read_to_string(assets().join("i18n.js")).unwrap();
    let start = i18n.find("\n  zh: {").expect("the Chinese table of i18n.js");
    let end = i18n.find("\nexport const LANGUAGES").expect("the end of the tables");
    let mut chars: BTreeSet<char> =
        code_lines(&i18n[start..end]).flat_map(str::chars).filter(|c| !c.is_ascii()).collect();
    for example in endgame_xiangqi::catalogue::CATALOGUE.iter().chain(&endgame_xiangqi::catalogue::MASTERS) {
        chars.extend(example.chinese.chars().filter(|c| !c.is_ascii()));
    }
    for entry in std::fs::read_dir(assets()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".js") || ["i18n.js", "glyphs.js", "xiangqi-board.js"].contains(&name.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        chars.extend(code_lines(&text).flat_map(str::chars).filter(|&c| cjk(c)));
    }
    chars
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([bytes[at], bytes[at + 1]])
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// An OpenType table: its bytes.
fn table<'a>(font: &'a [u8], tag: &[u8; 4]) -> &'a [u8] {
    let tables = usize::from(u16_at(font, 4));
    (0..tables)
        .map(|i| 12 + 16 * i)
        .find(|&record| &font[record..record + 4] == tag)
        .map(|record| {
            let (offset, length) = (u32_at(font, record + 8) as usize, u32_at(font, record + 12) as usize);
            &font[offset..offset + length]
        })
        .unwrap_or_else(|| panic!("no {} table", String::from_utf8_lossy(tag)))
}

/// The characters the font maps to a glyph (not `.notdef`), from its Windows Unicode BMP map
/// (`cmap` format 4), each with its glyph.
fn character_map(font: &[u8]) -> Vec<(char, u16)> {
    let glyphs = u16_at(table(font, b"maxp"), 4);
    let cmap = table(font, b"cmap");
    let records = usize::from(u16_at(cmap, 2));
    let subtable = (0..records)
        .map(|i| 4 + 8 * i)
        .find(|&r| (u16_at(cmap, r), u16_at(cmap, r + 2)) == (3, 1))
        .map(|r| &cmap[u32_at(cmap, r + 4) as usize..])
        .expect("a Windows Unicode BMP character map");
    assert_eq!(u16_at(subtable, 0), 4, "format 4");
    let segments = usize::from(u16_at(subtable, 6) / 2);
    let (ends, starts, deltas, ranges) = (14, 16 + 2 * segments, 16 + 4 * segments, 16 + 6 * segments);
    let mut map = Vec::new();
    for s in 0..segments {
        let (start, end) = (u16_at(subtable, starts + 2 * s), u16_at(subtable, ends + 2 * s));
        let (delta, range) = (u16_at(subtable, deltas + 2 * s), u16_at(subtable, ranges + 2 * s));
        for code in start..=end {
            if code == 0xFFFF {
                break;
            }
            let glyph = if range == 0 {
                code.wrapping_add(delta)
            } else {
                let at = ranges + 2 * s + usize::from(range) + 2 * usize::from(code - start);
                match u16_at(subtable, at) {
                    0 => 0,
                    g => g.wrapping_add(delta),
                }
            };
            if glyph != 0 {
                assert!(glyph < glyphs, "U+{code:04X}: glyph {glyph} of {glyphs}");
                map.push((char::from_u32(u32::from(code)).unwrap(), glyph));
            }
        }
    }
    map
}

#[test]
fn the_chinese_font_has_every_character_of_the_chinese_text_and_no_other() {
    let font = std::fs::read(assets().join("chinese.otf")).unwrap();
    assert_eq!(&font[..4], b"OTTO", "an OpenType font with CFF outlines");
    let mapped: BTreeSet<char> = character_map(&font).into_iter().map(|(c, _)| c).collect();
    let needed = chinese_characters();
    // The characters the issue names: labels, piece names, 进退平, 一…九.
    for c in "象棋红方黑方帅仕相马车炮兵将士卒进退平一二三四五六七八九胜负和".chars()
    {
        assert!(needed.contains(&c), "{c} is not among the characters found: the rule misses text");
    }
    let missing: String = needed.difference(&mapped).collect();
    let extra: String = mapped.difference(&needed).collect();
    let again =
        "run `python3 scripts/page-font.py NotoSansCJK-Regular.ttc` (the script says where to get it)";
    assert!(missing.is_empty(), "the page shows {missing:?} in Chinese, the font lacks them: {again}");
    assert!(extra.is_empty(), "the font has {extra:?}, which the page no longer shows: {again}");
    // A few tens of KB.
    assert!(font.len() < 100_000, "{} bytes", font.len());
}

/// The font's licence travels with it: the OFL text served beside it names it, its source and
/// its copyright, and the style sheet loads it under its own name.
#[test]
fn the_chinese_font_is_named_and_licensed() {
    let ofl = std::fs::read_to_string(assets().join("OFL.txt")).unwrap();
    for needed in ["chinese.otf", "Noto Sans CJK SC", "2014-2021 Adobe", "SIL OPEN FONT LICENSE Version 1.1"]
    {
        assert!(ofl.contains(needed), "OFL.txt does not say {needed:?}");
    }
    let css = std::fs::read_to_string(assets().join("style.css")).unwrap();
    assert!(css.contains("font-family: \"Endgame Sans SC\"; src: url(/assets/chinese.otf)"), "style.css");
}
