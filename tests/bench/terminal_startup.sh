#!/usr/bin/env bash
# Issue 5 benchmark: cold start of the terminal to an interactive window, time to show the plans
# of one operator and circle, and peak RSS. Runs terminal_startup_bench (the terminal exactly as the program
# opens it, plus the probe that prints the figures and quits; build with -DRECHARGEDESK_BUILD_BENCH=ON) on the
# offscreen platform RUNS times and prints the median.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-$PWD/build/app/rechargedesk}
PROBE=${PROBE:-$PWD/build/tests/bench/terminal_startup_bench}
RUNS=${RUNS:-7}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$BIN" setup --shop-name Bench --admin-name Asha --admin-pin 482193 --data-dir "$work" >/dev/null
starts=(); plans=(); rss=()
for i in $(seq "$RUNS"); do
    t0=$(date +%s%3N)
    out=$(QT_QPA_PLATFORM=offscreen "$PROBE" --data-dir "$work" 2>/dev/null)
    ready=$(sed -n 's/^interactive_epoch_ms=//p' <<<"$out")
    starts+=($((ready - t0)))
    plans+=("$(sed -n 's/^plans_shown_ms=//p' <<<"$out")")
    rss+=("$(sed -n 's/^peak_rss_kib=//p' <<<"$out")")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "runs: $RUNS   machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "cold start to interactive window: median $(median "${starts[@]}") ms  (all: ${starts[*]})  target < 1000 ms"
echo "plans of Jio / Mumbai shown:      median $(median "${plans[@]}") ms  (all: ${plans[*]})  target < 100 ms"
echo "peak RSS (terminal + embedded server, one process): median $(( $(median "${rss[@]}") / 1024 )) MiB  target < 150 MB"
