#!/usr/bin/env bash
# Installs libsixel's decoder, which tests/it/viz_render_graphics.rs uses to
# read back the sixel pictures viz-render --graphics sixel draws: Debian's
# libsixel-bin (sixel2png, img2sixel). Idempotent: nothing is installed when
# sixel2png is there.
set -euo pipefail
if ! command -v sixel2png >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsixel-bin >/dev/null
fi
command -v sixel2png
