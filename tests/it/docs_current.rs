//! The man pages in `man/` and the shell completions in `completions/` are
//! generated from the same clap definitions the binaries parse with (and
//! `man/gemline-events.5` from docs/events.md); this test fails when they
//! drift. Regenerate with `UPDATE_DOCS=1 cargo test --test it docs_current`.

use std::path::Path;

fn generated() -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let events = std::fs::read_to_string(root.join("docs/events.md")).expect("docs/events.md");
    gemline::app::generate::files(&events)
}

#[test]
fn man_pages_and_completions_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let mut stale = Vec::new();
    for (rel, want) in generated() {
        let path = root.join(&rel);
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &want).unwrap();
        } else if std::fs::read(&path).ok().as_deref() != Some(want.as_slice()) {
            stale.push(rel.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated docs are stale: {stale:?}; run `UPDATE_DOCS=1 cargo test --test it docs_current`"
    );
}

#[test]
fn every_binary_has_a_man_page_with_exit_codes() {
    if std::env::var_os("UPDATE_DOCS").is_some() {
        return; // the other test is writing them right now
    }
    for cmd in gemline::app::generate::programs() {
        let name = cmd.get_name().to_string();
        let page = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("man/{name}.1")),
        )
        .unwrap_or_default();
        assert!(
            page.contains("Exit") && page.contains("usage"),
            "man/{name}.1 documents no exit codes"
        );
    }
}
