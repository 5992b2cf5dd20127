#!/bin/sh
# test_fxc_preset.sh - `fxc preset` over the built-in effects: the order, values and
# definitions it prints, and warnings with file and line for an unknown technique, a
# missing effect file and a value of the wrong size. Expected text written by hand.
set -u
top=${FXGL_TOP_SRCDIR:?}
fxc=${FXGL_TOP_BUILDDIR:?}/fxc
dir=$(mktemp -d /tmp/fxgl-fxcpreset-XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/p.ini" <<'INI'
Techniques=fxgl_Vignette@fxgl_Vignette.fx,Nope@fxgl_Vignette.fx,Gone@Missing.fx,fxgl_Vibrance@fxgl_Vibrance.fx
TechniqueSorting=fxgl_Vibrance@fxgl_Vibrance.fx,fxgl_Vignette@fxgl_Vignette.fx

[fxgl_Vignette.fx]
Amount=0.5
Radius=1,2
PreprocessorDefinitions=FOO=3
INI
"$fxc" preset "$dir/p.ini" --shaders "$top/data/shaders" --skip-disabled -D BAR \
    > "$dir/out" 2> "$dir/err"
rc=$?
[ $rc -eq 1 ] || fail "exit status $rc, expected 1 (warnings)"
cat > "$dir/want" <<'OUT'
runs, in order:
  1. fxgl_Vibrance@fxgl_Vibrance.fx
  2. fxgl_Vignette@fxgl_Vignette.fx
[fxgl_Vibrance.fx]
  definitions: BAR=1
  Saturation=1.000000  (default)
  Vibrance=0.150000  (default)
[fxgl_Vignette.fx]
  definitions: FOO=3 BAR=1
  Amount=0.500000
  Radius=1.000000
  Softness=0.600000  (default)
  Round=true  (default)
OUT
sed -n '/^runs, in order:/,$p' "$dir/out" | diff -u "$dir/want" - || fail "order/values differ"
grep -q 'effects: 11 found, 2 compiled' "$dir/out" || fail "effect count: $(cat "$dir/out")"
grep -q 'skipped fxgl_Bloom.fx: no technique enabled (SkipLoadingDisabledEffects)' "$dir/out" ||
    fail "skip-disabled not reported"
grep -qF "$dir/p.ini(6): warning: 'Radius' has 2 values, expected 1" "$dir/err" ||
    fail "no value-count warning: $(cat "$dir/err")"
grep -qF "$dir/p.ini(1): warning: preset uses unknown technique 'Nope@fxgl_Vignette.fx'" \
    "$dir/err" || fail "no unknown-technique warning"
grep -qF "$dir/p.ini(1): warning: preset uses technique 'Gone@Missing.fx' of effect file 'Missing.fx', which is not loaded" \
    "$dir/err" || fail "no missing-file warning"

# A clean preset: exit 0, nothing on stderr; without --skip-disabled all 11 compile.
printf 'Techniques=fxgl_CAS@fxgl_CAS.fx\n' > "$dir/ok.ini"
"$fxc" preset "$dir/ok.ini" --shaders "$top/data/shaders" > "$dir/out" 2> "$dir/err" ||
    fail "clean preset: exit $?: $(cat "$dir/err")"
[ ! -s "$dir/err" ] || fail "clean preset warned: $(cat "$dir/err")"
grep -q 'effects: 11 found, 11 compiled' "$dir/out" || fail "$(cat "$dir/out")"
grep -q '^  1. fxgl_CAS@fxgl_CAS.fx$' "$dir/out" || fail "$(cat "$dir/out")"
grep -q '^  2\.' "$dir/out" && fail "only one technique is enabled"
echo "PASS: fxc preset"
