//! `convert`, `manifest` and `verify-files`: the table files of a directory, converted to the
//! current format, listed with their checksums, and checked against that list.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use endgame_xiangqi::Compression;

use crate::failure::Failure;

/// A directory of tables.
#[derive(Args)]
pub struct DirArgs {
    /// The directory (the one given to --dir: it holds xiangqi/<rules>/).
    dir: PathBuf,
}

/// `convert` arguments.
#[derive(Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    dir: DirArgs,
    /// The compression of the files written (see `generate --compression`).
    #[arg(long, value_name = "HOW", default_value = "normal")]
    compression: Compression,
    /// Rewrite the version-3 tables too (with --compression), not only version-2 files.
    #[arg(long)]
    rewrite: bool,
}

/// `dir`, when it is a directory (else the input error that names it).
fn directory(dir: &Path) -> Result<&Path, Failure> {
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(Failure::input(format!("DIR {}: not a directory", dir.display())))
    }
}

fn dir_failure(e: endgame_xiangqi::store::directory::FilesError) -> Failure {
    Failure::Other(anyhow::Error::new(e))
}

/// `convert`: version-2 files (and with `--rewrite` version-3 ones) written anew.
pub(super) fn convert(args: &ConvertArgs, out: &mut dyn Write) -> Result<(), Failure> {
    use endgame_xiangqi::store::convert::{self, ConvertOptions, Converted};
    let dir = directory(&args.dir.dir)?;
    let printed = std::sync::Mutex::new(Vec::new());
    let done = |c: &Converted| {
        let line = format!(
            "{} ({}): {} bytes -> WDL {} + DTM {} = {} bytes",
            c.material,
            c.rules,
            c.before,
            c.after.0,
            c.after.1,
            c.after.0 + c.after.1
        );
        eprintln!("{line}");
        printed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(line);
    };
    let options = ConvertOptions { compression: args.compression, rewrite: args.rewrite };
    let converted = convert::convert(dir, options, &done).map_err(dir_failure)?;
    let before: u64 = converted.iter().map(|c| c.before).sum();
    let after: u64 = converted.iter().map(|c| c.after.0 + c.after.1).sum();
    let verb = if args.rewrite { "converted or rewritten" } else { "converted" };
    writeln!(out, "{} tables {verb}: {before} bytes -> {after} bytes", converted.len())?;
    Ok(())
}

/// `manifest`: DIR/manifest.txt written and printed.
pub(super) fn manifest(args: &DirArgs, out: &mut dyn Write) -> Result<(), Failure> {
    use endgame_xiangqi::store::manifest;
    directory(&args.dir)?;
    let entries = manifest::write_manifest(&args.dir).map_err(dir_failure)?;
    write!(out, "{}", manifest::manifest_text(&entries))?;
    writeln!(out, "# {} files, written to {}", entries.len(), args.dir.join(manifest::MANIFEST).display())?;
    Ok(())
}

/// `verify-files`: every file against DIR/manifest.txt.
pub(super) fn verify_files(args: &DirArgs, out: &mut dyn Write) -> Result<(), Failure> {
    use endgame_xiangqi::store::manifest;
    directory(&args.dir)?;
    let check = manifest::verify_files(&args.dir).map_err(dir_failure)?;
    for (e, what) in &check.differing {
        writeln!(out, "differs: {} ({what})", e.file)?;
    }
    for e in &check.missing {
        writeln!(out, "missing: {}", e.file)?;
    }
    for file in &check.unlisted {
        writeln!(out, "not in the manifest: {file}")?;
    }
    let listed = check.matching + check.differing.len() + check.missing.len();
    writeln!(out, "{} of {listed} files match the manifest", check.matching)?;
    if !check.ok() {
        let count = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        return Err(Failure::Other(anyhow::anyhow!(
            "{} from the manifest, {} missing",
            count(check.differing.len(), "file differs", "files differ"),
            count(check.missing.len(), "file", "files")
        )));
    }
    Ok(())
}
