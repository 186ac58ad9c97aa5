//! The rules engine: pegs, links, blocking, and incremental win detection.
//!
//! Pegs live in a peg map (`pegmap`) from point to peg number: a grid on boards of up
//! to 2048 x 2048 points, a table keyed by a random hash key on larger ones (memory
//! proportional to the pegs, not to the board's area); no record can choose points that make
//! it slow. Each peg keeps an 8-bit set of its link directions. Placing a
//! peg looks at its 8 knight neighbours; a link to a same-colored neighbour is refused when one
//! of the 9 knight segments that could cross it ([`crate::geometry::blockers`]) is already a link
//! (of either color under [`Rules::Poj`], of the opponent under [`Rules::Pp`]). That is at most
//! 8 + 8 * 9 map look-ups per move, whatever the number of pegs.
//!
//! Connectivity is a union-find over pegs (path halving, union by size); each root carries two
//! flags, "touches my first endzone" and "touches my second endzone". A move wins when the root
//! of its peg has both, so a whole record is replayed in linear time.

use std::collections::HashMap;

use crate::geometry::{Dir, MAX_N, MIN_N, Point, blockers};
use crate::pegmap::{PegMap, Slot};
use crate::rules::{
    Color, Config, Link, Move, MoveError, MoveErrorKind, Outcome, OutcomeText, Placed, Played, Rules,
    SizeError,
};

#[derive(Clone, Copy, Debug)]
struct Peg {
    point: Point,
    color: Color,
}

/// Zone flags of a component: bit 0 touches the first endzone, bit 1 the second.
const BOTH: u8 = 3;

/// A Twixt position: a game in progress on a board of any size (pegs, links, the side to move,
/// the outcome). Not to be confused with the core crate's `Game` trait (a solver's view of a game).
#[derive(Clone, Debug)]
pub struct Position {
    n: i32,
    config: Config,
    index: PegMap,
    pegs: Vec<Peg>,
    parent: Vec<u32>,
    rank: Vec<u32>,
    zones: Vec<u8>,
    moves: usize,
    outcome: Option<Outcome>,
}

impl Position {
    /// An empty board with points `0..=n` in both coordinates.
    pub fn new(n: i64, config: Config) -> Result<Position, SizeError> {
        if !(i64::from(MIN_N)..=i64::from(MAX_N)).contains(&n) {
            return Err(SizeError(n));
        }
        Ok(Position {
            n: n as i32,
            config,
            index: PegMap::new(n as i32),
            pegs: Vec::new(),
            parent: Vec::new(),
            rank: Vec::new(),
            zones: Vec::new(),
            moves: 0,
            outcome: None,
        })
    }

    /// Like [`Position::new`], with room for `pegs` pegs reserved.
    pub fn with_capacity(n: i64, config: Config, pegs: usize) -> Result<Position, SizeError> {
        let mut game = Position::new(n, config)?;
        game.index.reserve(pegs);
        game.pegs.reserve(pegs);
        game.parent.reserve(pegs);
        game.rank.reserve(pegs);
        game.zones.reserve(pegs);
        Ok(game)
    }

    /// Slots of the peg map examined by look-ups so far: the map's work, independent of the
    /// machine (a move costs at most 8 + 8 x 9 look-ups; a look-up examines one slot on a grid,
    /// about 1.5 on average in the keyed table of a large board, whatever the points).
    #[must_use]
    pub fn map_probes(&self) -> u64 {
        self.index.probes()
    }

    /// The largest coordinate, N.
    #[must_use]
    pub fn n(&self) -> i32 {
        self.n
    }

    /// The rules.
    #[must_use]
    pub fn config(&self) -> Config {
        self.config
    }

    /// Moves played so far (swap and resignation included).
    #[must_use]
    pub fn moves_played(&self) -> usize {
        self.moves
    }

    /// The color to move next.
    #[must_use]
    pub fn to_move(&self) -> Color {
        Color::of_move(self.moves + 1)
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The color of the peg on `p`, if any.
    #[must_use]
    pub fn peg_at(&self, p: Point) -> Option<Color> {
        self.index.get(p).map(|s| s.color)
    }

    /// Every peg, in the order placed.
    pub fn pegs(&self) -> impl Iterator<Item = (Point, Color)> + '_ {
        self.pegs.iter().map(|p| (p.point, p.color))
    }

    /// Every link with its color, each once.
    pub fn links(&self) -> impl Iterator<Item = (Link, Color)> + '_ {
        self.pegs.iter().flat_map(|p| {
            let links = self.index.get(p.point).map_or(0, |s| s.links);
            Dir::ALL[..4]
                .iter()
                .filter(move |d| links >> d.index() & 1 == 1)
                .map(move |&d| (Link { from: p.point, to: p.point.step(d) }, p.color))
        })
    }

    /// The pegs linked to the peg on `p`.
    pub fn linked(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let links = self.index.get(p).map_or(0, |s| s.links);
        Dir::ALL.into_iter().filter(move |d| links >> d.index() & 1 == 1).map(move |d| p.step(d))
    }

    /// The endzone flag of `p` for color `c`: 1 first endzone, 2 second, 0 none.
    fn zone(&self, p: Point, c: Color) -> u8 {
        let v = match c {
            Color::Black => p.x,
            Color::White => p.y,
        };
        if v == 0 {
            1
        } else if v == self.n {
            2
        } else {
            0
        }
    }

    /// Whether `color` may put a peg on `p` now (ignoring whose turn it is).
    pub fn check_place(&self, p: Point, color: Color) -> Result<(), MoveErrorKind> {
        if p.x < 0 || p.y < 0 || p.x > self.n || p.y > self.n {
            return Err(MoveErrorKind::OffBoard(p, self.n));
        }
        if self.zone(p, !color) != 0 {
            return Err(MoveErrorKind::Endzone(p, !color, color));
        }
        if self.index.contains(p) {
            return Err(MoveErrorKind::Occupied(p));
        }
        Ok(())
    }

    /// Plays the next move.
    pub fn play(&mut self, mv: Move) -> Result<Played, MoveError> {
        let number = self.moves + 1;
        let err = |kind| MoveError { number, kind };
        if let Some(o) = self.outcome {
            return Err(err(MoveErrorKind::GameOver(OutcomeText(o))));
        }
        let color = self.to_move();
        let played = match mv {
            Move::Place(p) => {
                self.check_place(p, color).map_err(err)?;
                Played::Placed(self.place(p, color, number))
            }
            Move::Swap => {
                if number != 2 || self.pegs.len() != 1 {
                    return Err(err(MoveErrorKind::SwapNotSecond));
                }
                if !self.config.swap {
                    return Err(err(MoveErrorKind::SwapOff));
                }
                let from = self.pegs[0].point;
                let to = from.transposed();
                self.index.clear();
                self.index.insert(to, Slot { index: 0, color: Color::White, links: 0 });
                self.pegs[0] = Peg { point: to, color: Color::White };
                self.zones[0] = self.zone(to, Color::White);
                Played::Swapped { from, to }
            }
            Move::Resign => {
                self.outcome = Some(Outcome::Resignation { winner: !color, number });
                Played::Resigned(color)
            }
        };
        self.moves = number;
        Ok(played)
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grand = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grand;
            i = grand;
        }
        i
    }

    fn find_const(&self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            i = self.parent[i as usize];
        }
        i
    }

    fn union(&mut self, a: u32, b: u32) -> u32 {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return a;
        }
        let (big, small) = if self.rank[a as usize] >= self.rank[b as usize] { (a, b) } else { (b, a) };
        self.parent[small as usize] = big;
        self.rank[big as usize] += self.rank[small as usize];
        self.zones[big as usize] |= self.zones[small as usize];
        big
    }

    /// The link that blocks a new link from `p` in direction `d` for `color`, if any.
    fn blocker(&self, p: Point, d: Dir, color: Color) -> Option<Link> {
        for b in blockers(d) {
            let start = p.offset(b.offset.0, b.offset.1);
            if let Some(peg) = self.index.get(start)
                && peg.links >> b.dir.index() & 1 == 1
                && (self.config.rules == Rules::Poj || peg.color != color)
            {
                return Some(Link { from: start, to: start.step(b.dir) });
            }
        }
        None
    }

    /// The same-colored peg in direction `d` of `p`, if any.
    fn friend(&self, p: Point, d: Dir, color: Color) -> Option<u32> {
        self.index.get(p.step(d)).filter(|s| s.color == color).map(|s| s.index)
    }

    fn place(&mut self, p: Point, color: Color, number: usize) -> Placed {
        let i = self.pegs.len() as u32;
        self.pegs.push(Peg { point: p, color });
        self.parent.push(i);
        self.rank.push(1);
        self.zones.push(self.zone(p, color));
        let mut placed = Placed { point: p, color, linked: 0, refused: [None; 8], wins: false };
        for d in Dir::ALL {
            let Some(j) = self.friend(p, d, color) else { continue };
            // Links made earlier in this move share `p`, so they never block each other.
            if let Some(link) = self.blocker(p, d, color) {
                placed.refused[d.index()] = Some(link);
                continue;
            }
            placed.linked |= 1 << d.index();
            self.index.add_links(p.step(d), 1 << d.opposite().index());
            self.union(i, j);
        }
        // The new peg enters the map last: the checks above never look at `p` itself.
        self.index.insert(p, Slot { index: i, color, links: placed.linked });
        let root = self.find(i);
        if self.zones[root as usize] == BOTH {
            placed.wins = true;
            self.outcome = Some(Outcome::Connection { winner: color, number });
        }
        placed
    }

    /// Whether `color` putting a peg on `p` would connect its endzones at once (the point must
    /// be legal for it; the turn is not checked).
    #[must_use]
    pub fn would_win(&self, p: Point, color: Color) -> bool {
        if self.check_place(p, color).is_err() {
            return false;
        }
        let mut zones = self.zone(p, color);
        for d in Dir::ALL {
            if let Some(j) = self.friend(p, d, color)
                && self.blocker(p, d, color).is_none()
            {
                zones |= self.zones[self.find_const(j) as usize];
            }
        }
        zones == BOTH
    }

    /// Every empty point where `color` would win at once, sorted. Only knight neighbours of
    /// its pegs can win (a lone peg connects nothing), so the cost is linear in the pegs.
    #[must_use]
    pub fn threats(&self, color: Color) -> Vec<Point> {
        let mut points: Vec<Point> = self
            .pegs
            .iter()
            .filter(|peg| peg.color == color)
            .flat_map(|peg| Dir::ALL.map(|d| peg.point.step(d)))
            .filter(|&q| self.would_win(q, color))
            .collect();
        points.sort_unstable();
        points.dedup();
        points
    }

    /// After a win by connection: a shortest chain of linked pegs from the winner's first
    /// endzone to its second.
    #[must_use]
    pub fn winning_path(&self) -> Option<Vec<Point>> {
        let Some(Outcome::Connection { winner, .. }) = self.outcome else { return None };
        let mut previous: HashMap<Point, Option<Point>> = HashMap::new();
        let mut queue = std::collections::VecDeque::new();
        for peg in self.pegs.iter().filter(|peg| peg.color == winner && self.zone(peg.point, winner) == 1) {
            previous.insert(peg.point, None);
            queue.push_back(peg.point);
        }
        while let Some(p) = queue.pop_front() {
            if self.zone(p, winner) == 2 {
                let mut path = vec![p];
                let mut at = p;
                while let Some(Some(before)) = previous.get(&at) {
                    path.push(*before);
                    at = *before;
                }
                path.reverse();
                return Some(path);
            }
            for q in self.linked(p) {
                previous.entry(q).or_insert_with(|| {
                    queue.push_back(q);
                    Some(p)
                });
            }
        }
        None
    }
}
