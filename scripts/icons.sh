#!/bin/sh
# Draws the app's icons (src/web/static/icon-*.png) from src/web/icon.svg and
# src/web/icon-maskable.svg (full bleed, its drawing inside the middle 80%, for launchers that
# cut their own shape). Run after changing either; needs vips (Debian: libvips-tools). The PNGs
# are kept in the repository, so a build needs neither.
set -eu
cd "$(dirname "$0")/.."
out=src/web/static
vips thumbnail src/web/icon.svg "$out/icon-192.png" 192
vips thumbnail src/web/icon.svg "$out/icon-512.png" 512
vips thumbnail src/web/icon.svg "$out/icon-32.png" 32
vips thumbnail src/web/icon-maskable.svg "$out/icon-maskable-512.png" 512
vips thumbnail src/web/icon-maskable.svg "$out/icon-apple-180.png" 180
cp src/web/icon.svg "$out/icon.svg"
