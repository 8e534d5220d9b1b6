//! Configuration: compiled-in defaults < `llmc.toml` at the root < `LLMC_*` environment
//! variables < `--config KEY=VALUE` flags. Every key is documented in
//! `llmc.toml.example`; an unknown key is an error that names it and where it came from.
//!
//! `sections.rs` holds the sections and their typed values, `load.rs` the layers and
//! their errors, `validate.rs` the value checks. This module imports nothing of llmc
//! but `error` and `model`.

mod load;
mod sections;
mod validate;

use serde::{Deserialize, Serialize};

pub use load::{known_keys, load, load_with_sources};
pub use sections::{
    AskConfig, EmbedConfig, EmbedProvider, Fusion, GraphConfig, IndexConfig, LlmConfig,
    LlmProvider, MAX_THREADS_PER_CORE, PreciseMode, RouteConfig, RouteEntry, SearchConfig,
    SearchMode,
};
pub use validate::{MAX_CANDIDATES, MAX_FILE_SIZE, MAX_K};

/// The configuration file's name at the repository root.
pub const CONFIG_FILE: &str = "llmc.toml";

/// The documented example, which is also the source of truth for the defaults.
pub const EXAMPLE: &str = include_str!("../../llmc.toml.example");

/// All of llmc's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[derive(Default)]
pub struct Config {
    pub index: IndexConfig,
    pub graph: GraphConfig,
    pub search: SearchConfig,
    pub embed: EmbedConfig,
    pub route: RouteConfig,
    pub ask: AskConfig,
    pub llm: LlmConfig,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::LlmcError;
    use anyhow::Result;
    use toml::{Table, Value};

    fn load_with(toml: &str, env: &[(&str, &str)], flags: &[&str]) -> Result<Config> {
        let dir = tempfile::tempdir()?;
        std::fs::write(dir.path().join(CONFIG_FILE), toml)?;
        load(
            dir.path(),
            env.iter().map(|(k, v)| (k.to_string(), v.to_string())),
            &flags.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    }

    #[test]
    fn the_example_documents_every_key_with_its_default() -> Result<()> {
        let parsed: Table = EXAMPLE.parse()?;
        let from_example: Config = Value::Table(parsed.clone()).try_into()?;
        assert_eq!(from_example, Config::default());
        let mut example_keys: Vec<String> = parsed
            .iter()
            .flat_map(|(s, v)| {
                v.as_table()
                    .into_iter()
                    .flat_map(move |t| t.keys().map(move |k| format!("{s}.{k}")))
            })
            .collect();
        example_keys.sort();
        assert_eq!(example_keys, known_keys());
        Ok(())
    }

    #[test]
    fn layers_apply_in_order() -> Result<()> {
        let c = load_with(
            "[index]\nmax_file_size = 10\nthreads = 1\n",
            &[("LLMC_INDEX_THREADS", "3")],
            &[],
        )?;
        assert_eq!((c.index.max_file_size, c.index.threads), (10, 3));
        let c = load_with(
            "[index]\nthreads = 1\n",
            &[("LLMC_INDEX_THREADS", "3")],
            &["index.threads=4"],
        )?;
        assert_eq!(c.index.threads, 4);
        Ok(())
    }

    #[test]
    fn an_integer_is_a_number() -> Result<()> {
        let c = load_with("[route]\nwiden_weight = 1\n", &[], &["route.widen_below=0"])?;
        assert_eq!((c.route.widen_weight, c.route.widen_below), (1.0, 0.0));
        Ok(())
    }

    #[test]
    fn unknown_keys_are_named() {
        let err = load_with("[index]\nmax_filesize = 10\n", &[], &[]).expect_err("unknown key");
        assert!(err.to_string().contains("`index.max_filesize`"), "{err}");
        let err = load_with("", &[("LLMC_INDEX_NOPE", "1")], &[]).expect_err("unknown env");
        assert!(err.to_string().contains("`LLMC_INDEX_NOPE`"), "{err}");
        let err = load_with("", &[], &["nope.x=1"]).expect_err("unknown flag");
        assert!(err.to_string().contains("`nope.x`"), "{err}");
        let err = load_with("[index]\nthreads = \"many\"\n", &[], &[]).expect_err("bad type");
        assert!(err.to_string().contains("threads"), "{err}");
    }

    #[test]
    fn the_graph_section_is_typed_and_checked() -> Result<()> {
        let c = load_with(
            "[graph]\nscip = [\"build/index.scip\"]\nprecise = \"auto\"\n",
            &[("LLMC_GRAPH_PRECISE_TIMEOUT_SECS", "30")],
            &[],
        )?;
        assert_eq!(c.graph.scip, ["build/index.scip"]);
        assert_eq!(c.graph.precise, PreciseMode::Auto);
        assert_eq!(c.graph.precise_timeout_secs, 30);
        let err = load_with("[graph]\nprecise = \"always\"\n", &[], &[]).expect_err("bad");
        assert!(err.to_string().contains("`graph.precise`"), "{err}");
        let err = load_with("[graph]\nscip = \"index.scip\"\n", &[], &[]).expect_err("list");
        assert!(err.to_string().contains("graph.scip"), "{err}");
        let err = load_with("[graph]\nscipp = []\n", &[], &[]).expect_err("unknown");
        assert!(
            err.to_string().contains("did you mean `graph.scip`"),
            "{err}"
        );
        let err = load_with("", &[], &["graph.precise_timeout_secs=0"]).expect_err("range");
        assert!(
            err.to_string().contains("`graph.precise_timeout_secs`"),
            "{err}"
        );
        Ok(())
    }

    #[test]
    fn an_unknown_llm_provider_is_a_config_error_naming_the_key() -> Result<()> {
        let err = load_with("[llm]\nprovider = \"openai\"\n", &[], &[]).expect_err("bad");
        let msg = err.to_string();
        assert!(
            msg.contains("`llm.provider`") && msg.contains("openai"),
            "{msg}"
        );
        assert!(matches!(
            err.downcast_ref::<LlmcError>(),
            Some(LlmcError::Config(_))
        ));
        let c = load_with("", &[("LLMC_LLM_PROVIDER", "ollama")], &["llm.budget=2"])?;
        assert_eq!((c.llm.provider.as_str(), c.llm.budget), ("ollama", 2));
        Ok(())
    }

    #[test]
    fn a_near_miss_gets_a_suggestion() {
        let err = load_with("[index]\nmax_filesize = 10\n", &[], &[]).expect_err("unknown key");
        assert!(
            err.to_string()
                .contains("did you mean `index.max_file_size`?"),
            "{err}"
        );
        let err = load_with("", &[("LLMC_INDEX_THREAD", "1")], &[]).expect_err("unknown env");
        assert!(
            err.to_string()
                .contains("did you mean `LLMC_INDEX_THREADS`?"),
            "{err}"
        );
        let err = load_with("", &[], &["zzz.qqqqqqqq=1"]).expect_err("far off");
        assert!(!err.to_string().contains("did you mean"), "{err}");
    }

    /// The distinct known keys a message names (as keys or as `LLMC_*` variables).
    fn keys_named(msg: &str) -> Vec<String> {
        let mut named: Vec<String> = known_keys()
            .into_iter()
            .filter(|k| {
                let var = format!("LLMC_{}", k.replacen('.', "_", 1).to_ascii_uppercase());
                msg.contains(&format!("`{k}`")) || msg.contains(&format!("`{var}`"))
            })
            .collect();
        named.dedup();
        named
    }

    #[test]
    fn an_unknown_key_in_a_big_section_lists_at_most_three_keys() {
        let big = known_keys()
            .iter()
            .filter(|k| k.starts_with("ask."))
            .count();
        assert!(big > 10, "[ask] has {big} keys");
        let err = load_with(
            "[ask]
expand_neighbors = 2
",
            &[],
            &[],
        )
        .expect_err("unknown key");
        let msg = err.to_string();
        assert!(
            msg.contains("did you mean `ask.expand_neighbours`?"),
            "{msg}"
        );
        assert!(
            msg.contains("nearest in [ask]: `ask.expand_neighbours`"),
            "{msg}"
        );
        let named = keys_named(&msg);
        assert!(named.len() <= 3, "{named:?} in {msg}");
        assert!(named.iter().all(|k| k.starts_with("ask.")), "{msg}");
        // Far from every key of the section: still only the nearest three, no guess.
        let err = load_with("", &[], &["ask.zzzzzzzzzzzz=1"]).expect_err("unknown key");
        let msg = err.to_string();
        assert!(!msg.contains("did you mean"), "{msg}");
        assert_eq!(keys_named(&msg).len(), 3, "{msg}");
        // The environment: variables, the nearest three.
        let err = load_with("", &[("LLMC_ASK_REFINE_BELLOW", "1")], &[]).expect_err("env");
        let msg = err.to_string();
        assert!(
            msg.contains("did you mean `LLMC_ASK_REFINE_BELOW`?"),
            "{msg}"
        );
        assert!(keys_named(&msg).len() <= 3, "{msg}");
        // An unknown section: the sections, and at most three keys of all of them.
        let err = load_with("", &[], &["zzz.qqqqqqqq=1"]).expect_err("far off");
        let msg = err.to_string();
        assert!(
            msg.contains("the sections are ask, embed, graph, index"),
            "{msg}"
        );
        assert!(keys_named(&msg).len() <= 3, "{msg}");
        // A key without its section is found by its name.
        let err = load_with("", &[], &["threads=2"]).expect_err("no section");
        assert!(
            err.to_string().contains("did you mean `index.threads`?"),
            "{err}"
        );
        assert!(err.to_string().contains("`llmc config example`"), "{err}");
    }

    #[test]
    fn a_syntax_error_names_file_line_and_column() {
        let err = load_with("[index]\nthreads = 1\nmax_file_size = = 3\n", &[], &[])
            .expect_err("bad toml");
        let msg = err.to_string();
        assert!(msg.contains("llmc.toml:3:"), "{msg}");
        assert!(msg.contains("not valid TOML"), "{msg}");
    }

    #[test]
    fn sources_say_which_layer_set_what() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let flags = ["index.threads=2".to_string()];
        let (_, sources) = load_with_sources(
            dir.path(),
            [("LLMC_SEARCH_K".to_string(), "3".to_string())],
            &flags,
        )?;
        assert!(sources[0].starts_with("no "), "{sources:?}");
        assert!(
            sources[1].contains("LLMC_SEARCH_K (search.k)"),
            "{sources:?}"
        );
        assert_eq!(sources[2], "--config index.threads=2");
        Ok(())
    }

    #[test]
    fn choices_and_routes_are_checked_when_loading_and_name_their_key() -> Result<()> {
        for (toml, flags, needles) in [
            (
                "[search]\nmode = \"fuzzy\"\n",
                &[][..],
                &["`search.mode`", "fuzzy", "lexical, semantic or hybrid"][..],
            ),
            (
                "",
                &["embed.provider=openai"][..],
                &["`embed.provider`", "`builtin` or `ollama`"][..],
            ),
            (
                "[route]\ncallers = \"grep=1\"\n",
                &[][..],
                &["`route.callers`", "unknown retriever"][..],
            ),
            (
                "",
                &["route.howto=lexical=x"][..],
                &["`route.howto`", "must be a number"][..],
            ),
        ] {
            let err = load_with(toml, &[], flags).expect_err("rejected");
            let msg = err.to_string();
            for n in needles {
                assert!(msg.contains(n), "{n} in {msg}");
            }
            assert!(matches!(
                err.downcast_ref::<LlmcError>(),
                Some(LlmcError::Config(_))
            ));
        }
        let c = load_with(
            "",
            &[],
            &["route.callers=lexical=1.0", "search.mode=lexical"],
        )?;
        assert_eq!(
            c.route.callers,
            RouteEntry(vec![(crate::model::Memory::Lexical, 1.0)])
        );
        assert_eq!(c.search.mode, SearchMode::Lexical);
        Ok(())
    }
}
