#!/bin/sh
# test_state.sh - every mutable file-scope variable of src/interpose/*.c has its row in
# docs/interpose.md's table "Process state", and every row names a variable that exists,
# with a guard from the table's words and a lock or once-control its file has.
#
# The variables are found by reading the C files (awk, below): at brace depth 0, a
# declaration that starts with `static` or `_Thread_local` and is no function; `const`
# objects are left out (a pointer to const is not one). A struct block's name is read
# after its closing brace.
set -u
src=${FXGL_TOP_SRCDIR:-..}
doc=$src/docs/interpose.md
dir=$src/src/interpose
[ -f "$doc" ] || { echo "FAIL: $doc not found"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk '
function strip_comments(s) {
    sub(/\/\/.*/, "", s)
    gsub(/\/\*[^*]*\*+([^\/*][^*]*\*+)*\//, "", s)
    return s
}
function is_const(decl,    head) {
    head = decl
    sub(/[=;\[].*/, "", head)
    if (head ~ /\*[ ]*const[ ]+[A-Za-z_][A-Za-z0-9_]*[ ]*$/) return 1
    if (head ~ /\*/) return 0
    return head ~ /(^|[ ])const[ ]/
}
function last_ident(s,    n, a) {
    sub(/[=;\[].*/, "", s)
    n = split(s, a, /[^A-Za-z0-9_]+/)
    while (n > 0 && a[n] == "") n--
    return a[n]
}
function base(path) { sub(/.*\//, "", path); return path }
FNR == 1 { depth = 0; pending = 0; incomment = 0 }
{
    line = $0
    if (incomment) { if (line ~ /\*\//) { sub(/.*\*\//, "", line); incomment = 0 } else next }
    line = strip_comments(line)
    if (line ~ /\/\*/) { sub(/\/\*.*/, "", line); incomment = 1 }
    if (depth == 0 && line ~ /^(static|_Thread_local)[ ]/) {
        decl = line
        sub(/^(static|_Thread_local)[ ]+/, "", decl)
        sub(/^(static|_Thread_local)[ ]+/, "", decl)
        p = index(decl, "("); e = index(decl, "="); fp = index(decl, "(*")
        if (p > 0 && (e == 0 || p < e) && p != fp) {
            # a function (its body is skipped by the depth count)
        } else if (decl ~ /^(struct|union)[ A-Za-z0-9_]*\{[ ]*$/) {
            pending = 1
        } else if (fp > 0 && (e == 0 || fp < e)) {
            t = substr(decl, fp + 2); sub(/\).*/, "", t); gsub(/[ ]/, "", t)
            print base(FILENAME), t
        } else if (!is_const(decl)) {
            print base(FILENAME), last_ident(decl)
        }
    }
    if (pending && depth == 1 && line ~ /^\}/) {
        t = line; sub(/^\}[ ]*/, "", t)
        print base(FILENAME), last_ident(t)
        pending = 0
    }
    o = gsub(/\{/, "{", line); c = gsub(/\}/, "}", line)
    depth += o - c
}' "$dir"/*.c | sort -u > "$tmp/code"

# The table's rows: | `file.c` | `name` | guard | ...
sed -n '/^## Process state/,/^## /p' "$doc" |
    grep -E '^\| `[a-z_0-9]+\.c` \| `[A-Za-z_0-9]+` \|' > "$tmp/rows"
sed -E 's/^\| `([^`]+)` \| `([^`]+)` \|.*/\1 \2/' "$tmp/rows" | sort -u > "$tmp/doc"

fail=0
n=$(wc -l < "$tmp/code")
if [ "$n" -lt 40 ]; then
    echo "FAIL: only $n variables found in $dir: the reader is broken"
    fail=1
fi
comm -23 "$tmp/code" "$tmp/doc" | while read -r f v; do
    echo "FAIL: $f: $v has no row in docs/interpose.md (Process state)"
done
comm -13 "$tmp/code" "$tmp/doc" | while read -r f v; do
    echo "FAIL: docs/interpose.md (Process state) lists $f: $v, which $f does not have"
done
[ -z "$(comm -3 "$tmp/code" "$tmp/doc")" ] || fail=1

# Each guard: words from the table's list; a named lock or once-control is in its file.
while IFS= read -r row; do
    f=$(printf '%s\n' "$row" | sed -E 's/^\| `([^`]+)`.*/\1/')
    v=$(printf '%s\n' "$row" | sed -E 's/^\| `[^`]+` \| `([^`]+)`.*/\1/')
    guard=$(printf '%s\n' "$row" | awk -F'|' '{print $4}' | sed 's/^ *//; s/ *$//')
    rest=$(printf '%s\n' "$guard" | sed -E 's/(lock|once) `[A-Za-z_0-9.]+`//g; s/atomic|thread-local|drawing thread|thread|signal|itself//g; s/[ ,]//g')
    if [ -z "$guard" ] || [ -n "$rest" ]; then
        echo "FAIL: $f: $v: guard '$guard' is not in the table's words"
        fail=1
    fi
    for name in $(printf '%s\n' "$guard" | grep -oE '(lock|once) `[A-Za-z_0-9.]+`' |
                  sed -E 's/.*`([^`]+)`/\1/'); do
        last=${name##*.}
        if ! grep -qw -- "$last" "$dir/$f"; then
            echo "FAIL: $f: $v: guarded by $name, which $f does not have"
            fail=1
        fi
    done
done < "$tmp/rows"

[ $fail -eq 0 ] && echo "process state: $n variables, each in docs/interpose.md with its guard"
exit $fail
