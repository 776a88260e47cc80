#!/usr/bin/env bash
# Installs the real SVG renderer that checks `viz-render --format svg`
# (tests/it/viz_render_svg.rs renders each chart to PNG with rsvg-convert)
# and a font for its text: Debian's librsvg2-bin and fonts-dejavu-core.
# Idempotent: nothing is installed when both are there.
set -euo pipefail
if ! command -v rsvg-convert >/dev/null || ! fc-list 2>/dev/null | grep -qi dejavu; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq librsvg2-bin fonts-dejavu-core fontconfig >/dev/null
fi
rsvg-convert --version
