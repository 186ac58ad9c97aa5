//! The value vocabulary: results for the side to move, distances in plies.
//!
//! A [`Value`] is always seen from the side to move. Its order says which value that side
//! prefers: the shortest win, then a draw, then the longest loss. Negation ([`std::ops::Neg`])
//! looks at the same value from the other side; [`Value::before_move`] is the value of a
//! position whose move leads to a position of this value (negate, one ply further away).
//!
//! A [`RuleValue`] is the value under a ban on perpetual play ([`crate::perpetual`]): it adds
//! wins and losses by the rule, each with the [`Ban`] that decided it. It lives here, below
//! both solvers and the table format, as the vocabulary they share.

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

/// The ban that decided a win or loss by the rule: what the loser would have to do forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ban {
    /// The loser can only check forever (a result under the ban on perpetual check alone).
    Check,
    /// The loser can only check or chase forever, and can avoid checking forever.
    Chase,
}

impl Ban {
    /// Both bans.
    pub const ALL: [Ban; 2] = [Ban::Check, Ban::Chase];

    /// `perpetual-check` or `perpetual-chase`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ban::Check => "perpetual-check",
            Ban::Chase => "perpetual-chase",
        }
    }
}

impl fmt::Display for Ban {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The exact value of a position for the side to move under the rule.
///
/// The rank of a rule value is the winner's progress measure (smaller is closer to the win);
/// it is not a distance and is meaningful only within one solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleValue {
    /// The side to move mates (or wins otherwise by the game's terminal values) in this many
    /// plies.
    Win(Plies),
    /// The side to move wins by the rule: the opponent can only avoid losing by doing forever
    /// what the ban forbids. The rank follows.
    WinByRule(Ban, u32),
    /// Neither side can force a win (`Some(d)`: a drawn end in `d` plies).
    Draw(Option<Plies>),
    /// The side to move loses by the rule: it can only avoid a mate by doing forever what the
    /// ban forbids. The rank follows.
    LossByRule(Ban, u32),
    /// The side to move is mated in this many plies.
    Loss(Plies),
}

impl RuleValue {
    /// The value without its distance or rank.
    #[must_use]
    pub const fn wdl(self) -> Wdl {
        match self {
            RuleValue::Win(_) | RuleValue::WinByRule(..) => Wdl::Win,
            RuleValue::Draw(_) => Wdl::Draw,
            RuleValue::Loss(_) | RuleValue::LossByRule(..) => Wdl::Loss,
        }
    }

    /// The value under the ban on perpetual check alone, without its distance: a result of
    /// the ban on perpetual chase is a draw there.
    #[must_use]
    pub const fn check_wdl(self) -> Wdl {
        match self {
            RuleValue::WinByRule(Ban::Chase, _) | RuleValue::LossByRule(Ban::Chase, _) => Wdl::Draw,
            v => v.wdl(),
        }
    }

    /// Whether the value is decided by the rule (a win or loss with no mate distance).
    #[must_use]
    pub const fn is_by_rule(self) -> bool {
        matches!(self, RuleValue::WinByRule(..) | RuleValue::LossByRule(..))
    }

    /// The ban that decided a result by the rule.
    #[must_use]
    pub const fn ban(self) -> Option<Ban> {
        match self {
            RuleValue::WinByRule(ban, _) | RuleValue::LossByRule(ban, _) => Some(ban),
            _ => None,
        }
    }

    /// The same value with the rank set to 0: what two solvers must agree on.
    #[must_use]
    pub const fn without_rank(self) -> RuleValue {
        match self {
            RuleValue::WinByRule(ban, _) => RuleValue::WinByRule(ban, 0),
            RuleValue::LossByRule(ban, _) => RuleValue::LossByRule(ban, 0),
            v => v,
        }
    }

    /// The value of the same position in the plain game (where endless play is always a draw):
    /// rule values become endless draws.
    #[must_use]
    pub const fn plain(self) -> Value {
        match self {
            RuleValue::Win(d) => Value::Win(d),
            RuleValue::Loss(d) => Value::Loss(d),
            RuleValue::Draw(d) => Value::Draw(d),
            RuleValue::WinByRule(..) | RuleValue::LossByRule(..) => Value::Draw(None),
        }
    }

    /// The value, for the side to move, of a position whose move leads to a position of value
    /// `self`: the sides swap, a mate or drawn end is one ply further, ban and rank stay.
    #[must_use]
    pub const fn before_move(self) -> RuleValue {
        match self {
            RuleValue::Win(d) => RuleValue::Loss(d.next()),
            RuleValue::Loss(d) => RuleValue::Win(d.next()),
            RuleValue::WinByRule(b, r) => RuleValue::LossByRule(b, r),
            RuleValue::LossByRule(b, r) => RuleValue::WinByRule(b, r),
            RuleValue::Draw(Some(d)) => RuleValue::Draw(Some(d.next())),
            RuleValue::Draw(None) => RuleValue::Draw(None),
        }
    }

    /// A key whose natural order is the preference of the side to move.
    fn preference(self) -> (u8, i64) {
        match self {
            RuleValue::Loss(d) => (0, i64::from(d.0)),
            RuleValue::LossByRule(Ban::Check, r) => (1, i64::from(r)),
            RuleValue::LossByRule(Ban::Chase, r) => (2, i64::from(r)),
            RuleValue::Draw(None) => (3, 0),
            RuleValue::Draw(Some(d)) => (4, -i64::from(d.0)),
            RuleValue::WinByRule(Ban::Chase, r) => (5, -i64::from(r)),
            RuleValue::WinByRule(Ban::Check, r) => (6, -i64::from(r)),
            RuleValue::Win(d) => (7, -i64::from(d.0)),
        }
    }
}

impl From<Value> for RuleValue {
    fn from(value: Value) -> RuleValue {
        match value {
            Value::Win(d) => RuleValue::Win(d),
            Value::Draw(d) => RuleValue::Draw(d),
            Value::Loss(d) => RuleValue::Loss(d),
        }
    }
}

impl Neg for RuleValue {
    type Output = RuleValue;
    /// The same value seen from the other side (no ply added).
    fn neg(self) -> RuleValue {
        match self {
            RuleValue::Win(d) => RuleValue::Loss(d),
            RuleValue::Loss(d) => RuleValue::Win(d),
            RuleValue::WinByRule(b, r) => RuleValue::LossByRule(b, r),
            RuleValue::LossByRule(b, r) => RuleValue::WinByRule(b, r),
            draw @ RuleValue::Draw(_) => draw,
        }
    }
}

impl Ord for RuleValue {
    /// Greater is better for the side to move: a shorter mate, a win by the rule (by the ban
    /// on perpetual check first, a smaller rank first), a draw, a loss by the rule (by the ban
    /// on perpetual chase first, a larger rank first), a longer loss.
    fn cmp(&self, other: &RuleValue) -> Ordering {
        self.preference().cmp(&other.preference())
    }
}

impl PartialOrd for RuleValue {
    fn partial_cmp(&self, other: &RuleValue) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for RuleValue {
    /// `win in 3 plies`, `win by the perpetual-check rule`, `draw`, `loss by the
    /// perpetual-chase rule`, `loss in 0 plies`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleValue::WinByRule(ban, _) => write!(f, "win by the {ban} rule"),
            RuleValue::LossByRule(ban, _) => write!(f, "loss by the {ban} rule"),
            v => Value::fmt(&v.plain(), f),
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

    #[test]
    fn order_puts_rule_results_between_mates_and_draws() {
        let ordered = [
            RuleValue::Loss(Plies(0)),
            RuleValue::Loss(Plies(9)),
            RuleValue::LossByRule(Ban::Check, 1),
            RuleValue::LossByRule(Ban::Check, 5),
            RuleValue::LossByRule(Ban::Chase, 1),
            RuleValue::LossByRule(Ban::Chase, 5),
            RuleValue::Draw(None),
            RuleValue::Draw(Some(Plies(2))),
            RuleValue::WinByRule(Ban::Chase, 5),
            RuleValue::WinByRule(Ban::Chase, 1),
            RuleValue::WinByRule(Ban::Check, 5),
            RuleValue::WinByRule(Ban::Check, 1),
            RuleValue::Win(Plies(9)),
            RuleValue::Win(Plies(1)),
        ];
        for pair in ordered.windows(2) {
            assert!(pair[0] < pair[1], "{} should be worse than {}", pair[0], pair[1]);
        }
        assert_eq!(RuleValue::LossByRule(Ban::Chase, 3).before_move(), RuleValue::WinByRule(Ban::Chase, 3));
        assert_eq!(-RuleValue::WinByRule(Ban::Check, 3), RuleValue::LossByRule(Ban::Check, 3));
        assert_eq!(RuleValue::WinByRule(Ban::Chase, 7).plain(), Value::Draw(None));
        assert_eq!(RuleValue::WinByRule(Ban::Check, 7).to_string(), "win by the perpetual-check rule");
        assert_eq!(RuleValue::LossByRule(Ban::Chase, 7).to_string(), "loss by the perpetual-chase rule");
        assert_eq!(RuleValue::Win(Plies(1)).to_string(), "win in 1 ply");
        assert_eq!(RuleValue::WinByRule(Ban::Chase, 7).check_wdl(), Wdl::Draw);
        assert_eq!(RuleValue::WinByRule(Ban::Check, 7).check_wdl(), Wdl::Win);
    }
}
