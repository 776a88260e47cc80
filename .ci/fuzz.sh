#!/usr/bin/env bash
# Runs every fuzz target in fuzz/ briefly (FUZZ_SECONDS each, default 60: about a minute, as issue 11 asks)
# from its committed seeds. Needs a nightly toolchain (libFuzzer's
# sanitizer flags); without one it says so and skips, it does not fail.
# Installs cargo-fuzz when missing (about a minute of building).
#
# The targets are built once, together (`cargo fuzz build` builds all of
# them: the library and its dependencies compiled once with the address
# sanitizer), then run FUZZ_JOBS at a time (default: one per core), each
# for its full FUZZ_SECONDS. All nine binaries take about 4 GB on disk at
# once (`df -h` is printed before and after); the fuzz build tree goes
# when done.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-$(nproc)}"

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

bindir="target/x86_64-unknown-linux-gnu/release"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch" target' EXIT
df -h . | tail -n 1 >&2
echo "fuzz: building every target" >&2
cargo +nightly fuzz build -O
df -h . | tail -n 1 >&2

# One target: its corpus in scratch, the seeds read too; a crash or a
# failed property leaves the input in fuzz/artifacts/TARGET/ (to reproduce
# with `cargo fuzz run TARGET FILE`) and marks the target failed.
fuzz_one() {
    local target=$1
    mkdir -p "$scratch/$target" "artifacts/$target"
    echo "fuzz: $target for ${secs}s" >&2
    if "$bindir/$target" -artifact_prefix="artifacts/$target/" -max_total_time="$secs" \
        -print_final_stats=1 "$scratch/$target" "seeds/$target" >"$scratch/$target.log" 2>&1; then
        grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units)' "$scratch/$target.log" |
            sed "s/^/$target: /" >&2
    else
        touch "$scratch/$target.failed"
    fi
}
export -f fuzz_one
export scratch secs bindir
cargo +nightly fuzz list | xargs -P "$jobs" -I{} bash -c 'fuzz_one {}'

failed=0
for f in "$scratch"/*.failed; do
    [[ -e $f ]] || continue
    target=$(basename "$f" .failed)
    echo "fuzz: $target FAILED:" >&2
    tail -n 60 "$scratch/$target.log" >&2
    failed=1
done
exit "$failed"
