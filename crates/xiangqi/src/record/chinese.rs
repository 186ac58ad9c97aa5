//! Moves in Chinese notation: `炮二平五` (Red), `马８进７` (Black).
//!
//! The piece, its file counted from the mover's right, then 进 (forward), 退 (backward) or
//! 平 (along the rank), then the file it goes to or the number of points it moves, as in WXF
//! ([`crate::wxf`]). Red writes its numbers in Chinese numerals (一 to 九), Black in digits
//! (full-width １ to ９ here; ASCII digits are read too). Two pieces of a kind on one file
//! are 前 (front) and 后 (rear): `前炮平五`; three Soldiers 前, 中, 后; four or five 一, 二,
//! 三, 四, 五 from the front (`二兵平四`); when two files each hold two or more Soldiers, the
//! file takes the piece's place: `前三平四`. Advisors and Elephants keep their file, as in
//! WXF. Written in simplified characters (Red 车马相仕帅炮兵, Black 车马象士将炮卒); read in
//! simplified and traditional ones (車俥, 馬傌, 砲包, 帥將, 進, 後).

use crate::record::notation::{Place, Query};
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::piece::Role;
use crate::rules::position::Position;
use crate::wxf::{Direction, describe};

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// One character of a Chinese move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sym {
    Piece(Role),
    Digit(u8),
    Place(Place),
    Dir(Direction),
}

fn classify(c: char) -> Option<Sym> {
    Some(match c {
        '车' | '車' | '俥' => Sym::Piece(Role::Chariot),
        '马' | '馬' | '傌' => Sym::Piece(Role::Horse),
        '炮' | '砲' | '包' => Sym::Piece(Role::Cannon),
        '相' | '象' => Sym::Piece(Role::Elephant),
        '仕' | '士' => Sym::Piece(Role::Advisor),
        '帅' | '帥' | '将' | '將' => Sym::Piece(Role::General),
        '兵' | '卒' => Sym::Piece(Role::Soldier),
        '前' => Sym::Place(Place::First),
        '中' => Sym::Place(Place::Middle),
        '后' | '後' => Sym::Place(Place::Last),
        '进' | '進' => Sym::Dir(Direction::Forward),
        '退' => Sym::Dir(Direction::Backward),
        '平' => Sym::Dir(Direction::Sideways),
        '1'..='9' => Sym::Digit(c as u8 - b'0'),
        '１'..='９' => Sym::Digit(u8::try_from(c as u32 - '０' as u32).ok()?),
        _ => Sym::Digit(u8::try_from(RED_NUMERALS.iter().position(|&n| n == c)? + 1).ok()?),
    })
}

/// Whether a move's text starting with `c` is in Chinese notation.
pub(crate) fn is_chinese(c: char) -> bool {
    classify(c).is_some_and(|s| !matches!(s, Sym::Digit(_)) || !c.is_ascii())
}

/// A move in Chinese notation, as a [`Query`].
pub(crate) fn parse(text: &str) -> Option<Query> {
    let syms: Vec<Sym> = text.chars().map(classify).collect::<Option<_>>()?;
    let (prefix, [Sym::Dir(direction), Sym::Digit(target)]) =
        syms.split_at_checked(syms.len().checked_sub(2)?)?
    else {
        return None;
    };
    let (role, file, place) = match *prefix {
        [Sym::Piece(role), Sym::Digit(file)] => (Some(role), Some(file), None),
        [Sym::Place(place), Sym::Piece(role)] => (Some(role), None, Some(place)),
        [Sym::Digit(nth), Sym::Piece(role)] if nth <= 5 => {
            (Some(role), None, Some(Place::Nth(usize::from(nth) - 1)))
        }
        [Sym::Place(place), Sym::Digit(file)] => (Some(Role::Soldier), Some(file), Some(place)),
        [Sym::Place(place), Sym::Piece(role), Sym::Digit(file)] => (Some(role), Some(file), Some(place)),
        [Sym::Digit(nth), Sym::Piece(role), Sym::Digit(file)] if nth <= 5 => {
            (Some(role), Some(file), Some(Place::Nth(usize::from(nth) - 1)))
        }
        _ => return None,
    };
    Some(Query { role, file, place, direction: *direction, target: *target })
}

/// The name of a piece kind of `color`.
fn name(color: Color, role: Role) -> char {
    match (color, role) {
        (_, Role::Chariot) => '车',
        (_, Role::Horse) => '马',
        (_, Role::Cannon) => '炮',
        (Color::Red, Role::Elephant) => '相',
        (Color::Black, Role::Elephant) => '象',
        (Color::Red, Role::Advisor) => '仕',
        (Color::Black, Role::Advisor) => '士',
        (Color::Red, Role::General) => '帅',
        (Color::Black, Role::General) => '将',
        (Color::Red, Role::Soldier) => '兵',
        (Color::Black, Role::Soldier) => '卒',
    }
}

/// A number 1-9 as `color` writes it.
fn number(color: Color, n: u8) -> char {
    let digits = if color == Color::Red { &RED_NUMERALS } else { &BLACK_DIGITS };
    digits[usize::from(n.clamp(1, 9)) - 1]
}

/// The word of a piece's place among `count` on its file (2: 前后, 3: 前中后, 4-5: 一 to 五).
fn place_word(count: usize, place: usize) -> char {
    match count {
        2 | 3 if place == 0 => '前',
        2 | 3 if place == count - 1 => '后',
        2 | 3 => '中',
        _ => RED_NUMERALS[place.min(8)],
    }
}

/// The move `mv` of `position` in Chinese notation, or `None` when no piece stands on its
/// origin. The move is not checked for legality.
#[must_use]
pub fn to_chinese(position: &Position, mv: Move) -> Option<String> {
    let d = describe(position, mv)?;
    let color = d.piece.color;
    let role = d.piece.role;
    let mut out = String::with_capacity(12);
    if d.count < 2 || matches!(role, Role::Advisor | Role::Elephant | Role::General) {
        out.push(name(color, role));
        out.push(number(color, d.file));
    } else if role == Role::Soldier && d.tandem_files >= 2 {
        out.push(place_word(d.count, d.place));
        out.push(number(color, d.file));
    } else {
        out.push(place_word(d.count, d.place));
        out.push(name(color, role));
    }
    out.push(match d.direction {
        Direction::Forward => '进',
        Direction::Backward => '退',
        Direction::Sideways => '平',
    });
    out.push(number(color, d.target));
    Some(out)
}
