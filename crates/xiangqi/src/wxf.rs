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
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::square::{Rank, Square};

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

/// Which way a move goes, for the side that makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards the opponent (`+`, 进).
    Forward,
    /// Towards one's own back rank (`-`, 退).
    Backward,
    /// Along the rank (`.`, 平).
    Sideways,
}

/// A move as the WXF and the Chinese notations see it: the piece, its file, its place among
/// the pieces of its kind on that file, the direction and the number written last. The two
/// notations write the same facts ([`to_wxf`] here, the Chinese in
/// [`record`](crate::record)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Described {
    /// The piece that moves.
    pub piece: Piece,
    /// Its file, 1 to 9 from the mover's right.
    pub file: u8,
    /// How many pieces of its kind and colour stand on that file (1 when alone).
    pub count: usize,
    /// Its place among them, 0 for the front one (nearest the opponent).
    pub place: usize,
    /// How many files hold two or more pieces of its kind and colour.
    pub tandem_files: usize,
    /// Which way it goes.
    pub direction: Direction,
    /// The number written last: the file it goes to (1 to 9 from the mover's right) for a
    /// move along the rank and for the Horse, Advisor and Elephant; else the number of points
    /// it moves.
    pub target: u8,
}

/// The facts the notations write of the move `mv` of `position`, or `None` when no piece
/// stands on its origin. The move is not checked for legality.
#[must_use]
pub fn describe(position: &Position, mv: Move) -> Option<Described> {
    let board = position.board();
    let piece = board.get(mv.from)?;
    let color = piece.color;
    // The pieces of this kind and colour on the mover's file (the ten points of the file only:
    // this runs for every move a record names or a page lists).
    let (mut count, mut ahead) = (0usize, 0usize);
    for rank in 0..Rank::COUNT as u8 {
        let sq = Square::new(mv.from.file(), Rank::new(rank).expect("a rank"));
        if board.get(sq) == Some(piece) {
            count += 1;
            ahead += usize::from(advance(color, sq) > advance(color, mv.from));
        }
    }
    // Files with two or more: only Soldiers, five of them, can have two such files; the other
    // kinds have two pieces at most.
    let tandem_files = if piece.role == Role::Soldier {
        let mut per_file = [0u8; 9];
        for (sq, p) in board.pieces() {
            if p == piece {
                per_file[usize::from(sq.file().index())] += 1;
            }
        }
        per_file.iter().filter(|&&n| n >= 2).count()
    } else {
        usize::from(count >= 2)
    };
    let (from_adv, to_adv) = (advance(color, mv.from), advance(color, mv.to));
    let oblique = matches!(piece.role, Role::Horse | Role::Advisor | Role::Elephant);
    let (direction, target) = if from_adv == to_adv {
        (Direction::Sideways, file_number(color, mv.to))
    } else {
        let direction = if to_adv > from_adv { Direction::Forward } else { Direction::Backward };
        (direction, if oblique { file_number(color, mv.to) } else { from_adv.abs_diff(to_adv) })
    };
    Some(Described {
        piece,
        file: file_number(color, mv.from),
        count,
        place: ahead,
        tandem_files,
        direction,
        target,
    })
}

/// The move `mv` of `position` in WXF notation, or `None` when no piece stands on its
/// origin. The move is not checked for legality.
#[must_use]
pub fn to_wxf(position: &Position, mv: Move) -> Option<String> {
    let d = describe(position, mv)?;
    let (count, place, file) = (d.count, d.place, d.file);
    let mut out = String::with_capacity(4);
    match d.piece.role {
        _ if count < 2 => {
            out.push(letter(d.piece.role));
            out.push(digit(file));
        }
        Role::Advisor | Role::Elephant | Role::General => {
            out.push(letter(d.piece.role));
            out.push(digit(file));
        }
        Role::Soldier => {
            let last = count - 1;
            if d.tandem_files >= 2 {
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
            out.push(letter(d.piece.role));
            out.push(if place == 0 { '+' } else { '-' });
        }
    }
    out.push(match d.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    });
    out.push(digit(d.target));
    Some(out)
}
