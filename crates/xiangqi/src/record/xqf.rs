//! XQF, the binary game files of 象棋演播室 (XQStudio), written from the format's public
//! descriptions: the author's own XQF 1.0 description (2001; unencrypted, version 10) and
//! the descriptions of the later, encrypted versions (11 and 12 and above, as XQStudio 1.6
//! writes them).
//!
//! The layout: a 1024-byte header, then the moves from byte 0x400.
//! - Header: `XQ`, the version (byte 2), the keys of the encrypted versions (bytes 3-15), the
//!   points of the 32 pieces (0x10-0x2F; Red's Chariot Horse Elephant Advisor General Advisor
//!   Elephant Horse Chariot Cannon Cannon and five Soldiers, then Black's; a point is
//!   `file * 10 + rank` from Red's lower left, anything above 89 a captured piece), the side
//!   to move first (0x32), the result (0x33: 1 Red wins, 2 Black wins, 3 draw), and strings of
//!   GB18030 text, each a length byte and its room: title 0x50, event 0xD0, date 0x110, site
//!   0x120, Red 0x130, Black 0x140, annotator 0x1D0, author 0x1E0.
//! - Moves: a tree in preorder, each node the origin (+ 0x18), the destination (+ 0x20), a
//!   flag byte and a reserved byte, then its comment. The first node (step 0) stands for the
//!   start position and holds the game's opening comment. A node's first child continues its
//!   line; its sibling is a variation. Up to version 10 every node carries a 4-byte comment
//!   length (little-endian), and a non-zero high nibble of the flags means a child, a
//!   non-zero low nibble a sibling. From version 11: bit 0x80 a child, 0x40 a sibling, 0x20 a
//!   comment (its length follows).
//! - Encryption (version 11 and above): from the key bytes come three offsets (`KeyXY` for
//!   the pieces, `KeyXYf` and `KeyXYt` for the two points of a move, each `(((((k*k)*3+9)*3+8)
//!   *2+1)*3+8) * m mod 256` of its key byte `k` and the previous key `m`), a comment-length
//!   offset, and a 32-byte key (the text `[(C) Copyright Mr. Dong Shiwei.]`, byte `i` masked
//!   with `(key[i % 4] & mask) | or[i % 4]`) subtracted from every byte of the moves, the key
//!   byte chosen by the byte's offset modulo 32. From version 12 the 32 piece points are also
//!   rotated by `KeyXY + 1` places and offset by `KeyXY`.
//!
//! The main line is read and checked against the rules; variations are skipped.

use crate::record::error::{Place, RecordError};
use crate::record::notation::legal_moves_of;
use crate::record::pgn::move_place;
use crate::record::text::decode_gb18030_lossy;
use crate::record::{Game, RULES};
use crate::rules::board::{Board, Setup};
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::square::{File, Rank, Square};

/// Where the moves begin.
const MOVES_AT: usize = 0x400;

/// The kinds of the 16 pieces of a side, in the order of the header.
const ROLES: [Role; 16] = [
    Role::Chariot,
    Role::Horse,
    Role::Elephant,
    Role::Advisor,
    Role::General,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Chariot,
    Role::Cannon,
    Role::Cannon,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
    Role::Soldier,
];

/// The text the 32-byte key of the encrypted versions is made from.
const KEY_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The string fields of the header: offset and tag.
const STRINGS: [(usize, &str); 8] = [
    (0xD0, "Event"),
    (0x120, "Site"),
    (0x110, "Date"),
    (0x130, "Red"),
    (0x140, "Black"),
    (0x50, "Title"),
    (0x1D0, "Annotator"),
    (0x1E0, "Author"),
];

/// Whether the bytes are an XQF file (rather than text): `XQ` and a version byte that no
/// text has there.
pub(crate) fn is_xqf(bytes: &[u8]) -> bool {
    bytes.len() >= 3 && bytes.starts_with(b"XQ") && bytes[2] < 0x20
}

/// The keys of one file.
struct Keys {
    version: u8,
    /// Offsets of the piece points, a move's origin and its destination.
    xy: u8,
    from: u8,
    to: u8,
    /// Subtracted from a comment's stored length.
    comment: u32,
    /// Subtracted from every byte of the moves.
    stream: [u8; 32],
}

/// `(((((k*k)*3+9)*3+8)*2+1)*3+8) * m`, modulo 256.
fn scramble(k: u8, m: u8) -> u8 {
    let k = u32::from(k);
    let base = ((((k * k) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8;
    (base.wrapping_mul(u32::from(m)) & 0xFF) as u8
}

impl Keys {
    fn new(header: &[u8]) -> Keys {
        let version = header[2];
        if version <= 10 {
            return Keys { version, xy: 0, from: 0, to: 0, comment: 0, stream: [0; 32] };
        }
        let (mask, or) = (header[3], [header[8], header[9], header[10], header[11]]);
        let (sum, kxy, kf, kt) = (header[12], header[13], header[14], header[15]);
        let xy = scramble(kxy, kxy);
        let from = scramble(kf, xy);
        let to = scramble(kt, from);
        let comment = (u32::from(sum) * 256 + u32::from(kxy)) % 32000 + 767;
        let key = [(sum & mask) | or[0], (kxy & mask) | or[1], (kf & mask) | or[2], (kt & mask) | or[3]];
        let stream = std::array::from_fn(|i| KEY_TEXT[i] & key[i % 4]);
        Keys { version, xy, from, to, comment, stream }
    }
}

/// The moves' bytes, decrypted as they are read.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    keys: &'a Keys,
}

impl Reader<'_> {
    fn bytes(&mut self, n: usize, what: &str) -> Result<Vec<u8>, RecordError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| RecordError {
            game: Some(1),
            place: Place::Offset(self.pos),
            reason: format!(
                "the file ends inside {what} ({n} bytes from here, {} left)",
                self.bytes.len() - self.pos
            ),
        })?;
        let out = (self.pos..end)
            .map(|i| self.bytes[i].wrapping_sub(self.keys.stream[i % 32]))
            .collect::<Vec<u8>>();
        self.pos = end;
        Ok(out)
    }

    fn u32(&mut self, what: &str) -> Result<u32, RecordError> {
        let b = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// One node of the move tree.
struct Node {
    at: usize,
    from: u8,
    to: u8,
    child: bool,
    sibling: bool,
    comment: String,
}

fn node(r: &mut Reader<'_>) -> Result<Node, RecordError> {
    let at = r.pos;
    let b = r.bytes(4, "a move")?;
    let (from, to, flags) = (b[0], b[1], b[2]);
    let (child, sibling, has_comment) = if r.keys.version <= 10 {
        (flags & 0xF0 != 0, flags & 0x0F != 0, true)
    } else {
        (flags & 0x80 != 0, flags & 0x40 != 0, flags & 0x20 != 0)
    };
    let mut comment = String::new();
    if has_comment {
        let len_at = r.pos;
        let stored = r.u32("a comment's length")?;
        let len = stored.wrapping_sub(r.keys.comment);
        if len > 0 {
            let len = usize::try_from(len).ok().filter(|&l| l <= r.bytes.len() - r.pos).ok_or_else(|| {
                RecordError {
                    game: Some(1),
                    place: Place::Offset(len_at),
                    reason: format!(
                        "a comment of {len} bytes, more than the {} left in the file",
                        r.bytes.len() - r.pos
                    ),
                }
            })?;
            comment = decode_gb18030_lossy(&r.bytes(len, "a comment")?).trim().to_string();
        }
    }
    Ok(Node {
        at,
        from: from.wrapping_sub(0x18).wrapping_sub(r.keys.from),
        to: to.wrapping_sub(0x20).wrapping_sub(r.keys.to),
        child,
        sibling,
        comment,
    })
}

/// The point of an XQF point byte (`file * 10 + rank`), if it is on the board.
fn point(b: u8) -> Option<Square> {
    if b > 89 {
        return None;
    }
    Some(Square::new(File::new(b / 10)?, Rank::new(b % 10)?))
}

fn header_error(offset: usize, reason: impl Into<String>) -> RecordError {
    RecordError { game: Some(1), place: Place::Offset(offset), reason: reason.into() }
}

/// The game of an XQF file.
pub(crate) fn read(bytes: &[u8]) -> Result<Game, RecordError> {
    if bytes.len() < MOVES_AT {
        return Err(header_error(bytes.len(), "the file ends inside the 1024-byte XQF header"));
    }
    let keys = Keys::new(bytes);
    // The pieces' points.
    let mut points: [u8; 32] = std::array::from_fn(|i| bytes[0x10 + i]);
    if keys.version >= 12 {
        let stored = points;
        for (i, &b) in stored.iter().enumerate() {
            points[(usize::from(keys.xy) + i + 1) % 32] = b;
        }
        for p in &mut points {
            *p = p.wrapping_sub(keys.xy);
        }
    }
    let mut board = Board::empty();
    for (i, &b) in points.iter().enumerate() {
        let Some(sq) = point(b) else { continue };
        let color = if i < 16 { Color::Red } else { Color::Black };
        if let Some(other) = board.set(sq, Some(Piece { color, role: ROLES[i % 16] })) {
            return Err(header_error(0x10 + i, format!("two pieces on {sq} ({other} and another)")));
        }
    }
    // The moves' tree: the main line is the chain of first children from step 0.
    let mut reader = Reader { bytes, pos: MOVES_AT, keys: &keys };
    let mut main: Vec<Node> = Vec::new();
    let mut root_comment = String::new();
    // What the next node is: a main-line node (true) or part of a variation.
    let mut next_main = true;
    let mut pending_siblings = 0usize;
    let mut first = true;
    loop {
        let n = node(&mut reader)?;
        let (child, sibling) = (n.child, n.sibling);
        if sibling {
            pending_siblings += 1;
        }
        let was_main = next_main;
        if first {
            root_comment = n.comment;
            first = false;
        } else if was_main {
            main.push(n);
        }
        if child {
            next_main = was_main;
        } else if pending_siblings > 0 {
            pending_siblings -= 1;
            next_main = false;
        } else {
            break;
        }
    }
    // The side to move first: the owner of the first move's piece, else the header's byte.
    let first_piece = main.first().and_then(|n| point(n.from)).and_then(|sq| board.get(sq));
    let turn = match first_piece {
        Some(piece) => piece.color,
        None if bytes[0x32] == 1 => Color::Black,
        None => Color::Red,
    };
    let start = Position::from_setup(Setup { board, turn })
        .and_then(|p| p.check(RULES).map(|()| p))
        .map_err(|e| header_error(0x10, format!("the start position: {e}")))?;
    let mut position = start;
    let mut moves = Vec::with_capacity(main.len());
    let mut comments = Vec::new();
    if !root_comment.is_empty() {
        comments.push((0, root_comment));
    }
    for (ply, n) in main.into_iter().enumerate() {
        let text = match (point(n.from), point(n.to)) {
            (Some(from), Some(to)) => Move { from, to }.to_string(),
            _ => format!("points {} and {}", n.from, n.to),
        };
        let place = || match move_place(start.turn(), ply, &text, None) {
            Place::Move { number, side, ply, text, .. } => {
                Place::Move { number, side, ply, text, line: None }
            }
            other => other,
        };
        let refuse = |reason: String| RecordError {
            game: Some(1),
            place: place(),
            reason: format!("{reason} (the move at byte {})", n.at),
        };
        let (Some(from), Some(to)) = (point(n.from), point(n.to)) else {
            return Err(refuse("a point off the board".to_string()));
        };
        let mv = Move { from, to };
        if !legal_moves_of(&position, |sq, _| sq == from).contains(&mv) {
            return Err(refuse(format!("not a legal move of {}", position.turn())));
        }
        position = position.play_unchecked(mv);
        moves.push(mv);
        if !n.comment.is_empty() {
            comments.push((ply + 1, n.comment));
        }
    }
    let mut tags = Vec::new();
    for (offset, name) in STRINGS {
        let len = usize::from(bytes[offset]).min(if offset == 0x50 || offset == 0xD0 { 63 } else { 15 });
        let value = decode_gb18030_lossy(&bytes[offset + 1..offset + 1 + len])
            .trim_end_matches('\0')
            .trim()
            .to_string();
        if !value.is_empty() {
            tags.push((name.to_string(), value));
        }
    }
    let result = match bytes[0x33] {
        1 => "1-0",
        2 => "0-1",
        3 => "1/2-1/2",
        _ => "*",
    };
    tags.push(("Result".to_string(), result.to_string()));
    if start.setup() != crate::record::pgn::START_FEN.parse::<Setup>().expect("the start FEN") {
        tags.push(("FEN".to_string(), start.setup().to_string()));
    }
    Ok(Game { tags, start, moves, comments, result: Some(result.to_string()), notation: None })
}
