//! `endgame serve`: the web explorer (JSON API and page) on a local address.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use endgame_server::{Access, AppState, Limits};

use crate::failure::Failure;

/// Arguments of `endgame serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The address to listen on: loopback unless another address is given explicitly.
    #[arg(long, default_value = "127.0.0.1:8000")]
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
}

/// Runs the server until the process is stopped or Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    let limits = Limits {
        tb_dir: args.dir.clone(),
        cache_bytes: args.cache.saturating_mul(1 << 20),
        ..Limits::default()
    };
    // Table files and connections share the descriptors: have as many as the system allows.
    if let Err(e) = endgame_server::descriptors::raise_limit() {
        eprintln!("warning: cannot raise the limit on open files: {e}");
    }
    let access = args.allow_hosts.iter().fold(Access::new(), |access, name| access.allow(name));
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
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        endgame_server::serve_until(listener, Arc::new(AppState::with_access(limits, access)), ctrl_c)
            .await
            .context("serving")?;
        Ok(())
    })
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
