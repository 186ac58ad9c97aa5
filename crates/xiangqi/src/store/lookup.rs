//! Looking values up: a position's table and index found once (`locate`), its value or only
//! its category read by the table's [`Pair`] of files from the blocks that hold it, through
//! the cache; the [`Probe`] implementation built on them, and a material's statistics.
//!
//! [`Pair`]: endgame_core::table::Pair

use std::sync::Arc;

use endgame_core::RuleValue;
use endgame_core::table::Category;

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
            Source::File { key, pair, .. } => pair
                .value_at(&self.cache, *key, i)
                .map(Some)
                .map_err(|source| self.table_error(material, source)),
        }
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
            Source::File { pair, .. } => {
                stats_of_file(pair.wdl()).map_err(|source| self.table_error(material, source))
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
                Source::File { key, pair, .. } => pair
                    .category_at(&self.cache, *key, i)
                    .map_err(|source| self.table_error(answering, source)),
                _ => self
                    .value_at(answering, &source, i)?
                    .map(Category::of)
                    .ok_or(ProbeError::NoValue { material }),
            }
        })
    }
}
