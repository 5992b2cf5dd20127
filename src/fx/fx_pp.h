/*
 * fx_pp.h - the FX preprocessor (pp.c): ReShade FX source text in,
 * preprocessed text out, which the lexer then reads.
 *
 * The output is plain text, one source line per output line where the source
 * had tokens, comments gone, whitespace inside a line collapsed to one space
 * and no indentation. Where the file or the line continuity changes, a line
 *   #line N "file"      (file changed; backslashes and quotes escaped as \\ and \")
 *   #line N             (same file, a jump of more than a few lines)
 * tells the lexer where the next line came from. Up to PP_MAX_BLANK_LINES
 * empty lines are written instead of a marker. Passed-through pragmas
 * (`#pragma warning ...`, `#pragma reshade ...`) stay in the text as
 * `#pragma ...` lines of their own; the lexer skips them. The text always
 * ends with a newline (or is empty).
 */
#ifndef FX_PP_H
#define FX_PP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fx_base.h"

// A predefined macro. name may carry a parameter list ("F(a,b)"); value NULL
// or "" means an empty body. Parsed like the text of a #define line.
typedef struct fx_pp_define {
    const char *name;            // borrowed
    const char *value;           // borrowed; NULL or "" = empty body
} fx_pp_define;

typedef struct fx_pp_desc {
    const char *path;            // main file path as the user gave it (diagnostics, includes)
    const char *source;          // optional in-memory text of the main file; NULL: read path
    size_t source_len;           // bytes of source
    const char *const *include_paths; // searched in order after the including file's
                                 // directory; one ending in "**" (or "\\**") searches
                                 // that directory and all its subdirectories
    size_t include_path_count;
    const fx_pp_define *defines; // predefined macros (__RESHADE__, BUFFER_WIDTH, ...)
    size_t define_count;
    size_t output_limit;         // most output bytes; 0 means FX_LIMIT_OUTPUT_SIZE
} fx_pp_desc;

// Everything points into the context's arena.
typedef struct fx_pp_result {
    char *text;                  // the preprocessed text, NUL-terminated
    size_t len;                  // bytes of text, without the NUL
    const char **included_files; // every file read, main file first (live reload watching)
    size_t included_count;
    const char **pragmas;        // passed-through pragmas, text after "#pragma ", in order
    size_t pragma_count;
    const char **ifdef_names;    // names tested by an active #ifdef/#ifndef that were not
                                 // defined then or were predefined (the reference's
                                 // editable-definition candidates, before its name filter)
    size_t ifdef_count;
    size_t work_peak;            // bytes the preprocessor's own arena peaked at (it is
                                 // freed before fx_pp_run returns; see pp.c)
} fx_pp_result;

// Preprocesses desc's main file. Returns false when errors were reported
// (out is still filled with what was produced). The work is done in an arena
// of its own; only the results are copied into ctx's arena. Limits, out-of-memory and
// the error cap are fatal through ctx->fatal like every stage.
FX_INTERNAL bool fx_pp_run(fx_ctx *ctx, const fx_pp_desc *desc, fx_pp_result *out);

// The macros fxgl_effect_compile puts before the caller's (compile.c): the
// reference runtime's old names of the offset and gather intrinsics. Tools
// that run the preprocessor themselves add them to see what compile sees.
FX_INTERNAL const fx_pp_define *fx_pp_compat_macros(size_t *count);

// __APPLICATION__ the reference way: FNV-1a 64 of the executable's file stem
// (name without directory and last extension), low 32 bits.
FX_INTERNAL uint32_t fx_pp_application_hash(const char *exe_path);

// __RENDERER__ for an OpenGL context: 0x10000 | major << 12 | minor << 8.
FX_INTERNAL uint32_t fx_pp_renderer_gl(int major, int minor);

#endif // FX_PP_H
