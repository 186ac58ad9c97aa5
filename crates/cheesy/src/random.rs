//! Random inputs for benchmarks and searches (deterministic for a seed; not for cryptography).

use std::fmt::Write;

/// SplitMix64: small, fast, and good enough for test inputs.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A judge input of `cases` random 8 x 8 cases: each field is `.` with probability 1/2, `D`
/// and `F` with 1/4 each; the king starts on a random `.` field, the pawn on a random other
/// field that is not `F`.
#[must_use]
pub fn judge_input(cases: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut out = String::with_capacity(cases * 80 + 8);
    let _ = writeln!(out, "{cases}");
    for _ in 0..cases {
        let (board, king, pawn) = loop {
            let board: Vec<u8> = (0..64).map(|_| [b'.', b'.', b'D', b'F'][rng.below(4)]).collect();
            let open: Vec<usize> = (0..64).filter(|&i| board[i] == b'.').collect();
            if open.is_empty() {
                continue;
            }
            let king = open[rng.below(open.len())];
            let pawns: Vec<usize> = (0..64).filter(|&i| board[i] != b'F' && i != king).collect();
            if pawns.is_empty() {
                continue;
            }
            break (board, king, pawns[rng.below(pawns.len())]);
        };
        for row in board.chunks(8) {
            out.extend(row.iter().map(|&b| char::from(b)));
            out.push('\n');
        }
        // Index i is line i / 8 from the top and column i % 8: x = i % 8 + 1, y = 8 - i / 8.
        for i in [king, pawn] {
            let _ = writeln!(out, "{} {}", i % 8 + 1, 8 - i / 8);
        }
    }
    out
}
