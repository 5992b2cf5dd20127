#!/bin/sh
# test_hostile.sh - hostile effects through the three hosts of the compiler:
# fxc, fxgl-render and a program with libfxgl.so preloaded. Every input is
# generated here (nothing large is committed), at sizes that used to crash or
# hang: expression chains of 100,000 operands, 100,000 nested brackets,
# blocks and ternaries, a deep loop condition, deep and exponential macros,
# a huge macro body, an include loop and chain, oversized arrays and
# textures (for FX, and for the context), a local array past Direct3D's
# registers. Each must end in its exact diagnostic (file, line, column, the
# limit) and a plain exit status, never a signal or a timeout; a legal
# 16,384-term sum must compile and render the value it computes. The
# preloaded program must go on presenting correct frames with the hostile
# effects in its preset.
#
# Positions, worked out from the generated text (7 lines of shared header,
# the pixel shader's line 8, its '{' line 9, its body from line 10):
# - a chain `a+a+...+a` of N terms from column 1 has its '+' number k (from
#   0) in column 2k+2 (3k+2 for '&&'). The checker enters the last '+' first,
#   at level 2 inside `return float4(chain, ...)`: level L is '+' number N-L,
#   and the limit of 20000 levels is passed at level 20001: column
#   2(N-20001)+2. For `a.x.x...` the last '.x' (number N-1, column 2k+2) is
#   at level 2: level 20001 is '.x' number N-20000.
# - the parser counts nesting: in `return float4(` on line 10 the first
#   bracket, '!' or `A[` (number 0) is at level 3 and each one adds a level;
#   number 254 is level 257, one past the limit. A ternary `a > 1 ? 1 : ...`
#   enters at each '?' (number k at level k+4, reported at the '1' after it);
#   a block line of '{' from column 1 has '{' number k at level k+1.
# - a macro's expansion is laid out from the column of its use: `return BIG;`
#   on line 9 expands to p.x+p.x+... from column 56, '+' number j in column
#   59+4j; without float4 the sum is at level 1, so level 20001 is '+'
#   number N-20002.
set -u
build=${FXGL_TOP_BUILDDIR:-.}
fxc=$build/fxc
render=$build/fxgl-render
[ -x "$fxc" ] || { echo "SKIP: $fxc not built"; exit 77; }
tmp=$(mktemp -d /tmp/fxgl-hostile-XXXXXX) || exit 1
xvfb_pid=
trap '[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

rep() { # count, text: text repeated count times
    awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}
join() { # count, term, separator: term sep term ... (count terms)
    awk -v n="$1" -v t="$2" -v s="$3" 'BEGIN { for (i = 0; i < n; i++) printf "%s%s", i ? s : "", t }'
}

head_fx() { # the vertex shader and back buffer every generated effect shares
    cat <<'EOF'
texture BackBufferTex : COLOR;
sampler BackBuffer { Texture = BackBufferTex; };
void VS(in uint id : SV_VertexID, out float4 pos : SV_Position, out float2 uv : TEXCOORD)
{
    uv = float2(id == 2 ? 2.0 : 0.0, id == 1 ? 2.0 : 0.0);
    pos = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
}
EOF
}
tail_fx() { # technique $1 running PS
    printf '\ntechnique %s { pass { VertexShader = VS; PixelShader = PS; } }\n' "$1"
}
# ps NAME BODY-LINE...: a pixel shader whose body starts on line 9, column 1.
ps() {
    name=$1; shift
    { head_fx; printf 'float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target\n{\n'
      for l in "$@"; do printf '%s\n' "$l"; done; printf '}\n'; tail_fx "$name"; } > "$tmp/$name.fx"
}

n=100000
# Line 9: `return float4(` alone; the chain is line 10, column 1.
ps Sum "    float a = p.x; return float4(" "$(join $n a +), 0, 0, 1);"
ps Member "    float a = p.x; return float4(" "a$(rep $n .x), 0, 0, 1);"
ps Logic "    bool a = p.x > 0; return float4(" "$(join $n a '&&'), 0, 0, 1);"
ps Comma "    float a = p.x; return float4((" "$(join $n a ,)), 0, 0, 1);"
ps Paren "    return float4($(rep $n '(')1$(rep $n ')'), 0, 0, 1);"
ps Index "    int A[2] = { 0, 0 }; return float4($(rep $n 'A[')0$(rep $n ']'), 0, 0, 1);"
ps Ternary "    float a = p.x; return float4($(rep $n 'a > 1 ? 1 : ')0, 0, 0, 1);"
ps Block "$(rep $n '{') return 1; $(rep $n '}')"
ps Unary "    return float4($(rep $n '!')1, 0, 0, 1);"
# 65536 float4x4 per invocation: 262144 registers, llvmpipe ran past 5 minutes.
ps BigLocal "    float4x4 A[65536]; A[0] = (float4x4)p.x; return A[(int)p.x][0];"
# Legal FX, but a loop condition cannot be split into statements: 5000 terms.
ps LoopCond "    float a = p.x; float r = 0; while (" "$(join 5000 a +) > r) { r += 1; } return r;"
{ head_fx; printf '#define M0 p.x\n'
  awk 'BEGIN { for (i = 1; i <= 300; i++) printf "#define M%d M%d\n", i, i - 1 }'
  printf 'float4 PS(float4 p : SV_Position) : SV_Target { return M300; }\n'; tail_fx MacroDepth; } > "$tmp/MacroDepth.fx"
{ head_fx; printf '#define E0 p.x\n'
  awk 'BEGIN { for (i = 1; i <= 40; i++) printf "#define E%d E%d+E%d\n", i, i - 1, i - 1 }'
  printf 'float4 PS(float4 p : SV_Position) : SV_Target { return E40; }\n'; tail_fx MacroExp; } > "$tmp/MacroExp.fx"
{ head_fx; printf '#define BIG %s\n' "$(join $n p.x +)"
  printf 'float4 PS(float4 p : SV_Position) : SV_Target { return BIG; }\n'; tail_fx MacroBody; } > "$tmp/MacroBody.fx"
{ printf '#include "Loop.fx"\n'; head_fx; printf 'float4 PS(float4 p : SV_Position) : SV_Target { return 1; }\n'
  tail_fx Loop; } > "$tmp/Loop.fx"
# An include chain 100 files deep (each file is distinct: no recursion).
printf '#include "I1.fxh"\n' > "$tmp/Deep.fx"
awk -v d="$tmp" 'BEGIN { for (i = 1; i < 100; i++) printf "#include \"I%d.fxh\"\n", i + 1 > (d "/I" i ".fxh") }'
: > "$tmp/I100.fxh"
{ head_fx; printf 'float4 PS(float4 p : SV_Position) : SV_Target { return 1; }\n'; tail_fx Deep; } >> "$tmp/Deep.fx"
{ head_fx; printf 'static const float A[100000] = { 0 };\nfloat4 PS(float4 p : SV_Position) : SV_Target { return A[0]; }\n'
  tail_fx Array; } > "$tmp/Array.fx"
{ head_fx; printf 'texture Huge { Width = 100000; Height = 16; };\n'
  printf 'float4 PS(float4 p : SV_Position) : SV_Target { return 1; }\n'; tail_fx Tex; } > "$tmp/Tex.fx"
# Passes the compiler (65536 is FX's limit) but no context allows it.
{ head_fx; printf 'texture Wide { Width = 65536; Height = 16; };\nsampler S { Texture = Wide; };\n'
  printf 'float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target { return tex2D(S, uv); }\n'
  tail_fx TexCtx; } > "$tmp/TexCtx.fx"
# Legal: 16384 terms of 2^-14 sum to exactly 1 (every partial sum is exact).
legal=16384
{ head_fx; printf 'uniform float k = 1.0 / 16384.0;\n'
  printf 'float4 PS(float4 p : SV_Position, float2 uv : TEXCOORD) : SV_Target\n{\n    float s =\n%s;\n' "$(join $legal k +)"
  printf '    return float4(s - tex2D(BackBuffer, uv).rgb, 1.0);\n}\n'; tail_fx SumInvert; } > "$tmp/SumInvert.fx"
sed 's/^    return float4(s - tex2D(BackBuffer, uv).rgb, 1.0);/    return float4(s * 0.25, 0.0, 0.0, 1.0);/' "$tmp/SumInvert.fx" > "$tmp/SumQuarter.fx"
sed 's/^    float s =$/    float s = 1.0; float unused =/' "$tmp/SumQuarter.fx" > "$tmp/ConstQuarter.fx"

col=$((2 * (n - 20001) + 2))
lim20k="too many levels in one expression (limit is 20000)"
want_Sum="Sum.fx(11, $col): error: $lim20k"
want_Logic="Logic.fx(11, $((3 * (n - 20001) + 2))): error: $lim20k"
want_Comma="Comma.fx(11, $col): error: $lim20k"
want_Member="Member.fx(11, $((2 * (n - 20000) + 2))): error: $lim20k"
lim256="too many nested expressions and statements (limit is 256)"
want_Paren="Paren.fx(10, $((19 + 254))): error: $lim256"
want_Index="Index.fx(10, $((40 + 2 * 254))): error: $lim256"
want_Ternary="Ternary.fx(10, $((34 + 12 * 253 + 8))): error: $lim256"
want_Block="Block.fx(10, 257): error: $lim256"
want_Unary="Unary.fx(10, $((19 + 254))): error: $lim256"
# The generator's own limit, reported at the last level it allows: the
# condition's top '+' is level 2 (under '>'), level 2048 is '+' number
# 5000-2048.
want_LoopCond="LoopCond.fx(11, $((2 * (5000 - 2048) + 2))): error: expression nested more than 2048 levels deep where it cannot be split (a loop condition, a global initializer, a branch of ?:, && or ||, a statement with calls or side effects): split it into statements"
want_BigLocal="BigLocal.fx(10, 14): error: array 'A' needs 262144 registers per invocation (limit is 4096, as in Direct3D 11)"
want_MacroDepth="MacroDepth.fx(309, 56): error: too many nested macro expansions (limit is 256)"
want_MacroExp="MacroExp.fx(49, 56): error: too many tokens from macro expansions (limit is 8000000)"
want_MacroBody="MacroBody.fx(9, $((59 + 4 * (n - 20002)))): error: $lim20k"
want_Loop="Loop.fx(1, 10): error: recursive #include of 'Loop.fx'"
# Deep.fx is level 1, I63.fxh level 64: its #include would open the 65th.
want_Deep="I63.fxh(1, 1): error: too many nested #include (limit is 64)"
want_Array="Array.fx(8, 22): error: array dimension must be between 1 and 65536"
want_Tex="Tex.fx(8, 24): error: 'Width' of 100000 is out of range (at most 65536)"
hostile="Sum Member Logic Comma Paren Index Ternary Block Unary LoopCond BigLocal MacroDepth MacroExp MacroBody Loop Deep Array Tex"

# --- fxc: exit status 1 and the diagnostic, within a bound (a hang fails) ---
for e in $hostile; do
    out=$(cd "$tmp" && timeout 60 "$fxc" glsl --target gl450 "$e.fx" 2>&1 >/dev/null)
    rc=$?
    eval want=\$want_$e
    [ $rc -eq 1 ] || bad "fxc $e.fx: exit $rc, want 1: $(printf '%s' "$out" | head -c 300)"
    printf '%s\n' "$out" | grep -qxF -- "$want" ||
        bad "fxc $e.fx: no line '$want' in: $(printf '%s' "$out" | head -c 300)"
done
# The texture context limit is the runtime's: fxc accepts TexCtx.fx.
(cd "$tmp" && timeout 60 "$fxc" check TexCtx.fx) > "$tmp/texctx.log" 2>&1 ||
    bad "fxc TexCtx.fx: $(head -c 300 "$tmp/texctx.log")"
texctx="TexCtx.fx(8, 9): texture 'Wide' is 65536x16x1; the context allows at most [0-9]* (GL_MAX_TEXTURE_SIZE)"
out=$(cd "$tmp" && timeout 60 "$fxc" glsl --target gl450 SumInvert.fx 2>&1)
rc=$?
[ $rc -eq 0 ] || bad "fxc SumInvert.fx: exit $rc: $(printf '%s' "$out" | head -c 300)"
# 16383 '+' in temporaries of 64 levels each: 255 of them (255 * 64 = 16320).
temps=$(printf '%s\n' "$out" | grep -c '^ *float _gx[0-9]* = ')
[ "$temps" -eq 255 ] || bad "fxc SumInvert.fx: $temps temporaries, want 255"
[ $fail -eq 0 ] && echo "fxc: $(echo $hostile | wc -w) hostile inputs rejected as expected; a $legal-term sum compiles"

# --- fxgl-render: each effect is skipped with its diagnostic; the legal sum renders ---
if [ -x "$render" ]; then
    args=
    for e in $hostile TexCtx; do args="$args $e.fx"; done
    (cd "$tmp" && timeout 120 "$render" --size 16x16 --frames 1 --output h.png $args) > "$tmp/render.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ] && grep -q "no EGL context" "$tmp/render.log"; then
        echo "fxgl-render: SKIP (no EGL context)"
    else
        # Exit 1: some effect failed, which is what these inputs are for.
        [ $rc -eq 1 ] || bad "fxgl-render: exit $rc, want 1: $(head -c 300 "$tmp/render.log")"
        for e in $hostile; do
            eval want=\$want_$e
            grep -qxF -- "$want" "$tmp/render.log" || bad "fxgl-render: no line '$want'"
        done
        grep -q "effect skipped: $texctx" "$tmp/render.log" ||
            bad "fxgl-render: no line '$texctx'"
        grep -q "effect(s), $(($(echo $hostile | wc -w) + 1)) failed" "$tmp/render.log" ||
            bad "fxgl-render: $(tail -n 1 "$tmp/render.log")"
        for e in SumQuarter ConstQuarter; do
            (cd "$tmp" && timeout 120 "$render" --test-image --size 16x16 --frames 1 \
                --output "$e.png" "$e.fx") > "$tmp/$e.log" 2>&1 ||
                bad "fxgl-render $e.fx: $(head -c 300 "$tmp/$e.log")"
            grep -q "0 failed, 1 of 1 technique" "$tmp/$e.log" ||
                bad "fxgl-render $e.fx: $(cat "$tmp/$e.log")"
        done
        cmp -s "$tmp/SumQuarter.png" "$tmp/ConstQuarter.png" ||
            bad "fxgl-render: the $legal-term sum does not draw what 1.0 draws"
        [ $fail -eq 0 ] && echo "fxgl-render: hostile effects skipped with their diagnostics; the sum renders 0.25"
    fi
fi

# --- a preloaded host: frames go on, inverted by the legal sum ---
lib=$build/.libs/libfxgl.so
app=$build/tests/interpose/ip_glx_app
if [ ! -f "$lib" ] || [ ! -x "$app" ]; then
    echo "host: SKIP (libfxgl.so or ip_glx_app not built)"
elif ldd "$lib" 2>/dev/null | grep -q libasan; then
    echo "host: SKIP (the sanitizer build is not preloaded here)"
elif ! command -v Xvfb >/dev/null 2>&1; then
    echo "host: SKIP (no Xvfb)"
else
    Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp -noreset 3>"$tmp/display" 2>/dev/null &
    xvfb_pid=$!
    for _ in $(seq 600); do # up to 60 s: a loaded machine starts it slowly
        [ -s "$tmp/display" ] && break
        sleep 0.1
    done
    if [ ! -s "$tmp/display" ]; then
        echo "host: SKIP (Xvfb did not start)"
    else
        {
            printf 'Techniques=SumInvert@SumInvert.fx'
            for e in $hostile TexCtx; do printf ',%s@%s.fx' "$e" "$e"; done
            printf '\n'
        } > "$tmp/hostile.ini"
        DISPLAY=:$(cat "$tmp/display") LD_PRELOAD="$lib" FXGL_LOG=info FXGL_TEST_MARK= \
        FXGL_TEST_EXPECT_MARK=0 FXGL_TEST_EXPECT_INVERT=1 FXGL_PRESET="$tmp/hostile.ini" \
        FXGL_EFFECT_PATHS="$tmp" timeout 300 "$app" --mode one > "$tmp/host.log" 2>&1
        rc=$?
        [ $rc -eq 0 ] || bad "host: ip_glx_app exited $rc: $(tail -c 600 "$tmp/host.log")"
        grep -q 'technique SumInvert@SumInvert.fx loaded, on' "$tmp/host.log" ||
            bad "host: the $legal-term sum did not run: $(head -c 600 "$tmp/host.log")"
        for e in $hostile; do
            eval want=\$want_$e
            # The host names files by their full paths.
            want="$tmp/$want"
            [ "$e" = Loop ] && want="$tmp/Loop.fx(1, 10): error: recursive #include of '$tmp/Loop.fx'"
            grep -qF -- "$want" "$tmp/host.log" || bad "host: no '$want' in the log"
        done
        grep -q "skipped: $tmp/$texctx" "$tmp/host.log" || bad "host: no '$tmp/$texctx' in the log"
        [ $fail -eq 0 ] && echo "host: every frame inverted by the $legal-term sum; hostile effects reported"
    fi
fi
[ $fail -eq 0 ] && echo "PASS: hostile effects in fxc, fxgl-render and a preloaded host"
exit $fail
