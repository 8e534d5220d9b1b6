//! Prints `Store::dump` of an existing index: `cargo run --release --example dump -- DIR`.
//!
//! Two indexes with equal dumps hold the same rows (no ids, times or stat data), so this is how
//! a refactor shows it changed nothing: index a tree cold before and after, compare the dumps
//! (`scripts/dump_compare.sh` does both steps).

use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .ok_or_else(|| anyhow::anyhow!("usage: dump DIR (a directory indexed by llmc)"))?;
    let store = llmc::store::Store::open_existing(&dir)?;
    print!("{}", store.dump()?);
    Ok(())
}
