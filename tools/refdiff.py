#!/usr/bin/env python3
"""refdiff.py - the differential run behind tools/refdiff.sh: each effect
through fxgl (fxgl-render, GL on llvmpipe) and through the reference path
(vkBasalt on a Vulkan swapchain, lavapipe), the same input picture, compared.

Run it through tools/refdiff.sh (which finds or builds the programs and starts
Xvfb); the environment names the programs: FXC, FXGL_RENDER, VKPRESENT,
IMGDIFF. Python's standard library only (python3 is already a build
dependency: python3-glad).

  refdiff.py corpus [--corpus DIR] [--shared DIR] [--out DIR] [--only SUBSTR]
                    [--values default|perturbed|both] [--size WxH]
  refdiff.py files  [--out DIR] [--exact] [--values ...] [-I DIR] EFFECT.fx...

Both sides run the FIRST technique only (vkBasalt runs techniques[0] and
nothing else), in performance mode (vkBasalt compiles with
__RESHADE_PERFORMANCE_MODE__=1 and turns every uniform with an initialiser
into a specialisation constant), one frame, on the same opaque input
(fxgl-imgdiff --make-input). Perturbed values: every scalar uniform (bool,
int, uint, float; no `source`) gets one non-default value, given to vkBasalt
as its per-uniform option (`Name = value`, a specialisation constant) and to
fxgl as the preset's `[File.fx] Name=value`.

Writes OUT/refdiff.tsv (effect, values, status, psnr, max, off2, class,
detail) and OUT/side/*.png (input | fxgl | reference | |difference| x 4).
Status: match (PSNR >= 40 dB), differ, exact (with --exact: bit-identical),
skip (left out, detail says why), ref-fail (vkBasalt failed: compile error,
crash), ref-nondet (two reference runs differ), gl-fail (fxgl failed), fxc-fail.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

# What vkBasalt 0.3.2.8 defines (effect_reshade.cpp): fxgl defines its own
# values, so an effect that tests these may take another branch on each side.
REF_MACROS = ("__RESHADE__", "__RENDERER__")
MATCH_DB = 40.0
TIMEOUT = 600


def run(cmd, env=None, cwd=None, timeout=TIMEOUT):
    try:
        p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout


def merged_dir(dest, sources):
    """A folder of symbolic links standing for an ordered search path:
    vkBasalt takes ONE include path and ONE texture path, fxgl takes several;
    the first folder that has a name wins, as in a search path. The effect's
    own folder is searched first by both compilers anyway."""
    os.makedirs(dest, exist_ok=True)
    for src in sources:
        if not os.path.isdir(src):
            continue
        for name in sorted(os.listdir(src)):
            link = os.path.join(dest, name)
            if not os.path.lexists(link):
                os.symlink(os.path.join(src, name), link)
    return dest


BACKSLASH_INCLUDE = re.compile(r'#\s*include\s*"([^"]*\\[^"]*)"')
_backslash_cache = {}


def backslash_links(dest, fx, includes):
    """ReShade on Windows reads `#include ".\\sub\\file.fxh"`; vkBasalt on
    Linux appends the name to its include path as it is written, so it looks
    for a file whose NAME has backslashes in it. Such a file is made here, in
    the merged include folder: a link named as written, to the file the name
    means (found from the including file's folder, then the include path).
    fxgl reads the effect itself, unchanged."""
    roots = tuple(includes)
    if roots not in _backslash_cache:
        found = {}
        files = [fx]
        for d in includes:
            try:
                files += [os.path.join(d, n) for n in os.listdir(d)
                          if n.lower().endswith((".fx", ".fxh"))]
            except OSError:
                pass
        for f in files:
            try:
                text = open(f, errors="replace").read()
            except OSError:
                continue
            for name in BACKSLASH_INCLUDE.findall(text):
                rel = name.replace("\\", "/")
                for base in [os.path.dirname(f)] + list(includes):
                    target = os.path.normpath(os.path.join(base, rel))
                    if os.path.isfile(target):
                        found.setdefault(name, target)
                        break
        _backslash_cache[roots] = found
    for name, target in _backslash_cache[roots].items():
        link = os.path.join(dest, name)
        if "/" not in name and not os.path.lexists(link):
            os.symlink(target, link)
    # Windows file names ignore case (`Reshade.fxh` finds `ReShade.fxh`);
    # a link under the spelling an effect uses stands for that.
    try:
        text = open(fx, errors="replace").read()
    except OSError:
        text = ""
    have = {n.lower(): n for n in os.listdir(dest)}
    for name in re.findall(r'#\s*include\s*"([^"/\\]+)"', text):
        if os.path.lexists(os.path.join(dest, name)) or \
                os.path.exists(os.path.join(os.path.dirname(fx), name)):
            continue
        if name.lower() in have:
            os.symlink(os.path.join(dest, have[name.lower()]), os.path.join(dest, name))


def walk_dirs(top):
    out = [top]
    for root, dirs, _ in os.walk(top):
        dirs.sort()
        for d in dirs:
            out.append(os.path.join(root, d))
    return out


def fmt_value(scalar, v):
    if scalar == "bool":
        return "1" if v else "0"
    if scalar in ("int", "uint"):
        return str(int(v))
    return repr(float(v))


def perturb(uniforms):
    """One non-default value per scalar uniform: a quarter of its UI range
    away from the default (back the other way at the top of the range), the
    next item of a combo, the other bool; without a range, default * 1.5 +
    0.25 (floats) or + 1 (ints). Returns [(name, scalar, value string)]."""
    out = []
    for u in uniforms:
        if u.get("special", "none") != "none" or not u.get("has_initializer"):
            continue
        if u["rows"] != 1 or u["cols"] != 1 or u["array_length"]:
            continue
        scalar = u["scalar"]
        init = u.get("initializer") or [0]
        d = init[0]
        ann = u.get("annotations", {})
        lo, hi = ann.get("ui_min"), ann.get("ui_max")
        lo = lo[0] if isinstance(lo, list) and lo else lo
        hi = hi[0] if isinstance(hi, list) and hi else hi
        if scalar == "bool":
            v = not bool(d)
        elif scalar in ("int", "uint"):
            items = ann.get("ui_items")
            if isinstance(items, str) and items:
                n = len([s for s in items.split("\0") if s != ""]) or 1
                v = (int(d) + 1) % max(n, 1)
                if v == int(d):
                    continue
            elif isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and hi > lo:
                step = max(1, int((hi - lo) / 4))
                v = int(d) + step if int(d) + step <= hi else int(d) - step
            else:
                v = int(d) + 1
            if scalar == "uint" and v < 0:
                continue
        elif scalar == "float":
            if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and hi > lo:
                step = (hi - lo) / 4.0
                v = d + step if d + step <= hi else d - step
            else:
                v = d * 1.5 + 0.25
        else:
            continue
        out.append((u["name"], scalar, fmt_value(scalar, v)))
    return out


class Ctx:
    pass


def analyse(ctx, fx, includes):
    """fxc's reflection of the effect: why it is left out, if it is, and
    what the classification needs to know."""
    cmd = [ctx.fxc, "dump", "--json", "--width", str(ctx.w), "--height", str(ctx.h),
           "--performance-mode"]
    for i in includes:
        cmd += ["-I", i]
    rc, out, err = run(cmd + [fx])
    if rc != 0:
        return None, "fxc: " + (err.strip().splitlines() or ["failed"])[0]
    try:
        d = json.loads(out)
    except ValueError:
        return None, "fxc: no JSON"
    return d, None


def tech0_glsl(ctx, fx, includes, d):
    """fxgl's GLSL of the first technique's passes (fxc counts passes across
    techniques in declaration order: the first technique's come first)."""
    text = ""
    for i in range(len(d["techniques"][0]["passes"])):
        cmd = [ctx.fxc, "glsl", "--target", "gl450", "--pass", str(i), "--performance-mode",
               "--width", str(ctx.w), "--height", str(ctx.h)]
        for inc in includes:
            cmd += ["-I", inc]
        rc, out, _ = run(cmd + [fx])
        text += out
    return text


def leave_out(d, glsl):
    """Why the effect is left out, or None. What is declared but unused by the
    first technique does not count: ReShade.fxh declares a DEPTH texture for
    every effect that includes it."""
    tech = d["techniques"][0] if d["techniques"] else None
    if tech is None:
        return "no technique"
    used = set()
    for p in tech["passes"]:
        for k in ("vertex_shader", "pixel_shader", "compute_shader"):
            if p[k] >= 0:
                used.update(s["object"] for s in d["shaders"][p[k]]["samplers"])
    for i in sorted(used):
        t = d["textures"][d["samplers"][i]["texture"]]
        if (t.get("semantic") or "") not in ("", "COLOR"):
            return "reads texture semantic " + t["semantic"]
    specials = set()
    for u in d["uniforms"]:
        if u.get("special", "none") == "none":
            continue
        name = u["name"].split("::")[-1]
        # Declared once in the uniform block; any further mention is a use.
        if len(re.findall(r"\b\w*%s\b" % re.escape(name), glsl)) > 1:
            specials.add(u["special"])
    if specials:
        return "runtime value source=" + ",".join(sorted(specials))
    if any(p["compute_shader"] >= 0 for p in tech["passes"]):
        return "compute pass (the reference path has none)"
    if d["storages"]:
        return "storage objects (the reference path has none)"
    if not any(p["render_targets"][0] < 0 for p in tech["passes"]):
        return "no pass writes the back buffer (the reference path leaves garbage)"
    if not d["samplers"]:
        return "no sampler (vkBasalt crashes on an empty descriptor set)"
    return None


def notes(d, files_text):
    """Hints for classifying a difference (column `class`)."""
    n = []
    tech = d["techniques"][0]
    bb = [p for p in tech["passes"] if p["render_targets"][0] < 0]
    if len(bb) > 1:
        n.append("bb-writes=%d" % len(bb))
        if any(p["blend"][0]["enable"] or p["blend"][0]["write_mask"] != 15 or
               p["stencil_enable"] for p in bb[1:]):
            n.append("later-bb-pass-keeps-pixels")
    if any(p["render_targets"][0] >= 0 and not p["clear_render_targets"] and
           (p["blend"][0]["enable"]) for p in tech["passes"]):
        n.append("blend-into-target")
    for m in REF_MACROS:
        if re.search(r"\b%s\b" % m, files_text):
            n.append("tests-" + m.strip("_"))
    if any(t["levels"] > 1 for t in d["textures"]):
        n.append("mipmaps")
    return n


def vk_side(ctx, fx, name, incdir, texdir, values, out_png, tag):
    conf = os.path.join(ctx.tmp, "vkbasalt-%s.conf" % tag)
    with open(conf, "w") as f:
        f.write("effects = %s\n%s = %s\n" % (name, name, fx))
        f.write("reshadeTexturePath = %s\nreshadeIncludePath = %s\n" % (texdir, incdir))
        f.write("depthCapture = off\n")
        for (k, _, v) in values:
            f.write("%s = %s\n" % (k, v))
    env = dict(os.environ)
    env.update({"ENABLE_VKBASALT": "1", "VKBASALT_CONFIG_FILE": conf,
                "VKBASALT_LOG_LEVEL": "error",
                # Render targets are uninitialised memory on this path;
                # lavapipe takes image memory from malloc: a perturb byte of
                # 255 makes fresh allocations zero, as fxgl's are.
                "MALLOC_PERTURB_": "255"})
    if os.path.exists(out_png):
        os.unlink(out_png)
    rc, out, err = run([ctx.vkpresent, "--frames", "1", ctx.input, out_png], env=env)
    log = out + err
    # vkBasalt logs the compiler's warnings at its error level too: only
    # errors (and a file it could not load) fail the run.
    errs = [l for l in log.splitlines() if "vkBasalt err" in l and
            re.search(r"\berror\b|failed to load|couldn't open", l)]
    if errs:
        # "failed to load shader file" only says that the preprocessor
        # failed; the line after the generic hint says why.
        errs.sort(key=lambda l: "failed to load" in l)
        return "ref-fail", errs[0].split("err:", 1)[-1].strip()
    if rc != 0 or not os.path.exists(out_png):
        last = (log.strip().splitlines() or ["?"])[-1]
        return "ref-fail", "presenter exit %d: %s" % (rc, last)
    return None, None


def gl_side(ctx, fx, tech, includes, texdirs, values, out_png):
    base = os.path.basename(fx)
    preset = os.path.join(ctx.tmp, "preset.ini")
    with open(preset, "w") as f:
        f.write("Techniques=%s@%s\n" % (tech, base))
        if values:
            f.write("\n[%s]\n" % base)
            for (k, _, v) in values:
                f.write("%s=%s\n" % (k, v))
    cmd = [ctx.render, "--frames", "1", "--input", ctx.input, "--output", out_png,
           "--preset", preset, "--performance-mode"]
    for i in includes:
        cmd += ["-I", i]
    for t in texdirs:
        cmd += ["--textures", t]
    if os.path.exists(out_png):
        os.unlink(out_png)
    rc, out, err = run(cmd + [fx])
    if rc != 0 or not os.path.exists(out_png):
        lines = [l for l in (err + out).splitlines() if l.strip()]
        return "gl-fail", "fxgl-render exit %d: %s" % (rc, lines[-1] if lines else "?")
    return None, None


def compare(ctx, a, b, side):
    rc, out, err = run([ctx.imgdiff, "--side", side, "--input", ctx.input, a, b])
    if rc != 0:
        return None
    return dict(kv.split("=", 1) for kv in out.strip().split("\t"))


def one(ctx, key, fx, includes, texdirs, w):
    """Runs one effect at the asked values; yields TSV rows."""
    d, why = analyse(ctx, fx, includes)
    if d is None:
        for vals in ctx.value_sets:
            w(key, vals, "fxc-fail", "", "", "", "", why)
        return
    out = leave_out(d, tech0_glsl(ctx, fx, includes, d) if d["techniques"] else "")
    if out:
        for vals in ctx.value_sets:
            w(key, vals, "skip", "", "", "", "", out)
        return
    text = ""
    for f in d.get("included_files", []):
        try:
            with open(f if os.path.isabs(f) else os.path.join(os.path.dirname(fx), f),
                      errors="replace") as fh:
                text += fh.read()
        except OSError:
            pass
    hints = notes(d, text)
    tech = d["techniques"][0]["name"]
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", key)
    # A name vkBasalt's config can hold: letters and digits.
    name = "fx" + re.sub(r"[^A-Za-z0-9]", "", os.path.splitext(os.path.basename(fx))[0])
    vkfx = fx
    vkinc = includes
    if re.search(r"\s", fx):
        # vkBasalt's configuration cannot hold a path with a space: the
        # effect is linked from a folder without one, and its own folder
        # (searched first for its includes) heads the include folder.
        fxdir = os.path.join(ctx.tmp, "fx-" + safe)
        os.makedirs(fxdir, exist_ok=True)
        vkfx = os.path.join(fxdir, re.sub(r"\s", "_", os.path.basename(fx)))
        if not os.path.lexists(vkfx):
            os.symlink(fx, vkfx)
        vkinc = [os.path.dirname(fx)] + includes
    incdir = merged_dir(os.path.join(ctx.tmp, "inc-" + safe), vkinc)
    backslash_links(incdir, fx, vkinc)
    texdir = merged_dir(os.path.join(ctx.tmp, "tex-" + safe), texdirs)
    for vals in ctx.value_sets:
        values = []
        if vals == "perturbed":
            values = perturb(d["uniforms"])
            if not values:
                w(key, vals, "skip", "", "", "", ",".join(hints), "no scalar uniform to perturb")
                continue
        ref = os.path.join(ctx.tmp, "ref.png")
        ref2 = os.path.join(ctx.tmp, "ref2.png")
        gl = os.path.join(ctx.tmp, "gl.png")
        st, why = vk_side(ctx, vkfx, name, incdir, texdir, values, ref, "a")
        if not st:
            st, why = vk_side(ctx, vkfx, name, incdir, texdir, values, ref2, "b")
            if not st:
                m = compare(ctx, ref, ref2, os.path.join(ctx.tmp, "det.png"))
                if m is None or m["max"] != "0":
                    st, why = "ref-nondet", "two reference runs differ (max %s)" % (m or {}).get("max")
        if not st:
            st, why = gl_side(ctx, fx, tech, includes, texdirs, values, gl)
        if st:
            w(key, vals, st, "", "", "", ",".join(hints), why)
            continue
        side = os.path.join(ctx.out, "side", "%s.%s.png" % (safe, vals))
        m = compare(ctx, gl, ref, side)
        if m is None:
            w(key, vals, "gl-fail", "", "", "", ",".join(hints), "compare failed")
            continue
        psnr = float("inf") if m["psnr"] == "inf" else float(m["psnr"])
        if ctx.exact:
            st = "exact" if m["max"] == "0" else "differ"
        else:
            st = "match" if psnr >= MATCH_DB else "differ"
        unchanged = compare(ctx, ctx.input, ref, os.path.join(ctx.tmp, "u.png"))
        extra = []
        if unchanged and unchanged["max"] == "0":
            extra.append("reference leaves the input unchanged")
        if m.get("b_uniform") == "1":
            extra.append("reference is one colour")
        if values:
            extra.append("values " + " ".join("%s=%s" % (k, v) for (k, _, v) in values))
        w(key, vals, st, m["psnr"], m["max"], m["off2"], ",".join(hints), "; ".join(extra))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("corpus", "files"))
    ap.add_argument("effects", nargs="*")
    ap.add_argument("--corpus", default=os.environ.get("FXGL_CORPUS", "/work/scratch/corpus"))
    ap.add_argument("--shared", default=os.environ.get("FXGL_SHARED", ""))
    ap.add_argument("--out", default="refdiff-out")
    ap.add_argument("--only", default="")
    ap.add_argument("--values", default="both", choices=("default", "perturbed", "both"))
    ap.add_argument("--size", default="320x180")
    ap.add_argument("--exact", action="store_true")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    a = ap.parse_intermixed_args()

    ctx = Ctx()
    for k, env in (("fxc", "FXC"), ("render", "FXGL_RENDER"), ("vkpresent", "VKPRESENT"),
                   ("imgdiff", "IMGDIFF")):
        setattr(ctx, k, os.environ.get(env) or sys.exit("refdiff: %s is not set" % env))
    ctx.w, ctx.h = (int(x) for x in a.size.split("x"))
    ctx.exact = a.exact
    ctx.value_sets = ["default", "perturbed"] if a.values == "both" else [a.values]
    ctx.out = os.path.abspath(a.out)
    os.makedirs(os.path.join(ctx.out, "side"), exist_ok=True)
    ctx.tmp = os.path.join(ctx.out, "tmp")
    shutil.rmtree(ctx.tmp, ignore_errors=True)
    os.makedirs(ctx.tmp)
    ctx.input = os.path.join(ctx.out, "input.png")
    rc, _, err = run([ctx.imgdiff, "--make-input", str(ctx.w), str(ctx.h), ctx.input])
    if rc:
        sys.exit("refdiff: " + err)

    tsv = open(os.path.join(ctx.out, "refdiff.tsv"), "w")
    tsv.write("effect\tvalues\tstatus\tpsnr\tmax\toff2\tclass\tdetail\n")

    def w(key, vals, st, psnr, mx, off2, cls, detail):
        line = "\t".join(str(x).replace("\t", " ").replace("\n", " ")
                         for x in (key, vals, st, psnr, mx, off2, cls, detail))
        tsv.write(line + "\n")
        tsv.flush()
        print(line, flush=True)

    if a.mode == "files":
        for fx in a.effects:
            fx = os.path.abspath(fx)
            one(ctx, os.path.basename(fx), fx, [os.path.dirname(fx)] + a.includes,
                [os.path.dirname(fx)], w)
    else:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        shared = a.shared or os.path.join(here, "..", "shared")
        verdicts = os.path.join(shared, "reference", "reference_verdicts.tsv")
        corpus_list = os.path.join(shared, "reference", "corpus.tsv")
        if not os.path.isfile(verdicts) or not os.path.isdir(a.corpus):
            sys.exit("refdiff: needs %s and the corpus at %s (set FXGL_SHARED, FXGL_CORPUS)"
                     % (verdicts, a.corpus))
        corpus = os.path.abspath(a.corpus)
        repos = [l.split("\t")[0] for l in open(corpus_list) if l.strip() and not l.startswith("#")]
        slim = os.path.join(corpus, [r for r in repos if r.endswith("@slim")][0], "Shaders")
        slim_tex = os.path.join(os.path.dirname(slim), "Textures")
        for l in open(verdicts):
            if l.startswith("#") or not l.strip():
                continue
            path, verdict = l.rstrip("\n").split("\t")[:2]
            if verdict != "ok" or a.only not in path:
                continue
            repo = path.split("/")[0]
            fx = os.path.join(corpus, path)
            # As tools/conformance.sh: the repository's Shaders folder and
            # every folder below it (the repository's folder alone when it
            # has none), then slim's Shaders.
            rs = os.path.join(corpus, repo, "Shaders")
            includes = walk_dirs(rs) if os.path.isdir(rs) else [os.path.join(corpus, repo)]
            includes.append(slim)
            tex = os.path.join(corpus, repo, "Textures")
            # Textures likewise: a repository's Textures folder and every
            # folder below it (sources name files in subfolders), then slim's.
            texdirs = (walk_dirs(tex) if os.path.isdir(tex) else [includes[0]]) + walk_dirs(slim_tex)
            texdirs.append(os.path.dirname(fx))
            one(ctx, path, fx, includes, texdirs, w)
    tsv.close()
    shutil.rmtree(ctx.tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
