#!/bin/sh
# test-summary.sh BUILDDIR... - one closing line over every test run:
# "check: N passed, M failed, K skipped".
#
# A Check program counts as its individual test cases (its log has a
# "Checks: N, Failures: F, Errors: E" line); any other test counts as one.
passed=0; failed=0; skipped=0
for dir in "$@"; do
    for trs in $(find "$dir/tests" -name '*.trs' 2>/dev/null); do
        log=${trs%.trs}.log
        result=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
        line=$(grep -E '^[0-9]+%: Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" 2>/dev/null | tail -1)
        if [ -n "$line" ] && [ "$result" != SKIP ]; then
            n=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
            f=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+).*/\1/')
            e=$(echo "$line" | sed -E 's/.*Errors: ([0-9]+).*/\1/')
            passed=$((passed + n - f - e))
            failed=$((failed + f + e))
            # A program that crashed after its suite still failed as a whole.
            [ "$result" = PASS ] || [ $((f + e)) -gt 0 ] || failed=$((failed + 1))
            # Name what failed: CI shows only this output.
            [ $((f + e)) -eq 0 ] || grep -E ':[FE]:' "$log" | sed "s|^|failed: ${trs%.trs}: |" | head -20
        else
            case "$result" in
                PASS|XFAIL) passed=$((passed + 1)) ;;
                SKIP) skipped=$((skipped + 1)); echo "skipped: ${trs%.trs}: $(grep -m1 '^SKIP:' "$log" 2>/dev/null | sed 's/^SKIP: //')" ;;
                *) failed=$((failed + 1)); echo "failed: ${trs%.trs} (last 30 lines of its log:)"
                   tail -30 "$log" 2>/dev/null | sed 's/^/    /' ;;
            esac
        fi
    done
done
echo "check: $passed passed, $failed failed, $skipped skipped"
