#!/usr/bin/env bash
# Benchmark (issue 14, bounded resources): column handling is linear. Generates a Linux
# `iostat -x` log and an AIX `iostat` log with a header of N extra (unknown) columns, 4 devices
# and 3 reports, for N = 10 and the widths in WIDTHS, and times `sizer analyze -f json` on each
# under GNU time. Prints a Markdown table: format, columns, cells, wall seconds, µs per cell and
# peak RSS. With linear column handling the µs per cell stay about the same from 10,000 to
# 100,000 columns (before the fix a 20,000-column Linux log did not finish in 300 s).
#
#   benches/columns.sh            (SIZER_BIN, default target/release/sizer; WIDTHS, default
#                                  "10 10000 100000"; LIMIT, seconds allowed per run, default 300)
#
# The generated files go to a temporary directory that is removed at the end. Not part of the
# tests: timings depend on the machine; record them in docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SIZER_BIN:-${CARGO_TARGET_DIR:-target}/release/sizer}
widths=${WIDTHS:-"10 10000 100000"}
limit=${LIMIT:-300}
[ -x "$bin" ] || { echo "no sizer binary at $bin (cargo build --release, or set SIZER_BIN)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 1; }
dir=$(mktemp -d /tmp/bounded-columns-XXXXXX)
trap 'rm -rf "$dir"' EXIT
echo "| format | columns | cells | seconds | µs per cell | peak RSS (MB) |"
echo "|---|---:|---:|---:|---:|---:|"
for n in $widths; do
  python3 - "$dir" "$n" <<'PY'
import sys
d, n = sys.argv[1], int(sys.argv[2])
x = " ".join(f"x{i}" for i in range(n))
with open(f"{d}/linux-{n}.txt", "w") as f:
    f.write("Linux 6.1.0 (db01) \t01/02/2024 \t_x86_64_\t(8 CPU)\n\n")
    for r in range(3):
        f.write(f"01/02/2024 10:0{r}:00 AM\nDevice r/s w/s rkB/s wkB/s r_await w_await aqu-sz %util {x}\n")
        for k in range(4):
            f.write(f"sd{'abcd'[k]} 100.00 50.00 800.00 1600.00 0.20 0.40 0.04 5.00 " + " ".join(["1.00"] * n) + "\n")
        f.write("\n")
with open(f"{d}/aix-{n}.txt", "w") as f:
    f.write("\nSystem configuration: lcpu=8 drives=4 paths=4 vdisks=0\n\n")
    for r in range(3):
        f.write(f"Disks: % tm_act Kbps tps Kb_read Kb_wrtn {x}\n")
        for k in range(4):
            f.write(f"hdisk{k} 0.3 6.1 1.0 311206 2095584 " + " ".join(["1.0"] * n) + "\n")
        f.write("\n")
PY
  for fmt in linux aix; do
    base=$([ $fmt = linux ] && echo 8 || echo 5)
    cells=$(( 12 * (n + base) ))
    /usr/bin/time -o "$dir/time" -f "%e %M" timeout "$limit" "$bin" analyze -f json "$dir/$fmt-$n.txt" >/dev/null 2>&1 || true
    set -- $(tail -1 "$dir/time")
    echo "| $fmt | $n | $cells | $1 | $(python3 -c "print(f'{$1*1e6/$cells:.2f}')") | $(( $2 / 1024 )) |"
  done
done
