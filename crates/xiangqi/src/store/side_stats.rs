//! A material's statistics for each side to move ([`Tablebases::stats_by_side`]): no file's
//! header holds them, so they are counted from the values, every block of the WDL file read
//! once (in parallel, a block per task: a few blocks in memory whatever the table's size), and
//! checked against the header's counts of both sides together.

use endgame_core::table::TableError;
use rayon::prelude::*;

use super::Tablebases;
use super::read_write::stats_of_file;
use super::source::Source;
use crate::probe::ProbeError;
use crate::rules::material::Material;
use crate::tables::stats::StatsBySide;

impl Tablebases {
    /// Counts over the legal positions of `material` for each side to move (see
    /// [`StatsBySide`]; [`Tablebases::stats`] gives both together), from its files (or its
    /// colour twin's: every block of the WDL file read and decompressed once, not through the
    /// block cache) or its solution in memory.
    ///
    /// # Errors
    /// When the material has no table, or its file is damaged, including when the counts
    /// disagree with its header's.
    pub fn stats_by_side(&self, material: Material) -> Result<StatsBySide, ProbeError> {
        self.renewing(material, || {
            let (answering, source, flipped) = self.answering(material)?;
            let sides = match &*source {
                Source::Memory(table) => {
                    let solution = table.solution();
                    StatsBySide::of_values(table.index(), |p| solution.value(p).map(Into::into))
                }
                Source::RuleMemory { index, solution } => {
                    StatsBySide::of_values(index, |p| solution.value(p))
                }
                Source::File { pair, index, twin_order, .. } => {
                    let wdl = pair.wdl();
                    let counted = StatsBySide::of_categories(
                        index,
                        (0..wdl.blocks()).into_par_iter(),
                        |b| {
                            let block = wdl.read_block(b)?;
                            Ok((block.start()..block.start() + block.len(), block))
                        },
                        |block, p| {
                            block.category(p - block.start()).map(Some).ok_or_else(|| TableError::Damaged {
                                path: wdl.path().to_path_buf(),
                                why: format!("index {p}: a symbol that is no category"),
                            })
                        },
                    );
                    let header = stats_of_file(wdl).map_err(|e| self.table_error(answering, e))?;
                    let mut sides = counted.map_err(|e| self.table_error(answering, e))?;
                    // The files' positions are the twin material's when in its order (the
                    // header's counts are the material's own).
                    if *twin_order {
                        sides = sides.colour_twin();
                    }
                    // The longest wins are the header's (the DTM file is not read).
                    sides.red.longest_win_plies = header.longest_red_win_plies;
                    sides.black.longest_win_plies = header.longest_black_win_plies;
                    if !sides.agrees_with(&header) {
                        return Err(self.table_error(
                            answering,
                            TableError::Damaged {
                                path: wdl.path().to_path_buf(),
                                why: "the counts of its values disagree with its header's".into(),
                            },
                        ));
                    }
                    sides
                }
            };
            Ok(if flipped { sides.colour_twin() } else { sides })
        })
    }
}
