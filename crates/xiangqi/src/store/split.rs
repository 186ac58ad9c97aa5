//! One material solved by several ranks that each hold a contiguous range of its index (the
//! core's [`Retrograde::solve_part`] over any [`Transport`]: MPI in a cluster, threads in the
//! tests), each rank's share written to a part file in the tables' directory, and the table's
//! files written from the part files block by block in index order, by one rank that never
//! holds the whole table: byte for byte the files one process writes.
//!
//! Only `standard` and `hdu` tables, written in their own index's order: the bans' passes
//! and `--compression best` (which tries the colour twin's order too, reading the values out
//! of order) work on the whole table, and those materials are solved whole.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use endgame_core::retrograde::{EXCHANGE_BUDGET, Part, PartFile, Partition, Transport, write_part};
use endgame_core::table::{Compression, TableError, TablePaths, write_tables};
use endgame_core::{Progress, Retrograde, RuleValue};

use super::Tablebases;
use super::cost::{check_size, index_size};
use super::generate::GenerateError;
use super::source::table_id;
use crate::probe::ProbeError;
use crate::rules::material::Material;
use crate::tables::index::MaterialIndex;
use crate::tables::stats::Stats;

/// How a material of a generation over several ranks is solved: whole by one rank, or split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Share {
    /// By one rank (its estimate fits the memory of a rank, or it cannot be split: `why`).
    Whole {
        /// Why it is not split, when its estimate exceeds the memory of a rank.
        why: Option<&'static str>,
    },
    /// Over `ranks` ranks (every rank of the run), each holding a contiguous range of its
    /// index.
    Split {
        /// The ranks that share it.
        ranks: usize,
        /// The fewest ranks whose shares fit the memory of a rank (`ranks` + 1 when not even
        /// all of them do).
        needs: usize,
        /// The memory estimate of one rank's share, in bytes.
        share: u64,
        /// The bytes of outgoing events per round ([`Retrograde::exchange_budget`]).
        budget: u64,
    },
}

/// The bytes of a share's outgoing events per round in a run with `memory_per_rank` over
/// `ranks` ranks: a sixteenth of the memory over the ranks (a rank receives up to this from
/// each other rank), between 1 MiB and the core's default ([`EXCHANGE_BUDGET`]).
#[must_use]
pub fn exchange_budget(memory_per_rank: u64, ranks: usize) -> u64 {
    (memory_per_rank / 16 / ranks.max(1) as u64).clamp(1 << 20, EXCHANGE_BUDGET)
}

impl Tablebases {
    /// The memory estimate of one rank's share of `material` split over `ranks` ranks with
    /// `budget` bytes of outgoing events a round: [`Tablebases::memory_estimate`] with the
    /// solver's part for the largest range and the rounds' events
    /// ([`Retrograde::part_memory_estimate`]) instead of the whole index's.
    #[must_use]
    pub fn share_memory_estimate(material: Material, ranks: usize, budget: u64) -> u64 {
        let n = MaterialIndex::size(material).map_or(u64::MAX, |n| n as u64);
        let solver = Retrograde::new().compact(true).exchange_budget(budget);
        Tablebases::memory_estimate(material)
            .saturating_sub(solver.memory_estimate(n))
            .saturating_add(solver.part_memory_estimate(n, ranks))
    }

    /// How `material` is solved in a run over `ranks` ranks with `memory_per_rank` bytes each:
    /// split over all of them when its estimate exceeds the memory and it can be (`standard`
    /// or `hdu` rules: the bans' passes need the whole table; not `--compression best`, which
    /// tries the colour twin's order too), else whole.
    #[must_use]
    pub fn share_of(&self, material: Material, ranks: usize, memory_per_rank: u64) -> Share {
        if self.estimate(material, |_| false) <= memory_per_rank {
            return Share::Whole { why: None };
        }
        if ranks < 2 {
            return Share::Whole { why: Some("a single rank") };
        }
        if self.rules.has_bans() {
            return Share::Whole { why: Some("the bans' passes are not split") };
        }
        if self.compression == Compression::Best {
            return Share::Whole { why: Some("--compression best is not split") };
        }
        let budget = exchange_budget(memory_per_rank, ranks);
        let share = Tablebases::share_memory_estimate(material, ranks, budget);
        let needs = (2..=ranks)
            .find(|&k| Tablebases::share_memory_estimate(material, k, budget) <= memory_per_rank)
            .unwrap_or(ranks + 1);
        Share::Split { ranks, needs, share, budget }
    }

    /// [`Tablebases::needed`] in this store: in a generation over ranks
    /// ([`Tablebases::with_cluster`]) a material too large for this machine is accepted when
    /// its share split over every rank fits a rank.
    ///
    /// # Errors
    /// When a material can have no table, or not even its share fits a rank.
    pub fn needed_here(&self, materials: &[Material]) -> Result<Vec<Material>, ProbeError> {
        let Some((ranks, memory)) = self.cluster else { return Tablebases::needed(materials) };
        Tablebases::needed_checked(materials, |m| {
            let refused = match check_size(m) {
                Ok(n) => return Ok(n),
                Err(e) => e,
            };
            match self.share_of(m, ranks, memory) {
                Share::Split { ranks, needs, .. } if needs <= ranks => index_size(m),
                Share::Split { share, .. } => Err(ProbeError::BeyondTables {
                    material: m,
                    men: m.men(),
                    why: format!(
                        "split over {ranks} ranks each needs about {}, more than the {} of a rank",
                        endgame_core::units::bytes(share),
                        endgame_core::units::bytes(memory)
                    ),
                }),
                Share::Whole { .. } => Err(refused),
            }
        })
    }

    /// The solver of a generation in this store (1-byte cells, the scratch file next to the
    /// tables), reporting to `progress` and stopped by `cancel`.
    fn generation_solver<'a>(
        &'a self,
        progress: &'a (dyn Fn(Progress) + Sync),
        cancel: Option<&'a AtomicBool>,
    ) -> Retrograde<'a> {
        let solver = Retrograde::new().compact(true).scratch_dir(&self.dir).progress(progress);
        match cancel {
            Some(flag) => solver.cancel(flag),
            None => solver,
        }
    }

    /// This rank's share of `material` solved over the ranks of `transport` (call it on every
    /// rank), the captures read from the smaller tables' files, with outgoing events held up
    /// to `budget` bytes a round ([`Retrograde::exchange_budget`]).
    ///
    /// # Errors
    /// When a smaller table cannot be read, or the solve fails (on any rank).
    pub fn solve_share(
        &self,
        material: Material,
        transport: &dyn Transport,
        budget: u64,
    ) -> Result<Part, GenerateError> {
        let quiet = |_: Progress| {};
        let solver = self.generation_solver(&quiet, None).exchange_budget(budget);
        self.solve_game(material, |game| solver.solve_part(game, transport))
    }

    /// Where rank `rank` keeps its share of `material` until the table is written.
    #[must_use]
    pub fn part_path(&self, material: Material, rank: usize) -> PathBuf {
        self.dir.join(format!("{material}.rank{rank}.part"))
    }

    /// Writes `part`, this rank's share of `material`, to its part file
    /// ([`Tablebases::part_path`]).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn write_share(&self, material: Material, rank: usize, part: &Part) -> Result<(), TableError> {
        let path = self.part_path(material, rank);
        write_part(&path, &part.solution).map_err(|e| TableError::io(&path, e))
    }

    /// Writes `material`'s table files from the part files of its `ranks` ranks (all written,
    /// the directory shared), then removes the part files. The files are those one process
    /// writes for the same values.
    ///
    /// # Errors
    /// When a part file is missing or not of its rank's range, or a file cannot be written.
    pub fn write_from_shares(&self, material: Material, ranks: usize) -> Result<(), TableError> {
        let index = MaterialIndex::new(material);
        let partition = Partition::new(index.len(), ranks);
        let mut parts: Vec<(Range<usize>, PartFile)> = Vec::with_capacity(ranks);
        for rank in 0..ranks {
            let path = self.part_path(material, rank);
            let file = PartFile::open(&path).map_err(|e| TableError::io(&path, e))?;
            if file.len() != partition.range(rank).len() {
                let why = format!(
                    "{} positions, rank {rank} of {ranks} holds {}",
                    file.len(),
                    partition.range(rank).len()
                );
                return Err(TableError::Damaged { path, why });
            }
            parts.push((partition.range(rank), file));
        }
        let path = self.path(material);
        // The values of `range`, across the parts it spans.
        let fill = |range: Range<usize>, out: &mut Vec<Option<RuleValue>>| -> Result<(), TableError> {
            let mut values = Vec::with_capacity(range.len());
            for (at, file) in &parts {
                let (start, end) = (range.start.max(at.start), range.end.min(at.end));
                if start < end {
                    file.fill(start - at.start..end - at.start, &mut values)
                        .map_err(|e| TableError::io(&path, e))?;
                }
            }
            out.extend(values.into_iter().map(|v| v.map(RuleValue::from)));
            Ok(())
        };
        let stats = Stats::of_blocks(&index, self.rules, fill)?;
        let id = table_id(material, self.rules, index.len());
        let dtm_path = self.dtm_path(material);
        let paths = TablePaths { wdl: &path, dtm: &dtm_path };
        // The writer's `fill` cannot fail: a read error is kept and returned after it.
        let failed = std::sync::Mutex::new(None);
        write_tables(paths, &id, &stats.counters(), self.compression, |range, out| {
            if let Err(e) = fill(range.clone(), out) {
                failed.lock().expect("no panic while holding the lock").get_or_insert(e);
                out.extend(range.map(|_| None));
            }
        })?;
        if let Some(e) = failed.into_inner().expect("no panic while holding the lock") {
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_file(&dtm_path);
            return Err(e);
        }
        drop(parts);
        for rank in 0..ranks {
            let _ = std::fs::remove_file(self.part_path(material, rank));
        }
        self.forget(material);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use endgame_core::retrograde::LocalRanks;

    use super::*;
    use crate::rules::rule_set::Rules;
    use crate::store::loaded::Loaded;

    /// A material solved by 3 ranks in threads and written from their part files: the same
    /// files, byte for byte, as one process's generation.
    #[test]
    fn a_split_material_writes_the_files_of_one_process() {
        let dirs = [tempfile(), tempfile()];
        let one = Tablebases::open(&dirs[0], Rules::Standard);
        let split = Tablebases::open(&dirs[1], Rules::Standard);
        let material: Material = "KRvKA".parse().unwrap();
        one.generate(&[material], &|_| {}).unwrap();
        // The smaller tables first, by one process; then the material itself in 3 shares.
        let mut loaded = Loaded::new(Rules::Standard);
        for smaller in Tablebases::plan(&[material]).unwrap() {
            if smaller != material {
                split.prepare(&[smaller], &|_| {}).unwrap();
                split.generate_one(smaller, &mut loaded, &|_| {}).unwrap();
            }
        }
        let ranks = 3;
        std::thread::scope(|scope| {
            let handles: Vec<_> = LocalRanks::new(ranks)
                .into_iter()
                .map(|t| {
                    let split = &split;
                    scope.spawn(move || {
                        let part = split.solve_share(material, &t, 4096).unwrap();
                        assert!(part.exchanges > 1, "a small budget makes several rounds");
                        split.write_share(material, t.rank(), &part).unwrap();
                    })
                })
                .collect();
            handles.into_iter().for_each(|h| h.join().unwrap());
        });
        split.write_from_shares(material, ranks).unwrap();
        let sub = one.dir().strip_prefix(&dirs[0]).unwrap().to_path_buf();
        for m in Tablebases::plan(&[material]).unwrap() {
            for path in [one.path(m), one.dtm_path(m)] {
                let other = dirs[1].join(&sub).join(path.file_name().unwrap());
                assert!(
                    std::fs::read(&path).unwrap() == std::fs::read(&other).unwrap(),
                    "{}",
                    path.display()
                );
            }
        }
        assert!(!split.part_path(material, 0).exists(), "the part files are removed");
        for d in dirs {
            std::fs::remove_dir_all(d).unwrap();
        }
    }

    #[test]
    fn materials_over_a_ranks_memory_are_split_unless_they_cannot_be() {
        let dir = tempfile();
        // Large enough that a share saves more than the rounds' events cost.
        let m: Material = "KNRvKAR".parse().unwrap();
        let standard = Tablebases::open(&dir, Rules::Standard);
        let whole = standard.estimate(m, |_| false);
        assert_eq!(standard.share_of(m, 3, whole), Share::Whole { why: None });
        let Share::Split { ranks: 3, needs, share, budget } = standard.share_of(m, 3, whole - 1) else {
            panic!("{m} over a rank's memory is split")
        };
        assert!(share < whole && needs >= 2 && budget >= 1 << 20, "{share} {whole} {needs} {budget}");
        assert_eq!(share, Tablebases::share_memory_estimate(m, 3, budget));
        assert!(matches!(standard.share_of(m, 1, whole - 1), Share::Whole { why: Some(_) }));
        let check = Tablebases::open(&dir, Rules::PerpetualCheck);
        assert!(matches!(check.share_of(m, 3, 1), Share::Whole { why: Some(_) }));
        let best = Tablebases::open(&dir, Rules::Standard).with_compression(Compression::Best);
        assert!(matches!(best.share_of(m, 3, 1), Share::Whole { why: Some(_) }));
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A material beyond this machine is accepted over ranks whose shares fit, refused over
    /// too few.
    #[test]
    fn a_cluster_accepts_a_material_beyond_the_machine_when_its_shares_fit() {
        let m: Material = "KRPPvKAABBR".parse().unwrap();
        if check_size(m).is_ok() {
            return; // a machine with 290 GiB: nothing to split
        }
        let base = std::env::temp_dir();
        let tables = |ranks, memory| Tablebases::open(&base, Rules::Standard).with_cluster(ranks, memory);
        assert!(Tablebases::open(&base, Rules::Standard).needed_here(&[m]).is_err());
        let needed = tables(16, 22 << 30).needed_here(&[m]).unwrap();
        assert!(needed.contains(&m) && needed.len() > 100);
        let refused = tables(2, 1 << 30).needed_here(&[m]).unwrap_err().to_string();
        assert!(refused.contains("split over 2 ranks"), "{refused}");
    }

    fn tempfile() -> PathBuf {
        use std::sync::atomic::{AtomicU32, Ordering};
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "endgame-split-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
