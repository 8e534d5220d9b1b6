//! The shipped example configuration is valid and complete.

use std::path::Path;

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
