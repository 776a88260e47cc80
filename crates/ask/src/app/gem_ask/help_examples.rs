//! The config examples in gem-ask's help (`HELP_TAIL`) parse and mean what
//! they say. The help is gem-ask's and the schema gemline-config's, so the
//! check sits here, above both.

use crate::config::parse;
use crate::term::ColorChoice;

/// The indented config example after the line ending in `intro` in
/// gem-ask's help.
pub(crate) fn help_example(intro: &str) -> String {
    super::args::HELP_TAIL
        .lines()
        .skip_while(|l| !l.ends_with(intro))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn the_provider_example_parses() {
    let c = parse(&help_example("The provider settings, e.g.:")).unwrap();
    assert_eq!(c.openai.model.as_deref(), Some("qwen2.5-coder:7b"));
    assert_eq!((c.width, c.color), (Some(100), Some(ColorChoice::Never)));
}

#[test]
fn the_tools_example_parses() {
    let c = parse(&help_example("The config, e.g.:")).unwrap();
    assert_eq!(c.tools.enable, ["read_file", "search_files"]);
    assert!(c.mcp["time"].trust);
}

#[test]
fn the_memory_example_parses() {
    let c = parse(&help_example("The memory config, e.g.:")).unwrap();
    assert!(c.memory.enabled);
    assert_eq!(c.memory.budget, Some(1000));
    assert_eq!(
        c.memory.embedding_model.as_deref(),
        Some("gemini-embedding-001")
    );
}
