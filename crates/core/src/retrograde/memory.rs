//! How the solver's large arrays meet the machine (huge pages, prefetches), and the bytes of
//! its packed lists for its own count of what it holds.

use rayon::prelude::*;

use super::CHUNK;
use super::packed::{Packed, Segment};

/// Bytes a packed list holds (its segments and their bytes).
pub(super) fn packed_bytes(lists: &[Packed]) -> u64 {
    let per_list = size_of::<Packed>() as u64;
    lists.iter().fold(0, |sum, list| {
        let segments = list.segments.capacity() * size_of::<Segment>();
        let bytes: usize = list.segments.iter().map(|s| s.bytes.capacity()).sum();
        sum + per_list + segments as u64 + bytes as u64
    })
}

/// `n` values made by `init`, in memory for which Linux is asked to use huge pages (2 MiB)
/// before any of it is touched: the level passes read and write the cells and bitmaps at
/// random, and with 4 KiB pages most of those accesses would also miss the TLB.
pub(super) fn huge_vec<T: Send>(n: usize, init: impl Fn() -> T + Sync + Send) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    advise_huge_pages(v.as_ptr() as usize, n * size_of::<T>());
    // Filled by both cores (the first touch of every page is most of the time): into the
    // capacity reserved, so the advice stays with the buffer.
    v.par_extend((0..n).into_par_iter().with_min_len(CHUNK).map(|_| init()));
    v
}

/// Asks Linux to back the pages of `len` bytes from `start` with huge pages (only for 8 MiB
/// and more; elsewhere, or when the system says no, nothing changes but the speed).
fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    if len >= 8 << 20 && std::env::var_os("ENDGAME_NO_HUGE_PAGES").is_none() {
        let page = 4096;
        let (from, to) = (start.next_multiple_of(page), (start + len) & !(page - 1));
        if to > from {
            // SAFETY: the range lies inside one allocation this process owns (the vector's
            // buffer, page-aligned inward); MADV_HUGEPAGE only advises how to back it and
            // changes no contents; a failure leaves it as it was.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// Gives the memory freed so far back to the system. glibc keeps the blocks freed in its heaps
/// with the process, and where new blocks lie among them it cannot shrink the heap: the chase
/// stage's lists of `KNRvKAAR`, renumbered into a copy and then freed, left 1.3 GiB with the
/// process (6,297 MiB after the layer step against 5,003 given back), and the run's peak at
/// 9,534 MiB against 9,189. Elsewhere nothing.
pub(crate) fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only returns pages of the allocator's free blocks to the system
    // (the blocks stay free and usable); it reads or moves no live allocation.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Asks the processor to bring the cache line of `x` in, for an access soon after (x86-64;
/// elsewhere nothing): a level pass asks for each predecessor's cell when it finds it, and
/// reads the cells a batch later, when their lines have come.
#[inline(always)]
pub(super) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch loads nothing the program sees and cannot fault (it is a hint);
    // `x` is a valid reference; SSE, which the instruction belongs to, is part of every
    // x86-64 processor.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}
