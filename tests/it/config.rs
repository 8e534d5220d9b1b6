//! The shipped example configuration is valid and complete; `llmc config` prints it and
//! the configuration in effect.

use std::path::Path;

use crate::util::{llmc_env, stderr, stdout};

#[test]
fn the_shipped_example_parses_as_a_config_file() {
    let repo = crate::util::Scratch::fixture("c");
    let example =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("llmc.toml.example"))
            .expect("example");
    repo.write("llmc.toml", &example);
    let cfg = llmc::config::load(repo.path(), Vec::new(), &[]).expect("example loads");
    assert_eq!(cfg, llmc::config::Config::default());
    for key in llmc::config::known_keys() {
        let (_, k) = key.split_once('.').expect("section.key");
        assert!(
            example.contains(&format!("\n{k} = ")),
            "{key} is documented in the example"
        );
    }
}

/// `cargo install` installs the binary alone: the example comes from it, anywhere, even
/// beside a broken `llmc.toml` (which is when one needs it).
#[test]
fn config_example_prints_the_shipped_example_outside_any_repository() {
    let dir = crate::util::Scratch::empty();
    dir.write("llmc.toml", "this is [not toml\n");
    let out = dir.llmc(&["config", "example"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let example =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("llmc.toml.example"))
            .expect("example");
    assert_eq!(stdout(&out), example);
    // `llmc config example > llmc.toml` gives a working configuration.
    dir.write("llmc.toml", stdout(&out));
    let cfg = llmc::config::load(dir.path(), Vec::new(), &[]).expect("the example loads");
    assert_eq!(cfg, llmc::config::Config::default());
}

#[test]
fn config_show_prints_every_key_in_effect_and_where_values_came_from() {
    let repo = crate::util::Scratch::fixture("c");
    repo.write("llmc.toml", "[index]\nthreads = 3\n\n[ask]\nk = 4\n");
    let out = llmc_env(
        repo.path(),
        &[("LLMC_SEARCH_K", "5")],
        &["config", "show", "--config", "ask.k=6"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let comments: Vec<&str> = text.lines().take_while(|l| l.starts_with('#')).collect();
    let comments = comments.join("\n");
    for needle in [
        "llmc.toml (ask.k, index.threads)",
        "environment LLMC_SEARCH_K (search.k)",
        "--config ask.k=6",
        "llmc config example",
    ] {
        assert!(comments.contains(needle), "{needle:?} in {comments}");
    }
    // The rest is TOML holding every key, each with its value after the layers.
    let table: toml::Table = text.parse().expect("config show prints TOML");
    let mut keys: Vec<String> = table
        .iter()
        .flat_map(|(s, v)| {
            v.as_table()
                .into_iter()
                .flat_map(move |t| t.keys().map(move |k| format!("{s}.{k}")))
        })
        .collect();
    keys.sort();
    assert_eq!(keys, llmc::config::known_keys());
    assert_eq!(table["index"]["threads"].as_integer(), Some(3));
    assert_eq!(table["search"]["k"].as_integer(), Some(5));
    assert_eq!(table["ask"]["k"].as_integer(), Some(6));
    // As an llmc.toml elsewhere, it gives the same configuration.
    let other = crate::util::Scratch::empty();
    other.write("llmc.toml", &text);
    let shown = llmc::config::load(other.path(), Vec::new(), &[]).expect("loads");
    let here = llmc::config::load(
        repo.path(),
        [("LLMC_SEARCH_K".to_string(), "5".to_string())],
        &["ask.k=6".to_string()],
    )
    .expect("loads");
    assert_eq!(shown, here);

    // Without llmc.toml the comments say the defaults are in effect.
    std::fs::remove_file(repo.path().join("llmc.toml")).expect("rm");
    let out = repo.llmc(&["config", "show"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("llmc.toml: defaults"),
        "{}",
        stdout(&out)
    );
    let shown: llmc::config::Config = toml::from_str(&stdout(&out)).expect("TOML");
    assert_eq!(shown, llmc::config::Config::default());

    // A bad configuration is reported as by every other command, not shown.
    repo.write("llmc.toml", "[index]\nthreads = \"many\"\n");
    let out = repo.llmc(&["config", "show"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("index.threads"), "{}", stderr(&out));
}

/// Every error about the configuration points to something the installed binary has.
#[test]
fn configuration_errors_point_to_llmc_config_example() {
    let repo = crate::util::Scratch::fixture("c");
    for toml in [
        "[index]\nthreads = = 2\n",
        "[index]\nmax_filesize = 10\n",
        "threads_per_bird = 2\n",
    ] {
        repo.write("llmc.toml", toml);
        let out = repo.llmc(&["status"]);
        assert_eq!(out.status.code(), Some(2), "{toml}");
        let err = stderr(&out);
        assert!(err.contains("`llmc config example`"), "{toml}: {err}");
        assert!(!err.contains("llmc.toml.example"), "{toml}: {err}");
    }
}
