//! The code-graph memory: which definition each call site and import names, across files.
//! [`resolve`] decides edges during `llmc index` from the rows [`crate::syntax`] wrote;
//! [`scip`] lays the edges of SCIP indexes over them (`precise`) in the same run;
//! [`query`] answers `llmc graph` and ask's structural questions from the stored edges.

pub mod query;
pub mod resolve;
pub mod scip;

pub use query::*;
