/*
 * fxc_preset.c - `fxc preset`: validates a preset against shader folders and prints what
 * would run, in what order, with what values and definitions.
 *
 *   fxc preset PRESET.ini --shaders DIR [--shaders DIR...] [-D NAME[=VALUE]...]
 *              [--performance-mode] [--skip-disabled]
 *
 * The effects are every *.fx file of the folders (a folder with a trailing "**" is searched
 * recursively for includes, like EffectSearchPaths), compiled through src/effects exactly
 * as the runtime compiles them (front end only). Problems - unknown techniques, effect
 * files the preset names that are not there, values that do not fit - are warnings with
 * file and line on stderr. Exit status: 0 valid, 1 warnings, 2 usage or unreadable preset.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxgl_effects.h"
#include "fxgl_fx.h"
#include "fxgl_preset.h"

int fxc_preset_main(int argc, char **argv);

typedef struct fx_item {
    char *path;
    const char *file;
    fxgl_effect *fx;             // NULL: skipped or failed
    const char *skipped;         // why it was not compiled, NULL when compiled
    fxgl_preset_effect pe;
} fx_item;

static unsigned warnings;

static void on_diag(void *user, const fxgl_preset_diag *d)
{
    (void)user;
    char buf[1200];
    fxgl_preset_diag_format(d, buf, sizeof(buf));
    fprintf(stderr, "%s\n", buf);
    warnings++;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const fx_item *)a)->path, ((const fx_item *)b)->path);
}

// Appends the *.fx files of dir (a trailing "**" component is dropped for listing: only the top
// level holds effects, sub-folders hold includes, as with the reference's search).
static bool list_effects(const char *dir, fx_item **items, size_t *count)
{
    char base[4096];
    snprintf(base, sizeof(base), "%s", dir);
    size_t len = strlen(base);
    if (len >= 3 && strcmp(base + len - 3, "/**") == 0) {
        base[len - 3] = '\0';
    }
    DIR *d = opendir(base);
    if (d == NULL) {
        fprintf(stderr, "%s: warning: cannot open the shader folder\n", base);
        warnings++;
        return true;
    }
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n < 4 || strcmp(ent->d_name + n - 3, ".fx") != 0) {
            continue;
        }
        fx_item *grown = realloc(*items, (*count + 1) * sizeof(*grown));
        if (grown == NULL) {
            closedir(d);
            return false;
        }
        *items = grown;
        fx_item *it = &grown[(*count)++];
        memset(it, 0, sizeof(*it));
        size_t plen = strlen(base) + 1 + n + 1;
        it->path = malloc(plen);
        if (it->path == NULL) {
            closedir(d);
            return false;
        }
        snprintf(it->path, plen, "%s/%s", base, ent->d_name);
    }
    closedir(d);
    return true;
}

static fxgl_preset_base_type base_of(fxgl_scalar s)
{
    switch (s) {
    case FXGL_SCALAR_INT:
        return FXGL_PRESET_INT;
    case FXGL_SCALAR_UINT:
        return FXGL_PRESET_UINT;
    case FXGL_SCALAR_BOOL:
        return FXGL_PRESET_BOOL;
    default:
        return FXGL_PRESET_FLOAT;
    }
}

static const char *short_name(const char *name)
{
    const char *colon = strrchr(name, ':');
    return colon != NULL ? colon + 1 : name;
}

// The plain-data view src/preset works on, with the effect's initial values.
static bool describe(fx_item *it)
{
    const fxgl_effect *e = it->fx;
    fxgl_preset_effect *pe = &it->pe;
    pe->file = it->file;
    pe->uniform_count = e->uniform_count;
    pe->uniforms = calloc(e->uniform_count + 1, sizeof(*pe->uniforms));
    pe->technique_count = e->technique_count;
    pe->techniques = calloc(e->technique_count + 1, sizeof(*pe->techniques));
    if (pe->uniforms == NULL || pe->techniques == NULL) {
        return false;
    }
    for (size_t u = 0; u < e->uniform_count; u++) {
        const fxgl_uniform *fu = &e->uniforms[u];
        fxgl_preset_uniform *pu = &pe->uniforms[u];
        pu->name = short_name(fu->name);
        pu->type = base_of(fu->scalar);
        pu->rows = (unsigned)fu->rows;
        pu->cols = (unsigned)fu->cols;
        pu->special = fu->special != FXGL_SPECIAL_NONE;
        pu->nosave = fu->nosave || fu->array_length > 0;
        const fxgl_annotation *ui = fxgl_annotation_find(&fu->annotations, "ui_type");
        pu->ui_type = ui != NULL && ui->value.scalar == FXGL_SCALAR_STRING ? ui->value.string
                                                                            : NULL;
        for (int k = 0; k < fu->initializer.count && k < FXGL_PRESET_MAX_COMPONENTS; k++) {
            pu->value[k].u = fu->initializer.u[k];
        }
    }
    for (size_t t = 0; t < e->technique_count; t++) {
        const fxgl_technique *ft = &e->techniques[t];
        fxgl_preset_technique *pt = &pe->techniques[t];
        pt->name = ft->name;
        pt->ui_label = ft->label;
        pt->forced_on = ft->enabled;
        pt->nosave = ft->nosave;
        pt->hidden = ft->hidden;
        pt->skip_in_screenshot = !ft->enabled_in_screenshot;
        pt->timeout_ms = (uint32_t)(ft->timeout_ms > 0 ? ft->timeout_ms : 0);
    }
    return true;
}

static void print_value(const fxgl_preset_uniform *u)
{
    size_t n = (u->rows ? u->rows : 1) * (u->cols ? u->cols : 1);
    for (size_t k = 0; k < n && k < FXGL_PRESET_MAX_COMPONENTS; k++) {
        fputs(k ? "," : "", stdout);
        switch (u->type) {
        case FXGL_PRESET_FLOAT:
            printf("%f", (double)u->value[k].f);
            break;
        case FXGL_PRESET_INT:
            printf("%d", u->value[k].i);
            break;
        case FXGL_PRESET_UINT:
            printf("%u", u->value[k].u);
            break;
        case FXGL_PRESET_BOOL:
            fputs(u->value[k].u ? "true" : "false", stdout);
            break;
        }
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: fxc preset PRESET.ini --shaders DIR [--shaders DIR...]\n"
                    "                  [-D NAME[=VALUE]...] [--performance-mode] "
                    "[--skip-disabled]\n");
}

int fxc_preset_main(int argc, char **argv)
{
    const char *preset_path = NULL;
    const char *dirs[64];
    size_t dir_count = 0;
    fxgl_preset_define defs[64];
    size_t def_count = 0;
    bool performance = false, skip = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--shaders") == 0 && next != NULL && dir_count < 64) {
            dirs[dir_count++] = argv[++i];
        } else if (strcmp(a, "-D") == 0 && next != NULL && def_count < 64) {
            char *d = argv[++i];
            char *eq = strchr(d, '=');
            if (eq != NULL) {
                *eq = '\0';
            }
            defs[def_count++] = (fxgl_preset_define){d, eq != NULL ? eq + 1 : ""};
        } else if (strcmp(a, "--performance-mode") == 0) {
            performance = true;
        } else if (strcmp(a, "--skip-disabled") == 0) {
            skip = true;
        } else if (a[0] != '-' && preset_path == NULL) {
            preset_path = a;
        } else {
            usage();
            return 2;
        }
    }
    if (preset_path == NULL || dir_count == 0) {
        usage();
        return 2;
    }
    fxgl_preset_sink sink = {.fn = on_diag};
    fxgl_preset *preset = fxgl_preset_create(&(fxgl_preset_desc){.path = preset_path,
                                                                 .sink = sink});
    fxgl_effects *effects = fxgl_effects_create(&(fxgl_effects_desc){
        .target = FXGL_GLSL_NONE,
        .include_paths = dirs,
        .include_path_count = dir_count,
        .defines = defs,
        .define_count = def_count,
        .performance_mode = performance,
        .skip_disabled = skip,
        .sink = {0}, // the preset's own warnings come once, from `preset` below
    });
    if (preset == NULL || effects == NULL || !fxgl_effects_set_preset(effects, preset_path)) {
        fprintf(stderr, "fxc: out of memory\n");
        return 2;
    }
    fx_item *items = NULL;
    size_t count = 0;
    for (size_t i = 0; i < dir_count; i++) {
        if (!list_effects(dirs[i], &items, &count)) {
            fprintf(stderr, "fxc: out of memory\n");
            return 2;
        }
    }
    if (count > 1) {
        qsort(items, count, sizeof(*items), by_path);
    }
    // Compile (front end only) every effect the runtime would compile.
    fxgl_preset_effect *pe = calloc(count + 1, sizeof(*pe));
    size_t *map = calloc(count + 1, sizeof(*map));
    size_t loaded = 0;
    for (size_t i = 0; pe != NULL && map != NULL && i < count; i++) {
        fx_item *it = &items[i];
        it->file = fxgl_effects_file_part(it->path);
        if (!fxgl_effects_wanted(effects, it->file)) {
            it->skipped = "no technique enabled (SkipLoadingDisabledEffects)";
            continue;
        }
        fxgl_diags diags;
        fxgl_diags_init(&diags);
        it->fx = fxgl_effects_compile(effects, it->path, &diags);
        if (it->fx == NULL) {
            it->skipped = "does not compile";
            for (size_t k = 0; k < diags.count; k++) {
                if (diags.items[k].severity == FXGL_DIAG_ERROR) {
                    char buf[1200];
                    fxgl_diag_format(&diags.items[k], buf, sizeof(buf));
                    fprintf(stderr, "%s\n", buf);
                    warnings++;
                    break; // the first error says enough here; fxc check says all
                }
            }
        }
        fxgl_diags_finish(&diags);
        if (it->fx != NULL && describe(it)) {
            pe[loaded] = it->pe;
            map[loaded++] = i;
        }
    }
    // Techniques, keys and values as the runtime would apply them (warnings: unknown
    // techniques, missing effect files, bad values, with the preset's file and line).
    fxgl_preset_apply(preset, pe, loaded);
    size_t total = 0;
    for (size_t k = 0; k < loaded; k++) {
        total += pe[k].technique_count;
    }
    fxgl_preset_technique_ref *order = calloc(total + 1, sizeof(*order));
    size_t n = order != NULL ? fxgl_preset_order(preset, NULL, 0, pe, loaded, order) : 0;

    printf("preset: %s%s\n", preset_path, performance ? " (performance mode)" : "");
    printf("effects: %zu found, %zu compiled\n", count, loaded);
    for (size_t i = 0; i < count; i++) {
        if (items[i].skipped != NULL) {
            printf("  skipped %s: %s\n", items[i].file, items[i].skipped);
        }
    }
    printf("runs, in order:\n");
    size_t running = 0;
    for (size_t i = 0; i < n; i++) {
        const fxgl_preset_technique *t = &pe[order[i].effect].techniques[order[i].technique];
        if (t->enabled) {
            printf("  %zu. %s@%s%s%s\n", ++running, t->name, pe[order[i].effect].file,
                   t->forced_on ? " (always on)" : "",
                   t->skip_in_screenshot ? " (not in screenshots)" : "");
        }
    }
    if (running == 0) {
        printf("  (nothing)\n");
    }
    // Values and definitions of the effects with something running.
    for (size_t k = 0; k < loaded; k++) {
        bool any = false;
        for (size_t t = 0; t < pe[k].technique_count; t++) {
            any |= pe[k].techniques[t].enabled;
        }
        if (!any) {
            continue;
        }
        printf("[%s]\n", pe[k].file);
        fxgl_preset_define_list list = {0};
        if (fxgl_effects_defines(effects, pe[k].file, &list) && list.count > 0) {
            printf("  definitions:");
            for (size_t d = 0; d < list.count; d++) {
                printf(" %s=%s", list.items[d].name, list.items[d].value);
            }
            printf("\n");
        }
        fxgl_preset_define_list_finish(&list);
        for (size_t u = 0; u < pe[k].uniform_count; u++) {
            const fxgl_preset_uniform *pu = &pe[k].uniforms[u];
            if (pu->special || pu->nosave) {
                continue;
            }
            printf("  %s=", pu->name);
            print_value(pu);
            bool from_preset = fxgl_ini_has(fxgl_preset_ini(preset), pe[k].file, pu->name);
            printf("%s\n", from_preset ? "" : "  (default)");
        }
    }
    for (size_t i = 0; i < count; i++) {
        free(items[i].pe.uniforms);
        free(items[i].pe.techniques);
        fxgl_effect_destroy(items[i].fx);
        free(items[i].path);
    }
    free(items);
    free(pe);
    free(map);
    free(order);
    fxgl_effects_destroy(effects);
    fxgl_preset_destroy(preset);
    if (warnings > 0) {
        fprintf(stderr, "fxc preset: %u warning%s\n", warnings, warnings == 1 ? "" : "s");
    }
    return warnings > 0 ? 1 : 0;
}
