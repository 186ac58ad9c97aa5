//! POJ 2706 / HDU 2727 "Connect": does the last move of each record win?
//!
//! Input: datasets `N M` followed by `M` pairs `x y`, until `0 0`. Output: `yes` or `no` per
//! dataset. Any N in `3..=2^30` and any odd M are accepted; an illegal record (off the board,
//! occupied, opponent's endzone, a move after a win) stops the run with an error naming the
//! dataset, the move and the line, after the answers of the datasets before it.

use std::io::Write;

use endgame_core::input::quote;
use endgame_core::{InputError, JudgeError, Tokens};

use crate::position::Position;
use crate::record::{Dataset, read_dataset};
use crate::rules::{Config, Move, Outcome};

/// Whether the last move of the dataset wins; `prefix` names the dataset in errors.
fn last_move_wins(data: &Dataset, prefix: &str) -> Result<bool, InputError> {
    let mut game = Position::with_capacity(data.n, Config::POJ, data.moves.len())
        .map_err(|e| InputError::new(format!("{prefix}line {}", data.line), e.to_string()))?;
    for (k, &(p, line)) in data.moves.iter().enumerate() {
        game.play(Move::Place(p)).map_err(|e| {
            InputError::new(format!("{prefix}move {} (line {line})", k + 1), e.kind.to_string())
        })?;
    }
    Ok(matches!(game.outcome(), Some(Outcome::Connection { number, .. }) if number == data.moves.len()))
}

/// Reads the whole input, writes one line per dataset.
pub fn run(input: &str, out: &mut dyn Write) -> Result<(), JudgeError> {
    let mut tokens = Tokens::new(input);
    for dataset in 1.. {
        let prefix = format!("dataset {dataset}, ");
        if tokens.at_end() {
            return Err(InputError::new(
                format!("{prefix}line {}", tokens.line()),
                "expected `N M` or the end marker `0 0`, found the end of the input",
            )
            .into());
        }
        let Some(data) = read_dataset(&mut tokens, &prefix)? else { break };
        let yes = last_move_wins(&data, &prefix)?;
        out.write_all(if yes { b"yes\n" } else { b"no\n" })?;
    }
    if let Some((t, line)) = tokens.next_token() {
        return Err(InputError::new(
            format!("line {line}"),
            format!("expected nothing after `0 0`, found {}", quote(t)),
        )
        .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "4 5\n0 2 2 4 4 2 3 2 2 3\n4 5\n0 2 2 4 4 2 3 2 2 1\n7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n0 0\n";

    fn judge(input: &str) -> (String, Option<String>) {
        let mut out = Vec::new();
        let err = run(input, &mut out).err().map(|e| e.to_string());
        (String::from_utf8(out).unwrap(), err)
    }

    #[test]
    fn sample() {
        assert_eq!(judge(SAMPLE), ("no\nyes\nyes\n".to_string(), None));
    }

    /// The seed's hand-written table checks `(x, y)-(x-1, y+1)` (not a knight segment) instead
    /// of `(x+1, y)-(x-1, y+1)` for one direction. Here White's move 8, (1,2), must not link to
    /// (2,0) across its own link (1,1)-(3,0); with the table's hole it does, and that link then
    /// blocks Black's winning (0,1)-(2,2): the seed answers `no`.
    #[test]
    fn a_blocker_the_seed_table_misses() {
        let input = "4 11\n2 3 2 0 2 2 3 0 3 3 1 1 4 2 1 2 4 1 3 4 0 1\n0 0\n";
        assert_eq!(judge(input), ("yes\n".to_string(), None));
    }

    #[test]
    fn errors_name_the_dataset_and_move() {
        let (out, err) = judge("4 5\n0 2 2 4 4 2 3 2 2 1\n4 5\n0 2 2 4 0 2 3 2 2 1\n0 0\n");
        assert_eq!(out, "yes\n");
        assert_eq!(err.unwrap(), "dataset 2, move 3 (line 4): (0,2) is already occupied");
        let (_, err) = judge("4 5\n0 2 2 4 4 2 3 2 2 1 0 0");
        assert!(err.is_none());
        let (_, err) = judge("4 4\n0 2 2 4 4 2 3 2\n0 0\n");
        assert!(err.unwrap().starts_with("dataset 1, line 1: M = 4"));
        let (_, err) = judge("4 5\n0 2 2 4 4 2 3 2\n");
        assert_eq!(err.unwrap(), "dataset 1, move 5 (line 3): expected x, found the end of the input");
        let (_, err) = judge("4 5\n0 2 2 4 4 2 3 2 2 1\n");
        assert!(err.unwrap().starts_with("dataset 2, line 2: expected `N M`"));
        let (_, err) = judge("4 5\n0 2 0 1 4 2 3 2 2 1\n0 0\n");
        assert_eq!(
            err.unwrap(),
            "dataset 1, move 2 (line 2): (0,1) is in Black's endzone, forbidden to White"
        );
        let (_, err) = judge("4 5\n0 2 2 4 4 2 3 2 2 5\n0 0\n");
        assert_eq!(err.unwrap(), "dataset 1, move 5 (line 2): (2,5) is off the board (coordinates 0..=4)");
        // Black wins with move 5; move 6 and 7 come after the win.
        let (_, err) = judge("4 7\n0 2 2 4 4 2 3 2 2 1 1 1 1 2\n0 0\n");
        assert_eq!(
            err.unwrap(),
            "dataset 1, move 6 (line 2): the game is already over (Black won with move 5)"
        );
    }
}
