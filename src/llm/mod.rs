//! Models behind a network API. Only [`ollama`] touches the network or tokio; everything
//! it offers is blocking.

pub mod ollama;
