#!/usr/bin/env bash
# Benchmark: `sizer analyze` over a directory of >= 500 AWR HTML reports (copies of the shared
# corpus made here, at bench time), on 1 thread and on all cores. Prints reports/s, MB/s and peak
# memory (maximum resident set size from GNU time), and the peak memory for a smaller copy set so
# that growth with the number of reports is visible.
#
#   benches/batch.sh [COPIES_PER_FILE]     (default 42: 12 corpus reports x 42 = 504 reports)
#   RUNS=N benches/batch.sh                 (each set is timed N times, default 3: best and range)
#
# Needs ../shared/corpus beside the project and GNU time (/usr/bin/time). Not part of the tests:
# timings depend on the machine; record them in docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
copies="${1:-42}"
runs="${RUNS:-3}"
corpus=../shared/corpus/awr
[ -d "$corpus" ] || { echo "SKIPPED: $corpus not found" >&2; exit 0; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed for peak memory" >&2; exit 1; }

cargo build --release --quiet
bin=target/release/sizer
work=$(mktemp -d "${TMPDIR:-/tmp}/sizer-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# DB Id of each corpus report, read by sizer itself.
declare -A dbid
for f in "$corpus"/*.html; do
  dbid[$f]=$("$bin" analyze --format json "$f" | grep -m1 -o '"db_id": [0-9]*' | grep -o '[0-9]*$')
done

make_set() { # make_set DIR N [same]: N copies of every corpus HTML report in DIR
  # Each copy gets its own DB Id, so that every copy is a distinct database and the model grows
  # with the number of reports; with "same", copies keep their DB Id and count once (duplicates).
  mkdir -p "$1"
  local i f id
  for ((i = 0; i < $2; i++)); do
    for f in "$corpus"/*.html; do
      id=${dbid[$f]}
      if [ "${3:-}" = same ]; then
        cp "$f" "$1/$(basename "$f" .html)-copy$i.html"
      else
        sed "s/\b$id\b/$((id + i + 1))/g" "$f" > "$1/$(basename "$f" .html)-copy$i.html"
      fi
    done
  done
}

model_mb() { # estimated size of the columnar model of DIR, MB
  cargo run --quiet --release --example model_size -- "$1" | grep -o '[0-9.]* MB estimated' | cut -d' ' -f1
}

measure() { # measure DIR JOBS LABEL: best wall of $runs runs (after a sync), their range, peak RSS
  local files bytes out wall rss walls="" best="" worst="" maxrss=0 k
  files=$(find "$1" -type f | wc -l)
  bytes=$(du -sb "$1" | cut -f1)
  sync
  for ((k = 0; k < runs; k++)); do
    out=$( { /usr/bin/time -f '%e %M' "$bin" analyze -j "$2" --format json "$1" > /dev/null; } 2>&1 | tail -1)
    wall=${out% *}
    rss=${out#* }
    walls="$walls $wall"
    (( rss > maxrss )) && maxrss=$rss
  done
  best=$(printf '%s\n' $walls | sort -g | head -1)
  worst=$(printf '%s\n' $walls | sort -g | tail -1)
  awk -v l="$3" -v j="$2" -v n="$files" -v b="$bytes" -v w="$best" -v x="$worst" -v r="$maxrss" 'BEGIN {
    if (w <= 0) w = 0.01
    printf "| %s | %d | %d | %.1f MB | %.2f s (%.2f–%.2f) | %.1f | %.1f | %.0f MB |\n",
      l, j, n, b / 1e6, w, w, x, n / w, b / 1e6 / w, r / 1024
  }'
}

echo "sizer $("$bin" --version | cut -d' ' -f2), $(nproc) cores, $(date -u +%Y-%m-%d)"
echo
echo "| set | threads | reports | size | wall (best of $runs; range) | reports/s | MB/s | peak RSS |"
echo "|---|---|---|---|---|---|---|---|"
make_set "$work/big" "$copies"
measure "$work/big" 1 "${copies}x corpus, distinct"
measure "$work/big" "$(nproc)" "${copies}x corpus, distinct"
small=$(( copies / 4 > 0 ? copies / 4 : 1 ))
make_set "$work/small" "$small"
measure "$work/small" 1 "${small}x corpus, distinct"
make_set "$work/dups" "$copies" same
measure "$work/dups" 1 "${copies}x corpus, duplicates"
echo
echo "Columnar model (polars estimated size): $(model_mb "$work/big") MB for ${copies}x, $(model_mb "$work/small") MB for ${small}x, $(model_mb "$work/dups") MB for the duplicates."
