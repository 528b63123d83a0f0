#!/usr/bin/env bash
# Benchmark (issue 14, bounded resources): a large `.gz` iostat log streams in bounded memory,
# and gzip bombs are refused without being buffered. Generates a Linux `iostat -x` log (sysstat
# 12.3 layout, 64 devices, one report a second) of SIZE_MB megabytes (default 1200), gzips it, and
# runs `sizer analyze -f json -j 1` on the plain and the gzip'd log, the gzip'd log under
# `--max-decompressed-size 100M`, and a 4.3 GB text bomb that is no report, each under GNU time.
# Prints a Markdown table: input, wall seconds, peak RSS, exit status.
#
#   benches/gzip.sh      (SIZER_BIN, default target/release/sizer; SIZE_MB)
#
# Everything generated goes to a temporary directory under /tmp that is removed at the end. Not
# part of the tests: timings depend on the machine; record them in docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SIZER_BIN:-${CARGO_TARGET_DIR:-target}/release/sizer}
size_mb=${SIZE_MB:-1200}
[ -x "$bin" ] || { echo "no sizer binary at $bin (cargo build --release, or set SIZER_BIN)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 1; }
dir=$(mktemp -d /tmp/bounded-gzip-XXXXXX)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$size_mb" <<'PY'
import datetime, gzip, sys
d, size = sys.argv[1], int(sys.argv[2]) * 1_000_000
hdr = ("Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s"
       "  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await"
       "  aqu-sz  %util\n")
row = ("{:<12} 100.00    800.00     0.00   0.00    0.20     8.00   50.00   1600.00     0.00   0.00"
       "    0.40    32.00    0.00      0.00     0.00   0.00    0.00     0.00    2.00    0.50    0.04"
       "   5.00\n")
block = "".join(row.format(f"sd{a}{b}") for a in "abcd" for b in "abcdefghijklmnop")
t = datetime.datetime(2024, 1, 2)
with open(f"{d}/big.log", "w") as f:
    f.write("Linux 6.1.0-18-amd64 (db01.example.com) \t01/02/2024 \t_x86_64_\t(8 CPU)\n\n")
    n = 0
    while n < size:
        s = (f"{t:%Y-%m-%dT%H:%M:%S}+0100\navg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
             "           5.00    0.00    2.00    1.00    0.00   92.00\n\n" + hdr + block + "\n")
        f.write(s)
        n += len(s)
        t += datetime.timedelta(seconds=1)
with gzip.open(f"{d}/bomb.gz", "wb", compresslevel=1) as f:
    line = b"Device r/s w/s\n" + b"x" * 1000 + b"\n"
    for _ in range(4096):
        f.write(line * 1024)
PY
gzip -1 -k "$dir/big.log"
echo "| input | seconds | peak RSS (MB) | exit |"
echo "|---|---:|---:|---:|"
run() {
  local label=$1; shift
  local rc=0
  /usr/bin/time -o "$dir/time" -f "%e %M" "$bin" analyze -f json -j 1 "$@" >/dev/null 2>&1 || rc=$?
  set -- $(tail -1 "$dir/time")
  echo "| $label | $1 | $(( $2 / 1024 )) | $rc |"
}
run "plain log (${size_mb} MB)" "$dir/big.log"
run "gzip'd log ($(( $(stat -c %s "$dir/big.log.gz") / 1000000 )) MB, ${size_mb} MB decompressed)" "$dir/big.log.gz"
run "gzip'd log, --max-decompressed-size 100M" --max-decompressed-size 100M "$dir/big.log.gz"
run "text bomb (30 MB .gz, 4.3 GB of text, no report)" "$dir/bomb.gz"
