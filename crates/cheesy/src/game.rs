//! The game as the core retrograde solver sees it.
//!
//! A position is a king square, a pawn square and the side to move. The pawn only moves down
//! its column, so a game started with the pawn on `(x,y)` only ever sees pawn squares
//! `(x,1)..=(x,y)`: [`CheesyGame::for_pawn`] indexes just those (`rows * cols * y * 2`
//! positions), [`CheesyGame::whole`] every pawn square of the board (every start at once).
//!
//! The index is `((pawn column, pawn row), king row, king column, side)`, the king's
//! coordinates padded to powers of two so that decoding is shifts and masks (no padding on
//! 8 x 8). Holes: the padding, the king on `F` or `D`, the pawn on `F`, both on one square. The
//! values, for the side to move:
//! - Black to move and the pawn cannot move: on the bottom row Black has won (`win in 0`),
//!   elsewhere White has (`loss in 0`);
//! - White to move and the king has no square: no move, so `loss in 0` (the core's default);
//! - a capture is a move to `Known(loss in 0)`: Black, to move after it, has lost.
//!
//! Un-moves are cheap (the pawn steps back up; the king steps back from a neighbour when the
//! square it stands on was enterable), so the solver needs no reverse edges.

use endgame_core::conformance::Indexed;
use endgame_core::{Game, Successor, Unmoves, Value};

use crate::board::{Board, Field, Square};
use crate::position::{Color, KING_STEPS, Move, Placement, for_each_king_move, king_may_enter, pawn_move};

/// A board with a region of pawn squares, indexed for the solver.
#[derive(Clone, Debug)]
pub struct CheesyGame<'b> {
    board: &'b Board,
    /// The first pawn column of the region.
    x0: u8,
    /// The number of pawn columns.
    width: u8,
    /// Pawn rows `1..=top`.
    top: u8,
    /// Bits of the king's column (`cols <= 1 << col_bits`).
    col_bits: u32,
    /// Bits of the king's square (column and row).
    king_bits: u32,
}

/// The bits needed for the numbers `0..n`.
fn bits(n: u8) -> u32 {
    u32::from(n).next_power_of_two().trailing_zeros()
}

impl<'b> CheesyGame<'b> {
    /// Every placement of the board: all pawn squares, all king squares, both sides to move.
    #[must_use]
    pub fn whole(board: &'b Board) -> Self {
        CheesyGame::region(board, 1, board.cols(), board.rows())
    }

    /// The placements a game with the pawn on `pawn` can reach: the pawn on its column at or
    /// below its row (`pawn` must be on the board).
    #[must_use]
    pub fn for_pawn(board: &'b Board, pawn: Square) -> Self {
        CheesyGame::region(board, pawn.x, 1, pawn.y)
    }

    fn region(board: &'b Board, x0: u8, width: u8, top: u8) -> Self {
        let col_bits = bits(board.cols());
        CheesyGame { board, x0, width, top, col_bits, king_bits: col_bits + bits(board.rows()) }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &'b Board {
        self.board
    }

    /// The index of a placement, or `None` when a square is off the board or the pawn is
    /// outside the region. (Placements that are holes get their index too.)
    #[must_use]
    pub fn index(&self, placement: Placement) -> Option<usize> {
        let Placement { king, pawn, to_move } = placement;
        let in_region =
            pawn.x >= self.x0 && pawn.x - self.x0 < self.width && pawn.y >= 1 && pawn.y <= self.top;
        (in_region && self.board.contains(king) && self.board.contains(pawn))
            .then(|| self.index_unchecked(king, pawn, to_move))
    }

    fn index_unchecked(&self, king: Square, pawn: Square, to_move: Color) -> usize {
        let pawn_slot = usize::from(pawn.x - self.x0) * usize::from(self.top) + usize::from(pawn.y - 1);
        let king_slot = (usize::from(king.y - 1) << self.col_bits) | usize::from(king.x - 1);
        (((pawn_slot << self.king_bits) | king_slot) << 1) | usize::from(to_move == Color::Black)
    }

    /// The placement an index stands for (holes included: the king may be off the board).
    #[must_use]
    pub fn placement(&self, index: usize) -> Placement {
        let to_move = if index & 1 == 0 { Color::White } else { Color::Black };
        let king_slot = (index >> 1) & ((1 << self.king_bits) - 1);
        // The coordinates are below 64 (a board's side, padded to a power of two).
        let king = Square::new(
            (king_slot & ((1 << self.col_bits) - 1)) as u8 + 1,
            (king_slot >> self.col_bits) as u8 + 1,
        );
        let pawn_slot = index >> (self.king_bits + 1);
        let pawn = if self.width == 1 {
            Square::new(self.x0, pawn_slot as u8 + 1)
        } else {
            let top = usize::from(self.top);
            Square::new(self.x0 + (pawn_slot / top) as u8, (pawn_slot % top) as u8 + 1)
        };
        Placement { king, pawn, to_move }
    }
}

impl Game for CheesyGame<'_> {
    type Move = Move;

    fn num_positions(&self) -> usize {
        (usize::from(self.width) * usize::from(self.top)) << (self.king_bits + 1)
    }

    fn is_position(&self, pos: usize) -> bool {
        // Off the board (padding) the field is Forbidden.
        let Placement { king, pawn, .. } = self.placement(pos);
        self.board.field(king) == Field::Open && self.board.field(pawn) != Field::Forbidden && king != pawn
    }

    fn terminal(&self, pos: usize) -> Option<Value> {
        let Placement { king, pawn, to_move } = self.placement(pos);
        match to_move {
            // A king without a square has no move: lost for White, the core's default.
            Color::White => None,
            Color::Black => match pawn_move(self.board, king, pawn) {
                Some(_) => None,
                None if pawn.y == 1 => Some(Value::win_in(0)),
                None => Some(Value::loss_in(0)),
            },
        }
    }

    fn for_each_move(&self, pos: usize, mut f: impl FnMut(Move, Successor)) {
        let Placement { king, pawn, to_move } = self.placement(pos);
        match to_move {
            Color::White => for_each_king_move(self.board, king, pawn, |mv| {
                let Move::King { to, capture, .. } = mv else { return };
                if capture {
                    // Black, to move after the capture, has lost.
                    f(mv, Successor::Known(Value::loss_in(0)));
                } else {
                    f(mv, Successor::Position(self.index_unchecked(to, pawn, Color::Black)));
                }
            }),
            Color::Black => {
                if let Some(mv @ Move::Pawn { to, .. }) = pawn_move(self.board, king, pawn) {
                    f(mv, Successor::Position(self.index_unchecked(king, to, Color::White)));
                }
            }
        }
    }
}

impl Unmoves for CheesyGame<'_> {
    fn for_each_unmove(&self, pos: usize, mut f: impl FnMut(usize)) {
        let Placement { king, pawn, to_move } = self.placement(pos);
        match to_move {
            // The pawn came down from the square above (if that is in the region).
            Color::White => {
                if pawn.y < self.top {
                    f(self.index_unchecked(king, Square::new(pawn.x, pawn.y + 1), Color::Black));
                }
            }
            // The king came from a neighbour, if its square could be entered.
            Color::Black => {
                if king_may_enter(self.board, king, pawn) {
                    for (dx, dy) in KING_STEPS {
                        if let Some(from) = king.offset(dx, dy).filter(|&sq| self.board.contains(sq)) {
                            f(self.index_unchecked(from, pawn, Color::White));
                        }
                    }
                }
            }
        }
    }
}

impl Indexed for CheesyGame<'_> {
    type Position = Placement;

    fn decode(&self, index: usize) -> Option<Placement> {
        (index < self.num_positions() && self.is_position(index)).then(|| self.placement(index))
    }

    fn encode(&self, placement: &Placement) -> Option<usize> {
        self.index(*placement).filter(|&i| self.is_position(i))
    }
}
