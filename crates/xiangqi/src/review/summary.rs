//! A review summed up: per side, its moves the tables answer, its blunders and mistakes; and
//! the game's result under perfect play from the first position the tables answer.

use endgame_core::{RuleValue, Wdl};

use super::{Mark, Review, move_number};
use crate::rules::color::Color;

/// One side's moves in a review.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideSummary {
    /// Its moves played from a position the tables answer.
    pub in_tables: usize,
    /// Its blunders.
    pub blunders: usize,
    /// Its mistakes.
    pub mistakes: usize,
    /// The ply of its first blunder.
    pub first_blunder: Option<usize>,
}

/// The result under perfect play from a position of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerfectPlay {
    /// The ply played from the position (the number of plies plus one: the final position).
    pub ply: usize,
    /// The number of that ply's move ([`move_number`]).
    pub move_number: usize,
    /// The side to move there.
    pub turn: Color,
    /// Its value for the side to move.
    pub value: RuleValue,
}

impl PerfectPlay {
    /// The side that wins under perfect play, `None` for a draw.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self.value.wdl() {
            Wdl::Win => Some(self.turn),
            Wdl::Loss => Some(!self.turn),
            Wdl::Draw => None,
        }
    }
}

/// A review summed up (see the [module](self) docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Red's moves.
    pub red: SideSummary,
    /// Black's moves.
    pub black: SideSummary,
    /// The result under perfect play from the first position the tables answer, `None` when
    /// they answer none.
    pub perfect_play: Option<PerfectPlay>,
}

impl Summary {
    /// The summary of `color`'s moves.
    #[must_use]
    pub const fn side(&self, color: Color) -> &SideSummary {
        match color {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}

impl Review {
    /// The review summed up.
    #[must_use]
    pub fn summary(&self) -> Summary {
        let (mut red, mut black) = (SideSummary::default(), SideSummary::default());
        for p in &self.plies {
            let side = match p.before.turn() {
                Color::Red => &mut red,
                Color::Black => &mut black,
            };
            if p.value.is_some() {
                side.in_tables += 1;
            }
            match p.mark {
                Some(Mark::Blunder) => {
                    side.blunders += 1;
                    side.first_blunder.get_or_insert(p.ply);
                }
                Some(Mark::Mistake) => side.mistakes += 1,
                None => {}
            }
        }
        let perfect_play = self.first_answered().map(|(ply, position, value)| PerfectPlay {
            ply,
            move_number: move_number(self.first_mover(), ply),
            turn: position.turn(),
            value,
        });
        Summary { red, black, perfect_play }
    }
}
