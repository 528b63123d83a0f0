#!/usr/bin/env bash
# The fuzz run of issue 14 item 6: the proptest mutation suite of tests/fuzz/ (one test per
# parser of the registry, seeded from ../shared/corpus and fixtures/, each case parsed, sized
# through sizer::pipeline and rendered) at PROPTEST_CASES cases per parser, in release mode,
# one parser at a time, niced, each under a memory cap and a time limit. Prints each parser's
# summary line (cases, failures, soft findings, time, slowest case) as it ends, then a Markdown
# table with the peak RSS (GNU time) and the exit status.
#
#   scripts/fuzz.sh [PARSER_ID...]      (default: every parser; ids as in docs/formats.md)
#
# Environment:
#   PROPTEST_CASES   cases per parser (default 10000)
#   FUZZ_MEM_KIB     address-space cap per parser run, KiB (ulimit -v; default 4194304 = 4 GiB)
#   FUZZ_TIME_S      wall-time limit per parser run, s (timeout; default 3600)
#   FUZZ_NICE        nice level (default 19)
#   FUZZ_LOG_DIR     where each parser's full output goes (default target/fuzz-logs)
#   FUZZ_CARGO_ARGS  the cargo profile arguments (default "--release"; "" with
#                    CARGO_PROFILE_DEV_OPT_LEVEL=3 builds the dev profile optimised, reusing the
#                    dev dependencies, which are built at opt-level 2: overflow checks and debug
#                    assertions stay on)
#   FUZZ_STRICT      whether the soft findings (a NaN or infinite figure, a sizing on 0, an
#                    unlocated section error) fail the case: by default they do; "0" counts them
#
# A failure (panic, invalid JSON, an unnamed error, and the soft findings FUZZ_STRICT makes
# hard) stops that parser's run and prints the minimal case proptest shrank it to; the other
# soft findings are counted and printed with their first case. Not run in CI: the test suite runs
# the same tests at 64 cases per parser. Record the figures in docs/reliability.md.
set -uo pipefail
cd "$(dirname "$0")/.."
cases=${PROPTEST_CASES:-10000}
mem_kib=${FUZZ_MEM_KIB:-4194304}
time_s=${FUZZ_TIME_S:-3600}
nice_level=${FUZZ_NICE:-19}
logs=${FUZZ_LOG_DIR:-target/fuzz-logs}
cargo_args=${FUZZ_CARGO_ARGS---release}
mkdir -p "$logs"

# shellcheck disable=SC2086 # the profile arguments are words
build_out=$(nice -n "$nice_level" cargo test $cargo_args --test fuzz --no-run 2>&1) || {
    echo "$build_out" >&2
    exit 2
}
bin=$(echo "$build_out" | sed -n 's/.*Executable tests\/fuzz\/main.rs (\(.*\))$/\1/p' | tail -1)
if [[ -z "$bin" || ! -x "$bin" ]]; then
    echo "$build_out" >&2
    echo "fuzz.sh: could not find the release test binary of tests/fuzz" >&2
    exit 2
fi

# Run a copy, so that a build in the same target directory while the parsers run (the dev
# profile at another opt-level writes the same path) cannot change the binary between parsers.
cp "$bin" "$logs/fuzz-bin" || exit 2
bin=$logs/fuzz-bin

if [[ $# -gt 0 ]]; then
    parsers=("$@")
else
    mapfile -t parsers < <("$bin" --list 2>/dev/null | sed -n 's/^mutants::\([a-z_0-9]*\): test$/\1/p')
fi

echo "fuzz.sh: $cases cases per parser, ${#parsers[@]} parsers, cap ${mem_kib} KiB, limit ${time_s} s, nice $nice_level, $bin"
rows=()
status=0
for p in "${parsers[@]}"; do
    log="$logs/$p.log"
    (
        ulimit -v "$mem_kib"
        PROPTEST_CASES=$cases timeout "$time_s" nice -n "$nice_level" \
            /usr/bin/time -f 'peak_rss_kib %M' \
            "$bin" --exact "mutants::$p" --nocapture --test-threads=1
    ) >"$log" 2>&1
    rc=$?
    grep -oE "fuzz $p:.*" "$log"
    # A failing case is printed once per shrink step: each distinct panic site once, counted.
    grep -E "panicked at" "$log" | sed 's/ ([0-9]*)//' | sort | uniq -c
    grep -E -A4 "^minimal case" "$log"
    summary=$(grep -oE "fuzz $p: cases.*" "$log" | tail -1)
    n=$(echo "$summary" | sed -n 's/.*cases \([0-9]*\),.*/\1/p')
    if [[ -z "$n" ]]; then
        # Cut short: the last progress line (every 1,000 cases) says how far it got.
        n=$(grep -oE "fuzz $p: progress.*" "$log" | tail -1 | sed -n 's/.*progress \([0-9]*\) cases.*/>= \1/p')
    fi
    f=$(echo "$summary" | sed -n 's/.*failures \([0-9]*\),.*/\1/p')
    s=$(echo "$summary" | sed -n 's/.*soft \([0-9]*\),.*/\1/p')
    t=$(echo "$summary" | sed -n 's/.*, \([0-9.]*\) s, slowest.*/\1/p')
    slow=$(echo "$summary" | sed -n 's/.*slowest case \([0-9.]*\) s.*/\1/p')
    rss=$(sed -n 's/^peak_rss_kib \([0-9]*\)$/\1/p' "$log" | tail -1)
    case $rc in
        0) what=ok ;;
        124) what="time limit" ;;
        *) what="exit $rc" ;;
    esac
    [[ $rc -ne 0 ]] && status=1
    rows+=("| $p | ${n:-?} | ${f:-?} | ${s:-?} | ${t:-?} | ${slow:-?} | $(( ${rss:-0} / 1024 )) | $what |")
done

echo
echo "| parser | cases | failures | soft | time (s) | slowest case (s) | peak RSS (MiB) | result |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit $status
