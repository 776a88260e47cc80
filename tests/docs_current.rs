//! The man pages in `man/` and the shell completions in `completions/` are
//! generated from the same clap definitions the binaries parse with; this
//! test fails when they drift. Regenerate with `UPDATE_DOCS=1 cargo test
//! --test docs_current`.

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use clap_complete::Shell;

fn commands() -> Vec<clap::Command> {
    vec![
        gemline::agent::Args::command(),
        gemline::parse::VizParseArgs::command(),
        gemline::render::VizRenderArgs::command(),
        gemline::topic::Args::command(),
    ]
}

fn generated() -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for cmd in commands() {
        let name = cmd.get_name().to_string();
        let mut man = Vec::new();
        clap_mangen::Man::new(cmd.clone())
            .render(&mut man)
            .expect("man page renders");
        files.push((PathBuf::from(format!("man/{name}.1")), man));
        for (shell, file) in [
            (Shell::Bash, format!("completions/{name}.bash")),
            (Shell::Zsh, format!("completions/_{name}")),
            (Shell::Fish, format!("completions/{name}.fish")),
        ] {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd.clone(), &name, &mut out);
            files.push((PathBuf::from(file), out));
        }
    }
    files
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
        "generated docs are stale: {stale:?}; run `UPDATE_DOCS=1 cargo test --test docs_current`"
    );
}

#[test]
fn every_binary_has_a_man_page_with_exit_codes() {
    if std::env::var_os("UPDATE_DOCS").is_some() {
        return; // the other test is writing them right now
    }
    for cmd in commands() {
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
