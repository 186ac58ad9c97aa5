//! The vocabulary of the rules: colors, rule sets, moves, links, what a move did, how a game
//! ends, and why a move is illegal.

use std::fmt;
use std::str::FromStr;

use crate::geometry::{Dir, Point};

/// A player's color. Black moves first and connects the columns `x = 0` and `x = N`; White
/// connects the rows `y = 0` and `y = N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

/// The other color: `!Color::Black == Color::White`.
impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl Color {
    /// The color that makes move `number` (1-based): Black on odd numbers.
    #[must_use]
    pub const fn of_move(number: usize) -> Color {
        if number % 2 == 1 { Color::Black } else { Color::White }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// Which existing links block a new link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// POJ 2706: a new link may not cross any link, of either color.
    Poj,
    /// Pencil and paper (Little Golem): a new link may not cross the opponent's links, but may
    /// cross its own side's links.
    Pp,
}

/// A rule set's name that is not `poj` or `pp`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected `poj` or `pp`, found {}", endgame_core::input::quote(.0))]
pub struct ParseRulesError(pub String);

impl FromStr for Rules {
    type Err = ParseRulesError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "poj" => Ok(Rules::Poj),
            "pp" => Ok(Rules::Pp),
            _ => Err(ParseRulesError(s.to_string())),
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rules::Poj => "poj",
            Rules::Pp => "pp",
        })
    }
}

/// The rules of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// Which links block.
    pub rules: Rules,
    /// Whether move 2 may be a swap (pie rule): Black's first peg at `(x, y)` is replaced by a
    /// White peg at `(y, x)`, and Black moves again.
    pub swap: bool,
}

impl Config {
    /// The POJ 2706 rules: every link blocks, no swap.
    pub const POJ: Config = Config { rules: Rules::Poj, swap: false };
}

/// A move of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a peg on this point.
    Place(Point),
    /// The pie rule, only as move 2.
    Swap,
    /// The side to move gives up.
    Resign,
}

/// A link between two pegs a knight's move apart, stored with `from` the endpoint with the
/// smaller `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Link {
    /// The endpoint with the smaller `x`.
    pub from: Point,
    /// The other endpoint.
    pub to: Point,
}

impl Link {
    /// The link between `a` and `b`, in either order.
    #[must_use]
    pub fn new(a: Point, b: Point) -> Link {
        if (a.x, a.y) <= (b.x, b.y) { Link { from: a, to: b } } else { Link { from: b, to: a } }
    }
}

impl fmt::Display for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// What placing a peg did: links made, links refused and what blocked them, whether it won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The new peg.
    pub point: Point,
    /// Its color.
    pub color: Color,
    /// Bit `d` set: linked in direction `d`.
    pub(crate) linked: u8,
    /// For each direction, the link that blocked a link that way.
    pub(crate) refused: [Option<Link>; 8],
    /// Whether this move connected the mover's endzones.
    pub wins: bool,
}

impl Placed {
    /// The pegs the new peg was linked to.
    pub fn links(&self) -> impl Iterator<Item = Point> + '_ {
        Dir::ALL.into_iter().filter(|d| self.linked >> d.index() & 1 == 1).map(|d| self.point.step(d))
    }

    /// The same-colored knight neighbours it was not linked to, each with the link that blocked it.
    pub fn refused(&self) -> impl Iterator<Item = (Point, Link)> + '_ {
        Dir::ALL.into_iter().filter_map(|d| self.refused[d.index()].map(|l| (self.point.step(d), l)))
    }
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// A peg was placed.
    Placed(Placed),
    /// Black's peg `from` became White's peg `to`.
    Swapped {
        /// Black's first peg.
        from: Point,
        /// White's peg that replaces it.
        to: Point,
    },
    /// This color resigned.
    Resigned(Color),
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "by", rename_all = "lowercase")]
pub enum Outcome {
    /// The winner connected its endzones with this move.
    Connection {
        /// Who connected.
        winner: Color,
        /// The winning move's number (1-based).
        #[serde(rename = "move")]
        number: usize,
    },
    /// The loser resigned with this move.
    Resignation {
        /// The side that did not resign.
        winner: Color,
        /// The resigning move's number.
        #[serde(rename = "move")]
        number: usize,
    },
}

impl Outcome {
    /// The winning color.
    #[must_use]
    pub const fn winner(self) -> Color {
        match self {
            Outcome::Connection { winner, .. } | Outcome::Resignation { winner, .. } => winner,
        }
    }
}

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveErrorKind {
    /// The point is outside `0..=N`.
    #[error("{0} is off the board (coordinates 0..={1})")]
    OffBoard(Point, i32),
    /// There is a peg on the point.
    #[error("{0} is already occupied")]
    Occupied(Point),
    /// The point is in the opponent's endzone.
    #[error("{0} is in {1}'s endzone, forbidden to {2}")]
    Endzone(Point, Color, Color),
    /// The game is already over.
    #[error("the game is already over ({0})")]
    GameOver(OutcomeText),
    /// A swap that is not move 2.
    #[error("a swap is only allowed as move 2 (after Black's first peg)")]
    SwapNotSecond,
    /// A swap when the rules have no pie rule.
    #[error("a swap needs the pie rule, which is off (`--swap on` turns it on)")]
    SwapOff,
}

/// An outcome, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutcomeText(pub Outcome);

impl fmt::Display for OutcomeText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Outcome::Connection { winner, number } => write!(f, "{winner} won with move {number}"),
            Outcome::Resignation { winner, number } => {
                write!(f, "{} resigned with move {number}", !winner)
            }
        }
    }
}

/// An illegal move and its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number}: {kind}")]
pub struct MoveError {
    /// The move's number, 1-based.
    pub number: usize,
    /// What is wrong with it.
    pub kind: MoveErrorKind,
}

/// A board size out of range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("N = {0}: expected a board size N (points 0..=N) in {min}..={max}", min = crate::geometry::MIN_N, max = crate::geometry::MAX_N)]
pub struct SizeError(pub i64);
