//! The scheduler on random dependency graphs, with several workers finishing in random order,
//! workers that fail (their tier handed out again) and runs that crash and restart from what
//! is on disk: every tier is written exactly once, never before its dependencies, and the tier
//! handed out is always a largest ready one (ready computed here independently).

use std::collections::HashSet;

use endgame_core::schedule::{Scheduler, Tier};
use proptest::prelude::*;

#[derive(Debug, Clone)]
struct Plan {
    tiers: Vec<Tier<u32>>,
    /// Random choices: which worker finishes next, failures, crashes.
    dice: Vec<u8>,
    workers: usize,
}

fn plan() -> impl Strategy<Value = Plan> {
    (1usize..25, 1usize..5).prop_flat_map(|(n, workers)| {
        let needs =
            proptest::collection::vec(proptest::collection::vec(any::<prop::sample::Index>(), 0..4), n);
        let sizes = proptest::collection::vec(0u64..6, n);
        let ids = Just((0..n as u32).map(|i| i * 7 + 3).collect::<Vec<_>>()).prop_shuffle();
        let dice = proptest::collection::vec(any::<u8>(), 400);
        (needs, sizes, ids, dice).prop_map(move |(needs, sizes, ids, dice)| {
            let tiers = (0..n)
                .map(|i| {
                    // Tier i depends on some of the tiers before it: no cycles.
                    let mut ns: Vec<u32> =
                        if i == 0 { vec![] } else { needs[i].iter().map(|x| ids[x.index(i)]).collect() };
                    ns.sort_unstable();
                    ns.dedup();
                    Tier { id: ids[i], size: sizes[i], needs: ns }
                })
                .collect();
            Plan { tiers, dice, workers }
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn every_tier_once_never_before_its_dependencies(plan in plan()) {
        let mut disk: HashSet<u32> = HashSet::new();
        let mut writes = Vec::new();
        let mut dice = plan.dice.iter().copied().cycle();
        let mut restarts = 0;
        'run: while disk.len() < plan.tiers.len() {
            prop_assert!(restarts < 100, "no progress");
            restarts += 1;
            let mut s = Scheduler::new(plan.tiers.clone(), |t| disk.contains(t)).unwrap();
            prop_assert_eq!(s.left(), plan.tiers.len() - disk.len());
            let mut running: Vec<u32> = Vec::new();
            loop {
                while running.len() < plan.workers {
                    // Ready, computed independently: not done, not running, every need on disk.
                    let ready: Vec<&Tier<u32>> = plan.tiers.iter()
                        .filter(|t| !disk.contains(&t.id) && !running.contains(&t.id))
                        .filter(|t| t.needs.iter().all(|n| disk.contains(n)))
                        .collect();
                    match s.hand_out() {
                        Some(t) => {
                            let tier = ready.iter().find(|r| r.id == t);
                            prop_assert!(tier.is_some(), "{} handed out but not ready", t);
                            prop_assert!(ready.iter().all(|r| r.size <= tier.unwrap().size), "not the largest");
                            running.push(t);
                        }
                        None => {
                            prop_assert!(ready.is_empty(), "ready tiers left behind");
                            break;
                        }
                    }
                }
                if running.is_empty() {
                    prop_assert!(s.is_finished());
                    break 'run;
                }
                let roll = dice.next().unwrap();
                let w = usize::from(roll) % running.len();
                let t = running.swap_remove(w);
                match roll % 13 {
                    // The whole run crashes: what is running is lost; restart from disk.
                    0 => continue 'run,
                    // One worker fails: its tier is handed out again.
                    1 => s.give_back(&t),
                    _ => {
                        let tier = plan.tiers.iter().find(|x| x.id == t).unwrap();
                        prop_assert!(tier.needs.iter().all(|n| disk.contains(n)), "{} before its needs", t);
                        prop_assert!(disk.insert(t), "{} written twice", t);
                        writes.push(t);
                        s.finish(&t);
                    }
                }
            }
        }
        prop_assert_eq!(writes.len(), plan.tiers.len());
    }
}
