//! Material: how many pieces of each kind each side has, written `K<red pieces>vK<black
//! pieces>` (`KvKN`: a lone Red General against a Black General and Horse).

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::piece::{Color, Piece, Role};

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
        for (_, p) in board.pieces() {
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
    /// of `self` seen from the other side ([`Square::flip`](crate::square::Square::flip)), with
    /// the same values.
    #[must_use]
    pub const fn colour_twin(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
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
