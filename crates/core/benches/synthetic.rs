//! A synthetic game for benchmarks: a large random-looking graph with cycles whose moves can be
//! undone exactly.
//!
//! Position `i` of `n` (n a multiple of 10) has four moves, to `(A[k] * i + B[k]) mod n`; every
//! `A[k]` is coprime to `n`, so each move is a bijection and has an exact un-move. Positions
//! `i` with `i % 17 == 0` are terminal: lost for the side to move.

use endgame_core::{Game, Successor, Unmoves, Value};

const A: [u64; 4] = [3, 7, 11, 13];
const B: [u64; 4] = [1, 5, 999, 12_345];

/// The inverse of `a` modulo `n` (extended Euclid; `a` and `n` coprime).
fn inverse(a: u64, n: u64) -> u64 {
    let (mut t, mut new_t, mut r, mut new_r) = (0i128, 1i128, i128::from(n), i128::from(a));
    while new_r != 0 {
        let q = r / new_r;
        (t, new_t) = (new_t, t - q * new_t);
        (r, new_r) = (new_r, r - q * new_r);
    }
    assert_eq!(r, 1, "{a} is not invertible modulo {n}");
    t.rem_euclid(i128::from(n)) as u64
}

/// The synthetic game with `n` positions.
pub struct Synthetic {
    n: u64,
    inverses: [u64; 4],
}

impl Synthetic {
    /// `n` must be coprime to 3, 7, 11 and 13 (any power of ten is).
    pub fn new(n: usize) -> Self {
        let n = n as u64;
        Synthetic { n, inverses: A.map(|a| inverse(a, n)) }
    }
}

impl Game for Synthetic {
    type Move = usize;

    fn num_positions(&self) -> usize {
        self.n as usize
    }

    fn terminal(&self, pos: usize) -> Option<Value> {
        pos.is_multiple_of(17).then_some(Value::loss_in(0))
    }

    fn for_each_move(&self, pos: usize, mut f: impl FnMut(usize, Successor)) {
        for (k, (a, b)) in A.iter().zip(B).enumerate() {
            f(k, Successor::Position(((a * pos as u64 + b) % self.n) as usize));
        }
    }
}

impl Unmoves for Synthetic {
    fn for_each_unmove(&self, pos: usize, mut f: impl FnMut(usize)) {
        for (b, inverse) in B.iter().zip(self.inverses) {
            let shifted = (pos as u64 + self.n - b % self.n) % self.n;
            f(((u128::from(shifted) * u128::from(inverse)) % u128::from(self.n)) as usize);
        }
    }
}
