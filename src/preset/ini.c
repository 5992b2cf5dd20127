/*
 * ini.c - INI documents with ReShade's rules: read through inih, written like the reference.
 *
 * The reference (ini_file.cpp) trims each line, skips empty lines and lines starting with
 * ';', '/' or '#', takes `[name]` up to the first ']' (trimming " \t[]"), splits `key=value`
 * at the first '=', appends repeated keys, keeps a line without '=' as a key without value,
 * splits values at single commas (",," is a literal comma) and skips one UTF-8 BOM.
 *
 * inih cannot be configured for these rules portably: its options are compile-time in
 * upstream builds and process-wide mutable variables in Debian's (a game may use inih too),
 * its default line limit (200 bytes) is far below a real TechniqueSorting line, and it
 * splits at ':' and cuts inline ';' comments. So our reader (ini_parse_stream's callback)
 * applies the line rules, tracks line numbers and sections, and hands inih one canonical
 * `key=value` line at a time, which every inih build splits exactly as the reference does.
 * A line inih could alter (non-ASCII, ':', ';', '#', or too long for its buffer) goes as a
 * short stand-in `k=` with the real key and value kept aside for the handler.
 *
 * Storage: keys in one array, found through an open-addressing hash on (section, key), so
 * a 16 MiB file of tiny keys parses in linear time. Removed keys stay as tombstones.
 */
#include "preset_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <limits.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define INI_WARNING_LIMIT 100 // per parse: a binary file must not flood the log

typedef struct ini_key {
    char *name;                  // owned
    uint32_t section;            // index into fxgl_ini.sections
    char **elements;             // owned array of owned strings
    size_t count;                // elements in use
    size_t capacity;             // elements allocated
    unsigned line;               // first line it was seen on, 0 = set in memory
    bool removed;                // tombstone: kept so hash slots stay valid
} ini_key;

typedef struct ini_section {
    char *name;                  // owned, "" for the global section
    uint32_t *keys;              // owned; indices into fxgl_ini.keys, first-seen order
    size_t key_count;
    size_t key_capacity;
} ini_section;

struct fxgl_ini {
    ini_section *sections;       // owned array, first-seen order
    size_t section_count;
    size_t section_capacity;
    ini_key *keys;               // owned array
    size_t key_count;
    size_t key_capacity;
    uint32_t *section_slots;     // owned hash: section index + 1, 0 = empty
    size_t section_slot_count;   // power of two
    uint32_t *key_slots;         // owned hash: key index + 1, 0 = empty
    size_t key_slot_count;       // power of two
    char *name;                  // owned; last file or name parsed
    preset_file_stamp stamp;     // the file as it was when loaded or saved
    bool load_failed;            // a load failed: saving could destroy unread content
};

// --- small helpers ---

char *preset_strndup(const char *s, size_t len) {
    char *copy = malloc(len + 1);
    if (copy != NULL) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    return copy;
}

char *preset_strdup(const char *s) {
    return preset_strndup(s, strlen(s));
}

int fxgl_preset_diag_format(const fxgl_preset_diag *diag, char *buf, size_t size) {
    const char *kind = diag->severity == FXGL_PRESET_ERROR ? "error" : "warning";
    const char *file = diag->file != NULL && diag->file[0] != '\0' ? diag->file : "<input>";
    if (diag->line != 0) {
        return snprintf(buf, size, "%s(%u): %s: %s", file, diag->line, kind, diag->message);
    }
    return snprintf(buf, size, "%s: %s: %s", file, kind, diag->message);
}

void preset_diagf(const fxgl_preset_sink *sink, fxgl_preset_severity severity,
                  const char *file, unsigned line, const char *fmt, ...) {
    if (sink == NULL || sink->fn == NULL) {
        return;
    }
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    fxgl_preset_diag diag = {
        .severity = severity,
        .file = file != NULL ? file : "",
        .line = line,
        .message = message,
    };
    sink->fn(sink->user, &diag);
}

// A "C" locale per call: the conversions are not on any hot path, and holding one would
// need global state.
static locale_t c_locale(void) {
    return newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

static bool only_space(const char *s) {
    while (*s == ' ' || *s == '\t') {
        s++;
    }
    return *s == '\0';
}

bool preset_parse_long(const char *text, long *out) {
    char *end;
    errno = 0;
    *out = strtol(text, &end, 10);
    return end != text && errno == 0 && only_space(end);
}

bool preset_parse_ulong(const char *text, unsigned long *out) {
    char *end;
    errno = 0;
    *out = strtoul(text, &end, 10);
    return end != text && errno == 0 && only_space(end);
}

bool preset_parse_float(const char *text, float *out) {
    locale_t loc = c_locale();
    char *end = (char *)text;
    double value = loc != (locale_t)0 ? strtod_l(text, &end, loc) : strtod(text, &end);
    if (loc != (locale_t)0) {
        freelocale(loc);
    }
    *out = (float)value;
    return end != text && only_space(end);
}

void preset_format_float(float value, char *buf, size_t size) {
    // std::to_string(float) is printf("%f") of the value promoted to double.
    locale_t loc = c_locale();
    locale_t old = loc != (locale_t)0 ? uselocale(loc) : (locale_t)0;
    snprintf(buf, size, "%f", (double)value);
    if (loc != (locale_t)0) {
        uselocale(old);
        freelocale(loc);
    }
}

static uint32_t hash_bytes(uint32_t h, const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    }
    return h;
}

static uint32_t hash_section(const char *name) {
    return hash_bytes(2166136261u, name, strlen(name));
}

static uint32_t hash_key(uint32_t section, const char *name) {
    uint32_t h = hash_bytes(2166136261u, (const char *)&section, sizeof(section));
    return hash_bytes(h, name, strlen(name));
}

static const char *section_or_global(const char *section) {
    return section != NULL ? section : "";
}

// --- lookup and creation ---

static bool find_section(const fxgl_ini *ini, const char *name, uint32_t *index) {
    if (ini->section_slot_count == 0) {
        return false;
    }
    size_t mask = ini->section_slot_count - 1;
    for (size_t i = hash_section(name) & mask;; i = (i + 1) & mask) {
        uint32_t slot = ini->section_slots[i];
        if (slot == 0) {
            return false;
        }
        if (strcmp(ini->sections[slot - 1].name, name) == 0) {
            *index = slot - 1;
            return true;
        }
    }
}

static ini_key *find_key(const fxgl_ini *ini, const char *section, const char *name) {
    uint32_t s;
    if (ini->key_slot_count == 0 || !find_section(ini, section_or_global(section), &s)) {
        return NULL;
    }
    size_t mask = ini->key_slot_count - 1;
    for (size_t i = hash_key(s, name) & mask;; i = (i + 1) & mask) {
        uint32_t slot = ini->key_slots[i];
        if (slot == 0) {
            return NULL;
        }
        ini_key *key = &ini->keys[slot - 1];
        if (key->section == s && strcmp(key->name, name) == 0) {
            return key;
        }
    }
}

static const ini_key *find_live_key(const fxgl_ini *ini, const char *section, const char *name) {
    const ini_key *key = find_key(ini, section, name);
    return key != NULL && !key->removed ? key : NULL;
}

// Rebuilds a hash table twice the size when it is half full.
static bool grow_slots(uint32_t **slots, size_t *slot_count, size_t used,
                       uint32_t (*hash_of)(const fxgl_ini *, uint32_t), const fxgl_ini *ini) {
    if ((used + 1) * 2 <= *slot_count) {
        return true;
    }
    size_t count = *slot_count != 0 ? *slot_count * 2 : 64;
    uint32_t *fresh = calloc(count, sizeof(*fresh));
    if (fresh == NULL) {
        return false;
    }
    for (uint32_t index = 0; index < used; index++) {
        size_t i = hash_of(ini, index) & (count - 1);
        while (fresh[i] != 0) {
            i = (i + 1) & (count - 1);
        }
        fresh[i] = index + 1;
    }
    free(*slots);
    *slots = fresh;
    *slot_count = count;
    return true;
}

static uint32_t section_hash_of(const fxgl_ini *ini, uint32_t index) {
    return hash_section(ini->sections[index].name);
}

static uint32_t key_hash_of(const fxgl_ini *ini, uint32_t index) {
    return hash_key(ini->keys[index].section, ini->keys[index].name);
}

static bool grow_array(void **items, size_t *capacity, size_t needed, size_t item_size) {
    if (needed <= *capacity) {
        return true;
    }
    size_t capacity_new = *capacity != 0 ? *capacity * 2 : 8;
    while (capacity_new < needed) {
        capacity_new *= 2;
    }
    void *fresh = realloc(*items, capacity_new * item_size);
    if (fresh == NULL) {
        return false;
    }
    *items = fresh;
    *capacity = capacity_new;
    return true;
}

static bool get_or_add_section(fxgl_ini *ini, const char *name, uint32_t *index) {
    if (find_section(ini, name, index)) {
        return true;
    }
    if (ini->section_count >= UINT32_MAX - 1 ||
        !grow_array((void **)&ini->sections, &ini->section_capacity, ini->section_count + 1,
                    sizeof(*ini->sections)) ||
        !grow_slots(&ini->section_slots, &ini->section_slot_count, ini->section_count,
                    section_hash_of, ini)) {
        return false;
    }
    char *copy = preset_strdup(name);
    if (copy == NULL) {
        return false;
    }
    *index = (uint32_t)ini->section_count;
    ini->sections[ini->section_count++] = (ini_section){.name = copy};
    size_t mask = ini->section_slot_count - 1;
    size_t i = hash_section(name) & mask;
    while (ini->section_slots[i] != 0) {
        i = (i + 1) & mask;
    }
    ini->section_slots[i] = *index + 1;
    return true;
}

// Finds or adds a key; *added tells whether it is new (or revived from a tombstone).
static ini_key *get_or_add_key(fxgl_ini *ini, const char *section, const char *name,
                               unsigned line, bool *added) {
    uint32_t s;
    if (!get_or_add_section(ini, section_or_global(section), &s)) {
        return NULL;
    }
    ini_key *key = find_key(ini, section, name);
    if (key != NULL) {
        *added = key->removed;
        if (key->removed) {
            key->removed = false;
            key->count = 0;
            key->line = line;
        }
        return key;
    }
    ini_section *sec = &ini->sections[s];
    if (ini->key_count >= UINT32_MAX - 1 ||
        !grow_array((void **)&ini->keys, &ini->key_capacity, ini->key_count + 1,
                    sizeof(*ini->keys)) ||
        !grow_array((void **)&sec->keys, &sec->key_capacity, sec->key_count + 1,
                    sizeof(*sec->keys)) ||
        !grow_slots(&ini->key_slots, &ini->key_slot_count, ini->key_count, key_hash_of, ini)) {
        return NULL;
    }
    char *copy = preset_strdup(name);
    if (copy == NULL) {
        return NULL;
    }
    uint32_t index = (uint32_t)ini->key_count++;
    ini->keys[index] = (ini_key){.name = copy, .section = s, .line = line};
    sec->keys[sec->key_count++] = index;
    size_t mask = ini->key_slot_count - 1;
    size_t i = hash_key(s, name) & mask;
    while (ini->key_slots[i] != 0) {
        i = (i + 1) & mask;
    }
    ini->key_slots[i] = index + 1;
    *added = true;
    return &ini->keys[index];
}

static bool append_element(ini_key *key, const char *text, size_t len) {
    if (!grow_array((void **)&key->elements, &key->capacity, key->count + 1,
                    sizeof(*key->elements))) {
        return false;
    }
    char *copy = preset_strndup(text, len);
    if (copy == NULL) {
        return false;
    }
    key->elements[key->count++] = copy;
    return true;
}

static void clear_elements(ini_key *key) {
    for (size_t i = 0; i < key->count; i++) {
        free(key->elements[i]);
    }
    key->count = 0;
}

// Splits a value into elements exactly like the reference: at single commas, ",," being a
// literal comma; "a," gives "a" and "", "a,,,b" gives "a," and "b".
static bool append_value(ini_key *key, const char *value, size_t len) {
    char *element = malloc(len + 1);
    if (element == NULL) {
        return false;
    }
    size_t offset = 0;
    size_t base = 0;
    bool ok = true;
    while (ok && offset <= len) {
        const char *comma = memchr(value + offset, ',', len - offset);
        size_t found = comma != NULL ? (size_t)(comma - value) : len;
        if (found + 1 < len && value[found + 1] == ',') {
            offset = found + 2;
            continue;
        }
        size_t n = 0;
        while (base < found) {
            char c = value[base++];
            element[n++] = c;
            if (c == ',' && base < found && value[base] == ',') {
                base++;
            }
        }
        ok = append_element(key, element, n);
        offset = base = found + 1;
    }
    free(element);
    return ok;
}

// --- public lookups ---

fxgl_ini *fxgl_ini_create(void) {
    return calloc(1, sizeof(fxgl_ini));
}

void fxgl_ini_destroy(fxgl_ini *ini) {
    if (ini == NULL) {
        return;
    }
    for (size_t i = 0; i < ini->key_count; i++) {
        clear_elements(&ini->keys[i]);
        free(ini->keys[i].elements);
        free(ini->keys[i].name);
    }
    for (size_t i = 0; i < ini->section_count; i++) {
        free(ini->sections[i].keys);
        free(ini->sections[i].name);
    }
    free(ini->keys);
    free(ini->sections);
    free(ini->key_slots);
    free(ini->section_slots);
    free(ini->name);
    free(ini);
}

bool fxgl_ini_has(const fxgl_ini *ini, const char *section, const char *key) {
    return find_live_key(ini, section, key) != NULL;
}

const char *const *fxgl_ini_get(const fxgl_ini *ini, const char *section, const char *key,
                                size_t *count) {
    static const char *const no_elements[1] = {NULL};
    const ini_key *k = find_live_key(ini, section, key);
    if (count != NULL) {
        *count = k != NULL ? k->count : 0;
    }
    if (k == NULL) {
        return NULL;
    }
    // A key without elements still exists; hand back a valid empty array for it.
    return k->count != 0 ? (const char *const *)k->elements : no_elements;
}

const char *fxgl_ini_get_string(const fxgl_ini *ini, const char *section, const char *key,
                                size_t index) {
    const ini_key *k = find_live_key(ini, section, key);
    return k != NULL && index < k->count ? k->elements[index] : "";
}

long fxgl_ini_get_int(const fxgl_ini *ini, const char *section, const char *key, size_t index) {
    long value;
    preset_parse_long(fxgl_ini_get_string(ini, section, key, index), &value);
    return value;
}

bool fxgl_ini_get_bool(const fxgl_ini *ini, const char *section, const char *key, size_t index) {
    const char *text = fxgl_ini_get_string(ini, section, key, index);
    long value;
    preset_parse_long(text, &value);
    return value != 0 || strcmp(text, "true") == 0 || strcmp(text, "True") == 0 ||
           strcmp(text, "TRUE") == 0;
}

unsigned fxgl_ini_line(const fxgl_ini *ini, const char *section, const char *key) {
    const ini_key *k = find_live_key(ini, section, key);
    return k != NULL ? k->line : 0;
}

const char *fxgl_ini_name(const fxgl_ini *ini) {
    return ini->name != NULL ? ini->name : "";
}

size_t fxgl_ini_section_count(const fxgl_ini *ini) {
    return ini->section_count;
}

const char *fxgl_ini_section_name(const fxgl_ini *ini, size_t index) {
    return index < ini->section_count ? ini->sections[index].name : NULL;
}

static const ini_key *nth_live_key(const fxgl_ini *ini, const char *section, size_t index,
                                   size_t *live) {
    uint32_t s;
    *live = 0;
    if (!find_section(ini, section_or_global(section), &s)) {
        return NULL;
    }
    const ini_section *sec = &ini->sections[s];
    for (size_t i = 0; i < sec->key_count; i++) {
        const ini_key *key = &ini->keys[sec->keys[i]];
        if (key->removed) {
            continue;
        }
        if ((*live)++ == index) {
            return key;
        }
    }
    return NULL;
}

size_t fxgl_ini_key_count(const fxgl_ini *ini, const char *section) {
    size_t live;
    nth_live_key(ini, section, SIZE_MAX, &live);
    return live;
}

const char *fxgl_ini_key_name(const fxgl_ini *ini, const char *section, size_t index) {
    size_t live;
    const ini_key *key = nth_live_key(ini, section, index, &live);
    return key != NULL ? key->name : NULL;
}

// --- setters ---

bool fxgl_ini_set(fxgl_ini *ini, const char *section, const char *key,
                  const char *const *elements, size_t count) {
    bool added;
    ini_key *k = get_or_add_key(ini, section, key, 0, &added);
    if (k == NULL) {
        return false;
    }
    clear_elements(k);
    for (size_t i = 0; i < count; i++) {
        if (!append_element(k, elements[i], strlen(elements[i]))) {
            return false;
        }
    }
    return true;
}

bool fxgl_ini_set_string(fxgl_ini *ini, const char *section, const char *key,
                         const char *value) {
    return fxgl_ini_set(ini, section, key, &value, 1);
}

// Formats count numbers into one buffer of 32-byte cells and sets them.
static bool set_formatted(fxgl_ini *ini, const char *section, const char *key, size_t count,
                          void (*format)(const void *values, size_t i, char *cell),
                          const void *values) {
    enum { CELL = 32 };
    char *cells = malloc(count * CELL + 1);
    const char **elements = malloc((count + 1) * sizeof(*elements));
    bool ok = cells != NULL && elements != NULL;
    for (size_t i = 0; ok && i < count; i++) {
        format(values, i, cells + i * CELL);
        elements[i] = cells + i * CELL;
    }
    ok = ok && fxgl_ini_set(ini, section, key, elements, count);
    free(elements);
    free(cells);
    return ok;
}

static void format_int(const void *values, size_t i, char *cell) {
    snprintf(cell, 32, "%d", (int)((const int32_t *)values)[i]);
}

static void format_uint(const void *values, size_t i, char *cell) {
    snprintf(cell, 32, "%u", (unsigned)((const uint32_t *)values)[i]);
}

static void format_float(const void *values, size_t i, char *cell) {
    // A float below -1e21 or above would not fit 32 bytes with %f: clamp the text, not the
    // value, so the writer never overruns.
    float v = ((const float *)values)[i];
    char buf[64];
    preset_format_float(v, buf, sizeof(buf));
    snprintf(cell, 32, "%.31s", buf);
}

bool fxgl_ini_set_ints(fxgl_ini *ini, const char *section, const char *key,
                       const int32_t *values, size_t count) {
    return set_formatted(ini, section, key, count, format_int, values);
}

bool fxgl_ini_set_uints(fxgl_ini *ini, const char *section, const char *key,
                        const uint32_t *values, size_t count) {
    return set_formatted(ini, section, key, count, format_uint, values);
}

bool fxgl_ini_set_floats(fxgl_ini *ini, const char *section, const char *key,
                         const float *values, size_t count) {
    return set_formatted(ini, section, key, count, format_float, values);
}

bool fxgl_ini_set_bool(fxgl_ini *ini, const char *section, const char *key, bool value) {
    return fxgl_ini_set_string(ini, section, key, value ? "1" : "0");
}

void fxgl_ini_remove(fxgl_ini *ini, const char *section, const char *key) {
    ini_key *k = find_key(ini, section, key);
    if (k != NULL) {
        clear_elements(k);
        k->removed = true;
    }
}

// --- parsing ---

typedef struct parse_ctx {
    fxgl_ini *ini;               // document being filled
    const fxgl_preset_sink *sink; // warnings
    const char *name;            // for diagnostics
    const char *pos;             // next unread byte
    const char *end;             // end of the text
    unsigned line;               // number of the line last read
    char *section;               // owned; current section name
    const char *key;             // the key/value of the line handed to inih, kept aside
    size_t key_len;
    const char *value;
    size_t value_len;
    bool has_equals;             // the line had a '=' (else: a key without value)
    bool stand_in;               // inih got `k=`, the real key and value are above
    bool pending;                // a line was handed to inih and not yet seen by handler
    unsigned warnings;           // sent so far
    bool oom;                    // out of memory: stop
} parse_ctx;

static void warn(parse_ctx *ctx, const char *fmt, const char *arg) {
    if (ctx->warnings == INI_WARNING_LIMIT) {
        preset_diagf(ctx->sink, FXGL_PRESET_WARNING, ctx->name, ctx->line,
                     "too many warnings (limit is %d)", INI_WARNING_LIMIT);
    }
    if (ctx->warnings++ < INI_WARNING_LIMIT) {
        preset_diagf(ctx->sink, FXGL_PRESET_WARNING, ctx->name, ctx->line, fmt, arg);
    }
}

static void trim(const char **s, size_t *len, const char *chars) {
    while (*len > 0 && strchr(chars, (*s)[0]) != NULL) {
        (*s)++;
        (*len)--;
    }
    while (*len > 0 && strchr(chars, (*s)[*len - 1]) != NULL) {
        (*len)--;
    }
}

static bool valid_utf8(const unsigned char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t extra;
        uint32_t cp;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= len) {
            return false;
        }
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                return false;
            }
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((extra == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF))) {
            return false;
        }
        i += extra + 1;
    }
    return true;
}

// Adds one key line to the document with the reference's semantics: a non-empty value
// appends elements; an empty value or no '=' only makes sure the key exists.
static void add_line(parse_ctx *ctx, const char *key, size_t key_len, const char *value,
                     size_t value_len) {
    char *name = preset_strndup(key, key_len);
    bool added;
    ini_key *k = name != NULL ? get_or_add_key(ctx->ini, ctx->section, name, ctx->line, &added)
                              : NULL;
    free(name);
    if (k == NULL || (value_len != 0 && !append_value(k, value, value_len))) {
        ctx->oom = true;
    }
}

// Lines inih passes through unchanged under every build configuration.
static bool inih_safe(const char *s, size_t len, int room) {
    if (len + 3 > (size_t)room) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7F || c == ':' || c == ';' || c == '#') {
            return false;
        }
    }
    return true;
}

// ini_reader: applies ReShade's line rules and hands inih the next key line.
static char *read_line(char *buf, int num, void *stream) {
    parse_ctx *ctx = stream;
    if (ctx->pending) {
        // inih skipped the line we gave it (some build rejected it): add it ourselves.
        ctx->pending = false;
        add_line(ctx, ctx->key, ctx->key_len, ctx->value, ctx->value_len);
    }
    while (!ctx->oom && ctx->pos < ctx->end) {
        const char *start = ctx->pos;
        const char *nl = memchr(start, '\n', (size_t)(ctx->end - start));
        size_t len = nl != NULL ? (size_t)(nl - start) : (size_t)(ctx->end - start);
        ctx->pos = nl != NULL ? nl + 1 : ctx->end;
        ctx->line++;
        if (ctx->line == 1 && len >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0) {
            start += 3;
            len -= 3;
        }
        if (len > 0 && start[len - 1] == '\r') {
            len--; // files from Windows: the reference reads them in text mode
        }
        trim(&start, &len, " \t");
        if (len == 0 || start[0] == ';' || start[0] == '/' || start[0] == '#') {
            continue;
        }
        if (!valid_utf8((const unsigned char *)start, len)) {
            warn(ctx, "line is not valid UTF-8 (kept as it is)%s", "");
        }
        if (start[0] == '[') {
            const char *close = memchr(start, ']', len);
            size_t name_len = close != NULL ? (size_t)(close - start) : len;
            const char *name = start;
            trim(&name, &name_len, " \t[]");
            char *copy = preset_strndup(name, name_len);
            if (copy == NULL) {
                ctx->oom = true;
                break;
            }
            if (close == NULL) {
                warn(ctx, "section header without ']': read as '[%s]'", copy);
            }
            free(ctx->section);
            ctx->section = copy;
            continue;
        }
        const char *eq = memchr(start, '=', len);
        ctx->key = start;
        ctx->key_len = eq != NULL ? (size_t)(eq - start) : len;
        ctx->value = eq != NULL ? eq + 1 : start + len;
        ctx->value_len = eq != NULL ? len - (size_t)(eq + 1 - start) : 0;
        ctx->has_equals = eq != NULL;
        trim(&ctx->key, &ctx->key_len, " \t");
        trim(&ctx->value, &ctx->value_len, " \t");
        if (!ctx->has_equals) {
            warn(ctx, "line has no '=': kept as a key without value%s", "");
        }
        // The canonical line (key '=' value) is built in buf, not read from the
        // text: only its length matters (a key without '=' may end the text).
        size_t canon_len = ctx->key_len + 1 + ctx->value_len;
        ctx->stand_in = ctx->key_len == 0 || !inih_safe(ctx->key, ctx->key_len, num) ||
                        !inih_safe(ctx->value, ctx->value_len, num) ||
                        canon_len + 3 > (size_t)num;
        if (ctx->stand_in) {
            memcpy(buf, "k=\n", 4);
        } else {
            memcpy(buf, ctx->key, ctx->key_len);
            buf[ctx->key_len] = '=';
            memcpy(buf + ctx->key_len + 1, ctx->value, ctx->value_len);
            memcpy(buf + canon_len, "\n", 2);
        }
        ctx->pending = true;
        return buf;
    }
    return NULL;
}

static int handle_pair(void *user, const char *section, const char *name, const char *value) {
    parse_ctx *ctx = user;
    (void)section; // sections are tracked by read_line: inih never sees a header
    if (name == NULL || !ctx->pending) {
        return 1; // a new-section callback (INI_CALL_HANDLER_ON_NEW_SECTION builds)
    }
    ctx->pending = false;
    if (ctx->stand_in) {
        add_line(ctx, ctx->key, ctx->key_len, ctx->value, ctx->value_len);
    } else {
        add_line(ctx, name, strlen(name), value != NULL ? value : "",
                 value != NULL ? strlen(value) : 0);
    }
    return ctx->oom ? 0 : 1;
}

bool fxgl_ini_parse(fxgl_ini *ini, const char *text, size_t len, const char *name,
                    const fxgl_preset_sink *sink) {
    if (name != NULL) {
        char *copy = preset_strdup(name);
        if (copy == NULL) {
            return false;
        }
        free(ini->name);
        ini->name = copy;
    }
    if (len > FXGL_INI_MAX_FILE_SIZE) {
        preset_diagf(sink, FXGL_PRESET_ERROR, name, 0,
                     "file is too big (%zu bytes, limit is %u)", len, FXGL_INI_MAX_FILE_SIZE);
        return false;
    }
    parse_ctx ctx = {
        .ini = ini,
        .sink = sink,
        .name = name,
        .pos = text,
        .end = text + len,
        .section = preset_strdup(""),
    };
    if (ctx.section == NULL) {
        return false;
    }
    ini_parse_stream(read_line, &ctx, handle_pair, &ctx);
    if (ctx.pending && !ctx.oom) {
        ctx.pending = false;
        add_line(&ctx, ctx.key, ctx.key_len, ctx.value, ctx.value_len);
    }
    free(ctx.section);
    return !ctx.oom;
}

// --- files ---

preset_file_stamp preset_stamp_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        return (preset_file_stamp){.exists = false};
    }
    return (preset_file_stamp){
        .exists = true,
        .dev = st.st_dev,
        .ino = st.st_ino,
        .size = st.st_size,
        .mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec,
    };
}

bool preset_stamp_equal(const preset_file_stamp *a, const preset_file_stamp *b) {
    if (!a->exists || !b->exists) {
        return a->exists == b->exists;
    }
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime_ns == b->mtime_ns;
}

preset_file_stamp preset_ini_stamp(const fxgl_ini *ini) {
    return ini->stamp;
}

bool preset_ini_load_failed(const fxgl_ini *ini) {
    return ini->load_failed;
}

fxgl_ini_status fxgl_ini_load(fxgl_ini *ini, const char *path, const fxgl_preset_sink *sink) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) {
            ini->stamp = (preset_file_stamp){.exists = false};
            return FXGL_INI_MISSING;
        }
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "cannot open: %s", strerror(errno));
        ini->load_failed = true;
        return FXGL_INI_FAILED;
    }
    fxgl_ini_status status = FXGL_INI_FAILED;
    char *text = NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "not a regular file");
        goto done;
    }
    // Read up to one byte past the limit, so a file that grew since fstat is still caught.
    size_t cap = FXGL_INI_MAX_FILE_SIZE + 1;
    size_t want = (size_t)st.st_size < cap ? (size_t)st.st_size + 1 : cap;
    text = malloc(want);
    if (text == NULL) {
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "out of memory");
        goto done;
    }
    size_t len = 0;
    while (len < want) {
        ssize_t n = read(fd, text + len, want - len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "cannot read: %s", strerror(errno));
            goto done;
        }
        if (n == 0) {
            break;
        }
        len += (size_t)n;
    }
    if (len > FXGL_INI_MAX_FILE_SIZE) {
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "file is too big (limit is %u bytes)",
                     FXGL_INI_MAX_FILE_SIZE);
        goto done;
    }
    if (fxgl_ini_parse(ini, text, len, path, sink)) {
        status = FXGL_INI_OK;
        ini->stamp = preset_stamp_path(path);
    }
done:
    free(text);
    close(fd);
    if (status != FXGL_INI_OK) {
        ini->load_failed = true;
    }
    return status;
}

// --- writing ---

typedef struct sort_item {
    const char *name;            // borrowed
    uint32_t index;              // section or key index
} sort_item;

// The reference compares upper-cased std::strings; ties (names differing only in case)
// fall back to the bytes so the output never depends on qsort.
static int compare_upper(const void *a, const void *b) {
    const unsigned char *x = (const unsigned char *)((const sort_item *)a)->name;
    const unsigned char *y = (const unsigned char *)((const sort_item *)b)->name;
    for (size_t i = 0;; i++) {
        int cx = x[i] >= 'a' && x[i] <= 'z' ? x[i] - 32 : x[i];
        int cy = y[i] >= 'a' && y[i] <= 'z' ? y[i] - 32 : y[i];
        if (cx != cy) {
            return cx - cy;
        }
        if (x[i] == '\0') {
            break;
        }
    }
    return strcmp((const char *)x, (const char *)y);
}

typedef struct out_buf {
    char *data;                  // owned
    size_t len;
    size_t capacity;
    bool oom;
} out_buf;

static void put(out_buf *out, const char *s, size_t len) {
    if (out->oom || !grow_array((void **)&out->data, &out->capacity, out->len + len + 1, 1)) {
        out->oom = true;
        return;
    }
    memcpy(out->data + out->len, s, len);
    out->len += len;
    out->data[out->len] = '\0';
}

static void put_str(out_buf *out, const char *s) {
    put(out, s, strlen(s));
}

static void write_key(out_buf *out, const ini_key *key) {
    put_str(out, key->name);
    put(out, "=", 1);
    bool first = true;
    for (size_t i = 0; i < key->count; i++) {
        const char *element = key->elements[i];
        if (element[0] == '\0') {
            continue; // the reference skips empty elements: they would mangle ",," escapes
        }
        if (!first) {
            put(out, ",", 1);
        }
        first = false;
        for (const char *c = element; *c != '\0'; c++) {
            put(out, c, 1);
            if (*c == ',') {
                put(out, ",", 1); // ",," reads back as one literal comma
            }
        }
    }
    put(out, "\n", 1);
}

char *fxgl_ini_write(const fxgl_ini *ini, size_t *len) {
    out_buf out = {0};
    sort_item *sections = malloc((ini->section_count + 1) * sizeof(*sections));
    sort_item *keys = malloc((ini->key_count + 1) * sizeof(*keys));
    if (sections == NULL || keys == NULL) {
        out.oom = true;
        goto done;
    }
    for (uint32_t i = 0; i < ini->section_count; i++) {
        sections[i] = (sort_item){.name = ini->sections[i].name, .index = i};
    }
    qsort(sections, ini->section_count, sizeof(*sections), compare_upper);
    put(&out, "", 0); // an empty document is "", not NULL
    for (size_t s = 0; s < ini->section_count; s++) {
        const ini_section *sec = &ini->sections[sections[s].index];
        size_t live = 0;
        for (size_t k = 0; k < sec->key_count; k++) {
            const ini_key *key = &ini->keys[sec->keys[k]];
            if (!key->removed) {
                keys[live++] = (sort_item){.name = key->name, .index = sec->keys[k]};
            }
        }
        if (live == 0) {
            continue; // the reference writes no empty sections
        }
        qsort(keys, live, sizeof(*keys), compare_upper);
        if (sec->name[0] != '\0') {
            put(&out, "[", 1);
            put_str(&out, sec->name);
            put(&out, "]\n", 2);
        }
        for (size_t k = 0; k < live; k++) {
            write_key(&out, &ini->keys[keys[k].index]);
        }
        put(&out, "\n", 1);
    }
done:
    free(sections);
    free(keys);
    if (out.oom) {
        free(out.data);
        return NULL;
    }
    if (len != NULL) {
        *len = out.len;
    }
    return out.data;
}

static int real_open(const char *path, int flags, mode_t mode) {
    return open(path, flags, mode);
}

static const preset_ini_io real_io = {
    .open = real_open,
    .write = write,
    .fsync = fsync,
    .rename = rename,
};

bool fxgl_ini_save(fxgl_ini *ini, const char *path, const fxgl_preset_sink *sink) {
    return preset_ini_save_with(ini, path, sink, &real_io);
}

static bool write_all(const preset_ini_io *io, int fd, const char *data, size_t len) {
    while (len > 0) {
        ssize_t n = io->write(fd, data, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            if (n == 0) {
                errno = EIO;
            }
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

bool preset_ini_save_with(fxgl_ini *ini, const char *path, const fxgl_preset_sink *sink,
                          const preset_ini_io *io) {
    if (ini->load_failed) {
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0,
                     "not saved: the file could not be read, so saving could lose its content");
        return false;
    }
    size_t len;
    char *text = fxgl_ini_write(ini, &len);
    // Replace the target of a symlink, not the link. A missing file has no real path yet.
    char *real = realpath(path, NULL);
    const char *target = real != NULL ? real : path;
    size_t target_len = strlen(target);
    char *tmp = malloc(target_len + 64);
    bool ok = false;
    int fd = -1;
    if (text == NULL || tmp == NULL) {
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "not saved: out of memory");
        goto done;
    }
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash != NULL ? (size_t)(slash - target) + 1 : 0;
    struct stat old;
    bool had_old = stat(target, &old) == 0;
    // O_EXCL with a few names: a crashed earlier save may have left its temporary behind.
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        snprintf(tmp, target_len + 64, "%.*s.%s.%ld-%d.tmp", (int)dir_len, target,
                 target + dir_len, (long)getpid(), attempt);
        fd = io->open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) {
            break;
        }
    }
    if (fd < 0) {
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "not saved: cannot create '%s': %s",
                     tmp, strerror(errno));
        goto done;
    }
    if (had_old) {
        (void)fchmod(fd, old.st_mode & 07777); // keep the user's permissions
    }
    if (!write_all(io, fd, text, len) || io->fsync(fd) != 0) {
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "not saved: cannot write '%s': %s",
                     tmp, strerror(errno));
        goto unlink_tmp;
    }
    if (close(fd) != 0) {
        fd = -1;
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "not saved: cannot write '%s': %s",
                     tmp, strerror(errno));
        goto unlink_tmp;
    }
    fd = -1;
    if (io->rename(tmp, target) != 0) {
        preset_diagf(sink, FXGL_PRESET_ERROR, path, 0, "not saved: cannot replace it: %s",
                     strerror(errno));
        goto unlink_tmp;
    }
    // Make the rename itself durable; failing here loses nothing, so it is not an error.
    char *dir = preset_strndup(target, dir_len != 0 ? dir_len : 1);
    if (dir != NULL) {
        if (dir_len == 0) {
            dir[0] = '.';
        }
        int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir_fd >= 0) {
            (void)fsync(dir_fd);
            close(dir_fd);
        }
        free(dir);
    }
    ini->stamp = preset_stamp_path(target);
    ok = true;
    goto done;
unlink_tmp:
    if (fd >= 0) {
        close(fd);
    }
    fd = -1;
    unlink(tmp);
done:
    if (fd >= 0) {
        close(fd);
    }
    free(tmp);
    free(real);
    free(text);
    return ok;
}
