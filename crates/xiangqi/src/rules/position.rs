//! A validated position: a [`Setup`] whose pieces stand where the rules allow.
//!
//! Valid: each side has exactly one General, inside its own palace, and every other piece on a
//! point it may stand on (an Advisor on its palace's diagonals, an Elephant on its side of the
//! river, a Soldier not behind its starting rank nor between the files it starts on before
//! crossing the river). A position reached by
//! play may have lost a General (it was captured): the game is then over and the side to move
//! has lost.

use crate::rules::board::{Board, Setup};
use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::movegen::generate;
use crate::rules::moves::Move;
use crate::rules::piece::{Piece, Role};
use crate::rules::rule_set::Rules;
use crate::rules::square::Square;

/// Why a setup is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has no General.
    #[error("{0} has no General")]
    MissingGeneral(Color),
    /// A side has more than one General.
    #[error("{0} has {1} Generals, expected one")]
    TooManyGenerals(Color, usize),
    /// A General stands outside its palace.
    #[error("{color}'s General on {square} is outside its palace (files d-f, ranks {ranks})")]
    GeneralOutsidePalace {
        /// Its side.
        color: Color,
        /// Where it stands.
        square: Square,
        /// The palace ranks, for the message.
        ranks: &'static str,
    },
    /// The side not to move is in check (or the Generals face each other): a position that
    /// cannot arise under rules that forbid moving into check.
    #[error(
        "{checked} is in check (or the Generals face each other) with {} to move: illegal under {rules} rules",
        !*checked
    )]
    OpponentInCheck {
        /// The side in check (not to move).
        checked: Color,
        /// The rule set that forbids it.
        rules: Rules,
    },
    /// More pieces of one kind than a side has in a game (2 of each, 5 Soldiers).
    #[error("{color} has {count} {role}s, at most {max} in a game", color = piece.color, role = piece.role, max = piece.role.max_count())]
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many there are.
        count: usize,
    },
    /// A piece stands on a point it can never reach.
    #[error("{piece} ({color}'s {role}) on {square} stands on a point it can never reach", color = piece.color, role = piece.role)]
    BadPoint {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
}

/// A move that is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is not a legal move of {turn} under {rules} rules")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The side to move.
    pub turn: Color,
    /// The rule set.
    pub rules: Rules,
}

/// A position: a board whose pieces stand on points they may occupy, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    board: Board,
    turn: Color,
}

/// The nine points of each side's palace (Red's, then Black's: files `d` to `f`, ranks 0 to 2
/// and 7 to 9).
const PALACES: [[Square; 9]; 2] = {
    let mut palaces = [[Square::A0; 9]; 2];
    let mut k = 0;
    while k < 9 {
        let (file, rank) = (3 + k % 3, k / 3);
        palaces[0][k] = Square::from_index(rank * 9 + file).expect("a point");
        palaces[1][k] = Square::from_index((rank + 7) * 9 + file).expect("a point");
        k += 1;
    }
    palaces
};

impl Position {
    /// Checks a setup.
    ///
    /// # Errors
    /// The first reason the setup is not a position.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        for color in Color::ALL {
            let generals: Vec<Square> = setup.board.generals(color).collect();
            match generals[..] {
                [] => return Err(PositionError::MissingGeneral(color)),
                [square] if !square.in_palace(color) => {
                    let ranks = if color == Color::Red { "0-2" } else { "7-9" };
                    return Err(PositionError::GeneralOutsidePalace { color, square, ranks });
                }
                [_] => {}
                _ => return Err(PositionError::TooManyGenerals(color, generals.len())),
            }
        }
        let material = Material::of_board(&setup.board);
        for color in Color::ALL {
            for role in Role::ALL {
                let count = material.count(color, role);
                if count > role.max_count() {
                    return Err(PositionError::TooMany { piece: Piece { color, role }, count: count.into() });
                }
            }
        }
        if let Some((square, piece)) = setup.board.pieces().find(|(sq, p)| !p.may_stand_on(*sq)) {
            return Err(PositionError::BadPoint { piece, square });
        }
        Ok(Position { board: setup.board, turn: setup.turn })
    }

    /// Checks that the position can arise under `rules`: under rules that forbid moving into
    /// check, the side not to move must not be in check.
    ///
    /// # Errors
    /// [`PositionError::OpponentInCheck`].
    pub fn check(&self, rules: Rules) -> Result<(), PositionError> {
        if rules.forbids_check() && !self.is_game_over() && self.opponent_in_check() {
            return Err(PositionError::OpponentInCheck { checked: !self.turn, rules });
        }
        Ok(())
    }

    /// The same position seen from the other side: colours swapped, every point flipped
    /// ([`Square::flip`]), the other side to move. Under every rule set it has the same value
    /// (a position of the colour twin material, [`Material::colour_twin`]).
    #[must_use]
    pub fn colour_twin(&self) -> Position {
        let mut board = Board::empty();
        for (sq, piece) in self.board.pieces() {
            board.set(sq.flip(), Some(Piece { color: !piece.color, role: piece.role }));
        }
        Position { board, turn: !self.turn }
    }

    /// A position from parts known to be valid (a table index's points).
    pub(crate) const fn from_parts(board: Board, turn: Color) -> Position {
        Position { board, turn }
    }

    /// The pieces.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The board and side to move as a setup (for FEN).
    #[must_use]
    pub const fn setup(&self) -> Setup {
        Setup { board: self.board, turn: self.turn }
    }

    /// The point of `color`'s General; `None` once it has been captured.
    #[must_use]
    pub fn general(&self, color: Color) -> Option<Square> {
        // A position's General stands in its palace ([`Position::from_setup`] refuses one
        // outside, and no move leaves it) until the game is over: its nine points are looked
        // at first (a probe asks this twice; the board has 90). Only the capture that ends a
        // game under `hdu` (the Generals facing) takes a General out of its palace.
        let general = Some(Piece { color, role: Role::General });
        PALACES[color.index()]
            .into_iter()
            .find(|&sq| self.board.get(sq) == general)
            .or_else(|| self.board.generals(color).next())
    }

    /// Whether the game is over: the side to move has lost its General.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        self.general(self.turn).is_none()
    }

    /// The pieces of both sides, counted.
    #[must_use]
    pub fn material(&self) -> Material {
        Material::of_board(&self.board)
    }

    /// Every legal move under `rules` (none once the game is over).
    #[must_use]
    pub fn legal_moves(&self, rules: Rules) -> Vec<Move> {
        let mut moves = Vec::new();
        if !self.is_game_over() {
            generate(&self.board, self.turn, rules, &mut moves);
        }
        moves
    }

    /// The piece captured by `mv`, if any.
    #[must_use]
    pub fn capture(&self, mv: Move) -> Option<Piece> {
        self.board.get(mv.to)
    }

    /// The position after `mv`, if it is one of the legal moves under `rules`.
    ///
    /// # Errors
    /// [`IllegalMove`] when it is not.
    pub fn play(&self, mv: Move, rules: Rules) -> Result<Position, IllegalMove> {
        if self.legal_moves(rules).contains(&mv) {
            Ok(self.play_unchecked(mv))
        } else {
            Err(IllegalMove { mv, turn: self.turn, rules })
        }
    }

    /// The position after `mv`, not checked: `mv` must be one of [`Position::legal_moves`]
    /// (the solver's and the tables' hot paths play only those). Anything else gives a
    /// position no game reaches (a debug build asserts that the mover's piece stands on
    /// `mv.from`).
    #[must_use]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let mut board = self.board;
        let piece = board.set(mv.from, None);
        debug_assert!(piece.is_some_and(|p| p.color == self.turn), "{mv} moves no piece of the side to move");
        board.set(mv.to, piece);
        Position { board, turn: !self.turn }
    }

    /// Whether the side not to move is in check (attacked, or the Generals facing each other
    /// on an open file): such a position cannot arise under `standard` rules.
    #[must_use]
    pub fn opponent_in_check(&self) -> bool {
        self.general(!self.turn).is_some_and(|g| crate::rules::movegen::in_check(&self.board, g, !self.turn))
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.general(self.turn).is_some_and(|g| crate::rules::movegen::in_check(&self.board, g, self.turn))
    }

    /// Whether `mv` captures a General (and so wins at once).
    #[must_use]
    pub fn captures_general(&self, mv: Move) -> bool {
        self.capture(mv).is_some_and(|p| p.role == Role::General)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The palaces `Position::general` looks in are those of the rules, and it finds the
    /// General the whole board holds, on every point of the palace and once captured.
    #[test]
    fn generals_are_found_in_their_palaces() {
        for color in [Color::Red, Color::Black] {
            assert_eq!(PALACES[color.index()].to_vec(), Square::palace(color));
            for sq in Square::palace(color) {
                let other = Square::palace(!color)[4];
                let board_with = |sq: Square, other: Square| {
                    let mut board = Board::empty();
                    board.set(sq, Some(Piece { color, role: Role::General }));
                    board.set(other, Some(Piece { color: !color, role: Role::General }));
                    board
                };
                let position = Position { board: board_with(sq, other), turn: color };
                assert_eq!(position.general(color), position.board.generals(color).next());
                assert_eq!(position.general(color), Some(sq));
                assert_eq!(position.general(!color), Some(other));
            }
            let mut board = Board::empty();
            board.set(Square::palace(!color)[0], Some(Piece { color: !color, role: Role::General }));
            assert_eq!(Position { board, turn: color }.general(color), None);
            // In the other palace, after the capture that ends a game under `hdu`.
            let mut board = Board::empty();
            board.set(Square::palace(!color)[4], Some(Piece { color, role: Role::General }));
            assert_eq!(Position { board, turn: !color }.general(color), Some(Square::palace(!color)[4]));
        }
    }
}
