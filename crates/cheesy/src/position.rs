//! Pieces, moves and endings: the rules of play.
//!
//! White's king steps to one of its 8 neighbours that is on the board, not `F`, not `D` and not
//! floating dangerous for the current pawn; stepping onto the pawn captures it (a pawn on a `D`
//! field cannot be captured). Black's pawn steps one square down if that square exists, is not
//! `F` and is not the king's. Nobody may pass. The game ends when
//! - the king captures the pawn: White wins ([`Ending::Captured`]);
//! - the king has no square (White to move): Black wins ([`Ending::KingStuck`]);
//! - the pawn cannot move (Black to move): Black wins on the bottom row
//!   ([`Ending::PawnHome`]), White wins anywhere else ([`Ending::PawnBlocked`]).

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Field, Square};

/// The king's steps.
pub(crate) const KING_STEPS: [(i8, i8); 8] =
    [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// A side (a color, as in the other games): White has the king and moves first in the contest,
/// Black has the pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The king.
    White,
    /// The pawn.
    Black,
}

impl Color {
    /// Both sides, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];
}

/// The other side: `!Color::White == Color::Black`.
impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    /// `White` or `Black`, as the contest writes them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// A side that is not `white` or `black` (any case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError(pub String);

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected `white` or `black`, found {}", endgame_core::input::quote(&self.0))
    }
}

impl std::error::Error for ParseColorError {}

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}

/// Where the pieces stand and who moves, without the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The white king's square.
    pub king: Square,
    /// The black pawn's square.
    pub pawn: Square,
    /// The side to move.
    pub to_move: Color,
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The king steps from `from` to `to`; onto the pawn's square it captures the pawn.
    King {
        /// Where the king stands.
        from: Square,
        /// Where it goes.
        to: Square,
        /// Whether it captures the pawn there.
        capture: bool,
    },
    /// The pawn steps one square down.
    Pawn {
        /// Where the pawn stands.
        from: Square,
        /// The square below.
        to: Square,
    },
}

impl Move {
    /// The side that makes the move.
    #[must_use]
    pub const fn side(self) -> Color {
        match self {
            Move::King { .. } => Color::White,
            Move::Pawn { .. } => Color::Black,
        }
    }
}

impl fmt::Display for Move {
    /// `K(3,1)-(4,2)`, a capture `K(5,2)x(6,3)`, `P(6,3)-(6,2)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::King { from, to, capture: false } => write!(f, "K{from}-{to}"),
            Move::King { from, to, capture: true } => write!(f, "K{from}x{to}"),
            Move::Pawn { from, to } => write!(f, "P{from}-{to}"),
        }
    }
}

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The king captured the pawn: White wins.
    Captured,
    /// White is to move and the king has no square: Black wins.
    KingStuck,
    /// Black is to move and the pawn on the bottom row cannot move: Black wins.
    PawnHome,
    /// Black is to move and the pawn above the bottom row cannot move: White wins.
    PawnBlocked,
}

impl Ending {
    /// The side that has won.
    #[must_use]
    pub const fn winner(self) -> Color {
        match self {
            Ending::Captured | Ending::PawnBlocked => Color::White,
            Ending::KingStuck | Ending::PawnHome => Color::Black,
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ending::Captured => "the king has captured the pawn",
            Ending::KingStuck => "the king has no square to go to",
            Ending::PawnHome => "the pawn is on the bottom row and cannot move",
            Ending::PawnBlocked => "the pawn cannot move and is not on the bottom row",
        })
    }
}

/// Whether the king may step onto `to` (not onto the pawn) while the pawn is on `pawn`.
pub(crate) fn king_may_enter(board: &Board, to: Square, pawn: Square) -> bool {
    // The floating fields are the squares diagonally below the pawn (an open field is never F).
    let floating = to.y + 1 == pawn.y && to.x.abs_diff(pawn.x) == 1;
    board.field(to) == Field::Open && !floating
}

/// Calls `f` with every move of the king.
pub(crate) fn for_each_king_move(board: &Board, king: Square, pawn: Square, mut f: impl FnMut(Move)) {
    for (dx, dy) in KING_STEPS {
        let Some(to) = king.offset(dx, dy).filter(|&to| board.contains(to)) else { continue };
        if to == pawn {
            // The pawn is never on F; on D the king may not go.
            if board.field(pawn) == Field::Open {
                f(Move::King { from: king, to, capture: true });
            }
        } else if king_may_enter(board, to, pawn) {
            f(Move::King { from: king, to, capture: false });
        }
    }
}

/// The pawn's move, if it has one.
pub(crate) fn pawn_move(board: &Board, king: Square, pawn: Square) -> Option<Move> {
    let to = pawn.offset(0, -1)?;
    (board.field(to) != Field::Forbidden && to != king).then_some(Move::Pawn { from: pawn, to })
}

/// Why a setup is not a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The king is off the board.
    KingOffBoard(Square),
    /// The pawn is off the board.
    PawnOffBoard(Square),
    /// The king stands on an `F` or `D` field, which it may never enter.
    KingOnClosedField(Square, Field),
    /// The pawn stands on an `F` field.
    PawnOnForbidden(Square),
    /// King and pawn share a square.
    SameSquare(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::KingOffBoard(sq) => write!(f, "the king's square {sq} is off the board"),
            PositionError::PawnOffBoard(sq) => write!(f, "the pawn's square {sq} is off the board"),
            PositionError::KingOnClosedField(sq, field) => {
                write!(f, "the king stands on {sq}, a `{field}` field it may not enter")
            }
            PositionError::PawnOnForbidden(sq) => write!(f, "the pawn stands on {sq}, an `F` field"),
            PositionError::SameSquare(sq) => write!(f, "king and pawn both stand on {sq}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// An unvalidated position, as a parser produces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The board.
    pub board: Board,
    /// The king's square.
    pub king: Square,
    /// The pawn's square.
    pub pawn: Square,
    /// The side to move.
    pub to_move: Color,
}

/// A valid position: a board with the king on an open field and the pawn on a field that is
/// not forbidden, on different squares. (The king may stand on a floating dangerous field.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: Board,
    placement: Placement,
}

impl Position {
    /// Validates a setup.
    ///
    /// # Errors
    /// When a piece is off the board or on a field it may not stand on, or both share a square.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let Setup { board, king, pawn, to_move } = setup;
        if !board.contains(king) {
            return Err(PositionError::KingOffBoard(king));
        }
        if !board.contains(pawn) {
            return Err(PositionError::PawnOffBoard(pawn));
        }
        if board.field(king) != Field::Open {
            return Err(PositionError::KingOnClosedField(king, board.field(king)));
        }
        if board.field(pawn) == Field::Forbidden {
            return Err(PositionError::PawnOnForbidden(pawn));
        }
        if king == pawn {
            return Err(PositionError::SameSquare(king));
        }
        Ok(Position { board, placement: Placement { king, pawn, to_move } })
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Where the pieces stand and who moves.
    #[must_use]
    pub fn placement(&self) -> Placement {
        self.placement
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.placement.to_move
    }

    /// How the game has ended here, if it has (the side to move cannot move).
    #[must_use]
    pub fn ending(&self) -> Option<Ending> {
        ending(&self.board, self.placement)
    }

    /// The moves of the side to move (none when the game has ended).
    #[must_use]
    pub fn moves(&self) -> Vec<Move> {
        let Placement { king, pawn, to_move } = self.placement;
        let mut moves = Vec::new();
        match to_move {
            Color::White => for_each_king_move(&self.board, king, pawn, |m| moves.push(m)),
            Color::Black => moves.extend(pawn_move(&self.board, king, pawn)),
        }
        moves
    }
}

/// How the game has ended in a placement on a board, if it has.
pub(crate) fn ending(board: &Board, placement: Placement) -> Option<Ending> {
    let Placement { king, pawn, to_move } = placement;
    match to_move {
        Color::White => {
            let mut any = false;
            for_each_king_move(board, king, pawn, |_| any = true);
            (!any).then_some(Ending::KingStuck)
        }
        Color::Black => match pawn_move(board, king, pawn) {
            Some(_) => None,
            None if pawn.y == 1 => Some(Ending::PawnHome),
            None => Some(Ending::PawnBlocked),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::parse_position;

    fn moves(text: &str, to_move: Color) -> Vec<String> {
        parse_position(text, to_move).unwrap().moves().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn king_avoids_f_d_and_the_floating_fields_and_captures_on_open_fields() {
        // Pawn (2,3) on an open field: floating (1,2) and (3,2); below the king D, F, D.
        let text = "...\n.P.\n.K.\nDFD\n";
        assert_eq!(moves(text, Color::White), ["K(2,2)-(1,3)", "K(2,2)x(2,3)", "K(2,2)-(3,3)"]);
        // The same pawn on a D field cannot be captured.
        assert_eq!(moves("...\n.p.\n.K.\nDFD\n", Color::White), ["K(2,2)-(1,3)", "K(2,2)-(3,3)"]);
        // The king blocks the pawn.
        assert_eq!(moves(text, Color::Black), Vec::<String>::new());
        let position = parse_position(text, Color::Black).unwrap();
        assert_eq!(position.ending(), Some(Ending::PawnBlocked));
    }

    #[test]
    fn endings() {
        let ending = |text: &str, to_move| parse_position(text, to_move).unwrap().ending();
        assert_eq!(ending("K.\n.P\n", Color::Black), Some(Ending::PawnHome));
        assert_eq!(ending("K.\n.P\n", Color::White), None);
        assert_eq!(ending(".P\nF.\n.F\nKF\n", Color::Black), None);
        assert_eq!(ending("P.\nF.\n.F\nKF\n", Color::Black), Some(Ending::PawnBlocked));
        assert_eq!(ending("KD\nDD\nP.\n", Color::White), Some(Ending::KingStuck));
        assert_eq!(Ending::KingStuck.winner(), Color::Black);
        assert_eq!(Ending::Captured.winner(), Color::White);
        assert_eq!("Black".parse::<Color>(), Ok(Color::Black));
        assert!("red".parse::<Color>().is_err());
    }
}
