//! Prints a position of the longest win of a material under standard rules, from its table
//! file: `cargo run --release -p endgame-xiangqi --example xiangqi_longest -- KRvKNN [DIR]` (DIR as
//! `--dir` of the tool; default the tool's data directory).

use endgame_core::Value;
use endgame_xiangqi::{Material, MaterialIndex, Rules, Tablebases};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let material: Material = args.next().ok_or("usage: longest MATERIAL [DIR]")?.parse()?;
    let dir = match args.next() {
        Some(dir) => dir.into(),
        None => Tablebases::default_dir()?,
    };
    let tables = Tablebases::open(dir, Rules::Standard);
    let index = MaterialIndex::new(material);
    let solution = tables.read_solution(material)?;
    let best = (0..index.len())
        .filter_map(|i| match solution.value(i) {
            Some(Value::Win(d)) => Some((d, i)),
            _ => None,
        })
        .filter(|&(_, i)| index.decode(i).is_some_and(|p| p.check(Rules::Standard).is_ok()))
        .max();
    match best.and_then(|(d, i)| index.decode(i).map(|p| (d, p))) {
        Some((d, position)) => println!("{} (win in {d})", position.setup()),
        None => println!("no win in {material}"),
    }
    Ok(())
}
