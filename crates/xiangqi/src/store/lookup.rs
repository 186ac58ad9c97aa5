//! Looking values up: a position's table and index found once (`locate`), its
//! value or only its category read from the block that holds it, through the cache; the
//! [`Probe`] implementation built on them, and a material's statistics.

use std::sync::Arc;

use endgame_core::RuleValue;
use endgame_core::table::{Block, BlockKey, Category, TableError, TableFile};

use super::Tablebases;
use super::read_write::stats_of_file;
use super::source::Source;
use crate::probe::{Probe, ProbeError};
use crate::rules::material::Material;
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;
use crate::tables::stats::Stats;

impl Tablebases {
    /// The material whose source answers for `position` (of `material`), that source, and the
    /// index of `position` there (`None` when it has none): seen from the other side when the
    /// source is its colour twin's or its files are in the twin's order, but not both.
    pub(super) fn locate(
        &self,
        material: Material,
        position: &Position,
    ) -> Result<(Material, Arc<Source>, Option<usize>), ProbeError> {
        let (answering, source, flipped) = self.answering(material)?;
        let index = source.index();
        let i = if flipped != source.twin_order() {
            index.encode_colour_twin(position)
        } else {
            index.encode(position)
        };
        Ok((answering, source, i))
    }

    /// The value of index `i` of `material`'s table.
    fn value_at(
        &self,
        material: Material,
        source: &Source,
        i: usize,
    ) -> Result<Option<RuleValue>, ProbeError> {
        match source {
            Source::Memory(table) => Ok(table.solution().value(i).map(RuleValue::from)),
            Source::RuleMemory { solution, .. } => Ok(solution.value(i)),
            Source::File { key, wdl, dtm, .. } => {
                let category = self.category_at(material, *key, wdl, i)?;
                let dtm = match dtm.get() {
                    Some(dtm) => dtm,
                    None => {
                        let opened = TableFile::open_dtm_in(&self.files, &self.dtm_path(material), wdl)
                            .map_err(|source| self.table_error(material, source))?;
                        dtm.get_or_init(|| opened)
                    }
                };
                let symbol = if dtm.needs_symbol(category) {
                    let (b, at) = dtm.locate(i);
                    let block = BlockKey { table: 2 * key + 1, block: b as u32 };
                    let block = self
                        .cache
                        .get_or_load(block, || {
                            let wdl_block = self.wdl_block(*key, wdl, dtm.wdl_block_of(b, wdl))?;
                            dtm.read_dtm_block(b, &wdl_block)
                        })
                        .map_err(|source| self.table_error(material, source))?;
                    block.symbol(at).unwrap_or(u32::MAX)
                } else {
                    0
                };
                dtm.value(category, symbol).map(Some).map_err(|source| self.table_error(material, source))
            }
        }
    }

    /// Block `b` of the WDL file `wdl` (of the table numbered `key`), through the cache.
    fn wdl_block(&self, key: u32, wdl: &TableFile, b: usize) -> Result<Arc<Block>, TableError> {
        self.cache.get_or_load(BlockKey { table: 2 * key, block: b as u32 }, || wdl.read_block(b))
    }

    /// The category of index `i` from `material`'s WDL file `wdl`, through the cache.
    fn category_at(
        &self,
        material: Material,
        key: u32,
        wdl: &TableFile,
        i: usize,
    ) -> Result<Category, ProbeError> {
        let (b, at) = wdl.locate(i);
        let block = self.wdl_block(key, wdl, b).map_err(|source| self.table_error(material, source))?;
        block.category(at).ok_or_else(|| {
            self.table_error(
                material,
                TableError::Damaged {
                    path: wdl.path().to_path_buf(),
                    why: format!("block {b}: a symbol that is no category"),
                },
            )
        })
    }

    /// Counts over the legal positions of `material` (see [`Stats`]), from its WDL file's
    /// header (no block is read) or solved in memory when it is small and has no file.
    ///
    /// # Errors
    /// When the material has no table or its file is damaged.
    pub fn stats(&self, material: Material) -> Result<Stats, ProbeError> {
        self.renewing(material, || {
            let (answering, source, flipped) = self.answering(material)?;
            let stats = self.source_stats(answering, &source)?;
            Ok(if flipped { stats.colour_twin() } else { stats })
        })
    }

    /// [`Tablebases::stats`] of `material` from its own source.
    fn source_stats(&self, material: Material, source: &Source) -> Result<Stats, ProbeError> {
        match source {
            Source::Memory(table) => Ok(table.stats()),
            Source::RuleMemory { index, solution } => Ok(Stats::of_legal(index, |p| solution.value(p))),
            Source::File { wdl, .. } => {
                stats_of_file(wdl).map_err(|source| self.table_error(material, source))
            }
        }
    }
}

impl Probe for Tablebases {
    fn rules(&self) -> Rules {
        self.rules
    }

    fn lookup(&self, position: &Position) -> Result<RuleValue, ProbeError> {
        let material = position.material();
        self.renewing(material, || {
            let (answering, source, i) = self.locate(material, position)?;
            let value = match i {
                Some(i) => self.value_at(answering, &source, i)?,
                None => None,
            };
            value.ok_or(ProbeError::NoValue { material })
        })
    }

    fn lookup_wdl(&self, position: &Position) -> Result<Category, ProbeError> {
        let material = position.material();
        // A colour twin is answered from its twin's file, as `lookup` does.
        self.renewing(material, || {
            let (answering, source, i) = self.locate(material, position)?;
            let Some(i) = i else {
                return Err(ProbeError::NoValue { material });
            };
            match &*source {
                Source::File { key, wdl, .. } => self.category_at(answering, *key, wdl, i),
                _ => self
                    .value_at(answering, &source, i)?
                    .map(Category::of)
                    .ok_or(ProbeError::NoValue { material }),
            }
        })
    }
}
