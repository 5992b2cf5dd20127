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
# Every installed command (bin_PROGRAMS, bin_SCRIPTS of the makefiles) has its page in
# man_MANS, and every page there exists.
mks=$(ls "$top"/Makefile.am "$top"/*/local.mk "$top"/*/*/local.mk 2>/dev/null)
# shellcheck disable=SC2086 # one name a word
commands=$(cat $mks | sed -n 's/^bin_PROGRAMS *+*= *//p; s/^bin_SCRIPTS *+*= *//p' |
    tr ' ' '\n' | sed 's|.*/||; s|\$(EXEEXT)||' | grep . | sort -u)
# shellcheck disable=SC2086
pages=$(cat $mks | sed -n '/^man_MANS/,/[^\\]$/p' | tr ' \t\\' '\n\n\n' | grep '\.1$')
for c in $commands; do
    echo "$pages" | grep -qx "docs/man/$c.1" || missing="$missing $c"
done
for p in $pages; do
    [ -f "$top/$p" ] || { echo "FAIL: man_MANS names $p, which does not exist"; exit 1; }
done
if [ -n "$missing" ]; then
    echo "FAIL: installed commands without a manual page in man_MANS:$missing"
    exit 1
fi
echo "man: all $(echo "$names" | wc -l) FXGL_* variables the sources read are documented;" \
    "pages for $(echo "$commands" | tr '\n' ' ')"
