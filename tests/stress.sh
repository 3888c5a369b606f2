#!/usr/bin/env bash
# Proves the test suite does not need an idle machine: one CPU hog per core runs for the whole
# time, and the full suite runs twice under them. A test that passes alone but fails here waits
# on time instead of on an event.
#
#   tests/stress.sh                 # whole suite, twice, one hog per core
#   STRESS_HOGS=4 tests/stress.sh   # more hogs than cores
#   tests/stress.sh tests/bot       # extra arguments go to pytest (a subset, -k ...)
#
# Prints per run: exit status, wall time and the failing tests; exits non-zero if a run failed.
set -u
cd "$(dirname "$0")/.."

hogs="${STRESS_HOGS:-$(nproc)}"
runs="${STRESS_RUNS:-2}"
python="${PYTHON:-python}"
pids=()
suite=""
logdir="$(mktemp -d "${TMPDIR:-/tmp}/conductor-stress.XXXXXX")"

stop_hogs() {
    if [ -n "$suite" ]; then
        kill "$suite" 2>/dev/null
        wait "$suite" 2>/dev/null
        suite=""
    fi
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null
    done
    pids=()
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM

for _ in $(seq "$hogs"); do
    "$python" -c 'while True: pass' &
    pids+=("$!")
done
echo "stress: $hogs CPU hogs (pids ${pids[*]}) on $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"

failed=0
summary=()
for run in $(seq "$runs"); do
    log="$logdir/run$run.log"
    start=$(date +%s)
    # In the background, so that an interrupt reaches the trap at once and stops everything.
    "$python" -m pytest -o addopts= -q -p no:cacheprovider -rfE "$@" >"$log" 2>&1 &
    suite=$!
    wait "$suite"
    rc=$?
    suite=""
    seconds=$(( $(date +%s) - start ))
    result="$(grep -E '^(=+ )?[0-9]+ (passed|failed|errors?)\b.* in [0-9.]+s' "$log" | tail -n 1)"
    summary+=("run $run: exit $rc in ${seconds}s: ${result:-no pytest summary, see $log}")
    echo "${summary[-1]}"
    if [ "$rc" -ne 0 ]; then
        failed=1
        grep -E '^(FAILED|ERROR) tests/' "$log" | sed 's/^/    /'
    fi
done

stop_hogs
echo "stress: logs in $logdir"
printf '%s\n' "${summary[@]}"
exit "$failed"
