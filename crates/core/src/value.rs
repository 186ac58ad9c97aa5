//! The value vocabulary: results for the side to move, distances in plies.
//!
//! A [`Value`] is always seen from the side to move. Its order says which value that side
//! prefers: the shortest win, then a draw, then the longest loss. Negation ([`std::ops::Neg`])
//! looks at the same value from the other side; [`Value::before_move`] is the value of a
//! position whose move leads to a position of this value (negate, one ply further away).

use std::cmp::Ordering;
use std::fmt;
use std::ops::Neg;

/// A distance in plies (half-moves): how many single moves, by both sides together, are played
/// from a position until the game ends. Also called remoteness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Plies(pub u32);

impl Plies {
    /// The distance one ply further from the end.
    #[must_use]
    pub const fn next(self) -> Plies {
        Plies(self.0 + 1)
    }
}

impl fmt::Display for Plies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 1 { write!(f, "1 ply") } else { write!(f, "{} plies", self.0) }
    }
}

/// A result for the side to move without its distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move can force a win.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The opponent can force a win.
    Loss,
}

impl Neg for Wdl {
    type Output = Wdl;
    fn neg(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

/// The exact game-theoretic value of a position for the side to move.
///
/// The winner wins as fast as possible and the loser loses as slowly as possible. A draw that
/// reaches an end of the game (a drawn final position, as in tic-tac-toe) carries the distance
/// to that end, the shortest such line; a draw by endless play carries `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the game ends after this many plies under perfect play.
    Win(Plies),
    /// Neither side can force a win. `Some(d)`: a drawn end is reached after `d` plies;
    /// `None`: play goes on forever.
    Draw(Option<Plies>),
    /// The side to move loses; the game ends after this many plies under perfect play.
    Loss(Plies),
}

impl Value {
    /// A win in `n` plies.
    #[must_use]
    pub const fn win_in(n: u32) -> Value {
        Value::Win(Plies(n))
    }

    /// A loss in `n` plies. `loss_in(0)`: the side to move has lost already (no move, or mated).
    #[must_use]
    pub const fn loss_in(n: u32) -> Value {
        Value::Loss(Plies(n))
    }

    /// A draw by endless play.
    pub const ENDLESS_DRAW: Value = Value::Draw(None);

    /// The value without its distance.
    #[must_use]
    pub const fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw(_) => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// Plies until the game ends; `None` for endless play.
    #[must_use]
    pub const fn plies(self) -> Option<Plies> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw(d) => d,
        }
    }

    /// The value, for the side to move, of a position whose move leads to a position of value
    /// `self`: the sides swap and the game is one ply longer.
    #[must_use]
    pub const fn before_move(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d.next()),
            Value::Loss(d) => Value::Win(d.next()),
            Value::Draw(Some(d)) => Value::Draw(Some(d.next())),
            Value::Draw(None) => Value::Draw(None),
        }
    }

    /// A key whose natural order is the preference of the side to move.
    fn preference(self) -> (u8, i64) {
        match self {
            Value::Loss(d) => (0, i64::from(d.0)),
            Value::Draw(None) => (1, 0),
            Value::Draw(Some(d)) => (2, -i64::from(d.0)),
            Value::Win(d) => (3, -i64::from(d.0)),
        }
    }
}

impl Neg for Value {
    type Output = Value;
    /// The same value seen from the other side (no ply added).
    fn neg(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Loss(d) => Value::Win(d),
            draw @ Value::Draw(_) => draw,
        }
    }
}

impl Ord for Value {
    /// Greater is better for the side to move: a shorter win, a win, a draw that ends sooner, an
    /// endless draw, a longer loss, a shorter loss.
    fn cmp(&self, other: &Value) -> Ordering {
        self.preference().cmp(&other.preference())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    /// `win in 3 plies`, `loss in 0 plies`, `draw in 9 plies`, `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Loss(d) => write!(f, "loss in {d}"),
            Value::Draw(Some(d)) => write!(f, "draw in {d}"),
            Value::Draw(None) => write!(f, "draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_prefers_short_wins_then_draws_then_long_losses() {
        let ordered = [
            Value::loss_in(0),
            Value::loss_in(1),
            Value::loss_in(7),
            Value::ENDLESS_DRAW,
            Value::Draw(Some(Plies(9))),
            Value::Draw(Some(Plies(2))),
            Value::win_in(9),
            Value::win_in(1),
        ];
        for pair in ordered.windows(2) {
            assert!(pair[0] < pair[1], "{} should be worse than {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn before_move_swaps_sides_and_adds_a_ply() {
        assert_eq!(Value::loss_in(0).before_move(), Value::win_in(1));
        assert_eq!(Value::win_in(4).before_move(), Value::loss_in(5));
        assert_eq!(Value::ENDLESS_DRAW.before_move(), Value::ENDLESS_DRAW);
        assert_eq!(-Value::win_in(4), Value::loss_in(4));
        assert_eq!(Value::win_in(1).to_string(), "win in 1 ply");
    }
}
