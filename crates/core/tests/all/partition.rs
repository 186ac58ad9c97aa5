//! The partitioned solve ([`Retrograde::solve_part`]) over ranks in threads ([`LocalRanks`])
//! against the oracle and the single-process solver, on random games with cycles: every rank
//! ends with exactly the values of its range, whatever the number of ranks, the cells and the
//! exchange budget (a budget of 0 makes an exchange after every group of tasks); and each
//! rank's share read back from its part file ([`write_part`], [`PartFile`]).

use endgame_core::explicit::ExplicitGame;
use endgame_core::retrograde::{LocalRanks, PartFile, Partition, write_part};
use endgame_core::{CellSize, Game, Retrograde, SolveError, Value};
use proptest::prelude::*;

use crate::retrograde_oracle::{any_value, game_sized, long_value, oracle};

/// The values of `game` solved by `solver` over `k` ranks in threads, in index order, and the
/// events sent between ranks in all.
fn in_parts(
    game: &ExplicitGame,
    k: usize,
    solver: &Retrograde<'_>,
) -> Result<(Vec<Option<Value>>, u64), SolveError> {
    let parts = std::thread::scope(|scope| {
        let handles: Vec<_> = LocalRanks::new(k)
            .into_iter()
            .map(|rank| scope.spawn(move || solver.solve_part(game, &rank)))
            .collect();
        handles.into_iter().map(|h| h.join().expect("no rank panics")).collect::<Vec<_>>()
    });
    let partition = Partition::new(game.num_positions(), k);
    let (mut values, mut sent) = (Vec::new(), 0);
    for (rank, part) in parts.into_iter().enumerate() {
        let part = part?;
        assert_eq!(part.range, partition.range(rank));
        assert_eq!(part.solution.len(), part.range.len());
        values.extend(part.solution.values());
        sent += part.sent_per_level.iter().sum::<u64>();
        // The part through its file, read back in ranges that do not follow the blocks.
        let path = std::env::temp_dir().join(format!(
            "endgame-part-test.{}.{:?}.{rank}",
            std::process::id(),
            std::thread::current().id()
        ));
        write_part(&path, &part.solution).unwrap();
        let file = PartFile::open(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(file.len(), part.range.len());
        let mut back = Vec::new();
        for start in (0..file.len()).step_by(7) {
            file.fill(start..file.len().min(start + 7), &mut back).unwrap();
        }
        assert_eq!(back, part.solution.values().collect::<Vec<_>>());
    }
    Ok((values, sent))
}

fn cells() -> impl Strategy<Value = CellSize> {
    prop_oneof![Just(CellSize::One), Just(CellSize::Two), Just(CellSize::Four)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Small games: the oracle's values, over 1 to 5 ranks (more ranks than positions too).
    #[test]
    fn ranks_agree_with_the_oracle(
        game in game_sized(1..40, any_value()),
        k in 1usize..6,
        cells in cells(),
        budget in prop_oneof![Just(0u64), Just(64u64), Just(1 << 20)],
    ) {
        let expected = oracle(&game);
        let solver = Retrograde::new().cell_size(cells).exchange_budget(budget);
        let (values, _) = in_parts(&game, k, &solver).unwrap();
        prop_assert_eq!(values, expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Larger games, long distances (1-byte cells' escapes and the levels kept as lists),
    /// spilled lists and 8-byte position numbers: the single solver's values.
    #[test]
    fn ranks_agree_with_one_process(
        game in game_sized(200..3000, long_value()),
        k in 2usize..5,
        budget in prop_oneof![Just(0u64), Just(512u64)],
        spill in any::<bool>(),
        wide in any::<bool>(),
    ) {
        let one = Retrograde::new().compact(true).solve_with_unmoves(&game).unwrap();
        let solver = Retrograde::new()
            .compact(true)
            .exchange_budget(budget)
            .spill_above(if spill { 0 } else { u64::MAX })
            .wide_positions(wide);
        let (values, sent) = in_parts(&game, k, &solver).unwrap();
        prop_assert_eq!(values, one.values().collect::<Vec<_>>());
        // Random moves cross ranges: the ranks did talk.
        let moves: usize = (0..game.num_positions()).map(|p| game.moves_of(p).len()).sum();
        prop_assert!(moves < 50 || sent > 0);
    }
}

#[test]
fn partition_ranges_cover_the_positions_and_owners_agree() {
    for n in [0usize, 1, 2, 7, 100, 1001] {
        for k in 1..9 {
            let p = Partition::new(n, k);
            let mut next = 0;
            for rank in 0..k {
                let r = p.range(rank);
                assert_eq!(r.start, next);
                next = r.end;
                for pos in r {
                    assert_eq!(p.owner(pos), rank, "{pos} of {n} over {k}");
                }
            }
            assert_eq!(next, n);
        }
    }
}

#[test]
fn more_moves_than_a_byte_counts_on_one_rank_makes_every_rank_use_two_bytes() {
    let limit = endgame_core::retrograde::MAX_BYTE_PAYLOAD as usize;
    // Position 0 (rank 0's) has more moves than a byte counts; the others are a chain.
    let n = 40;
    let mut edges: Vec<Vec<usize>> = (0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }).collect();
    edges[0] = vec![n - 1; limit + 5];
    let game = ExplicitGame::new(edges);
    let one = Retrograde::new().solve(&game).unwrap();
    let (values, _) = in_parts(&game, 3, &Retrograde::new().compact(true)).unwrap();
    assert_eq!(values, one.values().collect::<Vec<_>>());
}
