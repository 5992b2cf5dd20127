#!/bin/sh
# test_man.sh - README promises that `man fxgl` lists every FXGL_* variable:
# every name the sources read (a "FXGL_..." string in src/ or tools/) must
# appear in docs/man/fxgl.1, except FXGL_TEST_* (test switches, not for
# users). Fails naming each missing one.
set -u
top=${FXGL_TOP_SRCDIR:-$(dirname "$0")/../..}
man="$top/docs/man/fxgl.1"
[ -f "$man" ] || { echo "FAIL: $man missing"; exit 1; }
# Preprocessor lines are left out: they name build macros, not variables.
names=$(cat "$top"/src/*/*.c "$top"/tools/*.c "$top"/tools/fxgl.in 2>/dev/null |
    grep -v '^[[:space:]]*#' | grep -oE '"FXGL_[A-Z0-9_]+' | tr -d '"' | grep -v '^FXGL_TEST_' | sort -u)
[ -n "$names" ] || { echo "FAIL: no FXGL_ variable found in the sources (wrong directory?)"; exit 1; }
missing=""
for n in $names; do
    grep -q "$n" "$man" || missing="$missing $n"
done
if [ -n "$missing" ]; then
    echo "FAIL: read by the sources but not in docs/man/fxgl.1:$missing"
    exit 1
fi
echo "man: all $(echo "$names" | wc -l) FXGL_* variables the sources read are documented"
