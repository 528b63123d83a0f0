#!/usr/bin/env bash
# Benchmark: the streaming Linux iostat parser (sizer_parsers::iostat::Reader) over a generated
# one-day `iostat -xt 1` log (86,400 reports, sysstat 12.x `-x` layout with discard and flush
# columns, 64 devices: about 1.1 GB), next to `jc --iostat` (Python jc from PyPI) on a 100 MB
# slice of the same file, the whole-text `iostat::parse_bytes` on the slices, and `sizer analyze`
# when the binary reads iostat logs. Prints a
# Markdown table: tool, input, wall time (best and median of RUNS), MB/s (10^6 bytes per second)
# and peak RSS (maximum resident set size from GNU time).
#
#   benches/iostat.sh [RUNS]          (default 3)
#
# Environment:
#   DEVICES, SECONDS_LOGGED   size of the generated log (default 64 devices, 86400 s)
#   SLICES                    slice sizes in MB for jc (default "100"; e.g. "100 300" if memory
#                             allows: jc needs about 1.9 GB of RAM per 100 MB)
#   JC_RUNS                   timing runs of jc per slice (default RUNS); JC=0 skips jc
#   SIZER_BIN                 the sizer binary (default $CARGO_TARGET_DIR/release/sizer, built
#                             with BUILD_SIZER=1; skipped when absent or when it cannot read
#                             the log); SIZER_RUNS timing runs on the whole log (default RUNS;
#                             a whole-text parser needs about 11 GB for it), SIZER_FULL=0 runs it
#                             on the slices only
#
# The log and the jc virtual environment live under the cargo target directory (not in git).
# Needs python3 (venv, pip) for jc, and GNU time (/usr/bin/time). Not part of the tests: timings
# depend on the machine; record them in docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
devices=${DEVICES:-64}
seconds=${SECONDS_LOGGED:-86400}
slices=${SLICES:-100}
jc_runs=${JC_RUNS:-$runs}
target=${CARGO_TARGET_DIR:-target}
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed for peak memory (apt-get install time)" >&2; exit 1; }

cargo build --release --quiet -p sizer-parsers --example iostat_speed --example gen_iostat
ex=$target/release/examples
dir=$target/iostat-bench
mkdir -p "$dir"
log=$dir/iostat-xt-${devices}dev-${seconds}s.log
if [ ! -s "$log" ]; then
  echo "generating $log ($devices devices, $seconds reports) ..." >&2
  "$ex/gen_iostat" "$log.tmp" "$devices" "$seconds"
  mv "$log.tmp" "$log"
fi
bytes=$(stat -c %s "$log")

slice() { # slice MB: the first MB x 10^6 bytes of the log, cut back to a whole line
  local f=$dir/slice-${1}MB.log
  if [ ! -s "$f" ]; then
    head -c $(( $1 * 1000000 )) "$log" | sed '$d' > "$f.tmp"
    mv "$f.tmp" "$f"
  fi
  echo "$f"
}

results=()
measure() { # measure LABEL FILE RUNS CMD...: wall best/median and peak RSS over RUNS runs
  local label=$1 file=$2 n=$3
  shift 3
  local size walls=() rss=0 w r i
  size=$(stat -c %s "$file")
  for ((i = 0; i < n; i++)); do
    if ! /usr/bin/time -o "$dir/time" -f '%e %M' "$@" > /dev/null 2> "$dir/stderr"; then
      echo "$label: failed ($(head -c 300 "$dir/stderr"))" >&2
      return 1
    fi
    read -r w r < "$dir/time"
    walls+=("$w")
    if (( r > rss )); then rss=$r; fi
    echo "  $label run $((i + 1)): ${w} s, $((r / 1024)) MiB" >&2
  done
  results+=("$(printf '%s\n' "${walls[@]}" | sort -g | awk -v l="$label" -v s="$size" -v r="$rss" -v n="$n" '
    { w[NR] = $1 }
    END {
      best = w[1]; med = (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
      if (best <= 0) best = 0.01
      if (med <= 0) med = 0.01
      printf "| %s | %.1f MB | %d | %.2f s | %.2f s | %.1f | %.1f | %.1f MiB |\n",
        l, s / 1e6, n, best, med, s / 1e6 / best, s / 1e6 / med, r / 1024
    }')")
}

echo "iostat_speed on the whole log:" >&2
"$ex/iostat_speed" "$log" >&2
measure "sizer-parsers Reader, keep_values=false" "$log" "$runs" "$ex/iostat_speed" "$log"
measure "sizer-parsers Reader, keep_values=true" "$log" "$runs" "$ex/iostat_speed" --keep-values "$log"

if [ "${JC:-1}" != 0 ]; then
  venv=$target/jc-venv
  if [ ! -x "$venv/bin/jc" ]; then
    { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet jc; } >&2 || echo "jc: could not install (python3 venv + pip install jc); skipped" >&2
  fi
  if [ -x "$venv/bin/jc" ]; then
    echo "$("$venv/bin/jc" --version | head -1), $("$venv/bin/python3" --version)" >&2
    for mb in $slices; do
      s=$(slice "$mb")
      measure "sizer-parsers Reader, keep_values=false" "$s" "$runs" "$ex/iostat_speed" "$s"
      measure "sizer-parsers parse_bytes (whole text in memory)" "$s" "$runs" "$ex/iostat_speed" --whole "$s"
      measure "jc --iostat" "$s" "$jc_runs" sh -c '"$0" --iostat < "$1"' "$venv/bin/jc" "$s" || true
    done
  fi
fi

sizer=${SIZER_BIN:-$target/release/sizer}
if [ "${BUILD_SIZER:-0}" = 1 ]; then
  cargo build --release --quiet --bin sizer
fi
if [ ! -x "$sizer" ]; then
  echo "sizer: no binary at $sizer (build it with BUILD_SIZER=1 or set SIZER_BIN); skipped" >&2
elif ! "$sizer" analyze "$(slice "${slices%% *}")" -f json > /dev/null 2> "$dir/stderr"; then
  echo "sizer: cannot analyze iostat logs yet ($(head -c 300 "$dir/stderr")); skipped" >&2
else
  for mb in $slices; do
    s=$(slice "$mb")
    measure "sizer analyze -f json" "$s" "$runs" "$sizer" analyze "$s" -f json || true
  done
  if [ "${SIZER_FULL:-1}" != 0 ]; then
    measure "sizer analyze -f json" "$log" "${SIZER_RUNS:-$runs}" "$sizer" analyze "$log" -f json || true
  fi
fi

echo
echo "$(nproc) cores, $(date -u +%Y-%m-%d), log: $devices devices x $seconds reports, $bytes bytes"
echo
echo "| tool | input | runs | wall (best) | wall (median) | MB/s (best) | MB/s (median) | peak RSS |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${results[@]}"
