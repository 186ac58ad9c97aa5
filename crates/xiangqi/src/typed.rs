//! Positions, materials and rule sets typed by a user, read with the messages the command line
//! prints (`FEN "...": ...`, `position: ...`, `material "...": ...`, `rules: ...`), so that
//! the command line and the bindings (Python, C) refuse bad input in the same words.

use endgame_core::input::{InputError, quote};

use crate::rules::board::Setup;
use crate::rules::material::Material;
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;

/// A position read from Xiangqi FEN (Pikafish letters) and validated (one General per side,
/// each piece on a point it can reach), not yet checked against a rule set: [`Probe::probe`]
/// checks it (use [`position`] to check it here).
///
/// [`Probe::probe`]: crate::probe::Probe::probe
///
/// # Errors
/// `FEN "<fen>": <what is wrong>` when the text is not FEN, `position: <what is wrong>` when
/// the pieces cannot stand so.
pub fn fen(text: &str) -> Result<Position, InputError> {
    let setup: Setup = text.parse().map_err(|e: crate::rules::fen::FenError| {
        InputError::new(format!("FEN {}", quote(text)), e.to_string())
    })?;
    Position::from_setup(setup).map_err(|e| InputError::new("position", e.to_string()))
}

/// A position read from FEN ([`fen`]) and legal under `rules` (e.g. the side not to move is
/// not in check under `standard` rules).
///
/// # Errors
/// As [`fen`], and `position: <why>` when the position is illegal under `rules`.
pub fn position(text: &str, rules: Rules) -> Result<Position, InputError> {
    let position = fen(text)?;
    position.check(rules).map_err(|e| InputError::new("position", e.to_string()))?;
    Ok(position)
}

/// A material such as `KRvKA`, in any case (`krvka` is `KRvKA`: no piece letter is a `v`).
///
/// # Errors
/// `material "<text>": <what is wrong>`.
pub fn material(text: &str) -> Result<Material, InputError> {
    let normal: String = text
        .chars()
        .map(|c| if c.eq_ignore_ascii_case(&'v') { 'v' } else { c.to_ascii_uppercase() })
        .collect();
    normal.parse().map_err(|e: crate::rules::material::MaterialError| {
        InputError::new(format!("material {}", quote(text)), e.to_string())
    })
}

/// A rule set by its name, in any case: `standard`, `hdu` (`HDU`), `perpetual-check`.
///
/// # Errors
/// `rules: expected a rule set (...), found "<text>"`.
pub fn rules(text: &str) -> Result<Rules, InputError> {
    text.to_ascii_lowercase().parse().map_err(|_| {
        InputError::new("rules", crate::rules::rule_set::ParseRulesError(text.to_string()).to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_input_and_what_is_wrong() {
        let e = fen("not a fen").unwrap_err().to_string();
        assert!(e.starts_with("FEN \"not a fen\": "), "{e}");
        let e = fen("4k4/9/9/9/9/9/9/9/9/9 w").unwrap_err().to_string();
        assert_eq!(e, "position: Red has no General");
        // Red's Chariot checks Black's General with Red to move: legal under hdu only.
        let checked = "4k4/9/9/9/9/9/9/9/9/3KR4 w";
        assert!(position(checked, Rules::Hdu).is_ok());
        let e = position(checked, Rules::Standard).unwrap_err().to_string();
        assert!(e.starts_with("position: Black is in check"), "{e}");
        assert!(fen(checked).is_ok());
        assert_eq!(material("KRvKA").unwrap().to_string(), "KRvKA");
        assert_eq!(material("krVka").unwrap().to_string(), "KRvKA");
        assert_eq!(rules("HDU").unwrap(), Rules::Hdu);
        assert!(material("KQvK").unwrap_err().to_string().starts_with("material \"KQvK\": "));
        assert_eq!(rules("perpetual-check").unwrap(), Rules::PerpetualCheck);
        assert_eq!(
            rules("fide").unwrap_err().to_string(),
            "rules: expected a rule set (standard, hdu, perpetual-check, check-and-chase), found \"fide\""
        );
        assert_eq!(
            rules("FIDE").unwrap_err().to_string(),
            "rules: expected a rule set (standard, hdu, perpetual-check, check-and-chase), found \"FIDE\""
        );
    }
}
