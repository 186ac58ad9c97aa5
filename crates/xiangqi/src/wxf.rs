//! WXF notation, as Xiangqi players write moves: `C2.5`, `H8+7`, `R1+1`, `P+.4`.
//!
//! The World Xiangqi Federation's system (Asian Xiangqi Federation, 1980/82, adopted by the
//! WXF in 1997): four characters.
//! 1. The piece: `K` General, `A` Advisor, `E` Elephant, `H` Horse, `R` Chariot, `C` Cannon,
//!    `P` Soldier (the same letters for both sides).
//! 2. The file it stands on, counted 1 to 9 from the mover's right: Red's file 1 is ICCS file
//!    `i`, Black's file 1 is file `a`.
//! 3. `+` forward (towards the opponent), `-` backward, `.` along the rank.
//! 4. For a move along the rank, the file it goes to; for a straight move forward or
//!    backward of a General, Chariot, Cannon or Soldier, the number of points moved; for the
//!    Horse, Advisor and Elephant (which move obliquely), the file they go to.
//!
//! Tandem pieces (two of a kind on one file): the file digit becomes `+` for the front piece
//! (the one nearer the opponent) and `-` for the rear one: `R+.3`, `C--1`. Advisors and
//! Elephants keep the file, as WXF practice has it: of two on one file only one can make a
//! given move (`A6+5`). Soldiers follow the WXF's tandem-pawn rules: three on a file are `P+`,
//! `P3` (the middle one keeps its file) and `P-`; with four or five, the foremost is `++` and
//! the rearmost `--` (the letter gives way), the second ones `P+` and `P-`; when two files each
//! hold two or more Soldiers, the first character is the file and the second `+`, `-` or, for
//! a middle Soldier, the file again: `3+.4`, `33.4`, `7-.6`.

use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::piece::Role;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// The WXF letter of a piece kind.
#[must_use]
pub const fn letter(role: Role) -> char {
    match role {
        Role::General => 'K',
        Role::Advisor => 'A',
        Role::Elephant => 'E',
        Role::Horse => 'H',
        Role::Chariot => 'R',
        Role::Cannon => 'C',
        Role::Soldier => 'P',
    }
}

/// The file number, 1 to 9 from `color`'s right.
fn file_number(color: Color, sq: Square) -> u8 {
    let f = sq.file().index();
    match color {
        Color::Red => 9 - f,
        Color::Black => f + 1,
    }
}

/// How far forward a point is for `color`: 0 on its own back rank, 9 on the opponent's.
fn advance(color: Color, sq: Square) -> u8 {
    let r = sq.rank().index();
    match color {
        Color::Red => r,
        Color::Black => 9 - r,
    }
}

fn digit(n: u8) -> char {
    char::from(b'0' + n)
}

/// The move `mv` of `position` in WXF notation, or `None` when no piece stands on its
/// origin. The move is not checked for legality.
#[must_use]
pub fn to_wxf(position: &Position, mv: Move) -> Option<String> {
    let board = position.setup().board;
    let piece = board.get(mv.from)?;
    let color = piece.color;
    let file = file_number(color, mv.from);
    // The same kind on the same file, front (nearest the opponent) first.
    let mut tandem: Vec<Square> = board
        .pieces()
        .filter(|(sq, p)| *p == piece && sq.file() == mv.from.file())
        .map(|(sq, _)| sq)
        .collect();
    tandem.sort_by_key(|&sq| std::cmp::Reverse(advance(color, sq)));
    let place = tandem.iter().position(|&sq| sq == mv.from).unwrap_or(0);
    let count = tandem.len();
    let mut out = String::with_capacity(4);
    match piece.role {
        _ if count < 2 => {
            out.push(letter(piece.role));
            out.push(digit(file));
        }
        Role::Advisor | Role::Elephant | Role::General => {
            out.push(letter(piece.role));
            out.push(digit(file));
        }
        Role::Soldier => {
            // Files with two or more Soldiers of this colour.
            let mut per_file = [0u8; 9];
            for (sq, p) in board.pieces() {
                if p == piece {
                    per_file[usize::from(sq.file().index())] += 1;
                }
            }
            let tandem_files = per_file.iter().filter(|&&n| n >= 2).count();
            let last = count - 1;
            if tandem_files >= 2 {
                out.push(digit(file));
                out.push(if place == 0 {
                    '+'
                } else if place == last {
                    '-'
                } else {
                    digit(file)
                });
            } else {
                let middle = count % 2 == 1 && place == count / 2;
                let (first, second) = match (count, place) {
                    _ if middle && count == 3 => ('P', digit(file)),
                    (4 | 5, 0) => ('+', '+'),
                    (4 | 5, p) if p == last => ('-', '-'),
                    (4 | 5, 1) => ('P', '+'),
                    (5, 2) => ('P', digit(file)),
                    (4 | 5, _) => ('P', '-'),
                    (_, 0) => ('P', '+'),
                    _ => ('P', '-'),
                };
                out.push(first);
                out.push(second);
            }
        }
        _ => {
            out.push(letter(piece.role));
            out.push(if place == 0 { '+' } else { '-' });
        }
    }
    let (from_adv, to_adv) = (advance(color, mv.from), advance(color, mv.to));
    let to_file = file_number(color, mv.to);
    let oblique = matches!(piece.role, Role::Horse | Role::Advisor | Role::Elephant);
    if from_adv == to_adv {
        out.push('.');
        out.push(digit(to_file));
    } else {
        out.push(if to_adv > from_adv { '+' } else { '-' });
        out.push(digit(if oblique { to_file } else { from_adv.abs_diff(to_adv) }));
    }
    Some(out)
}
