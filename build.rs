//! The integration tests (tests/it) run the four programs. Their binaries
//! belong to other crates of the workspace (crates/viz, crates/ask), so
//! cargo does not set `CARGO_BIN_EXE_<name>` for this package: this sets it
//! to where cargo puts them (the same profile folder as this build), for
//! `assert_cmd`'s `cargo_bin!`. `cargo test` builds them first: it builds
//! the binaries of every selected package when an integration test runs.

use std::io::Write;
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let mut out_lines = std::io::stdout().lock();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // OUT_DIR is target/PROFILE/build/gemline-HASH/out.
    let profile_dir = out
        .ancestors()
        .nth(3)
        .expect("OUT_DIR is under the profile folder");
    for bin in ["gem-ask", "viz-parse", "viz-render", "topic-tag"] {
        let exe = profile_dir.join(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
        writeln!(
            out_lines,
            "cargo::rustc-env=CARGO_BIN_EXE_{bin}={}",
            exe.display()
        )?;
    }
    writeln!(out_lines, "cargo::rerun-if-changed=build.rs")?;
    out_lines.flush()
}
