//! A file's header: its fields (see the format in [`super`]), their bytes, their parsing,
//! and the cursor that reads them (also for version 2's headers).

use super::{FORMAT_VERSION, FileKind, MAGIC, TableId};

/// The header of a file without its block index (see the module notes).
#[derive(Clone, Debug)]
pub(super) struct Head {
    pub(super) kind: FileKind,
    pub(super) id: TableId,
    pub(super) width: u8,
    pub(super) block: usize,
    pub(super) blocks: usize,
    pub(super) pair: u32,
    pub(super) counters: Vec<(String, u64)>,
    pub(super) lists: [Vec<u32>; 5],
}

impl Head {
    /// The bytes of the header (the index as given, and the checksum).
    pub(super) fn bytes(&self, index: &[u8]) -> Vec<u8> {
        let mut h = Vec::new();
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        h.extend_from_slice(&[0; 4]); // the size, below
        h.push(self.kind.byte());
        for s in [&self.id.game, &self.id.variant, &self.id.rules] {
            h.extend_from_slice(&(s.len() as u16).to_le_bytes());
            h.extend_from_slice(s.as_bytes());
        }
        h.extend_from_slice(&self.id.positions.to_le_bytes());
        h.push(self.width);
        h.extend_from_slice(&(self.block as u32).to_le_bytes());
        h.extend_from_slice(&(self.blocks as u32).to_le_bytes());
        h.extend_from_slice(&self.pair.to_le_bytes());
        h.extend_from_slice(&(self.counters.len() as u16).to_le_bytes());
        for (name, value) in &self.counters {
            h.push(name.len() as u8);
            h.extend_from_slice(name.as_bytes());
            h.extend_from_slice(&value.to_le_bytes());
        }
        if self.kind == FileKind::Dtm {
            for list in &self.lists {
                h.extend_from_slice(&(list.len() as u32).to_le_bytes());
                for e in list {
                    h.extend_from_slice(&e.to_le_bytes());
                }
            }
        }
        h.extend_from_slice(index);
        let size = (h.len() + 4) as u32;
        h[12..16].copy_from_slice(&size.to_le_bytes());
        let crc = crc32fast::hash(&h);
        h.extend_from_slice(&crc.to_le_bytes());
        h
    }
}

/// Parses a header's body (checksum checked): the header, block lengths and CRCs.
pub(super) fn parse_head(bytes: &[u8]) -> Result<(Head, Vec<u32>, Vec<u32>), String> {
    let short = |_| "truncated header".to_string();
    let mut r = Cursor { bytes, at: 16 };
    let kind = match r.u8().map_err(short)? {
        1 => FileKind::Wdl,
        2 => FileKind::Dtm,
        k => return Err(format!("bad file kind {k}")),
    };
    let mut names = Vec::new();
    for _ in 0..3 {
        let len = r.u16().map_err(short)? as usize;
        let name =
            String::from_utf8(r.take(len).map_err(short)?.to_vec()).map_err(|_| "a name is not UTF-8")?;
        names.push(name);
    }
    let positions = r.u64().map_err(short)?;
    let [game, variant, rules] = <[String; 3]>::try_from(names).expect("three names");
    let id = TableId { game, variant, rules, positions };
    let width = r.u8().map_err(short)?;
    let block = r.u32().map_err(short)? as usize;
    let blocks = r.u32().map_err(short)? as usize;
    let pair = r.u32().map_err(short)?;
    let widths: &[u8] = if kind == FileKind::Wdl { &[2, 4] } else { &[0, 8, 16, 32] };
    if !widths.contains(&width) {
        return Err(format!("bad width {width} of a {kind} file"));
    }
    if !block.is_power_of_two() || !(1 << 8..=1 << 22).contains(&block) {
        return Err(format!("blocks of {block} positions"));
    }
    let n = usize::try_from(positions).map_err(|_| "too many positions for this machine".to_string())?;
    let expected = if width == 0 { 0 } else { n.div_ceil(block) };
    if blocks != expected {
        return Err(format!("{blocks} blocks of {block} positions do not hold {n} positions"));
    }
    let count = r.u16().map_err(short)?;
    let mut counters = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let len = r.u8().map_err(short)? as usize;
        let name = String::from_utf8(r.take(len).map_err(short)?.to_vec())
            .map_err(|_| "a counter's name is not UTF-8")?;
        counters.push((name, r.u64().map_err(short)?));
    }
    let mut lists: [Vec<u32>; 5] = Default::default();
    if kind == FileKind::Dtm {
        for list in &mut lists {
            let len = r.u32().map_err(short)? as usize;
            // Bounded by the header's size, read already.
            let raw = r.take(len.checked_mul(4).ok_or_else(|| short(Short))?).map_err(short)?;
            *list = raw.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        }
        let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
        let fits = match width {
            0 => longest <= 1,
            8 => longest <= 1 << 8,
            16 => longest <= 1 << 16,
            _ => true,
        };
        if !fits {
            return Err(format!("{longest} values do not fit DTM symbols of {width} bits"));
        }
    }
    let raw = r.take(blocks.checked_mul(8).ok_or_else(|| short(Short))?).map_err(short)?;
    let (lengths, crcs) = raw
        .chunks_exact(8)
        .map(|c| {
            (
                u32::from_le_bytes(c[..4].try_into().expect("4 bytes")),
                u32::from_le_bytes(c[4..].try_into().expect("4 bytes")),
            )
        })
        .unzip();
    if r.at != bytes.len() {
        return Err(format!("{} bytes of header left over", bytes.len() - r.at));
    }
    Ok((Head { kind, id, width, block, blocks, pair, counters, lists }, lengths, crcs))
}

/// A cursor over bytes that reports truncation (the headers of this format and of
/// [`super::v2`]).
pub(super) struct Cursor<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) at: usize,
}

/// The header ended before a field did.
#[derive(Debug)]
pub(super) struct Short;

impl<'a> Cursor<'a> {
    pub(super) fn take(&mut self, n: usize) -> Result<&'a [u8], Short> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(Short)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    pub(super) fn u8(&mut self) -> Result<u8, Short> {
        Ok(self.take(1)?[0])
    }

    pub(super) fn u16(&mut self) -> Result<u16, Short> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    pub(super) fn u32(&mut self) -> Result<u32, Short> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    pub(super) fn u64(&mut self) -> Result<u64, Short> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
}
