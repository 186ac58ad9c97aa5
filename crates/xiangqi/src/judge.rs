//! HDU 5897 "The Game": the contest's input and output.
//!
//! Input: `T`, then `T` cases of seven integers `x1 y1 x2 y2 x3 y3 p` (whitespace separated,
//! spread over lines in any way): Bob's Horse, Bob's General, Alice's General, and `p` = 0
//! when Alice moves first, 1 when Bob does. A point `(x, y)` is rank `x` (0-9, Alice's palace
//! on 0-2) and file `y` (0-8 = `a`-`i`): Alice is Red, Bob is Black.
//!
//! Output, one line per case: `Lucky guy!` when Alice wins or draws (endless play counts as
//! her win), else `Lose in X steps T.T!` with `X` the plies until Bob captures her General.
//! Every answer is a lookup in the solved `KvKN` table.

use endgame_core::input::quote;
use std::io::Write;
use std::sync::OnceLock;

use endgame_core::{InputError, JudgeError, Tokens, Value};

use crate::rules::color::Color;
use crate::rules::square::{File, Rank, Square};
use crate::tables::index::MaterialIndex;
use crate::tables::solve::{hdu, kvkn};

/// The line printed for a position, given its value for the side to move.
#[must_use]
pub fn answer(value: Value, turn: Color) -> String {
    // Alice is Red; Bob wins only by capturing her General.
    let bob = if turn == Color::Black { value } else { -value };
    match bob {
        Value::Win(d) => format!("Lose in {} steps T.T!", d.0),
        Value::Draw(_) | Value::Loss(_) => "Lucky guy!".to_string(),
    }
}

/// The answer line (with its newline) of every index of the `KvKN` table; holes get none.
fn answers() -> &'static [Option<Box<[u8]>>] {
    static ANSWERS: OnceLock<Vec<Option<Box<[u8]>>>> = OnceLock::new();
    ANSWERS.get_or_init(|| {
        let table = hdu().table(kvkn()).expect("KvKN is solved");
        (0..table.index().len())
            .map(|i| {
                let turn = MaterialIndex::turn(i);
                table.solution().value(i).map(|v| format!("{}\n", answer(v, turn)).into_bytes().into())
            })
            .collect()
    })
}

const NAMES: [&str; 7] = ["x1", "y1", "x2", "y2", "x3", "y3", "p"];

/// What each of the seven numbers may be, and how to say so.
const RANGES: [(i64, i64, &str); 7] = [
    (0, 9, "the rank x1 of Bob's Horse, 0..=9"),
    (0, 8, "the file y1 of Bob's Horse, 0..=8"),
    (7, 9, "the rank x2 of Bob's General, 7..=9 (his palace)"),
    (3, 5, "the file y2 of Bob's General, 3..=5 (his palace)"),
    (0, 2, "the rank x3 of Alice's General, 0..=2 (her palace)"),
    (3, 5, "the file y3 of Alice's General, 3..=5 (her palace)"),
    (0, 1, "p, 0 (Alice moves first) or 1 (Bob moves first)"),
];

fn point(x: i64, y: i64) -> Square {
    let (Ok(x), Ok(y)) = (u8::try_from(x), u8::try_from(y)) else { unreachable!("checked ranges") };
    Square::new(File::new(y).expect("checked file"), Rank::new(x).expect("checked rank"))
}

/// Answers every case of `input`, writing the output to `out` (buffered, flushed in large
/// blocks). The answers of the cases before a bad one are written before the error.
///
/// # Errors
/// The first bad token (naming its case, token and line), or a failed write.
pub fn run(input: &str, out: &mut dyn Write) -> Result<(), JudgeError> {
    let answers = answers();
    let index = hdu().table(kvkn()).expect("KvKN is solved").index();
    let mut tokens = Tokens::new(input);
    let cases = match tokens.next_token() {
        None => {
            return Err(InputError::new(
                "line 1, token 1 (T)",
                "expected the number of cases T, found the end of the input",
            )
            .into());
        }
        Some((t, line)) => t.parse::<u64>().map_err(|_| {
            InputError::new(
                format!("line {line}, token 1 (T)"),
                format!("expected the number of cases T, a non-negative integer, found {}", quote(t)),
            )
        })?,
    };
    let mut buffer = Vec::with_capacity(1 << 16);
    for case in 1..=cases {
        let mut v = [0i64; 7];
        for (k, slot) in v.iter_mut().enumerate() {
            let (lo, hi, what) = RANGES[k];
            let place = |line: usize| format!("case {case}, token {} ({}), line {line}", k + 1, NAMES[k]);
            let Some((t, line)) = tokens.next_token() else {
                out.write_all(&buffer)?;
                return Err(InputError::new(
                    place(tokens.line()),
                    format!("expected {what}, found the end of the input"),
                )
                .into());
            };
            match t.parse::<i64>() {
                Ok(n) if (lo..=hi).contains(&n) => *slot = n,
                _ => {
                    out.write_all(&buffer)?;
                    return Err(
                        InputError::new(place(line), format!("expected {what}, found {}", quote(t))).into()
                    );
                }
            }
        }
        let (horse, bob, alice) = (point(v[0], v[1]), point(v[2], v[3]), point(v[4], v[5]));
        let clash = if horse == bob {
            Some((4, "Bob's General stands on Bob's Horse"))
        } else if horse == alice {
            Some((6, "Alice's General stands on Bob's Horse"))
        } else {
            None
        };
        if let Some((k, what)) = clash {
            out.write_all(&buffer)?;
            return Err(InputError::new(
                format!("case {case}, token {k} ({}), line {}", NAMES[k - 1], tokens.line()),
                format!("expected two pieces on different points, but {what} ({}, {})", v[k - 2], v[k - 1]),
            )
            .into());
        }
        let turn = if v[6] == 0 { Color::Red } else { Color::Black };
        let i =
            index.canonical_index(&mut [alice, bob, horse], turn).expect("checked points are in the index");
        buffer.extend_from_slice(answers[i].as_deref().expect("distinct points are a position"));
        if buffer.len() >= 1 << 16 {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    out.write_all(&buffer)?;
    if let Some((t, line)) = tokens.next_token() {
        return Err(InputError::new(
            format!("line {line}"),
            format!("expected the end of the input after {cases} cases, found {}", quote(t)),
        )
        .into());
    }
    Ok(())
}
