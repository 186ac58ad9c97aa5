//! What a generation costs, in memory and in time, and the limits a material is held to.
//!
//! - Memory: the constants of the memory model, what the process holds besides the solver
//!   ([`process_bytes`]), and the two estimates: [`Tablebases::memory_estimate`] (a solve, the
//!   tables it reads and the process) and [`Tablebases::estimate`] (the same in this
//!   directory, under a ban with the number of draws the `standard` file tells).
//! - Time: the speed model ([`default_speed`]), which the job estimate
//!   ([`crate::jobs::estimate`]) turns into seconds.
//! - Limits: [`index_size`] (an index that fits in 64 bits) and [`check_size`] (a generation
//!   that fits this machine's memory).
//!
//! The constants are measured figures: the measurements are in BENCHMARKS.md.

use endgame_core::Retrograde;
use endgame_core::perpetual::{DEFAULT_EDGE_BUDGET, PerpetualCheck};
use endgame_core::table::WDL_BLOCK;
use endgame_core::units;

use super::Tablebases;
use super::captures::BLOCKS_PER_THREAD;
use crate::probe::ProbeError;
use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::piece::Role;
use crate::rules::rule_set::Rules;
use crate::tables::index::MaterialIndex;

/// The default budget of the block cache: 64 MiB.
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// Bytes a generating process holds besides the solver's structures, the loaded tables and
/// the buffers of its threads ([`process_bytes`]): the program and its stacks, 6 MiB at the
/// peak of a generation of `KvK` alone, and a margin (BENCHMARKS.md, memory).
pub const PROCESS_BYTES: u64 = 16 << 20;

/// Bytes each thread of the pool keeps for the file writer and reader: a block's values and
/// the coder's state (from the peaks of one generation with 1, 2 and 4 threads:
/// BENCHMARKS.md, memory).
pub const THREAD_BYTES: u64 = 6 << 20;

/// What a generating process holds besides the solver's structures and the loaded tables:
/// [`PROCESS_BYTES`] and [`THREAD_BYTES`] for each thread of the pool it solves with.
#[must_use]
pub fn process_bytes() -> u64 {
    PROCESS_BYTES.saturating_add(THREAD_BYTES.saturating_mul(rayon::current_num_threads() as u64))
}

/// Bytes per index of a smaller material loaded for the captures into it: 1-byte cells, and
/// the decompressed blocks while it is read (2-byte cells for tables with 2- or 4-byte codes).
pub(super) const BYTES_PER_LOADED_INDEX: u64 = 2;

/// Bytes the captures of a solve of `material` read their tables through ([`CaptureFile`],
/// under every rule set): for each table, [`BLOCKS_PER_THREAD`] decompressed WDL blocks per
/// thread of the pool and one more, each with its DTM blocks (at most 4 bits and 4 bytes per
/// position: the widest codes), and no more than the table's positions take so.
///
/// [`CaptureFile`]: super::captures::CaptureFile
/// The tables held whole, at 2 bytes per index, are
/// [`held_whole`]'s.
#[must_use]
pub fn capture_bytes(material: Material) -> u64 {
    held_whole(material)
        .into_iter()
        .map(|m| indices(m).saturating_mul(BYTES_PER_LOADED_INDEX))
        .fold(capture_block_bytes(material), u64::saturating_add)
}

/// The part of [`capture_bytes`] that the tables read a block at a time take (those not
/// [`held_whole`]).
#[must_use]
pub fn capture_block_bytes(material: Material) -> u64 {
    const BLOCK_BYTES: u64 = WDL_BLOCK as u64 / 2 + 4 * WDL_BLOCK as u64 + 4096;
    let slots = (rayon::current_num_threads() as u64 + 1) * BLOCKS_PER_THREAD as u64;
    let whole = held_whole(material);
    Tablebases::reads(material, |m| m.canonical())
        .into_iter()
        .filter(|m| !whole.contains(m))
        .map(|m| {
            let all = indices(m).saturating_mul(9).div_ceil(2).saturating_add(4096);
            slots.saturating_mul(BLOCK_BYTES.min(all))
        })
        .fold(0, u64::saturating_add)
}

/// The most indices of smaller tables (besides colour twins) that the captures of a solve
/// hold whole ([`held_whole`]): 256 M, 512 MiB at 2 bytes an index, however large the solve.
pub const HELD_WHOLE_INDICES: u64 = 1 << 28;

/// The tables (as players write their materials, [`Material::canonical`]) that the captures
/// of a solve of `material` (under every rule set) hold whole instead of reading
/// them a block at a time: those a capture reads seen from the other side (a colour twin's
/// file: its index is in another order, a chunk of the solve would read blocks all over it),
/// and the smallest others while together they have at most a sixteenth of `material`'s
/// indices (at 2 bytes an index, an eighth of a byte per index of the solve) and at most
/// [`HELD_WHOLE_INDICES`]. The others are read in nearly their own order (see
/// `docs/generation.md`).
#[must_use]
pub fn held_whole(material: Material) -> Vec<Material> {
    let mut reads: Vec<(u64, Material, bool)> = Vec::new();
    for m in material.after_captures() {
        let file = m.canonical();
        match reads.iter_mut().find(|r| r.1 == file) {
            Some(r) => r.2 |= file != m,
            None => reads.push((indices(file), file, file != m)),
        }
    }
    reads.sort();
    let limit = (indices(material) / 16).min(HELD_WHOLE_INDICES);
    let mut small = 0u64;
    let mut whole = Vec::new();
    for (n, m, flipped) in reads {
        if flipped {
            whole.push(m);
        } else if small.saturating_add(n) <= limit {
            small += n;
            whole.push(m);
        }
    }
    whole
}

/// The number of indices of `material`, [`u64::MAX`] when it does not fit (memory estimates
/// of such a material refuse it).
pub(super) fn indices(material: Material) -> u64 {
    MaterialIndex::size(material).map_or(u64::MAX, |n| n as u64)
}

/// Bytes a solve of a material of `positions` indices needs (the solver's own estimate:
/// its cells and level bitmaps).
fn solver_bytes(positions: u64) -> u64 {
    Retrograde::new().compact(true).memory_estimate(positions)
}

/// Bytes per drawn index of the predecessor lists of a solve under a ban, on top of the
/// solver's state ([`Tablebases::rule_memory_estimate`]): compressed, 2 per draw and about
/// 2.1 to 2.5 per move between two draws: 22.0 bytes per draw for `KNRvKAR` (9.5 moves a
/// draw; 23.1 with a chase label's bit in every entry of the check stage's lists until issue
/// 42's sixteenth session, 25.1 with the 4-byte offsets of its fourth to fourteenth), 14.9
/// for `KNRvKR` (16.3 and 18.2 before), 25.2 for `KNRvKAAR` (27.3 and 29.3 before; BENCHMARKS.md,
/// memory); at most the solver's budget for them ([`DEFAULT_EDGE_BUDGET`]). 22 (25 before
/// the 2-byte levels, 28 before the 2-byte offsets) announces `KNRvKAR` at 1.48 times its
/// peak and `KNRvKAAR` at 1.12 times (its chase stage holds the peak). A Cannon moves like a
/// Chariot without capturing and reaches the most draws: [`CANNON_BYTES_PER_DRAW`] more per
/// Cannon.
const LIST_BYTES_PER_DRAW: u64 = 22;

/// Bytes per drawn index for each Cannon of the material, on top of [`LIST_BYTES_PER_DRAW`]:
/// over the 59 materials of up to 5 men with more than 300,000 drawn indices (issue 42, sixth
/// session, `ENDGAME_RULE_PROFILE=1`) the lists took at most 22.3 bytes a draw without a
/// Cannon, 33.1 with one (`KCPvKN`), 37.3 with two (`KBCvKC`), 39.6 with three (`KCCvKC`), and
/// the check stage decides few of these materials' draws, so that the chase stage, with its
/// own lists of nearly all of them and its state (34 bytes a draw announced then, 36 measured
/// on `KCCvKC`), holds the peak. 28 alone left `KCCvKC`'s peak (987 MiB alone, 1,060 after its
/// `standard` solve in the same process) above its announcement (811 MiB); 8 a Cannon
/// announced 1.06 GiB with 40 bytes a draw of state. Since the fifteenth session the solver
/// announces 34 (the headroom of 6 moved here: 6 + 8 = 14 would keep the figures; 12
/// announces `KCCvKC` at 1.21 GiB for a peak of 1,034 MiB, 1.20 times, and `KCPvKN` at 1.48
/// GiB for 1,362 MiB, 1.11 times, with the `standard` values shelved at the peak). Since the
/// sixteenth, the levels in 2 bytes, it announces 30: `KCCvKC` 1.13 GiB for 968 MiB (1.20
/// times), `KCPvKN` 1.34 GiB for 1,249 MiB (1.10).
const CANNON_BYTES_PER_DRAW: u64 = 12;

/// Bytes per drawn index fewer for each Soldier of the material: a Soldier has at most three
/// moves (one before the river), so that the draws of a material with Soldiers have fewer
/// moves between them (issue 42, seventh session, `ENDGAME_RULE_PROFILE=1`: the lists took
/// 14.1 bytes a draw on `KPPvKN`, 12.9 on `KNPvKP`, 24.9 on `KCPvKP` and 30.0 on `KCPvKN`,
/// against the 28 and 36 announced; `KPPvKN`'s peak was 243 MiB for 383 announced without
/// this, 1.58 times).
const LIST_BYTES_PER_SOLDIER: u64 = 3;

/// The predecessor lists' part of [`Tablebases::rule_memory_estimate`]: `drawn` draws at
/// [`list_bytes_per_draw`], at most their budget.
fn rule_lists_bytes(material: Material, drawn: u64) -> u64 {
    drawn.saturating_mul(list_bytes_per_draw(material)).min(DEFAULT_EDGE_BUDGET as u64)
}

/// [`LIST_BYTES_PER_DRAW`], [`CANNON_BYTES_PER_DRAW`] and [`LIST_BYTES_PER_SOLDIER`] for
/// `material`.
fn list_bytes_per_draw(material: Material) -> u64 {
    let count = |role| u64::from(material.count(Color::Red, role) + material.count(Color::Black, role));
    (LIST_BYTES_PER_DRAW + CANNON_BYTES_PER_DRAW * count(Role::Cannon))
        .saturating_sub(LIST_BYTES_PER_SOLDIER * count(Role::Soldier))
}

/// The drawn indices of a material whose `standard` file counts `drawn` draws: the file
/// counts mirror images apart (as GamesmanXiangqi does), the index holds one of each pair,
/// so about half, a few more for the positions that are their own mirror image (302 of
/// `KNRvKR`'s 13,210,388, 2,256 of `KPPvKN`'s 5,098,905).
const fn drawn_indices(drawn: u64) -> u64 {
    drawn.div_ceil(2).saturating_add(drawn / 1024)
}

/// What a solve under a ban holds besides: about 20 MiB more than the `standard` solve's
/// estimate at the peaks of the materials of up to 4 men (BENCHMARKS.md, memory).
const RULE_FIXED_BYTES: u64 = 32 << 20;

/// Bytes per index of a smaller material loaded under a ban besides its `standard` values
/// ([`BYTES_PER_LOADED_INDEX`]): the rule solution's set of draws (a bit per index and 4 bytes
/// per 64), rounded up.
const RULE_LOADED_BYTES_PER_INDEX: u64 = 1;

/// Bytes per `standard` draw of a smaller material loaded under a ban: the rule solution's word
/// per draw, and while it is read the list of the draws besides.
const RULE_LOADED_BYTES_PER_DRAW: u64 = 8;

/// A field of /proc/meminfo, in bytes (`None` where there is no such file).
pub(crate) fn meminfo(field: &str) -> Option<u64> {
    proc_kib("/proc/meminfo", field)
}

/// A field in KiB of a file of /proc, in bytes.
pub(crate) fn proc_kib(path: &str, field: &str) -> Option<u64> {
    let info = std::fs::read_to_string(path).ok()?;
    let line = info.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Positions a generation solves per second of CPU time (per core): 2.5 M on this project's
/// 2-core machine for `endgame xiangqi generate KRPvKAABB` from nothing (BENCHMARKS.md,
/// generation). The speed of one material varies with its pieces; a queue measures its own
/// generations and uses their speed instead ([`Jobs::speed`](crate::jobs::Jobs::speed)).
pub const MEASURED_POSITIONS_PER_SECOND_PER_CORE: f64 = 2.5e6;

/// The time a solve under `perpetual-check` takes, as a multiple of one under `standard` rules
/// (every material of up to 5 men in about 30 minutes against 8.5: BENCHMARKS.md, generation).
pub const PERPETUAL_CHECK_COST: f64 = 3.5;

/// The speed an estimate assumes before any generation was measured: positions per second of
/// [`MEASURED_POSITIONS_PER_SECOND_PER_CORE`] times the cores of this machine.
#[must_use]
pub fn default_speed() -> f64 {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    MEASURED_POSITIONS_PER_SECOND_PER_CORE * cores as f64
}

/// The memory available now (`MemAvailable` of /proc/meminfo), in bytes; `None` where the
/// system does not tell.
#[must_use]
pub fn memory_available() -> Option<u64> {
    meminfo("MemAvailable:")
}

/// The number of indices of `material`, or why no table of it can exist at all: its index
/// does not fit in 64 bits. (A table that exists may be probed on any machine; [`check_size`]
/// adds the memory a generation needs.)
///
/// # Errors
/// [`ProbeError::BeyondTables`].
pub fn index_size(material: Material) -> Result<usize, ProbeError> {
    MaterialIndex::size(material).ok_or_else(|| ProbeError::BeyondTables {
        material,
        men: material.men(),
        why: "its index does not fit in 64 bits; tables hold materials of up to 6 or 7 men".into(),
    })
}

/// The number of indices of `material`, or why it can have no table: its index does not fit
/// in 64 bits, or generating it needs more memory than this machine has. Answers at once,
/// whatever the material.
///
/// # Errors
/// [`ProbeError::BeyondTables`].
pub fn check_size(material: Material) -> Result<usize, ProbeError> {
    let n = index_size(material)?;
    let needed = solver_bytes(n as u64);
    if let Some(total) = meminfo("MemTotal:")
        && needed > total
    {
        return Err(ProbeError::BeyondTables {
            material,
            men: material.men(),
            why: format!(
                "its index has {} positions; generating it needs about {} of memory, this machine has {}",
                units::count(n as u64),
                units::bytes(needed),
                units::bytes(total)
            ),
        });
    }
    Ok(n)
}

impl Tablebases {
    /// The tables a solve of `material` reads: those that answer for the materials its
    /// captures lead to (`file` names the material whose file answers for each), once each.
    pub(super) fn reads(material: Material, file: impl Fn(Material) -> Material) -> Vec<Material> {
        let mut reads: Vec<Material> = material.after_captures().into_iter().map(file).collect();
        reads.sort();
        reads.dedup();
        reads
    }

    /// Bytes a solve of `material` under `standard` or `hdu` rules needs: its cells and the
    /// solver's lists, the blocks of the tables its captures read ([`capture_bytes`]: no
    /// smaller table is held whole), and what the process holds besides ([`process_bytes`]).
    #[must_use]
    pub fn memory_estimate(material: Material) -> u64 {
        solver_bytes(indices(material))
            .saturating_add(process_bytes())
            .saturating_add(capture_bytes(material))
    }

    /// Bytes a solve of `material` under a ban needs besides the rule's own structures: its
    /// cells and the solver's lists, the blocks of the tables its captures read a block at a
    /// time ([`capture_block_bytes`]), the tables [`held_whole`] that `loaded` says are not in
    /// memory yet (each pair of colour twins once: one table answers for both), and what the
    /// process holds besides ([`process_bytes`]).
    fn loaded_memory_estimate(material: Material, loaded: impl Fn(Material) -> bool) -> u64 {
        let own = solver_bytes(indices(material))
            .saturating_add(process_bytes())
            .saturating_add(capture_block_bytes(material));
        Tablebases::reads_to_load(material, loaded)
            .fold(own, |sum, m| sum.saturating_add(indices(m).saturating_mul(BYTES_PER_LOADED_INDEX)))
    }

    /// The tables a solve of `material` holds whole ([`held_whole`]) that `loaded` says are
    /// not in memory yet (each pair of colour twins once, as players write it: one table
    /// answers for both).
    fn reads_to_load(
        material: Material,
        loaded: impl Fn(Material) -> bool,
    ) -> impl Iterator<Item = Material> {
        held_whole(material).into_iter().filter(move |&m| !loaded(m) && !loaded(m.colour_twin()))
    }

    /// Bytes a solve of `material` under a ban needs on top of
    /// [`Tablebases::memory_estimate`], when `drawn` of its indices are drawn under
    /// `standard` rules (the ban's passes work on the draws): the solver's state per draw
    /// ([`PerpetualCheck::memory_estimate`], [`PerpetualCheck::chase_memory_estimate`] when
    /// `chases`), its predecessor lists (at most their budget) and a fixed part.
    #[must_use]
    pub fn rule_memory_estimate(material: Material, drawn: u64, chases: bool) -> u64 {
        Tablebases::rule_memory_least(material, drawn, chases)
            .saturating_add(rule_lists_bytes(material, drawn))
    }

    /// [`Tablebases::rule_memory_estimate`] without the predecessor lists: the least a solve
    /// under a ban needs. With less room than the lists' estimate the check stage keeps the
    /// lists of as many draws as fit and generates the others' un-moves, slower (`KNRvKAR`:
    /// 1.4 times the time with none; BENCHMARKS.md); the chase stage's lists take the room the
    /// check stage's counts leave ([`PerpetualCheck::chase_room`]), and where they do not fit
    /// it runs in one layer, several times slower (`KNRvKAAR`).
    #[must_use]
    pub fn rule_memory_least(material: Material, drawn: u64, chases: bool) -> u64 {
        let Some(positions) = MaterialIndex::size(material) else { return u64::MAX };
        let positions = positions as u64;
        let state = if chases {
            PerpetualCheck::chase_memory_estimate(positions, drawn)
        } else {
            PerpetualCheck::memory_estimate(positions, drawn)
        };
        // (The `standard` values, counted in the solve's own bytes, are shelved at the stages'
        // peak since issue 42's fifteenth session. Taking them off here announced `KNRvKAAR`
        // at 8.83 GiB for a peak of 8,974 MiB in its chase stage, whose state the bytes per
        // draw underestimate there: they stay counted, as room for it.)
        state.saturating_add(RULE_FIXED_BYTES)
    }

    /// The memory estimate of a solve of `material` under this store's rules, with the
    /// materials `loaded` says are in memory already ([`Tablebases::memory_estimate`]). Under
    /// a ban it adds [`Tablebases::rule_memory_estimate`] of the number of `standard` draws,
    /// and for each table to read whole, its rule solution's set of draws and words per draw: the
    /// number of draws from the header of the `standard` file of the material (or of its
    /// colour twin) in the sibling `standard` directory when it is there, else every index
    /// taken for a draw (the most a solve can need; generate the `standard` tables first for
    /// the figure the draws give).
    #[must_use]
    pub fn estimate(&self, material: Material, loaded: impl Fn(Material) -> bool) -> u64 {
        self.estimates(material, loaded).0
    }

    /// The least memory a solve of `material` under this store's rules needs, with the
    /// materials `loaded` says are in memory already: [`Tablebases::estimate`] without the
    /// predecessor lists under a ban ([`Tablebases::rule_memory_least`]; the same under
    /// `standard` and `hdu`). A generation with less memory than the estimate but at least this
    /// much runs with the lists that fit, slower.
    #[must_use]
    pub fn least_estimate(&self, material: Material, loaded: impl Fn(Material) -> bool) -> u64 {
        self.estimates(material, loaded).1
    }

    /// [`Tablebases::estimate`] and [`Tablebases::least_estimate`] together, the `standard`
    /// files' headers read once for both.
    #[must_use]
    pub fn estimates(&self, material: Material, loaded: impl Fn(Material) -> bool) -> (u64, u64) {
        if !self.rules.has_bans() {
            let estimate = Tablebases::memory_estimate(material);
            return (estimate, estimate);
        }
        let own = Tablebases::loaded_memory_estimate(material, &loaded);
        // Without the `standard` file the draws are not known before its solve: at most every
        // index (the solve checks again with their number, see `rule_solver`).
        let drawn = |m| self.standard_draws(m).unwrap_or_else(|| indices(m));
        let reads = Tablebases::reads_to_load(material, &loaded).fold(0u64, |sum, m| {
            let rule = indices(m)
                .saturating_mul(RULE_LOADED_BYTES_PER_INDEX)
                .saturating_add(drawn(m).saturating_mul(RULE_LOADED_BYTES_PER_DRAW));
            sum.saturating_add(rule)
        });
        let own_draws = self.standard_draws(material).map_or_else(|| indices(material), drawn_indices);
        let least = own.saturating_add(reads).saturating_add(Tablebases::rule_memory_least(
            material,
            own_draws,
            self.rules.bans_chases(),
        ));
        (least.saturating_add(rule_lists_bytes(material, own_draws)), least)
    }

    /// The number of draws (legal positions) of `material` under `standard`, from the header of
    /// its file (or its colour twin's) in the sibling `standard` directory, when there is one.
    fn standard_draws(&self, material: Material) -> Option<u64> {
        let standard = Tablebases::open(self.dir.parent()?.parent()?, Rules::Standard);
        let file = standard.file_material(material);
        Some(standard.file_stats(file).ok()??.counts.draws)
    }
}
