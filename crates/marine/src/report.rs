//! The serialisable answer of a solve (`endgame marine solve --json`, the web explorer's API).

use serde_json::{Value, json};

use crate::setup::Battle;
use crate::solve::Solution;
use crate::state::State;

/// The units of `state`: the marine's cell and HP, each zergling's label, cell (`null` when
/// dead) and HP, and the board drawn as text.
#[must_use]
pub fn units(battle: &Battle, state: &State) -> Value {
    let map = battle.map();
    let zerglings: Vec<Value> = state
        .zerglings()
        .iter()
        .zip(battle.labels())
        .map(|(z, label)| {
            json!({
                "label": label.to_string(),
                "cell": z.alive().then(|| map.name(z.cell)),
                "hp": z.hp,
            })
        })
        .collect();
    json!({
        "marine": { "cell": map.name(state.marine), "hp": state.hp },
        "zerglings": zerglings,
        "board": battle.board(state),
    })
}

/// The solution of `battle` as JSON: `result` (`win`/`lose`), `rounds`, `limit`, the search's
/// `states` and `expanded`, the `start` units and the `plan` round by round (`null` on a loss).
#[must_use]
pub fn to_json(battle: &Battle, solution: &Solution) -> Value {
    let plan = solution.plan.as_ref().map(|plan| {
        plan.iter()
            .enumerate()
            .map(|(i, turn)| {
                let mut v = units(battle, &turn.state);
                v["round"] = json!(i + 1);
                v["action"] = json!(battle.describe(turn.action));
                v["damage"] = json!(turn.damage);
                v["won"] = json!(turn.won);
                v
            })
            .collect::<Vec<_>>()
    });
    json!({
        "result": if solution.plan.is_some() { "win" } else { "lose" },
        "rounds": solution.rounds(),
        "limit": solution.limit,
        "states": solution.stats.states,
        "expanded": solution.stats.expanded,
        "start": units(battle, &battle.start()),
        "plan": plan,
    })
}
