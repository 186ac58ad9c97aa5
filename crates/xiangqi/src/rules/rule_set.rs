//! Rule sets: what a legal move is and how a game ends.
//!
//! - `hdu` (HDU 5897 "The Game"): a side wins by capturing the other General. Moving into
//!   danger is legal (it simply loses), and when the two Generals stand on one file with
//!   nothing between them, the side to move may capture the other General at once (the
//!   flying general). Endless play is a draw.
//! - `standard` (the rules of Xiangqi as tablebases use them, and as GamesmanXiangqi solved
//!   them): a move may not leave one's own General attacked, nor the two Generals facing each
//!   other on an open file; a side with no legal move (checkmated or stalemated) loses; endless
//!   play is a draw. The one deviation from real Xiangqi: no rules against perpetual check or
//!   perpetual chase (real Xiangqi makes the side that repeats them lose; here any cycle is a
//!   draw).
//! - `perpetual-check`: `standard`, except for endless play. Look at its tail: if from some
//!   point on every move of one side gives check and not every move of the other side does,
//!   the side that checks forever loses; otherwise (both check forever, or neither) it is a
//!   draw. Chasing rules are not modelled. Solved by [`crate::tables::perpetual`]; its table files
//!   hold the wins and losses by the rule besides the mates.
//! - `check-and-chase`: `standard`, with the bans on perpetual check and on perpetual chase.
//!   Every quiet move inside the `standard` draws is a check, a chase (it creates a new
//!   chase-attack, see [`crate::rules::chase`]) or idle; in an endless play a side whose moves are
//!   from some point on all checks has level 2, all checks or chases (not all checks) level
//!   1, else 0, and the side of the higher level loses (equal levels draw). With no move
//!   counted as a chase this is `perpetual-check`. Solved by [`crate::tables::perpetual`] too.

use std::fmt;
use std::str::FromStr;

/// A rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// HDU 5897: capture the General to win, moving into danger is legal, flying-general
    /// capture.
    Hdu,
    /// Standard Xiangqi: no move into check or into facing Generals, no legal move loses,
    /// endless play draws (no perpetual-check or perpetual-chase rules). The default.
    #[default]
    Standard,
    /// Standard Xiangqi with the ban on perpetual check: a side that checks forever (while
    /// the other does not) loses. Chasing rules are not modelled.
    PerpetualCheck,
    /// Standard Xiangqi with the bans on perpetual check and perpetual chase: of two sides
    /// playing forever, the one that checks forever loses, else the one that checks or
    /// chases forever (while the other does not).
    CheckAndChase,
}

impl Rules {
    /// Every rule set of the table files and the command line.
    pub const ALL: [Rules; 4] = [Rules::Hdu, Rules::Standard, Rules::PerpetualCheck, Rules::CheckAndChase];

    /// Whether tables of these rules are solved by the rule solver ([`crate::tables::perpetual`]):
    /// `perpetual-check` and `check-and-chase`, whose results include wins and losses by a
    /// ban on endless play.
    #[must_use]
    pub const fn has_bans(self) -> bool {
        matches!(self, Rules::PerpetualCheck | Rules::CheckAndChase)
    }

    /// Whether moves are labelled chases ([`crate::rules::chase`]): `check-and-chase`.
    #[must_use]
    pub const fn bans_chases(self) -> bool {
        matches!(self, Rules::CheckAndChase)
    }

    /// Whether a move may not leave one's own General in check (so a legal position never
    /// has the side not to move in check).
    #[must_use]
    pub const fn forbids_check(self) -> bool {
        !matches!(self, Rules::Hdu)
    }

    /// Whether a position and its flip with the colours swapped ([`Material::colour_twin`])
    /// have the same value under these rules, so that one table answers for both. Every rule
    /// set treats both sides alike: tested value for value, and under the bans rank for rank
    /// (`tests/all/tables.rs`, `tests/all/perpetual.rs`; under `check-and-chase` also the
    /// chase predicate of every move against its twin's and some 5-man twins solved apart,
    /// `tests/all/check_and_chase.rs`). Before `check-and-chase` twins were derived, the files
    /// of every pair up to 5 men (both solved) agreed index by index, ranks included: 886,426
    /// results of the ban on perpetual chase among them.
    ///
    /// [`Material::colour_twin`]: crate::rules::material::Material::colour_twin
    #[must_use]
    pub const fn colour_symmetric(self) -> bool {
        match self {
            Rules::Hdu | Rules::Standard | Rules::PerpetualCheck | Rules::CheckAndChase => true,
        }
    }

    /// The name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Hdu => "hdu",
            Rules::Standard => "standard",
            Rules::PerpetualCheck => "perpetual-check",
            Rules::CheckAndChase => "check-and-chase",
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule-set name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a rule set (standard, hdu, perpetual-check, check-and-chase), found {0:?}")]
pub struct ParseRulesError(pub String);

impl FromStr for Rules {
    type Err = ParseRulesError;
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        Rules::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| ParseRulesError(s.to_string()))
    }
}
