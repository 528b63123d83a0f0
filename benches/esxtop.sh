#!/usr/bin/env bash
# Benchmark: parsing `esxtop -b` batch CSV (issue 6). Generates made-up but realistic esxtop files
# (one host: CPU, memory, network, interrupt columns the parser skips, plus adapters, paths,
# devices and virtual disks it keeps) with the `gen_esxtop` example, under the cargo target
# directory (never in git), then times `esxtop::parse` (`esxtop_speed` example, best of 3) and
# measures peak resident memory of one parse with GNU time.
#
#   benches/esxtop.sh [ROWS]     (default 720: one hour at esxtop's 5 s default interval)
#
# Not part of the tests: timings depend on the machine; record them in docs/performance.md
# (section "esxtop (issue 6)").
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-720}"
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed for peak memory" >&2; exit 1; }
target="${CARGO_TARGET_DIR:-target}"
work="$target/esxtop-bench"
mkdir -p "$work"

cargo build --release --quiet -p sizer-parsers --example gen_esxtop --example esxtop_speed
ex="$target/release/examples"

"$ex/gen_esxtop" "$work/esxtop-default.csv" "$rows" 2>/dev/null
"$ex/gen_esxtop" "$work/esxtop-all.csv" "$rows" --all 2>/dev/null
gzip -kf "$work/esxtop-default.csv"

val() { sed -E "s/.* $1=([^ ]+).*/\1/" <<<"$2"; }

measure() { # measure FILE LABEL
  local line rss
  line=$("$ex/esxtop_speed" --rounds 3 "$1" | sed -n 1p)
  rss=$( { /usr/bin/time -f '%M' "$ex/esxtop_speed" --rounds 1 "$1" > /dev/null; } 2>&1 | tail -1)
  printf '| %s | %s | %s | %s MB | %s MB | %s s | %s s | %s | %s | %s | %.0f MB |\n' "$2" \
    "$(val columns "$line")" "$(val rows "$line")" "$(val file_mb "$line")" \
    "$(val text_mb "$line")" "$(val decode_s "$line")" "$(val parse_s "$line")" \
    "$(val mb_per_s "$line")" "$(val rows_per_s "$line")" "$(val series "$line")" \
    "$(awk -v r="$rss" 'BEGIN { print r / 1024 }')"
}

echo "sizer-parsers esxtop, $(nproc) cores, $(date -u +%Y-%m-%d)"
echo
echo "| file | columns | rows | file size | text size | read+decode | parse (best of 3) | MB/s | rows/s | series kept | peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
measure "$work/esxtop-default.csv" "default counters"
measure "$work/esxtop-all.csv" "\`-a\` (all counters)"
measure "$work/esxtop-default.csv.gz" "default counters, gzip'd"
echo
"$ex/esxtop_speed" --rounds 1 "$work/esxtop-default.csv" | sed -n 2p
