//! `endgame serve`: the web explorer (JSON API and page) on a local address.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use endgame_server::{Access, AppState, Limits};

use crate::failure::Failure;

/// Arguments of `endgame serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The address to listen on, IP:PORT: loopback unless another address is given explicitly
    /// (0.0.0.0:8000 listens on every interface).
    #[arg(long, default_value = "127.0.0.1:8000", value_parser = parse_addr)]
    addr: SocketAddr,
    /// A host name the server answers to besides its addresses and localhost (repeatable);
    /// requests under any other name get 403 (DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_hosts: Vec<String>,
    /// The Xiangqi tablebase directory (default: as for `endgame xiangqi`).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// The Xiangqi tablebase block cache, in MiB.
    #[arg(long, default_value_t = 256)]
    cache: usize,
    /// The memory one generation on demand (the page's Generate button, POST
    /// /api/xiangqi/generate) may take, in MiB; larger ones are refused with their estimate.
    /// Default: half the memory available at start. Generation is on by default only on a
    /// loopback address; giving this turns it on on any address.
    #[arg(long, value_name = "MiB", conflicts_with = "no_generate")]
    generate_memory: Option<u64>,
    /// Generate no tables on demand (the page then shows the command to run instead).
    #[arg(long)]
    no_generate: bool,
}

/// The memory budget of generation on demand, in bytes (`None`: off).
fn generate_memory(args: &ServeArgs) -> Option<u64> {
    if args.no_generate {
        return None;
    }
    match args.generate_memory {
        Some(mib) => Some(mib.saturating_mul(1 << 20)),
        None if args.addr.ip().is_loopback() => {
            // Half of what is free now; 1 GiB where the system does not tell.
            Some(endgame_xiangqi::store::cost::memory_available().map_or(1 << 30, |m| m / 2))
        }
        None => None,
    }
}

/// `--addr`: an IP address and a port, with examples when it is not one (a port alone, a
/// host name).
fn parse_addr(text: &str) -> Result<SocketAddr, String> {
    text.parse().map_err(|_| {
        let port = text.rsplit(':').next().filter(|p| p.parse::<u16>().is_ok()).unwrap_or("8000");
        format!(
            "expected an IP address and a port, such as 127.0.0.1:{port} (this machine only) or 0.0.0.0:{port} (every interface)"
        )
    })
}

/// Runs the server until the process is stopped or Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    let limits = Limits {
        tb_dir: args.dir.clone(),
        cache_bytes: args.cache.saturating_mul(1 << 20),
        generate_memory: generate_memory(args),
        ..Limits::default()
    };
    // Table files and connections share the descriptors: have as many as the system allows.
    if let Err(e) = endgame_server::descriptors::raise_limit() {
        eprintln!("warning: cannot raise the limit on open files: {e}");
    }
    let dir_warning = args
        .dir
        .as_deref()
        .map(|dir| check_dir(dir, limits.generate_memory.is_some()))
        .transpose()?
        .flatten();
    let access = args.allow_hosts.iter().fold(Access::new(), |access, name| access.allow(name));
    let limits_budget = limits.generate_memory;
    let runtime = tokio::runtime::Runtime::new().context("starting the server's runtime")?;
    runtime.block_on(async {
        let listener = endgame_server::bind(args.addr)
            .await
            .map_err(|e| Failure::input(format!("--addr {}: cannot listen: {e}", args.addr)))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        println!("Listening on http://{addr}");
        if let Some(warning) = network_warning(addr) {
            eprintln!("{warning}");
        }
        if let Some(warning) = &dir_warning {
            eprintln!("{warning}");
        }
        match limits_budget {
            Some(bytes) => {
                eprintln!(
                    "Generating missing tables on demand, up to {} of memory each",
                    endgame_core::units::bytes(bytes)
                )
            }
            None => eprintln!("Generating no tables on demand (--generate-memory MiB turns it on)"),
        }
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        endgame_server::serve_until(listener, Arc::new(AppState::with_access(limits, access)), ctrl_c)
            .await
            .context("serving")?;
        Ok(())
    })
}

/// `--dir`: a file there is refused; a directory that does not exist is warned about (the
/// explorer still answers positions of up to 4 men, solved in memory, and generating a table
/// creates the directory).
fn check_dir(dir: &Path, generates: bool) -> Result<Option<String>, Failure> {
    if dir.is_dir() {
        return Ok(None);
    }
    if dir.exists() {
        return Err(Failure::input(format!("--dir {}: expected a directory, found a file", dir.display())));
    }
    let larger = if generates {
        "the page's Generate button writes them there".to_string()
    } else {
        format!("`endgame xiangqi generate --dir {} <MATERIAL>` writes them", dir.display())
    };
    Ok(Some(format!(
        "warning: --dir {}: no such directory: positions of up to 4 men are solved in memory; larger \
         materials need tables ({larger})",
        dir.display()
    )))
}

/// The warning for an address other machines can reach (not the loopback).
fn network_warning(addr: SocketAddr) -> Option<String> {
    (!addr.ip().is_loopback()).then(|| {
        format!(
            "warning: --addr {addr}: the API is reachable from the network; anyone who can reach this \
             address can use it (it reads tables and runs searches, within the server's limits)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_address_is_warned_about() {
        for addr in ["0.0.0.0:8000", "192.168.1.2:80", "[::]:8000"] {
            let warning = network_warning(addr.parse().unwrap()).unwrap();
            assert!(
                warning
                    .starts_with(&format!("warning: --addr {addr}: the API is reachable from the network"))
            );
        }
        for addr in ["127.0.0.1:8000", "[::1]:8000"] {
            assert_eq!(network_warning(addr.parse().unwrap()), None);
        }
    }
}
