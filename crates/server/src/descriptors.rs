//! File descriptors: the process's limit, raised at start, and how the server shares it.
//!
//! Every connection and every open table file takes a descriptor, and the process has a fixed
//! number (`ulimit -n`, often 1,024 by default). The server raises its soft limit to the hard
//! limit at start ([`raise_limit`]), then splits what it has ([`Budget::for_limit`]): a fixed
//! part for the process itself, a share for table files (the table reader keeps at most that
//! many open, closing the least recently used), a few for refusing connections politely, and
//! the rest for connections. Connections and files together therefore never exhaust the
//! descriptors, and the listener can always accept.

/// How the server shares its descriptors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Connections open at once (at most the limits' own cap).
    pub connections: usize,
    /// Table files open at once.
    pub table_files: usize,
    /// Connections being refused with a 503 answer at once.
    pub refusing: usize,
}

/// Descriptors the process needs besides connections and tables: standard streams, the
/// listener, the runtime's event queue and wakers, and a margin.
const FIXED: u64 = 16;

impl Budget {
    /// The shares of a process allowed `limit` descriptors, with at most `max_connections`
    /// connections.
    #[must_use]
    pub fn for_limit(limit: u64, max_connections: usize) -> Budget {
        let table_files = (limit / 8).clamp(2, 256);
        let refusing = (limit / 16).clamp(1, 64);
        let left = limit.saturating_sub(FIXED + table_files + refusing);
        Budget {
            connections: usize::try_from(left).unwrap_or(usize::MAX).clamp(2, max_connections.max(2)),
            table_files: table_files as usize,
            refusing: refusing as usize,
        }
    }

    /// The shares under the process's current limit (1,024 where it cannot be read).
    #[must_use]
    pub fn current(max_connections: usize) -> Budget {
        Budget::for_limit(limit().unwrap_or(1024), max_connections)
    }
}

/// The process's soft limit on open descriptors, if it can be read.
#[must_use]
pub fn limit() -> Option<u64> {
    #[cfg(unix)]
    {
        rustix::process::getrlimit(rustix::process::Resource::Nofile).current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Raises the soft limit on open descriptors to the hard limit; gives the limit in force after
/// (`None` where there is none to read).
///
/// # Errors
/// When the limit cannot be changed (the old one stays in force).
pub fn raise_limit() -> std::io::Result<Option<u64>> {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
        let Rlimit { current, maximum } = getrlimit(Resource::Nofile);
        if current != maximum {
            setrlimit(Resource::Nofile, Rlimit { current: maximum, maximum })?;
        }
        Ok(getrlimit(Resource::Nofile).current)
    }
    #[cfg(not(unix))]
    {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_share_fits_in_the_limit() {
        for limit in [32, 64, 256, 1024, 20_000, 1 << 20] {
            let b = Budget::for_limit(limit, 1024);
            let used = FIXED + (b.connections + b.table_files + b.refusing) as u64;
            assert!(used <= limit, "{limit}: {b:?}");
            assert!(b.connections >= 2 && b.table_files >= 2 && b.refusing >= 1, "{limit}: {b:?}");
        }
        assert_eq!(Budget::for_limit(64, 1024), Budget { connections: 36, table_files: 8, refusing: 4 });
        assert_eq!(Budget::for_limit(20_000, 1024).connections, 1024);
        assert_eq!(Budget::for_limit(1 << 20, 1024).table_files, 256);
    }
}
