//! Moves as records write them, read against the position they are played in: ICCS
//! coordinates (`h2e2`, `H2-E2`), WXF (`C2.5`, `C2=5`, `H8+7`, `R+.3`, `+C.5`, full-width
//! `Ｃ２＝５`) and Chinese ([`chinese`](super::chinese)).
//!
//! A WXF or Chinese move says which piece (its kind, its file or its place among the pieces
//! of its kind on one file), the direction and a number: a [`Query`]. The legal moves that
//! fit it are looked for; one fits: that move; several: the one whose own canonical name
//! ([`to_wxf`], [`to_chinese`]) says the same (`P3+1` is the middle one of three Soldiers on
//! file 3, though all three stand on it); else the move is ambiguous.

use crate::record::chinese::{self, to_chinese};
use crate::record::{Notation, RULES};
use crate::rules::color::Color;
use crate::rules::movegen::generate_for;
use crate::rules::moves::Move;
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::square::{File, Rank, Square};
use crate::wxf::{Described, Direction, describe, to_wxf};

/// Which of several pieces of one kind on one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The front one (前, WXF `+C` and, with two tandem files, `3+`).
    First,
    /// The rear one (后).
    Last,
    /// The middle one of three (中, WXF `33`).
    Middle,
    /// The n-th from the front, 0-based (一兵, 二兵 ... of four or five; WXF `++` is the first).
    Nth(usize),
    /// WXF's `P+`/`R+`: the front one of two or three, the second of four or five.
    WxfPlus,
    /// WXF's `P-`/`R-`: the rear one of two or three, the second from the rear of four or five.
    WxfMinus,
}

/// What a WXF or Chinese move says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Query {
    /// The kind of piece, when the move names it.
    pub role: Option<Role>,
    /// The file the piece stands on (1-9 from the mover's right), when the move names it.
    pub file: Option<u8>,
    /// Its place among the pieces of its kind on its file, when the move names it.
    pub place: Option<Place>,
    /// Which way it goes.
    pub direction: Direction,
    /// The last number: a file or a distance ([`Described::target`]).
    pub target: u8,
}

impl Query {
    /// Whether the move described by `d` fits.
    fn matches(&self, d: &Described) -> bool {
        if self.role.is_some_and(|r| r != d.piece.role) || self.file.is_some_and(|f| f != d.file) {
            return false;
        }
        let (count, place) = (d.count, d.place);
        let placed = match self.place {
            None => true,
            Some(_) if count < 2 => false,
            Some(Place::First) => place == 0,
            Some(Place::Last) => place == count - 1,
            Some(Place::Middle) => count % 2 == 1 && place == count / 2,
            Some(Place::Nth(k)) => place == k,
            Some(Place::WxfPlus) => place == usize::from(count >= 4),
            Some(Place::WxfMinus) => place == count - 1 - usize::from(count >= 4),
        };
        placed && d.direction == self.direction && d.target == self.target
    }
}

/// Full-width ASCII forms (`Ｃ２＝５`) as ASCII.
pub(crate) fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// The notation a move's text is written in, if it is one of the three.
pub(crate) fn detect(text: &str) -> Option<Notation> {
    if parse_iccs(text).is_some() {
        Some(Notation::Iccs)
    } else if text.chars().next().is_some_and(chinese::is_chinese) {
        Some(Notation::Chinese)
    } else if parse_wxf(text).is_some() {
        Some(Notation::Wxf)
    } else {
        None
    }
}

/// Annotation marks after a move (`!`, `?`, `#`, and a `+` for check after ICCS).
fn trim_marks(text: &str) -> &str {
    text.trim_end_matches(['!', '?', '#'])
}

/// An ICCS move: `h2e2`, `H2-E2`, in full-width forms too.
pub(crate) fn parse_iccs(text: &str) -> Option<Move> {
    let chars: Vec<char> = trim_marks(text).chars().map(|c| narrow(c).to_ascii_lowercase()).collect();
    let chars: Vec<char> = match chars.as_slice() {
        [a, b, '-', c, d] | [a, b, '-', c, d, '+'] | [a, b, c, d, '+'] | [a, b, c, d] => vec![*a, *b, *c, *d],
        _ => return None,
    };
    let point = |f: char, r: char| -> Option<Square> {
        let rank = Rank::new(u8::try_from(r.to_digit(10)?).ok()?)?;
        Some(Square::new(File::from_char(f)?, rank))
    };
    Some(Move { from: point(chars[0], chars[1])?, to: point(chars[2], chars[3])? })
}

/// The WXF letter of a piece kind, with the letters other systems use (`N` Horse, `B`
/// Elephant, `G` General).
fn wxf_role(c: char) -> Option<Role> {
    Some(match c {
        'K' | 'G' => Role::General,
        'A' => Role::Advisor,
        'E' | 'B' => Role::Elephant,
        'H' | 'N' => Role::Horse,
        'R' => Role::Chariot,
        'C' => Role::Cannon,
        'P' => Role::Soldier,
        _ => return None,
    })
}

fn digit(c: char) -> Option<u8> {
    c.to_digit(10).filter(|&d| d >= 1).and_then(|d| u8::try_from(d).ok())
}

/// A WXF move: `C2.5` (also `C2=5`), `H8+7`, `R+.3`, `+C.5`, `P3+1`, `++.4`, `3+.4`, `33.4`.
pub(crate) fn parse_wxf(text: &str) -> Option<Query> {
    let mut chars: Vec<char> = trim_marks(text).chars().map(|c| narrow(c).to_ascii_uppercase()).collect();
    if chars.len() == 5 && chars[4] == '+' {
        chars.pop();
    }
    let [a, b, dir, n] = chars[..] else { return None };
    let direction = match dir {
        '+' => Direction::Forward,
        '-' => Direction::Backward,
        '.' | '=' => Direction::Sideways,
        _ => return None,
    };
    let target = digit(n)?;
    let sign = |c: char| match c {
        '+' => Some(true),
        '-' => Some(false),
        _ => None,
    };
    let (role, file, place) = match (a, b) {
        _ if wxf_role(a).is_some() && digit(b).is_some() => (wxf_role(a), digit(b), None),
        _ if wxf_role(a).is_some() && sign(b).is_some() => {
            (wxf_role(a), None, Some(if b == '+' { Place::WxfPlus } else { Place::WxfMinus }))
        }
        _ if sign(a).is_some() && wxf_role(b).is_some() => {
            (wxf_role(b), None, Some(if a == '+' { Place::First } else { Place::Last }))
        }
        ('+', '+') => (Some(Role::Soldier), None, Some(Place::First)),
        ('-', '-') => (Some(Role::Soldier), None, Some(Place::Last)),
        _ if digit(a).is_some() && sign(b).is_some() => {
            (Some(Role::Soldier), digit(a), Some(if b == '+' { Place::First } else { Place::Last }))
        }
        _ if digit(a).is_some() && a == b => (Some(Role::Soldier), digit(a), Some(Place::Middle)),
        _ => return None,
    };
    Some(Query { role, file, place, direction, target })
}

/// What a reader expects of a move in `notation`, for messages.
pub(crate) fn expected(notation: Notation) -> &'static str {
    match notation {
        Notation::Iccs => "a move in ICCS coordinates, like h2e2",
        Notation::Wxf => "a move in WXF notation, like C2.5 or H8+7",
        Notation::Chinese => "a move in Chinese notation, like 炮二平五 or 马８进７",
    }
}

/// The move `mv` of `position` written in `notation` (`None` when no piece stands on its
/// origin).
#[must_use]
pub(crate) fn write_move(position: &Position, mv: Move, notation: Notation) -> Option<String> {
    match notation {
        Notation::Iccs => position.board().get(mv.from).map(|_| mv.to_string()),
        Notation::Wxf => to_wxf(position, mv),
        Notation::Chinese => to_chinese(position, mv),
    }
}

fn query(text: &str, notation: Notation) -> Option<Query> {
    match notation {
        Notation::Iccs => None,
        Notation::Wxf => parse_wxf(text),
        Notation::Chinese => chinese::parse(text),
    }
}

/// The legal moves of the pieces of the side to move that `wanted` picks (on their points),
/// generated by the rules' own generator over those pieces only (and the General, which it
/// needs to see): a record's move concerns one piece or one kind, and the other pieces' moves
/// need not be generated (a thousand games read in a fraction of the time).
pub(crate) fn legal_moves_of(position: &Position, wanted: impl Fn(Square, Piece) -> bool) -> Vec<Move> {
    let board = position.board();
    let turn = position.turn();
    let general = Piece { color: turn, role: Role::General };
    let pieces: Vec<(Square, Piece)> =
        board.pieces().filter(|&(sq, p)| p.color == turn && (p == general || wanted(sq, p))).collect();
    let mut moves = Vec::new();
    if !position.is_game_over() {
        generate_for(board, pieces.iter().copied(), turn, RULES, &mut moves);
    }
    moves.retain(|mv| board.get(mv.from).is_some_and(|p| wanted(mv.from, p)));
    moves
}

/// The file number of a point for `color`, 1-9 from its right.
fn file_number(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => 9 - sq.file().index(),
        Color::Black => sq.file().index() + 1,
    }
}

/// The legal move of `position` that the text `text` in `notation` names (legal under
/// [`RULES`]).
///
/// # Errors
/// Why it names none: the game is over, not a move in that notation, no legal move fits it,
/// or several do.
pub(crate) fn resolve(position: &Position, text: &str, notation: Notation) -> Result<Move, String> {
    let turn = position.turn();
    let over = || position.legal_moves(RULES).is_empty();
    let parsed = match notation {
        Notation::Iccs => parse_iccs(text).map(Ok),
        Notation::Wxf | Notation::Chinese => query(text, notation).map(Err),
    };
    let Some(parsed) = parsed else {
        return Err(if over() {
            format!("{turn} has no legal move: the game is over before it")
        } else {
            format!("expected {}", expected(notation))
        });
    };
    let board = position.board();
    let q = match parsed {
        Ok(mv) => {
            if legal_moves_of(position, |sq, _| sq == mv.from).contains(&mv) {
                return Ok(mv);
            }
            return Err(if over() {
                format!("{turn} has no legal move: the game is over before it")
            } else {
                match board.get(mv.from) {
                    Some(p) if p.color == turn => {
                        format!("not a legal move of {turn}'s {} on {} here", p.role, mv.from)
                    }
                    _ => format!("{turn} has no piece on {}", mv.from),
                }
            });
        }
        Err(q) => q,
    };
    // The kind and the file first: most moves are ruled out without describing them.
    let fits: Vec<Move> = legal_moves_of(position, |sq, p| {
        q.role.is_none_or(|r| p.role == r) && q.file.is_none_or(|f| file_number(turn, sq) == f)
    })
    .into_iter()
    .filter(|&mv| describe(position, mv).is_some_and(|d| q.matches(&d)))
    .collect();
    match fits[..] {
        [mv] => Ok(mv),
        [] if over() => Err(format!("{turn} has no legal move: the game is over before it")),
        [] => Err(format!("no legal move of {turn} fits it")),
        _ => {
            let canonical: Vec<Move> = fits
                .iter()
                .copied()
                .filter(|&mv| write_move(position, mv, notation).and_then(|t| query(&t, notation)) == Some(q))
                .collect();
            match canonical[..] {
                [mv] => Ok(mv),
                _ => {
                    let names: Vec<String> = fits.iter().map(ToString::to_string).collect();
                    Err(format!(
                        "ambiguous: it fits {} legal moves of {turn} ({})",
                        fits.len(),
                        names.join(", ")
                    ))
                }
            }
        }
    }
}
