//! The one integration-test binary: real fixtures under `testdata/`, through the library
//! and through the built `llmc` binary.

mod cli;
mod config;
mod fixtures;
mod generated;
mod graph;
mod history;
mod incremental;
mod robustness;
mod search;
mod util;
