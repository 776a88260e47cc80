//! This crate's three programs, as built: each starts, names itself and
//! its version. The behaviour is tested in the root package's tests/it,
//! which runs these binaries; this test target is named `it` too, so that
//! `cargo test --test it` (which builds the binaries of every package with
//! a selected integration test) builds them before those tests run.

use std::process::Command;

fn version(bin: &str, path: &str) {
    let out = Command::new(path).arg("--version").output().unwrap();
    assert!(out.status.success(), "{bin} --version: {:?}", out.status);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, format!("{bin} {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn each_program_starts_and_names_itself() {
    version("viz-parse", env!("CARGO_BIN_EXE_viz-parse"));
    version("viz-render", env!("CARGO_BIN_EXE_viz-render"));
    version("topic-tag", env!("CARGO_BIN_EXE_topic-tag"));
}
