//! gem-ask, as built: it starts, names itself and its version. Its
//! behaviour is tested in the root package's tests/it, which runs this
//! binary; this test target is named `it` too, so that `cargo test --test
//! it` (which builds the binaries of every package with a selected
//! integration test) builds it before those tests run.

use std::process::Command;

#[test]
fn gem_ask_starts_and_names_itself() {
    let out = Command::new(env!("CARGO_BIN_EXE_gem-ask"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success(), "gem-ask --version: {:?}", out.status);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, format!("gem-ask {}\n", env!("CARGO_PKG_VERSION")));
}
