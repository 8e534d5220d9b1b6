//! The one integration-test binary: real fixtures under `testdata/`, through the library
//! and through the built `llmc` binary.

mod ask;
mod budget;
mod check;
mod cli;
mod config;
mod eval;
mod fake_ollama;
mod fixtures;
mod generated;
mod graph;
mod hardening;
mod history;
mod history_slices;
mod incremental;
mod layers;
mod llm;
mod mcp;
mod memories;
mod paths;
mod robustness;
mod rows;
mod scip;
mod search;
mod session;
mod util;
