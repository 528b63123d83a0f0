#!/usr/bin/env bash
# Renders sizer's HTML report for a database, a host and a fleet from ../shared/corpus, and
# saves a PNG screenshot of each in headless Chromium (Debian's `chromium`), so a person can
# look at them.
#
#   scripts/screenshots.sh [OUT_DIR]      (default: target/screenshots)
#
# Uses target/release/sizer if built, else target/debug/sizer (build one first). Installs
# Debian's chromium with apt-get when it is missing and the script runs as root.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/screenshots}"
corpus=../shared/corpus
sizer=target/release/sizer
[ -x "$sizer" ] || sizer=target/debug/sizer
[ -x "$sizer" ] || { echo "build sizer first: cargo build --release" >&2; exit 2; }
[ -d "$corpus" ] || { echo "no corpus at $corpus" >&2; exit 2; }
if ! command -v chromium >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null
    else
        echo "install Debian's chromium: sudo apt-get install chromium" >&2
        exit 2
    fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

render() { # NAME ARGS…
    local name=$1
    shift
    "$sizer" analyze --format html -o "$out/$name.html" "$@" 2>"$tmp/$name.err" || {
        # Exit 1 (some input not analysed) still writes the report.
        [ -s "$out/$name.html" ] || { cat "$tmp/$name.err" >&2; exit 1; }
    }
    # A tall window: the page's first screens (the summary, charts and the tables below).
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$tmp/profile-$name" --hide-scrollbars --window-size=1300,3000 \
        --screenshot="$out/$name.png" "file://$out/$name.html" >/dev/null 2>&1
    echo "$out/$name.png"
}

render database "$corpus"/awr/sarthi2020-receipt-12.1.0.2-aix-snap173494-173496.html \
    "$corpus"/awr/sarthi2020-receipt-12.1.0.2-aix-snap173496-173498.html
render host "$corpus"/iostat/linux-sar-A-11.6.1-sles15-areq-sz-svctm.txt
render fleet "$corpus"/awr/
