//! A record played through the engine, move by move, and what to say about it.
//!
//! [`replay`] checks every move (an illegal one is an error naming its number and line) and
//! keeps what each move did. [`Report`] is the serialisable summary (`--json`);
//! [`Report::write_text`] prints it for people, every point in the record's own notation.

use std::io::{self, Write};

use std::sync::atomic::AtomicBool;

use endgame_core::{Cancelled, InputError, cancel};

use crate::geometry::Point;
use crate::position::Position;
use crate::record::{Format, Record, notation};
use crate::rules::{Color, Config, Link, MoveErrorKind, Outcome, Played, Rules};

/// One move as played.
#[derive(Clone, Debug)]
pub struct Step {
    /// Its number, 1-based.
    pub number: usize,
    /// Its line in the record.
    pub line: usize,
    /// The record's annotation, if any.
    pub note: Option<String>,
    /// What it did.
    pub played: Played,
}

/// A record played through.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The final position.
    pub position: Position,
    /// Every move.
    pub steps: Vec<Step>,
}

fn describe(kind: MoveErrorKind, format: Format) -> String {
    let name = |p: Point| notation(format, p);
    match kind {
        MoveErrorKind::OffBoard(p, n) => format!("{} is off the board (coordinates 0..={n})", name(p)),
        MoveErrorKind::Occupied(p) => format!("{} is already occupied", name(p)),
        MoveErrorKind::Endzone(p, owner, mover) => {
            format!("{} is in {owner}'s endzone, forbidden to {mover}", name(p))
        }
        other => other.to_string(),
    }
}

/// Plays `record` under `config`.
pub fn replay(record: &Record, config: Config) -> Result<Replay, InputError> {
    replay_cancellable(record, config, &AtomicBool::new(false)).map_err(|e| match e {
        ReplayError::Input(e) => e,
        ReplayError::Cancelled(_) => unreachable!("nobody else holds the flag"),
    })
}

/// Why [`replay_cancellable`] gave no replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A move is illegal (or the board size is wrong).
    #[error(transparent)]
    Input(#[from] InputError),
    /// The flag was set first.
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// Moves played between two reads of the cancel flag in [`replay_cancellable`].
const CANCEL_EVERY: usize = 1 << 12;

/// [`replay`], stopped once `flag` is set (read every 4,096 moves).
///
/// # Errors
/// An illegal move, or `flag` set before the end.
pub fn replay_cancellable(record: &Record, config: Config, flag: &AtomicBool) -> Result<Replay, ReplayError> {
    let mut game = Position::with_capacity(record.n, config, record.moves.len())
        .map_err(|e| InputError::new("board size", e.to_string()))?;
    let mut steps = Vec::with_capacity(record.moves.len());
    for (k, m) in record.moves.iter().enumerate() {
        if k % CANCEL_EVERY == 0 {
            cancel::check(flag)?;
        }
        let played = game.play(m.mv).map_err(|e| {
            InputError::new(format!("move {} (line {})", e.number, m.line), describe(e.kind, record.format))
        })?;
        steps.push(Step { number: game.moves_played(), line: m.line, note: m.note.clone(), played });
    }
    Ok(Replay { position: game, steps })
}

/// A point with its name in the record's notation.
#[derive(Clone, Debug, serde::Serialize)]
pub struct NamedPoint {
    /// The engine's x (Black connects x = 0 and x = N).
    pub x: i32,
    /// The engine's y.
    pub y: i32,
    /// The record's name for it.
    pub name: String,
}

/// A link with named endpoints.
#[derive(Clone, Debug, serde::Serialize)]
pub struct NamedLink {
    /// One end.
    pub from: NamedPoint,
    /// The other end.
    pub to: NamedPoint,
}

/// A refused link and the link that blocked it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Refusal {
    /// The same-colored peg that was not linked.
    pub to: NamedPoint,
    /// The existing link the new one would cross.
    pub blocked_by: NamedLink,
}

/// One move in the report.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MoveReport {
    /// Its number, 1-based.
    pub number: usize,
    /// Who made it.
    pub color: Color,
    /// Its line in the record.
    pub line: usize,
    /// `place`, `swap` or `resign`.
    pub kind: &'static str,
    /// The peg placed (for a swap: the second player's new peg).
    pub point: Option<NamedPoint>,
    /// The pegs the new peg was linked to.
    pub links: Vec<NamedPoint>,
    /// The links refused.
    pub refused: Vec<Refusal>,
    /// Whether this move won.
    pub wins: bool,
    /// The record's annotation.
    pub note: Option<String>,
}

/// Points where a side would win at once.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Threats {
    /// The side to move.
    pub to_move: Color,
    /// Where the side to move wins at once.
    pub winning_now: Vec<NamedPoint>,
    /// Where the opponent would win at once, were it its move.
    pub opponent: Vec<NamedPoint>,
}

/// Everything about a replayed record.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    /// The record's format.
    pub format: Format,
    /// The largest coordinate.
    pub n: i64,
    /// The blocking rules.
    pub rules: Rules,
    /// Whether the pie rule was on.
    pub swap: bool,
    /// The players' names (first, second), when the record has them.
    pub players: [String; 2],
    /// Every move.
    pub moves: Vec<MoveReport>,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
    /// After a win by connection: a shortest chain of the winner's linked pegs between its endzones.
    pub winning_path: Option<Vec<NamedPoint>>,
    /// Who would move next.
    pub to_move: Color,
}

impl Report {
    /// The report of a replay of `record`.
    #[must_use]
    pub fn new(record: &Record, replay: &Replay) -> Report {
        let name = |p: Point| NamedPoint { x: p.x, y: p.y, name: record.notation(p) };
        let link = |l: Link| NamedLink { from: name(l.from), to: name(l.to) };
        let moves = replay
            .steps
            .iter()
            .map(|s| {
                let color = Color::of_move(s.number);
                let mut m = MoveReport {
                    number: s.number,
                    color,
                    line: s.line,
                    kind: "place",
                    point: None,
                    links: Vec::new(),
                    refused: Vec::new(),
                    wins: false,
                    note: s.note.clone(),
                };
                match s.played {
                    Played::Placed(p) => {
                        m.point = Some(name(p.point));
                        m.links = p.links().map(name).collect();
                        m.refused =
                            p.refused().map(|(q, l)| Refusal { to: name(q), blocked_by: link(l) }).collect();
                        m.wins = p.wins;
                    }
                    Played::Swapped { to, .. } => {
                        m.kind = "swap";
                        m.point = Some(name(to));
                    }
                    Played::Resigned(_) => m.kind = "resign",
                }
                m
            })
            .collect();
        let config = replay.position.config();
        Report {
            format: record.format,
            n: record.n,
            rules: config.rules,
            swap: config.swap,
            players: record.players.clone(),
            moves,
            outcome: replay.position.outcome(),
            winning_path: replay.position.winning_path().map(|path| path.into_iter().map(name).collect()),
            to_move: replay.position.to_move(),
        }
    }

    /// Who connects what, in the record's terms.
    fn sides(&self) -> String {
        let last = self.n + 1;
        match self.format {
            Format::Judge => format!("Black connects x = 0 and x = {0}, White y = 0 and y = {0}", self.n),
            Format::Sgf | Format::T1 => format!(
                "Black (first player) connects rows 1 and {last} (top and bottom), White (second) columns a and {} (left and right)",
                crate::record::column_letter(self.n as i32)
            ),
        }
    }

    /// Writes the report for people: the rules, every move with its links, the result.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "{} record, {} x {} points (N = {}), rules {}, swap {}",
            self.format,
            self.n + 1,
            self.n + 1,
            self.n,
            self.rules,
            if self.swap { "allowed" } else { "off" }
        )?;
        writeln!(out, "{}", self.sides())?;
        if self.players.iter().any(|p| !p.is_empty()) {
            writeln!(out, "Black: {}, White: {}", self.players[0], self.players[1])?;
        }
        for m in &self.moves {
            write!(out, "{:>4}. {} ", m.number, m.color)?;
            match m.kind {
                "swap" => write!(
                    out,
                    "swap: takes the first peg over as {}",
                    m.point.as_ref().map_or("", |p| &p.name)
                )?,
                "resign" => write!(out, "resigns")?,
                _ => {
                    let at = &m.point.as_ref().map_or("", |p| &p.name);
                    write!(out, "{at}")?;
                    if !m.links.is_empty() {
                        let names: Vec<String> = m.links.iter().map(|q| format!("{at}-{}", q.name)).collect();
                        write!(out, "  links {}", names.join(" "))?;
                    }
                    for r in &m.refused {
                        write!(
                            out,
                            "  refused {at}-{} (crosses {}-{})",
                            r.to.name, r.blocked_by.from.name, r.blocked_by.to.name
                        )?;
                    }
                    if m.wins {
                        write!(out, "  wins")?;
                    }
                }
            }
            if let Some(note) = &m.note {
                write!(out, "  [{note}]")?;
            }
            writeln!(out)?;
        }
        match self.outcome {
            Some(Outcome::Connection { winner, number }) => {
                let at = self.moves[number - 1].point.as_ref().map_or(String::new(), |p| p.name.clone());
                writeln!(out, "Winner: {winner}, connecting its endzones with move {number}: {at}")?;
                if let Some(path) = &self.winning_path {
                    let names: Vec<&str> = path.iter().map(|p| p.name.as_str()).collect();
                    writeln!(out, "Winning path: {}", names.join(" "))?;
                }
            }
            Some(Outcome::Resignation { winner, number }) => {
                writeln!(out, "Winner: {winner} ({} resigned with move {number})", !winner)?;
            }
            None => writeln!(out, "No winner after {} moves; {} to move", self.moves.len(), self.to_move)?,
        }
        Ok(())
    }
}

/// The threats after a replay: where the side to move wins at once, and where the opponent would.
#[must_use]
pub fn threats(record: &Record, game: &Position) -> Threats {
    let name = |p: Point| NamedPoint { x: p.x, y: p.y, name: record.notation(p) };
    let to_move = game.to_move();
    Threats {
        to_move,
        winning_now: game.threats(to_move).into_iter().map(name).collect(),
        opponent: game.threats(!to_move).into_iter().map(name).collect(),
    }
}

impl Threats {
    /// Writes the threats for people.
    pub fn write_text(&self, game: &Position, out: &mut dyn Write) -> io::Result<()> {
        if let Some(o) = game.outcome() {
            // Nobody moves any more: there is nothing to threaten.
            return writeln!(out, "The game is over: {}", crate::rules::OutcomeText(o));
        }
        let list = |v: &[NamedPoint]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(" ")
            }
        };
        writeln!(out, "{} to move wins at once on: {}", self.to_move, list(&self.winning_now))?;
        writeln!(out, "{} would win at once on: {}", !self.to_move, list(&self.opponent))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(record: &str, config: Option<Config>) -> String {
        let record = Record::parse(record, None).unwrap();
        let played = replay(&record, config.unwrap_or_else(|| record.default_config())).unwrap();
        let mut out = Vec::new();
        Report::new(&record, &played).write_text(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_judges_first_sample_move_by_move() {
        assert_eq!(
            text("4 5\n0 2 2 4 4 2 3 2 2 3\n", None),
            "judge record, 5 x 5 points (N = 4), rules poj, swap off\n\
             Black connects x = 0 and x = 4, White y = 0 and y = 4\n   \
             1. Black (0,2)\n   \
             2. White (2,4)\n   \
             3. Black (4,2)\n   \
             4. White (3,2)  links (3,2)-(2,4)\n   \
             5. Black (2,3)  links (2,3)-(0,2)  refused (2,3)-(4,2) (crosses (2,4)-(3,2))\n\
             No winner after 5 moves; White to move\n"
        );
    }

    #[test]
    fn records_speak_their_own_notation() {
        let t = text("(;SZ[24];b[de];r[swap];b[ff];r[resign])", None);
        assert!(t.contains("   2. White swap: takes the first peg over as ed\n"), "{t}");
        assert!(t.ends_with("Winner: Black (White resigned with move 4)\n"), "{t}");
        let t = text("(;SZ[24];b[dd];r[ee|draw])", None);
        assert!(t.contains("   2. White ee  [draw]\n"), "{t}");
    }
}
