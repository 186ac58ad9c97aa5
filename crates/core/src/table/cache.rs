//! The block cache: decompressed blocks kept within a budget of bytes, in shards that many
//! threads probe at once, and the hasher of its keys.

use std::fmt;
use std::sync::{Arc, Mutex};

use super::block::Block;

/// A block of one table file: the key of [`BlockCache`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockKey {
    /// A number the cache's user gives each table file (unique among the files sharing the
    /// cache).
    pub table: u32,
    /// The block within the file.
    pub block: u32,
}

pub(super) const SHARDS: usize = 16;

/// A hasher for keys that no client chooses (the block cache's table numbers and blocks, a
/// store's materials): a multiply per word written, where SipHash took a few per cent of a
/// warm probe. Build maps with [`KeyHash`].
#[derive(Default)]
pub struct KeyHasher(u64);

/// The [`std::hash::BuildHasher`] of [`KeyHasher`].
pub type KeyHash = std::hash::BuildHasherDefault<KeyHasher>;

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        // The multiply leaves its best bits at the top; a map picks buckets by the lowest.
        self.0.rotate_left(26)
    }
}

/// Decompressed blocks kept in memory, within a budget of bytes: a least-recently-used cache,
/// split into shards (each with its own lock and a sixteenth of the budget) so that many
/// threads probe at once. A block larger than a shard's budget is handed out but not kept.
pub struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    budget: usize,
}

struct Shard {
    blocks: lru::LruCache<BlockKey, Arc<Block>, KeyHash>,
    bytes: usize,
    budget: usize,
}

impl fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockCache").field("budget", &self.budget).field("bytes", &self.bytes()).finish()
    }
}

impl BlockCache {
    /// An empty cache that keeps at most `budget` bytes of blocks.
    #[must_use]
    pub fn new(budget: usize) -> BlockCache {
        let shards = (0..SHARDS)
            .map(|_| {
                let blocks = lru::LruCache::unbounded_with_hasher(KeyHash::default());
                Mutex::new(Shard { blocks, bytes: 0, budget: budget / SHARDS })
            })
            .collect();
        BlockCache { shards, budget }
    }

    /// The budget in bytes.
    #[must_use]
    pub const fn budget(&self) -> usize {
        self.budget
    }

    /// The bytes of the blocks kept now.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap_or_else(std::sync::PoisonError::into_inner).bytes).sum()
    }

    fn shard(&self, key: BlockKey) -> &Mutex<Shard> {
        // A multiplicative mix of the two numbers (the cache's user gives them, a probe only
        // chooses among a table's blocks: no keyed hash needed), its top bits the shard.
        const _: () = assert!(SHARDS == 16, "the top 4 bits pick the shard");
        let mixed = (u64::from(key.table) << 32 | u64::from(key.block)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.shards[(mixed >> 60) as usize]
    }

    /// The block of `key`, loaded with `load` when it is not kept (the lock is not held while
    /// loading: two threads may load one block at once, and both get a correct block).
    ///
    /// # Errors
    /// What `load` returns.
    pub fn get_or_load<E>(
        &self,
        key: BlockKey,
        load: impl FnOnce() -> Result<Block, E>,
    ) -> Result<Arc<Block>, E> {
        let shard = self.shard(key);
        if let Some(block) = shard.lock().unwrap_or_else(std::sync::PoisonError::into_inner).blocks.get(&key)
        {
            return Ok(Arc::clone(block));
        }
        let block = Arc::new(load()?);
        let mut s = shard.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let size = block.bytes();
        if size <= s.budget && !s.blocks.contains(&key) {
            s.bytes += size;
            s.blocks.put(key, Arc::clone(&block));
            while s.bytes > s.budget {
                let Some((_, old)) = s.blocks.pop_lru() else { break };
                s.bytes -= old.bytes();
            }
        }
        Ok(block)
    }

    /// Drops every block of table file `table` (when its file is replaced).
    pub fn forget_table(&self, table: u32) {
        for shard in &self.shards {
            let mut s = shard.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let keys: Vec<BlockKey> = s.blocks.iter().map(|(k, _)| *k).filter(|k| k.table == table).collect();
            for k in keys {
                if let Some(old) = s.blocks.pop(&k) {
                    s.bytes -= old.bytes();
                }
            }
        }
    }
}
