//! The classic endgames players study, named in English and Chinese, each with a typical
//! position: the explorer's examples menu (`/api/examples`) and the table in `docs/xiangqi.md`.
//! Two lists: [`CATALOGUE`], whose tables are generated in minutes and whose results and
//! statistics `docs/xiangqi.md` lists, and [`MASTERS`], the practical endgames masters study
//! (three attacking pieces against a full defence, 8 and 9 men), whose tables take tens of billions
//! of positions with what they need and an hour or more to generate: `docs/xiangqi.md` gives
//! their sizes, the explorer generates them on demand with the time said first.
//!
//! Each material is written as players write it ([`Material::canonical`]: the attacking side
//! as Red), so that its table is the file a generation writes. The positions are set up the way
//! books show them (the defence on its home points, the attacker's pieces in play, Red to
//! move); the tests check that each is legal under `standard` rules and of its material. Their
//! values are the tables', not the books': `docs/xiangqi.md` lists each one's result and
//! statistics as generated.

use crate::rules::board::Setup;
use crate::rules::material::Material;
use crate::rules::position::Position;

/// One classic endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endgame {
    /// Its English name.
    pub english: &'static str,
    /// Its Chinese name, as books write it.
    pub chinese: &'static str,
    /// The material, as players write it (`KRvKAABB`).
    pub material: &'static str,
    /// A typical position in Xiangqi FEN.
    pub fen: &'static str,
}

impl Endgame {
    /// The material.
    ///
    /// # Panics
    /// Never for the catalogue's entries (a test reads them all).
    #[must_use]
    pub fn material(&self) -> Material {
        self.material.parse().expect("the catalogue's materials are materials")
    }

    /// The typical position.
    ///
    /// # Panics
    /// Never for the catalogue's entries (a test reads them all).
    #[must_use]
    pub fn position(&self) -> Position {
        let setup: Setup = self.fen.parse().expect("the catalogue's positions are FEN");
        Position::from_setup(setup).expect("the catalogue's positions are positions")
    }
}

/// The classic endgames, the simplest first: the Chariot against defences, the Soldier, the
/// Horse and the Cannon against a few defenders, then two attacking pieces.
pub const CATALOGUE: [Endgame; 24] = [
    Endgame {
        english: "Soldier against the lone General",
        chinese: "单兵对将",
        material: "KPvK",
        fen: "4k4/9/4P4/9/9/9/9/9/9/3K5 w",
    },
    Endgame {
        english: "High Soldier against an Advisor",
        chinese: "高兵对单士",
        material: "KPvKA",
        fen: "4k4/4a4/9/3P5/9/9/9/9/9/5K3 w",
    },
    Endgame {
        english: "High Soldier against an Elephant",
        chinese: "高兵对单象",
        material: "KPvKB",
        fen: "2b1k4/9/9/3P5/9/9/9/9/9/5K3 w",
    },
    Endgame {
        english: "Horse against an Advisor",
        chinese: "单马对单士",
        material: "KNvKA",
        fen: "4k4/4a4/9/9/4N4/9/9/9/9/3K5 w",
    },
    Endgame {
        english: "Horse against an Elephant",
        chinese: "单马对单象",
        material: "KNvKB",
        fen: "2b1k4/9/9/9/4N4/9/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot against a Horse",
        chinese: "单车对单马",
        material: "KRvKN",
        fen: "4k4/9/4n4/9/9/7R1/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot against a Cannon",
        chinese: "单车对单炮",
        material: "KRvKC",
        fen: "4k4/4c4/9/9/9/7R1/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot against two Advisors",
        chinese: "单车对双士",
        material: "KRvKAA",
        fen: "3aka3/9/9/9/9/7R1/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot against two Elephants",
        chinese: "单车对双象",
        material: "KRvKBB",
        fen: "2b1k1b2/9/9/9/9/7R1/9/9/9/3K5 w",
    },
    Endgame {
        english: "Cannon and Advisor against an Advisor",
        chinese: "炮士对单士",
        material: "KACvKA",
        fen: "4k4/4a4/9/9/9/9/9/3C5/4A4/4K4 w",
    },
    Endgame {
        english: "Cannon and two Advisors against two Advisors",
        chinese: "炮双士对双士",
        material: "KAACvKAA",
        fen: "3aka3/9/9/9/9/9/9/4C4/9/3AKA3 w",
    },
    Endgame {
        english: "Chariot against Horse and two Advisors",
        chinese: "单车对马双士",
        material: "KRvKAAN",
        fen: "3aka3/9/4n4/9/9/7R1/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot against Cannon and two Advisors",
        chinese: "单车对炮双士",
        material: "KRvKAAC",
        fen: "3aka3/4c4/9/9/9/7R1/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot against Horse and two Elephants",
        chinese: "单车对马双象",
        material: "KRvKBBN",
        fen: "2b1k1b2/9/4n4/9/9/7R1/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot against Cannon and two Elephants",
        chinese: "单车对炮双象",
        material: "KRvKBBC",
        fen: "2b1k1b2/9/4c4/9/9/7R1/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot against a full defence",
        chinese: "单车对士象全",
        material: "KRvKAABB",
        fen: "2bakab2/9/9/9/9/1R7/9/9/9/3K5 w",
    },
    Endgame {
        english: "Horse and Soldier against an Advisor and an Elephant",
        chinese: "马兵对单士象",
        material: "KNPvKAB",
        fen: "3ak1b2/9/9/2N6/3P5/9/9/9/9/5K3 w",
    },
    Endgame {
        english: "Two Soldiers against a full defence",
        chinese: "双兵对士象全",
        material: "KPPvKAABB",
        fen: "2bakab2/9/9/3P1P3/9/9/9/9/9/3K5 w",
    },
    Endgame {
        english: "Horse and Soldier against a full defence",
        chinese: "马兵对士象全",
        material: "KNPvKAABB",
        fen: "2bakab2/9/9/4P4/2N6/9/9/9/9/3K5 w",
    },
    Endgame {
        english: "Cannon and Soldier against a full defence",
        chinese: "炮兵对士象全",
        material: "KCPvKAABB",
        fen: "2bakab2/9/9/4P4/9/9/9/1C7/9/3K5 w",
    },
    Endgame {
        english: "Chariot and Soldier against a full defence",
        chinese: "车兵对士象全",
        material: "KRPvKAABB",
        fen: "2bakab2/9/9/4P4/9/1R7/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot and Soldier against a Chariot",
        chinese: "车兵对车",
        material: "KRPvKR",
        fen: "3k5/4r4/9/4P4/9/R8/9/9/9/5K3 w",
    },
    Endgame {
        english: "Chariot and Horse against a Chariot",
        chinese: "车马对车",
        material: "KNRvKR",
        fen: "4k4/9/4r4/9/2N6/R8/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot and Cannon against a Chariot",
        chinese: "车炮对车",
        material: "KRCvKR",
        fen: "4k4/9/4r4/9/9/R8/9/2C6/9/3K5 w",
    },
];

/// The practical endgames masters study: three attacking pieces in all against a full defence
/// (two Advisors and two Elephants), the defence with a Chariot, a Horse or a Cannon of its own
/// in six of them. Their tables are 8.2 to 16.5 billion indices each, 18.7 to 37.8 billion with
/// every material their captures lead to (`docs/xiangqi.md` lists them): generated on demand,
/// in an hour or more.
pub const MASTERS: [Endgame; 7] = [
    Endgame {
        english: "Chariot and Horse against Chariot and a full defence",
        chinese: "车马对车士象全",
        material: "KNRvKAABBR",
        fen: "2bakab2/9/4r4/9/2N6/R8/9/9/9/3K5 w",
    },
    Endgame {
        english: "Chariot and Cannon against Chariot and a full defence",
        chinese: "车炮对车士象全",
        material: "KRCvKAABBR",
        fen: "2bakab2/9/4r4/9/9/R8/9/2C6/9/3K5 w",
    },
    Endgame {
        english: "Chariot and Soldier against Chariot and a full defence",
        chinese: "车兵对车士象全",
        material: "KRPvKAABBR",
        fen: "2bakab2/9/4r4/3P5/9/R8/9/9/9/3K5 w",
    },
    Endgame {
        english: "Horse, Cannon and Soldier against a full defence",
        chinese: "马炮兵对士象全",
        material: "KNCPvKAABB",
        fen: "2bakab2/9/9/4P4/2N6/9/9/1C7/9/3K5 w",
    },
    Endgame {
        english: "Two Chariots against Chariot and a full defence",
        chinese: "双车对车士象全",
        material: "KRRvKAABBR",
        fen: "2bakab2/9/4r4/9/9/R7R/9/9/9/3K5 w",
    },
    Endgame {
        english: "Horse and Soldier against Horse and a full defence",
        chinese: "马兵对马士象全",
        material: "KNPvKAABBN",
        fen: "2bakab2/9/4n4/4P4/2N6/9/9/9/9/3K5 w",
    },
    Endgame {
        english: "Cannon and Soldier against Cannon and a full defence",
        chinese: "炮兵对炮士象全",
        material: "KCPvKAABBC",
        fen: "2bakab2/9/4c4/4P4/9/9/9/1C7/9/3K5 w",
    },
];

/// The classic endgames ([`CATALOGUE`]).
#[must_use]
pub const fn catalogue() -> &'static [Endgame] {
    &CATALOGUE
}

/// The masters' endgames ([`MASTERS`]).
#[must_use]
pub const fn masters() -> &'static [Endgame] {
    &MASTERS
}

/// Both lists as JSON, the catalogue first: `{"english", "chinese", "material", "fen",
/// "group"}` each, `group` being `classic` ([`CATALOGUE`]) or `masters` ([`MASTERS`]) (the
/// explorer's examples menu).
#[must_use]
pub fn catalogue_json() -> serde_json::Value {
    let entry = |e: &Endgame, group: &str| {
        serde_json::json!({
            "english": e.english,
            "chinese": e.chinese,
            "material": e.material,
            "fen": e.fen,
            "group": group,
        })
    };
    let classic = CATALOGUE.iter().map(|e| entry(e, "classic"));
    classic.chain(MASTERS.iter().map(|e| entry(e, "masters"))).collect()
}

/// The table of the classic endgames in `docs/xiangqi.md`: for each, its names, material, typical
/// position, that position's result and the statistics of the material under the rules of
/// `store` (a Markdown table, a line per endgame after the header).
///
/// # Errors
/// When a material has no tables in `store` (generate them first) or a file cannot be read.
pub fn table(store: &crate::Tablebases) -> Result<String, crate::ProbeError> {
    use crate::Probe;
    use endgame_core::RuleValue;
    let mut out = String::from(
        "| Chinese | English | Material | Typical position (Red to move) | Its result | Positions | Won by the side to move | Drawn | Lost | Longest win of Red |\n|---|---|---|---|---|--:|--:|--:|--:|--:|\n",
    );
    for e in catalogue() {
        let value = store.probe(&e.position())?;
        let stats = store.stats(e.material())?;
        let plies = |n: u32| if n == 1 { "1 ply".to_string() } else { format!("{n} plies") };
        let result = match value {
            RuleValue::Win(n) => format!("Red wins in {}", plies(n.0)),
            RuleValue::Loss(n) => format!("Black wins in {}", plies(n.0)),
            _ => "draw".to_string(),
        };
        let share = |n: u64| format!("{:.1} %", 100.0 * n as f64 / stats.counts.positions.max(1) as f64);
        out.push_str(&format!(
            "| {} | {} | `{}` | `{}` | {result} | {} | {} | {} | {} | {} plies |\n",
            e.chinese,
            e.english,
            e.material,
            e.fen,
            stats.counts.positions,
            share(stats.counts.wins),
            share(stats.counts.draws),
            share(stats.counts.losses),
            stats.longest_red_win_plies
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rule_set::Rules;

    #[test]
    fn every_entry_is_a_legal_position_of_its_material_as_players_write_it() {
        assert!(CATALOGUE.len() >= 20);
        let mut seen = std::collections::BTreeSet::new();
        for e in catalogue().iter().chain(masters()) {
            let position = e.position();
            let material = e.material();
            assert_eq!(position.material(), material, "{}", e.english);
            assert_eq!(material.to_string(), e.material, "{}: written as the library writes it", e.english);
            assert!(material.is_canonical(), "{}: players write {}", e.english, material.canonical());
            for rules in [Rules::Standard, Rules::Hdu, Rules::PerpetualCheck] {
                assert_eq!(position.check(rules), Ok(()), "{} under {rules}", e.english);
            }
            assert!(!position.legal_moves(Rules::Standard).is_empty(), "{}: a move to play", e.english);
            assert!(!position.in_check(), "{}: not in check at the start", e.english);
            assert!(seen.insert(e.material), "{} twice", e.material);
            assert!(!e.english.is_empty() && e.chinese.chars().all(|c| !c.is_ascii()), "{}", e.chinese);
        }
        let json = catalogue_json();
        assert_eq!(json.as_array().map(Vec::len), Some(CATALOGUE.len() + MASTERS.len()));
        assert_eq!(json[15]["chinese"], "单车对士象全");
        assert_eq!((&json[15]["material"], &json[15]["group"]), (&"KRvKAABB".into(), &"classic".into()));
        let last = &json[CATALOGUE.len() + MASTERS.len() - 1];
        assert_eq!((&last["material"], &last["group"]), (&"KCPvKAABBC".into(), &"masters".into()));
    }

    /// Issue 37's seven, as the issue writes them (each side's pieces in any order), and all of
    /// three attacking pieces in all against a full defence.
    #[test]
    fn the_masters_endgames_are_issue_37s_seven() {
        let asked = [
            "KRNvKRAABB",
            "KRCvKRAABB",
            "KRPvKRAABB",
            "KNCPvKAABB",
            "KRRvKRAABB",
            "KNPvKNAABB",
            "KCPvKCAABB",
        ];
        let listed: Vec<Material> = masters().iter().map(Endgame::material).collect();
        let asked: Vec<Material> = asked.iter().map(|m| m.parse().unwrap()).collect();
        assert_eq!(listed, asked);
        for e in masters() {
            let m = e.material();
            assert!(e.material.contains("vKAABB"), "{}: a full defence", e.material);
            let attackers = e.material.chars().filter(|c| "NRCP".contains(*c)).count();
            assert_eq!(attackers, 3, "{}: three attacking pieces", e.material);
            assert!(m.men() >= 8, "{}", e.material);
        }
    }
}
