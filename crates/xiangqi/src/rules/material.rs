//! Material: how many pieces of each kind each side has, written `K<red pieces>vK<black
//! pieces>` (`KvKN`: a lone Red General against a Black General and Horse).

use std::fmt;
use std::str::FromStr;

use crate::rules::board::Board;
use crate::rules::color::Color;
use crate::rules::piece::{Piece, Role};

/// The pieces of both sides, counted by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    counts: [[u8; Role::COUNT]; 2],
}

/// Why a material could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaterialError {
    /// Not two sides separated by one `v`.
    #[error("expected K<red pieces>vK<black pieces> (like KvKN), found {0:?}")]
    Shape(String),
    /// A side does not start with its General.
    #[error("{0}'s pieces must start with its General K")]
    NoGeneral(Color),
    /// More pieces of one kind than a side has in a game (2 of each, 5 Soldiers).
    #[error("{0} has {1} pieces {2:?}, at most {3} allowed")]
    TooMany(Color, usize, char, u8),
    /// Any other character.
    #[error("expected a piece letter (A B N R C P), found {0:?}")]
    BadChar(char),
}

impl Material {
    /// How many pieces of this colour and kind.
    #[must_use]
    pub const fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }

    /// The material on a board.
    #[must_use]
    pub fn of_board(board: &Board) -> Material {
        let mut counts = [[0u8; Role::COUNT]; 2];
        for p in board.occupants() {
            counts[p.color.index()][p.role.index()] += 1;
        }
        Material { counts }
    }

    /// Every piece, Red's first, by kind in the order of [`Role::ALL`].
    #[must_use]
    pub fn pieces(&self) -> Vec<Piece> {
        let mut pieces = Vec::new();
        for color in Color::ALL {
            for role in Role::ALL {
                for _ in 0..self.count(color, role) {
                    pieces.push(Piece { color, role });
                }
            }
        }
        pieces
    }

    /// The number of pieces on the board.
    #[must_use]
    pub fn men(&self) -> usize {
        self.counts.iter().flatten().map(|&c| usize::from(c)).sum()
    }

    /// The material with the colours swapped (`KNvKR` for `KRvKN`): its positions are those
    /// of `self` seen from the other side ([`Square::flip`](crate::rules::square::Square::flip)), with
    /// the same values.
    #[must_use]
    pub const fn colour_twin(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
    }

    /// The attacking pieces of `color`: Horses, Chariots, Cannons and Soldiers (the pieces that
    /// may cross the river).
    #[must_use]
    pub const fn attackers(&self, color: Color) -> u8 {
        let c = &self.counts[color.index()];
        c[Role::Horse.index()] + c[Role::Chariot.index()] + c[Role::Cannon.index()] + c[Role::Soldier.index()]
    }

    /// The defenders of `color`: Advisors and Elephants (they never leave their own half).
    #[must_use]
    pub const fn defenders(&self, color: Color) -> u8 {
        let c = &self.counts[color.index()];
        c[Role::Advisor.index()] + c[Role::Elephant.index()]
    }

    /// How players rank a side's material, to write the stronger side first (as Red): its
    /// attacking pieces, then their worth (Chariot 9, Cannon 4.5, Horse 4, Soldier 1, in half
    /// points), then its defenders.
    const fn strength(&self, color: Color) -> (u8, u32, u8) {
        let c = &self.counts[color.index()];
        let worth = 18 * c[Role::Chariot.index()] as u32
            + 9 * c[Role::Cannon.index()] as u32
            + 8 * c[Role::Horse.index()] as u32
            + 2 * c[Role::Soldier.index()] as u32;
        (self.attackers(color), worth, self.defenders(color))
    }

    /// Of this material and its colour twin, the one players write: the stronger side as Red
    /// (more attacking pieces, else more worth in them, else more defenders; `KRvKAABB`,
    /// `KRAvKR`, `KRvKN`, `KAAvKA`), and between two equally strong sides the one whose name
    /// comes first. Tables are written under this name; the twin is answered from its file.
    #[must_use]
    pub fn canonical(&self) -> Material {
        let twin = self.colour_twin();
        let (red, black) = (self.strength(Color::Red), self.strength(Color::Black));
        let keep = match red.cmp(&black) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => self.to_string() <= twin.to_string(),
        };
        if keep { *self } else { twin }
    }

    /// Whether this material is the one of its colour twins that players write
    /// ([`Material::canonical`]).
    #[must_use]
    pub fn is_canonical(&self) -> bool {
        self.canonical() == *self
    }

    /// Takes one `piece` away (nothing when there is none).
    pub fn remove(&mut self, piece: Piece) {
        let n = &mut self.counts[piece.color.index()][piece.role.index()];
        *n = n.saturating_sub(1);
    }

    /// Every material with at most `men` pieces (Generals included, at least 2), fewer men
    /// first; each after every material a capture leads to.
    #[must_use]
    pub fn all_up_to(men: usize) -> Vec<Material> {
        let kinds: Vec<(Color, Role)> =
            Color::ALL.into_iter().flat_map(|c| Role::ALL[1..].iter().map(move |&r| (c, r))).collect();
        let mut out = Vec::new();
        let mut m = Material { counts: [[0; Role::COUNT]; 2] };
        m.counts[0][0] = 1;
        m.counts[1][0] = 1;
        fn go(m: &mut Material, kinds: &[(Color, Role)], left: usize, out: &mut Vec<Material>) {
            let Some((&(color, role), rest)) = kinds.split_first() else {
                out.push(*m);
                return;
            };
            for n in 0..=left.min(role.max_count().into()) {
                m.counts[color.index()][role.index()] = n as u8;
                go(m, rest, left - n, out);
            }
            m.counts[color.index()][role.index()] = 0;
        }
        go(&mut m, &kinds, men.saturating_sub(2), &mut out);
        out.sort_by_key(|m| (m.men(), m.to_string()));
        out
    }

    /// `self` and every material captures lead to from it, each after every material a capture
    /// leads to from it (the order to solve them in).
    #[must_use]
    pub fn with_smaller(&self) -> Vec<Material> {
        fn go(m: Material, seen: &mut std::collections::HashSet<Material>, out: &mut Vec<Material>) {
            if !seen.insert(m) {
                return;
            }
            for smaller in m.after_captures() {
                go(smaller, seen, out);
            }
            out.push(m);
        }
        let mut out = Vec::new();
        go(*self, &mut std::collections::HashSet::new(), &mut out);
        out
    }

    /// The materials one capture of a piece other than a General leads to, without repeats.
    #[must_use]
    pub fn after_captures(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for color in Color::ALL {
            for role in Role::ALL.into_iter().filter(|&r| r != Role::General) {
                if self.count(color, role) > 0 {
                    let mut m = *self;
                    m.counts[color.index()][role.index()] -= 1;
                    out.push(m);
                }
            }
        }
        out
    }
}

/// Which Advisors and Elephants one side may have (see [`Defenders`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideDefenders {
    /// Any: 0 to 2 Advisors and 0 to 2 Elephants.
    Any,
    /// Exactly this many Advisors and Elephants (`none`: 0 and 0; `full`: 2 and 2).
    Exactly {
        /// Advisors, 0 to 2.
        advisors: u8,
        /// Elephants, 0 to 2.
        elephants: u8,
    },
}

impl SideDefenders {
    /// No Advisor, no Elephant.
    pub const NONE: SideDefenders = SideDefenders::Exactly { advisors: 0, elephants: 0 };
    /// Both Advisors and both Elephants.
    pub const FULL: SideDefenders = SideDefenders::Exactly { advisors: 2, elephants: 2 };

    /// Whether `color`'s Advisors and Elephants in `material` are allowed.
    #[must_use]
    pub const fn allows(self, material: &Material, color: Color) -> bool {
        match self {
            SideDefenders::Any => true,
            SideDefenders::Exactly { advisors, elephants } => {
                material.count(color, Role::Advisor) == advisors
                    && material.count(color, Role::Elephant) == elephants
            }
        }
    }
}

impl fmt::Display for SideDefenders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SideDefenders::Any => f.write_str("any"),
            SideDefenders::NONE => f.write_str("none"),
            SideDefenders::FULL => f.write_str("full"),
            SideDefenders::Exactly { advisors, elephants } => {
                for _ in 0..advisors {
                    f.write_str("A")?;
                }
                for _ in 0..elephants {
                    f.write_str("B")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for SideDefenders {
    type Err = DefendersError;
    fn from_str(s: &str) -> Result<SideDefenders, DefendersError> {
        match s {
            "any" => return Ok(SideDefenders::Any),
            "none" => return Ok(SideDefenders::NONE),
            "full" => return Ok(SideDefenders::FULL),
            _ => {}
        }
        let bad = || DefendersError(s.to_string());
        let (mut advisors, mut elephants) = (0u8, 0u8);
        for c in s.chars() {
            match c {
                'A' => advisors += 1,
                'B' => elephants += 1,
                _ => return Err(bad()),
            }
            if advisors > 2 || elephants > 2 {
                return Err(bad());
            }
        }
        if s.is_empty() {
            return Err(bad());
        }
        Ok(SideDefenders::Exactly { advisors, elephants })
    }
}

/// The Advisors and Elephants of the materials [`Material::by_attackers`] lists: those of the
/// side with more attacking pieces (`strong`) and of the other side (`weak`); when both sides
/// have as many attacking pieces, a material is listed when either side may be the strong one.
///
/// Written `any` (the default: 0 to 2 of each, each side), `none` (no Advisor or Elephant at
/// all), `full` (both sides with both Advisors and both Elephants), or `STRONG-vs-WEAK` with
/// each side `any`, `none`, `full` or its letters (`AAB`: two Advisors and one Elephant):
/// `none-vs-full` is the attacker alone against a full defence (`KRvKAABB`), `full-vs-any`
/// the attacker with a full defence of its own against any defence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Defenders {
    /// The side with more attacking pieces.
    pub strong: SideDefenders,
    /// The other side.
    pub weak: SideDefenders,
}

impl Default for Defenders {
    fn default() -> Self {
        Defenders { strong: SideDefenders::Any, weak: SideDefenders::Any }
    }
}

impl Defenders {
    /// Whether `material` (either way round) has the Advisors and Elephants allowed.
    #[must_use]
    pub fn allows(&self, material: &Material) -> bool {
        let (red, black) = (material.attackers(Color::Red), material.attackers(Color::Black));
        let as_written = red >= black
            && self.strong.allows(material, Color::Red)
            && self.weak.allows(material, Color::Black);
        let swapped = black >= red
            && self.strong.allows(material, Color::Black)
            && self.weak.allows(material, Color::Red);
        as_written || swapped
    }
}

impl fmt::Display for Defenders {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.strong == self.weak
            && matches!(self.strong, SideDefenders::Any | SideDefenders::NONE | SideDefenders::FULL)
        {
            return write!(f, "{}", self.strong);
        }
        write!(f, "{}-vs-{}", self.strong, self.weak)
    }
}

impl FromStr for Defenders {
    type Err = DefendersError;
    fn from_str(s: &str) -> Result<Defenders, DefendersError> {
        let bad = |_| DefendersError(s.to_string());
        match s.split_once("-vs-") {
            Some((strong, weak)) => {
                Ok(Defenders { strong: strong.parse().map_err(bad)?, weak: weak.parse().map_err(bad)? })
            }
            None => match s {
                "any" | "none" | "full" => {
                    let side: SideDefenders = s.parse().map_err(bad)?;
                    Ok(Defenders { strong: side, weak: side })
                }
                _ => Err(DefendersError(s.to_string())),
            },
        }
    }
}

/// A `--defenders` value that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected any, none, full or STRONG-vs-WEAK with each side any, none, full or its Advisors and Elephants (A, AB, AABB, ...; at most two of each), found {0:?}"
)]
pub struct DefendersError(pub String);

impl Material {
    /// Every material with at most `attackers` attacking pieces (Horses, Chariots, Cannons,
    /// Soldiers) in all, both sides together, and the Advisors and Elephants `defenders`
    /// allows (0 to 2 of each, each side), each written as players write it
    /// ([`Material::canonical`]: colour twins once), fewer men first.
    ///
    /// `by_attackers(1, Defenders::default())` lists the 324 materials with one attacking
    /// piece and the 45 without.
    #[must_use]
    pub fn by_attackers(attackers: usize, defenders: Defenders) -> Vec<Material> {
        const KINDS: [Role; 4] = [Role::Horse, Role::Chariot, Role::Cannon, Role::Soldier];
        /// Every way to give one side at most `left` attacking pieces, as counts per kind.
        fn armies(left: usize, kind: usize, army: &mut [u8; 4], out: &mut Vec<[u8; 4]>) {
            if kind == KINDS.len() {
                out.push(*army);
                return;
            }
            for n in 0..=left.min(KINDS[kind].max_count().into()) {
                army[kind] = n as u8;
                armies(left - n, kind + 1, army, out);
            }
            army[kind] = 0;
        }
        let mut all = Vec::new();
        armies(attackers, 0, &mut [0; 4], &mut all);
        let mut out = std::collections::BTreeSet::new();
        for red in &all {
            let left = attackers - red.iter().map(|&n| usize::from(n)).sum::<usize>();
            for black in all.iter().filter(|b| b.iter().map(|&n| usize::from(n)).sum::<usize>() <= left) {
                for guards in 0..81u8 {
                    let mut m = Material { counts: [[0; Role::COUNT]; 2] };
                    for (side, army) in [red, black].into_iter().enumerate() {
                        m.counts[side][Role::General.index()] = 1;
                        for (kind, &n) in KINDS.iter().zip(army) {
                            m.counts[side][kind.index()] = n;
                        }
                        let g = if side == 0 { guards % 9 } else { guards / 9 };
                        m.counts[side][Role::Advisor.index()] = g % 3;
                        m.counts[side][Role::Elephant.index()] = g / 3;
                    }
                    if defenders.allows(&m) {
                        out.insert(m.canonical());
                    }
                }
            }
        }
        let mut out: Vec<Material> = out.into_iter().collect();
        out.sort_by_key(|m| (m.men(), m.to_string()));
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for color in Color::ALL {
            if color == Color::Black {
                f.write_str("v")?;
            }
            for role in Role::ALL {
                for _ in 0..self.count(color, role) {
                    write!(f, "{}", role.char())?;
                }
            }
        }
        Ok(())
    }
}

impl FromStr for Material {
    type Err = MaterialError;
    fn from_str(s: &str) -> Result<Material, MaterialError> {
        let sides: Vec<&str> = s.split('v').collect();
        if sides.len() != 2 {
            return Err(MaterialError::Shape(s.to_string()));
        }
        let mut counts = [[0u8; Role::COUNT]; 2];
        for (color, side) in Color::ALL.into_iter().zip(sides) {
            let rest = side.strip_prefix('K').ok_or(MaterialError::NoGeneral(color))?;
            counts[color.index()][Role::General.index()] = 1;
            for c in rest.chars() {
                match Role::from_char(c) {
                    Some(role) if role != Role::General => {
                        let n = &mut counts[color.index()][role.index()];
                        *n = n.checked_add(1).ok_or(MaterialError::Shape(s.to_string()))?;
                    }
                    _ => return Err(MaterialError::BadChar(c)),
                }
            }
            for role in Role::ALL {
                let n = counts[color.index()][role.index()];
                if n > role.max_count() {
                    return Err(MaterialError::TooMany(color, n.into(), role.char(), role.max_count()));
                }
            }
        }
        Ok(Material { counts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> Material {
        text.parse().unwrap()
    }

    #[test]
    fn the_stronger_side_is_written_first() {
        for (written, canonical) in [
            ("KAABBvKR", "KRvKAABB"),
            ("KRvKAABB", "KRvKAABB"),
            ("KNNvKR", "KNNvKR"),
            ("KRvKNN", "KNNvKR"),
            ("KNvKR", "KRvKN"),
            ("KCvKN", "KCvKN"),
            ("KRvKAR", "KARvKR"),
            ("KAvKAA", "KAAvKA"),
            ("KBvKA", "KAvKB"),
            ("KRvKR", "KRvKR"),
            ("KvK", "KvK"),
            ("KAABBvKRP", "KRPvKAABB"),
        ] {
            assert_eq!(m(written).canonical(), m(canonical), "{written}");
            assert_eq!(m(written).colour_twin().canonical(), m(canonical), "{written}'s twin");
            assert!(m(canonical).is_canonical());
        }
    }

    #[test]
    fn defenders_read_and_print() {
        for text in ["any", "none", "full", "none-vs-full", "full-vs-any", "AB-vs-full", "any-vs-B"] {
            let d: Defenders = text.parse().unwrap();
            assert_eq!(d.to_string(), text);
        }
        assert_eq!("any-vs-any".parse::<Defenders>().unwrap().to_string(), "any");
        assert_eq!("AB-vs-AABB".parse::<Defenders>().unwrap().to_string(), "AB-vs-full");
        assert_eq!("BA-vs-".parse::<Defenders>().map_err(|e| e.0), Err("BA-vs-".to_string()));
        for bad in
            ["", "some", "AAA", "ABC", "full-vs-", "-vs-any", "any-vs-any-vs-any", "N-vs-any", "BBB-vs-A"]
        {
            let e = bad.parse::<Defenders>().unwrap_err();
            assert!(e.to_string().contains("expected any, none, full"), "{bad}: {e}");
        }
    }

    /// Issue 21's figures: one attacking piece, any defenders: 324 materials with one attacker
    /// (on Red's side) and 45 with none (colour twins once); with every material they rest on,
    /// 405 materials of 7.58 G indices; 369 files (each twin pair once).
    #[test]
    fn one_attacker_with_any_defenders() {
        let listed = Material::by_attackers(1, Defenders::default());
        let one: Vec<&Material> =
            listed.iter().filter(|m| m.attackers(Color::Red) + m.attackers(Color::Black) == 1).collect();
        assert_eq!(one.len(), 324);
        assert!(one.iter().all(|m| m.attackers(Color::Red) == 1));
        assert_eq!(listed.len(), 324 + 45);
        assert!(listed.iter().all(Material::is_canonical));
        let needed: std::collections::BTreeSet<Material> =
            listed.iter().flat_map(Material::with_smaller).collect();
        assert_eq!(needed.len(), 405);
        let size = |m: &Material| crate::tables::index::MaterialIndex::size(*m).unwrap() as u64;
        assert_eq!(needed.iter().map(size).sum::<u64>(), 7_580_141_568);
        let files: std::collections::BTreeSet<Material> = needed.iter().map(Material::canonical).collect();
        assert_eq!(files.len(), 369);
        assert_eq!(files.iter().copied().collect::<Vec<_>>(), {
            let mut l = listed.clone();
            l.sort();
            l
        });
        assert_eq!(files.iter().map(size).sum::<u64>(), 7_571_856_348);
    }

    #[test]
    fn defenders_restrict_the_list() {
        let list = |n, d: &str| Material::by_attackers(n, d.parse().unwrap());
        let names = |l: Vec<Material>| l.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(names(list(0, "none")), ["KvK"]);
        assert_eq!(names(list(1, "none")), ["KvK", "KCvK", "KNvK", "KPvK", "KRvK"]);
        assert_eq!(
            names(list(1, "none-vs-full")),
            ["KAABBvK", "KCvKAABB", "KNvKAABB", "KPvKAABB", "KRvKAABB"]
        );
        assert_eq!(list(1, "full-vs-any").len(), 4 * 9 + 9);
        // Two attacking pieces: one each (`KRvKN`) or both on one side (`KRRvK`), twins once.
        let two = list(2, "none");
        assert!(two.contains(&m("KRvKN")) && two.contains(&m("KNPvK")) && two.contains(&m("KRvKR")));
        assert!(!two.contains(&m("KNvKR")) && !two.contains(&m("KvKNP")));
        assert_eq!(two.len(), 1 + 4 + 10 + 10);
        // With as many attackers each, either side may be the strong one.
        assert!(list(2, "A-vs-none").contains(&m("KARvKN")) && list(2, "A-vs-none").contains(&m("KRvKAN")));
    }

    #[test]
    fn materials_print_and_parse() {
        let m: Material = "KvKN".parse().unwrap();
        assert_eq!(m.to_string(), "KvKN");
        assert_eq!(m.count(Color::Black, Role::Horse), 1);
        assert_eq!(m.men(), 3);
        assert_eq!(m.after_captures(), vec!["KvK".parse().unwrap()]);
        assert_eq!("KNvK".parse::<Material>().unwrap().to_string(), "KNvK");
        assert_eq!("KvN".parse::<Material>(), Err(MaterialError::NoGeneral(Color::Black)));
        assert_eq!("KRRRvK".parse::<Material>(), Err(MaterialError::TooMany(Color::Red, 3, 'R', 2)));
        assert_eq!("KCPvKAB".parse::<Material>().unwrap().to_string(), "KCPvKAB");
        assert_eq!("KPCvKBA".parse::<Material>().unwrap().to_string(), "KCPvKAB");
        assert_eq!("KXvK".parse::<Material>(), Err(MaterialError::BadChar('X')));
        assert!("KvKvK".parse::<Material>().is_err());
    }
}
