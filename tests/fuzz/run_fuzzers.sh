#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz for a set time each (issue 12).
#
#   tests/fuzz/run_fuzzers.sh [SECONDS] [TARGET...]       e.g. tests/fuzz/run_fuzzers.sh 600   or   ... 60 framing
#
# Configures a clang build with -DRECHARGEDESK_FUZZ=ON in $FUZZ_BUILD_DIR (default build-fuzz), builds the targets,
# then runs each one for SECONDS (default 600) on a working copy of its seed corpus (tests/fuzz/corpus/NAME is only
# read), FUZZ_PARALLEL targets at a time (default 2). Logs, the working corpora and any crash files go to
# $FUZZ_BUILD_DIR/fuzz-runs/; the summary prints, per target, executions, final coverage (cov/ft), corpus size and
# findings. Exit status 1 when any target found something. Needs clang-14 + libclang-rt-14-dev
# (see docs/security.md, "Fuzzing").
set -euo pipefail

SOURCE_DIR=$(cd "$(dirname "$0")/../.." && pwd)
SECONDS_EACH=${1:-600}
shift || true
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(framing decoders catalogue webhook)
BUILD_DIR=${FUZZ_BUILD_DIR:-$SOURCE_DIR/build-fuzz}
PARALLEL=${FUZZ_PARALLEL:-2}
RUNS="$BUILD_DIR/fuzz-runs"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$SOURCE_DIR" -B "$BUILD_DIR" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DRECHARGEDESK_FUZZ=ON "${launcher[@]}" >/dev/null
cmake --build "$BUILD_DIR" -j"$PARALLEL" --target "${TARGETS[@]/#/fuzz_}"

mkdir -p "$RUNS"
run_one() {
    local name=$1 work="$RUNS/corpus-$1"
    mkdir -p "$work"
    cp -n "$SOURCE_DIR/tests/fuzz/corpus/$name"/* "$work/" 2>/dev/null || true
    rm -f "$RUNS/$name"-crash-* "$RUNS/$name"-leak-* "$RUNS/$name"-timeout-* "$RUNS/$name"-oom-*
    # One process per target (what -jobs=1 amounts to); every input must finish within 10 s and 2 GB.
    "$BUILD_DIR/tests/fuzz/fuzz_$name" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$RUNS/$name-" "$work" >"$RUNS/$name.log" 2>&1 || true
}

echo "$(date -u '+%F %T') UTC: ${TARGETS[*]} for ${SECONDS_EACH} s each, $PARALLEL at a time; logs in $RUNS"
for ((i = 0; i < ${#TARGETS[@]}; i += PARALLEL)); do
    for name in "${TARGETS[@]:i:PARALLEL}"; do
        run_one "$name" &
    done
    wait
done

status=0
printf '%-10s %12s %8s %8s %12s %s\n' target execs cov ft corpus findings
for name in "${TARGETS[@]}"; do
    log="$RUNS/$name.log"
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corpus=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$last")
    findings=$(find "$RUNS" -maxdepth 1 -name "$name-*" -type f | wc -l)
    if [[ $findings -gt 0 ]] || grep -qE 'ERROR: (AddressSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error:' "$log"; then
        status=1
        findings="$findings: $(find "$RUNS" -maxdepth 1 -name "$name-*" -type f -printf '%f ')$(grep -m1 -E 'ERROR:|runtime error:|invariant broken' "$log" || true)"
    fi
    printf '%-10s %12s %8s %8s %12s %s\n' "$name" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$findings"
done
exit $status
