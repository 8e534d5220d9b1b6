//! `llmc ask`: one question, routed to the right memories, checked, answered.

pub mod classify;
pub mod route;
