/*
 * vk_image.h - source images for the Vulkan runtime (image.c), internal.
 */
#ifndef VK_IMAGE_H
#define VK_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fxgl_fx.h"

// The pixels of t's source (width x height texels of t's format, rows top
// first; malloc'd), found next to the effect, then in dirs; NULL with
// reason when missing or not loadable.
uint8_t *vk_image_load(const char *effect_path, const char *const *dirs, size_t dir_count,
                       const fxgl_texture *t, char *reason, size_t reason_size);

#endif // VK_IMAGE_H
