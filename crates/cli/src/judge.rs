//! `endgame judge <problem> [FILE]`: contest input in, contest output out, byte for byte.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use endgame_core::JudgeError;

use crate::failure::Failure;
use crate::output;

/// A contest problem the judge answers.
pub struct Problem {
    /// The name on the command line.
    pub name: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// Reads the whole input, writes the whole output.
    pub run: fn(&str, &mut dyn Write) -> Result<(), JudgeError>,
}

/// Every problem, one entry per game that has landed.
pub const PROBLEMS: &[Problem] = &[
    Problem {
        name: "hdu5897",
        about: "Xiangqi: General + Horse vs General (HDU 5897)",
        run: endgame_xiangqi::judge::run,
    },
    Problem {
        name: "hdu1680",
        about: "Cheesy Chess: white king against black pawn on 8 x 8 (HDU 1680, POJ 3455)",
        run: endgame_cheesy::judge::run,
    },
    Problem {
        name: "poj2706",
        about: "Twixt: does the last move win? (POJ 2706 / HDU 2727; input ends with `0 0`)",
        run: endgame_twixt::judge::run,
    },
    Problem {
        name: "marine",
        about: "BZOJ 2205: a marine against two zerglings on 5 x 5; WIN and the fewest rounds, or LOSE",
        run: endgame_marine::judge::run,
    },
];

/// Arguments of `endgame judge`.
#[derive(Args)]
#[command(after_help = problems_help())]
pub struct JudgeArgs {
    /// The problem (see the list below).
    problem: String,
    /// The input file; standard input when absent or `-` (at most 128 MiB, tokens of at most
    /// 1 MiB).
    file: Option<PathBuf>,
}

fn problems_help() -> String {
    let mut help = String::from("Problems:");
    if PROBLEMS.is_empty() {
        help.push_str(" none yet.");
    }
    for p in PROBLEMS {
        help.push_str(&format!("\n  {:<10} {}", p.name, p.about));
    }
    help
}

/// Runs the judge: answers for the cases before a bad one are written before the error.
pub fn run(args: &JudgeArgs) -> Result<(), Failure> {
    let Some(problem) = PROBLEMS.iter().find(|p| p.name == args.problem) else {
        let known: Vec<&str> = PROBLEMS.iter().map(|p| p.name).collect();
        return Err(Failure::input(format!(
            "problem `{}`: expected one of: {}",
            args.problem,
            if known.is_empty() { "(none yet)".to_string() } else { known.join(", ") }
        )));
    };
    let input = output::read_judge_input(args.file.as_deref())?;
    let mut out = output::stdout();
    let result = (problem.run)(&input.text, &mut out);
    out.flush()?;
    match (result, input.long_token_line) {
        (Err(JudgeError::Input(e)), _) => Err(input.error(e)),
        // The text stopped inside an overlong token and the judge took what it saw.
        (Ok(()), Some(line)) => Err(input.error(format!(
            "line {line}: expected a token of at most {}, found a longer one (reading stopped there)",
            endgame_core::units::bytes(output::JUDGE_TOKEN_LIMIT as u64)
        ))),
        (result, _) => Ok(result?),
    }
}
