#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ briefly (FUZZ_SECONDS each, default 60: about a minute, as issue 11 asks)
# from its committed seeds. Needs a nightly toolchain (libFuzzer's
# sanitizer flags); without one it says so and skips, it does not fail.
# Installs cargo-fuzz when missing (about a minute of building).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${FUZZ_SECONDS:-60}"

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    if ! rustup toolchain install nightly --profile minimal >/dev/null 2>&1; then
        echo "fuzz: SKIPPED: no nightly toolchain available (cargo fuzz needs one)" >&2
        exit 0
    fi
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked --quiet
fi

# Every target links the whole library with the address sanitizer (a few
# hundred MB each), so each is built, run and deleted in turn, and the
# fuzz build tree goes when done: a CI disk once filled up building them all.
bindir="target/x86_64-unknown-linux-gnu/release"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch" target' EXIT
df -h . | tail -n 1 >&2
for target in $(cargo +nightly fuzz list); do
    mkdir -p "$scratch/$target"
    echo "fuzz: $target for ${secs}s" >&2
    # A crash or failed property exits non-zero and fails CI; the input is
    # left in fuzz/artifacts/$target/ to reproduce with `cargo fuzz run`.
    if ! cargo +nightly fuzz run -O "$target" "$scratch/$target" "seeds/$target" -- \
        -max_total_time="$secs" -print_final_stats=1 >"$scratch/$target.log" 2>&1; then
        tail -n 60 "$scratch/$target.log" >&2
        exit 1
    fi
    grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units)' "$scratch/$target.log" >&2
    rm -f "$bindir/$target"
done
