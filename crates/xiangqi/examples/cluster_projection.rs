//! Projects the wall time of generating every material up to `men` men on a cluster of
//! identical nodes, from a measured solve rate: a simulation of the run that `endgame xiangqi
//! generate --all-up-to MEN` makes under MPI, with the library's own scheduler
//! ([`endgame_core::schedule::Scheduler`]: dependencies first, the largest ready material first,
//! each material solved by one node with all its cores).
//!
//! A material of `n` indices takes `n / rate + overhead` seconds on a node, where `rate` is the
//! node's measured indices per second for materials of that many men (pass one rate per man
//! count, e.g. measured with `scripts/bench/xiangqi-six.sh`). The projection prints, per
//! cluster size, the simulated wall time, the node utilisation, and two lower bounds: the
//! total work divided by the nodes, and the longest dependency chain.
//!
//! ```text
//! cargo run --release -p endgame-xiangqi --example cluster_projection -- \
//!     --men 6 --nodes 1,16,64 --rate 5:4.0e6 --rate 6:3.5e6 --overhead 2
//! ```
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use endgame_core::schedule::{Scheduler, Tier};
use endgame_xiangqi::{Material, MaterialIndex};

struct Options {
    men: usize,
    nodes: Vec<usize>,
    /// Indices per second of one node, by man count (the largest count given below applies).
    rates: Vec<(usize, f64)>,
    overhead: f64,
}

fn parse() -> Result<Options, String> {
    let mut o = Options { men: 6, nodes: vec![1, 16, 64], rates: Vec::new(), overhead: 0.0 };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |what: &str| format!("{flag} {value}: expected {what}");
        match flag.as_str() {
            "--men" => o.men = value.parse().map_err(|_| bad("a number of men"))?,
            "--nodes" => {
                o.nodes = value
                    .split(',')
                    .map(|n| n.parse().ok().filter(|&n| n > 0))
                    .collect::<Option<_>>()
                    .ok_or_else(|| bad("node counts like 1,16,64"))?;
            }
            "--rate" => {
                let (men, rate) = value.split_once(':').ok_or_else(|| bad("MEN:INDICES_PER_SECOND"))?;
                let men = men.parse().map_err(|_| bad("MEN:INDICES_PER_SECOND"))?;
                let rate: f64 = rate.parse().map_err(|_| bad("MEN:INDICES_PER_SECOND"))?;
                if rate.is_nan() || rate <= 0.0 {
                    return Err(bad("a positive rate"));
                }
                o.rates.push((men, rate));
            }
            "--overhead" => o.overhead = value.parse().map_err(|_| bad("seconds"))?,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if o.rates.is_empty() {
        return Err("give at least one --rate MEN:INDICES_PER_SECOND".into());
    }
    o.rates.sort_by_key(|&(men, _)| men);
    Ok(o)
}

fn main() {
    let o = parse().unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2);
    });
    let materials = Material::all_up_to(o.men);
    let rate = |m: Material| o.rates.iter().rev().find(|&&(men, _)| men <= m.men()).unwrap_or(&o.rates[0]).1;
    let secs: HashMap<Material, f64> = materials
        .iter()
        .map(|&m| {
            let n = MaterialIndex::size(m).expect("materials of up to 7 men have 64-bit indices") as f64;
            (m, n / rate(m) + o.overhead)
        })
        .collect();
    let total: f64 = secs.values().sum();
    // The longest chain of dependencies (materials come smaller first).
    let mut chain: HashMap<Material, f64> = HashMap::new();
    for &m in &materials {
        let before = m.after_captures().iter().map(|d| chain[d]).fold(0.0, f64::max);
        chain.insert(m, before + secs[&m]);
    }
    let critical = chain.values().copied().fold(0.0, f64::max);
    let indices: u64 = materials.iter().map(|&m| MaterialIndex::size(m).unwrap() as u64).sum();
    println!(
        "{} materials up to {} men, {:.1} G indices, {:.1} node-hours of solving in all",
        materials.len(),
        o.men,
        indices as f64 / 1e9,
        total / 3600.0
    );
    let hours = |s: f64| format!("{:.2} h", s / 3600.0);
    for &nodes in &o.nodes {
        let makespan = simulate(&materials, &secs, nodes);
        println!(
            "{nodes:>4} nodes: {:>9} wall, {:>5.1}% busy (bounds: work / nodes {}, longest chain {})",
            hours(makespan),
            100.0 * total / (makespan * nodes as f64),
            hours(total / nodes as f64),
            hours(critical)
        );
    }
}

/// The wall time of the run on `nodes` nodes: every free node takes the scheduler's next
/// material the moment one is ready.
fn simulate(materials: &[Material], secs: &HashMap<Material, f64>, nodes: usize) -> f64 {
    let tiers = materials
        .iter()
        .map(|&m| Tier { id: m, size: MaterialIndex::size(m).unwrap() as u64, needs: m.after_captures() })
        .collect();
    let mut books = Scheduler::new(tiers, |_| false).expect("the materials form a DAG");
    // Running materials by finishing time (in microseconds, to order them exactly).
    let mut running: BinaryHeap<Reverse<(u64, Material)>> = BinaryHeap::new();
    let (mut now, mut free) = (0u64, nodes);
    loop {
        while free > 0 {
            let Some(m) = books.hand_out() else { break };
            free -= 1;
            running.push(Reverse((now + (secs[&m] * 1e6) as u64, m)));
        }
        let Some(Reverse((at, m))) = running.pop() else { break };
        now = at;
        books.finish(&m);
        free += 1;
    }
    assert!(books.is_finished(), "every material was solved");
    now as f64 / 1e6
}
