//! Answers people read: a position's value, every legal move with its value, the main line.
//!
//! [`Probe`] is implemented by the tables on disk ([`Tablebases`](crate::Tablebases)) and by
//! tables solved in memory ([`MemoryTables`](crate::MemoryTables)); both answer through the same
//! provided methods, so a line or a move list never depends on where the values come from.
//!
//! Units: distances are plies (half-moves). A main line of a win or a loss is complete: it
//! follows the best moves (the shortest win, the longest loss) until the game ends, however
//! long. A drawn line is bounded ([`DRAW_LINE_PLIES`]) and says why it stops.
//!
//! Values are [`RuleValue`]s: under `perpetual-check` and `check-and-chase` a position may be
//! won or lost by the rule (no mate distance); under the other rule sets every value is a
//! mate, a loss or a draw. The winner of a rule win plays the move the solution's certificate
//! proves (the first of [`Probe::moves`]: the move to the smallest rank, or for a win by the
//! ban on perpetual chase [`endgame_core::perpetual::winning_move`]): it keeps the win and,
//! played every time, wins. Its main line ends when a position repeats
//! ([`LineEnd::PerpetualCheck`], [`LineEnd::PerpetualChase`]): from there on the loser checks
//! (or chases) forever.

use std::collections::HashMap;
use std::path::PathBuf;

use endgame_core::perpetual::{Choice, Label, winning_move};
use endgame_core::table::{Category, TableError};
use endgame_core::{Ban, RuleValue};
use endgame_core::{Plies, SolveError};

use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::moves::Move;
use crate::rules::piece::Piece;
use crate::rules::position::{Position, PositionError};
use crate::rules::rule_set::Rules;
use crate::rules::square::Square;

/// The most plies a drawn main line shows (a draw is endless: the line must stop somewhere).
pub const DRAW_LINE_PLIES: usize = 20;

/// Why a position could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The position is not legal under the rule set (e.g. the side not to move is in check
    /// under `standard` rules).
    #[error(transparent)]
    Illegal(#[from] PositionError),
    /// Its material (or one a capture leads to) has no table file, and is too large to be
    /// solved on the fly.
    #[error(
        "material {material} is not generated under {rules} rules (no {}); run `endgame xiangqi generate {material} --rules {rules}`",
        path.display()
    )]
    NotGenerated {
        /// The material.
        material: Material,
        /// The rule set.
        rules: Rules,
        /// Where its file would be.
        path: PathBuf,
    },
    /// Its material cannot have a table at all (too many men for the index or the machine).
    #[error("material {material} has {men} men: {why}")]
    BeyondTables {
        /// The material.
        material: Material,
        /// Its number of men, Generals included.
        men: usize,
        /// Why no table of it can be generated.
        why: String,
    },
    /// Solved in memory only, and this material was not.
    #[error(
        "material {material} is outside the materials solved in memory under {rules} rules (solved: {solved})"
    )]
    NotSolved {
        /// The material.
        material: Material,
        /// The rule set.
        rules: Rules,
        /// The solved materials, comma separated.
        solved: String,
    },
    /// The table has no value for the position (a hole of its index: never for a legal
    /// position of a correct table).
    #[error("the table of {material} has no value for this position")]
    NoValue {
        /// The material.
        material: Material,
    },
    /// A table file cannot be used.
    #[error("table {error}{}", regenerate_hint(error, *material, *rules))]
    Table {
        /// The material.
        material: Material,
        /// The rule set.
        rules: Rules,
        /// What is wrong with the file (its message is part of this one).
        error: TableError,
    },
    /// Solving a material in memory failed.
    #[error("solving {material}: {error}")]
    Solve {
        /// The material.
        material: Material,
        /// The solver's error (its message is part of this one).
        error: SolveError,
    },
}

/// "; regenerate it with ..." when regenerating the file is the cure (not for I/O errors).
fn regenerate_hint(error: &TableError, material: Material, rules: Rules) -> String {
    if error.needs_conversion() {
        let dir = error.path().parent().and_then(|d| d.parent()).and_then(|d| d.parent());
        let dir = dir.map_or_else(|| "DIR".to_string(), |d| d.display().to_string());
        format!("; convert the directory's tables with `endgame xiangqi convert {dir}` (no solving again)")
    } else if error.needs_regeneration() {
        format!("; regenerate it with `endgame xiangqi generate {material} --rules {rules}`")
    } else {
        String::new()
    }
}

impl ProbeError {
    /// Whether the position itself is at fault (illegal), rather than the tables.
    #[must_use]
    pub const fn is_illegal(&self) -> bool {
        matches!(self, ProbeError::Illegal(_))
    }

    /// Whether the tables are at fault (a file unreadable or damaged, a solve failed) rather
    /// than the position or a missing table: not the user's input.
    #[must_use]
    pub const fn is_table_failure(&self) -> bool {
        matches!(self, ProbeError::Table { .. } | ProbeError::Solve { .. } | ProbeError::NoValue { .. })
    }

    /// Whether a table is missing that could be generated.
    #[must_use]
    pub const fn is_not_generated(&self) -> bool {
        matches!(self, ProbeError::NotGenerated { .. })
    }
}

/// A legal move and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// The piece it captures.
    pub capture: Option<Piece>,
    /// Its value for the side that plays it (the mover): a winning move has a win here, its
    /// distance counted from the position before the move. Every interface gives a move's
    /// value so (the JSON's and Python's `for_mover`, the C library's `eg_move.result`).
    pub value: RuleValue,
    /// The value of the position after it, for the opponent (the side to move there; the
    /// lichess API's convention for a move's `category` and `dtm`): a loss after a winning
    /// move. The rank of a rule value after a capture (another material) is 0.
    pub after: RuleValue,
}

/// How a main line ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// A General was captured (`hdu` rules): `winner` took it.
    GeneralCaptured {
        /// The side that captured.
        winner: Color,
    },
    /// The side to move has no legal move (`standard` rules) and loses.
    NoLegalMove {
        /// The side without a move.
        loser: Color,
        /// Checkmated (in check) or stalemated.
        checkmated: bool,
    },
    /// The last position repeats the position after `ply` plies (0 = the start) in the line of
    /// a win by the perpetual-check rule: `loser` checks forever and loses.
    PerpetualCheck {
        /// Where the repeated position first stood.
        ply: usize,
        /// The length of the line (where it stands again).
        again: usize,
        /// The side that checks forever.
        loser: Color,
    },
    /// The last position repeats the position after `ply` plies (0 = the start) in the line of
    /// a win by the ban on perpetual chase (`check-and-chase`): `loser` checks or chases
    /// forever and loses.
    PerpetualChase {
        /// Where the repeated position first stood.
        ply: usize,
        /// The length of the line (where it stands again).
        again: usize,
        /// The side that checks or chases forever.
        loser: Color,
        /// The piece the loser's first chase of the cycle chases and its point then (`None`
        /// when the loser only checks in the cycle).
        chased: Option<(Piece, Square)>,
    },
    /// The last position repeats the position after `ply` plies (0 = the start): endless play.
    Repeats {
        /// Where the repeated position first stood.
        ply: usize,
        /// The length of the line (where it stands again).
        again: usize,
    },
    /// A drawn line stopped after [`DRAW_LINE_PLIES`] plies without a repetition.
    Bounded,
}

/// The best play from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainLine {
    /// The moves, each with its value for the side that plays it.
    pub moves: Vec<MoveValue>,
    /// Why the line stops.
    pub end: LineEnd,
    /// The position at the end of the line.
    pub last: Position,
}

/// Values of Xiangqi positions under one rule set, and the answers built from them.
pub trait Probe {
    /// The rule set.
    fn rules(&self) -> Rules;

    /// The table's value of a position that has both Generals and is legal under
    /// [`Probe::rules`] (what [`Probe::probe`] checks first): the one thing an implementation
    /// looks up.
    ///
    /// # Errors
    /// When its material has no table or the table cannot be read.
    fn lookup(&self, position: &Position) -> Result<RuleValue, ProbeError>;

    /// The value of a legal position for the side to move (`loss in 0` once its General has
    /// been captured).
    ///
    /// # Errors
    /// When the position is illegal under the rules or its material has no table.
    fn probe(&self, position: &Position) -> Result<RuleValue, ProbeError> {
        if position.is_game_over() {
            return Ok(RuleValue::Loss(Plies(0)));
        }
        position.check(self.rules())?;
        self.lookup(position)
    }

    /// The category of a position that has both Generals and is legal (win, draw, loss, or
    /// under `perpetual-check` a win or loss by the rule), without its distance or rank: what
    /// [`Probe::probe_wdl`] looks up. Tables on disk read their WDL files only; the default
    /// takes [`Probe::lookup`]'s value's category.
    ///
    /// # Errors
    /// As [`Probe::lookup`].
    fn lookup_wdl(&self, position: &Position) -> Result<Category, ProbeError> {
        self.lookup(position).map(Category::of)
    }

    /// The category of a legal position for the side to move, without its distance (a loss
    /// once its General has been captured): for an engine's search, the fewest bytes read.
    ///
    /// # Errors
    /// As [`Probe::probe`].
    fn probe_wdl(&self, position: &Position) -> Result<Category, ProbeError> {
        if position.is_game_over() {
            return Ok(Category::Loss);
        }
        position.check(self.rules())?;
        self.lookup_wdl(position)
    }

    /// Every legal move with its value, best first (the shortest win, then wins by the rule
    /// to the smallest rank first, draws, losses by the rule, the longest loss; ties in move
    /// generation order).
    ///
    /// # Errors
    /// As [`Probe::probe`], for the position or a position after a move.
    fn moves(&self, position: &Position) -> Result<Vec<MoveValue>, ProbeError> {
        position.check(self.rules())?;
        let mut moves = Vec::new();
        for mv in position.legal_moves(self.rules()) {
            let next = position.play_unchecked(mv);
            // A legal move leads to a legal position: no need to check it again.
            let after = if next.is_game_over() {
                RuleValue::Loss(Plies(0))
            } else if next.material() == position.material() {
                self.lookup(&next)?
            } else {
                // A rank of another material means nothing here: a capture that wins by the
                // rule wins as far as this material is concerned (rank 0).
                self.lookup(&next)?.without_rank()
            };
            moves.push(MoveValue { mv, capture: position.capture(mv), value: after.before_move(), after });
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
        if self.rules().bans_chases() {
            let value = self.lookup(position)?;
            let first =
                certified_move(position, value, moves.iter().map(|m| (m.mv, m.after, m.capture.is_none())));
            if let Some(k) = first {
                let first = moves.remove(k);
                moves.insert(0, first);
            }
        }
        Ok(moves)
    }

    /// The first of [`Probe::moves`] of a position whose value for the side to move is `value`,
    /// when that is a win or a loss (not by the rule): the first legal move, in generation
    /// order, whose value is `value` (the best value; ties keep that order), found without the
    /// value of every move. For a win only moves to a loss are looked up in full, the others by
    /// category ([`Probe::lookup_wdl`]), and the search stops at the first. `None` for other
    /// values, or when no move has `value` (then `value` is not the position's).
    ///
    /// # Errors
    /// As [`Probe::moves`].
    fn best_move(&self, position: &Position, value: RuleValue) -> Result<Option<MoveValue>, ProbeError> {
        if !matches!(value, RuleValue::Win(_) | RuleValue::Loss(_)) {
            return Ok(None);
        }
        for mv in position.legal_moves(self.rules()) {
            let next = position.play_unchecked(mv);
            let after = if next.is_game_over() {
                RuleValue::Loss(Plies(0))
            } else if matches!(value, RuleValue::Win(_)) && self.lookup_wdl(&next)? != Category::Loss {
                continue;
            } else if next.material() == position.material() {
                self.lookup(&next)?
            } else {
                self.lookup(&next)?.without_rank()
            };
            if after.before_move() == value {
                return Ok(Some(MoveValue { mv, capture: position.capture(mv), value, after }));
            }
        }
        Ok(None)
    }

    /// The main line: best moves until the game ends (a win or a loss: complete, however
    /// long), for a win or loss by the rule until a position repeats (the loser checks
    /// forever), for a draw until a position repeats or [`DRAW_LINE_PLIES`] plies.
    ///
    /// # Errors
    /// As [`Probe::moves`].
    fn main_line(&self, position: &Position) -> Result<MainLine, ProbeError> {
        let start = self.probe(position)?;
        let mut seen = HashMap::from([(*position, 0)]);
        let mut moves = Vec::new();
        let mut at = *position;
        // The value of `at` for its side to move.
        let mut value = start;
        let end = loop {
            if at.is_game_over() {
                break LineEnd::GeneralCaptured { winner: !at.turn() };
            }
            let best = match self.best_move(&at, value)? {
                Some(best) => Some(best),
                None => self.moves(&at)?.first().copied(),
            };
            let Some(best) = best else {
                break LineEnd::NoLegalMove { loser: at.turn(), checkmated: at.in_check() };
            };
            value = best.after;
            if start == RuleValue::Draw(None) && moves.len() == DRAW_LINE_PLIES {
                break LineEnd::Bounded;
            }
            moves.push(best);
            at = at.play_unchecked(best.mv);
            if let Some(&ply) = seen.get(&at) {
                let again = moves.len();
                let loser = match start {
                    RuleValue::WinByRule(..) => !position.turn(),
                    RuleValue::LossByRule(..) => position.turn(),
                    _ => break LineEnd::Repeats { ply, again },
                };
                if start.ban() == Some(Ban::Chase) {
                    let chased = first_chase(position, &moves, ply, loser);
                    break LineEnd::PerpetualChase { ply, again, loser, chased };
                }
                break LineEnd::PerpetualCheck { ply, again, loser };
            }
            seen.insert(at, moves.len());
        };
        Ok(MainLine { moves, end, last: at })
    }
}

/// The move the winner of `value`, the value of `position` under `check-and-chase`, plays
/// when it is a win by the ban on perpetual chase: [`winning_move`] among `moves` (each with
/// the value after it for the side to move there, and whether it stays in the material), the
/// move the certificate proves (a win out of the draws, a check to a smaller measure, an idle
/// move or a chase by the rank). `None` for another value.
pub(crate) fn certified_move(
    position: &Position,
    value: RuleValue,
    moves: impl Iterator<Item = (Move, RuleValue, bool)>,
) -> Option<usize> {
    if !matches!(value, RuleValue::WinByRule(Ban::Chase, _)) {
        return None;
    }
    let choices: Vec<Choice> =
        moves.map(|(mv, after, inside)| Choice { label: move_label(position, mv), after, inside }).collect();
    winning_move(value, &choices)
}

/// The label of a legal move under `check-and-chase`: a check, a chase
/// ([`crate::rules::chase::is_chase`]), or idle (captures included).
fn move_label(position: &Position, mv: Move) -> Label {
    if position.capture(mv).is_some() {
        Label::Idle
    } else if position.play_unchecked(mv).in_check() {
        Label::Check
    } else if crate::rules::chase::is_chase(position, mv) {
        Label::Chase
    } else {
        Label::Idle
    }
}

/// The piece chased by `loser`'s first chase among the moves from ply `ply` on (of the line
/// `moves` from `start`), with its point.
fn first_chase(start: &Position, moves: &[MoveValue], ply: usize, loser: Color) -> Option<(Piece, Square)> {
    let mut at = *start;
    for (k, m) in moves.iter().enumerate() {
        if k >= ply && at.turn() == loser {
            let after = at.play_unchecked(m.mv);
            if let Some(&(_, target)) = crate::rules::chase::new_chase_attacks(&at, m.mv).first() {
                return after.board().get(target).map(|piece| (piece, target));
            }
        }
        at = at.play_unchecked(m.mv);
    }
    None
}

impl LineEnd {
    /// One sentence for people.
    #[must_use]
    pub fn describe(&self) -> String {
        match *self {
            LineEnd::GeneralCaptured { winner } => format!("{winner} has captured {}'s General.", !winner),
            LineEnd::NoLegalMove { loser, checkmated } => {
                let how = if checkmated { "checkmated" } else { "stalemated" };
                format!("{loser} has no legal move ({how}) and loses.")
            }
            LineEnd::PerpetualCheck { ply, again, loser } => {
                let back = if ply == 0 {
                    "the start position".to_string()
                } else {
                    format!("the position after ply {ply}")
                };
                format!(
                    "Ply {again} brings back {back}: {loser} can only check forever and loses by the perpetual-check rule."
                )
            }
            LineEnd::PerpetualChase { ply, again, loser, chased } => {
                let back = if ply == 0 {
                    "the start position".to_string()
                } else {
                    format!("the position after ply {ply}")
                };
                let what = match chased {
                    Some((piece, at)) => format!("chasing {}'s {} on {at}", piece.color, piece.role),
                    None => "checking".to_string(),
                };
                format!(
                    "Ply {again} brings back {back}: {loser} can only check or chase forever ({what}) and loses by perpetual chase."
                )
            }
            LineEnd::Repeats { ply: 0, again } => {
                format!("Ply {again} brings back the start position: endless play, a draw.")
            }
            LineEnd::Repeats { ply, again } => {
                format!("Ply {again} brings back the position after ply {ply}: endless play, a draw.")
            }
            LineEnd::Bounded => {
                format!("A draw: play goes on forever; the line stops after {DRAW_LINE_PLIES} plies.")
            }
        }
    }

    /// A short name for JSON: `general_captured`, `checkmate`, `stalemate`, `perpetual_check`,
    /// `perpetual_chase`, `repetition`, `bounded`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            LineEnd::GeneralCaptured { .. } => "general_captured",
            LineEnd::NoLegalMove { checkmated: true, .. } => "checkmate",
            LineEnd::NoLegalMove { checkmated: false, .. } => "stalemate",
            LineEnd::PerpetualCheck { .. } => "perpetual_check",
            LineEnd::PerpetualChase { .. } => "perpetual_chase",
            LineEnd::Repeats { .. } => "repetition",
            LineEnd::Bounded => "bounded",
        }
    }
}
