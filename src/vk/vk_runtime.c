/*
 * vk_runtime.c - the headless Vulkan runtime over fxgl's effect modules
 * (fxgl_vk.h).
 *
 * Load does everything heavy: images (all kept in the GENERAL layout, so a
 * change of use between two reads needs no transition and the graph's
 * read/read pairs stay free), samplers, SPIR-V, one descriptor set layout
 * and pipeline layout per effect (the set 0 layout of the vk450 contract),
 * one render pass, framebuffer, pipeline and descriptor set per pass. Then
 * the frame's commands become graph nodes once, in the order the GL runtime
 * issues them (copy in, uniform updates, COLOR refreshes, passes, mips, copy
 * out); the graph orders them and places the barriers. A frame records that
 * order, submits and waits (a headless tool has nothing else to do).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>

#include "fxgl_graph.h"
#include "fxgl_vk.h"
#include "fxgl_backend.h"

#define VKR_MAX_EFFECTS 32

enum { RES_BB, RES_COLOR, RES_STAGE_IN, RES_STAGE_OUT, RES_ZERO, RES_STENCIL, RES_FIRST_FREE };

typedef struct vkr_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;            // every level, UNORM (or the format itself)
    VkImageView srgb_view;       // RGBA8 only: every level as sRGB, else VK_NULL_HANDLE
    VkImageView attach_view;     // level 0 (render target)
    VkImageView attach_srgb;     // level 0 as sRGB (SRGBWriteEnable)
    VkImageView *level_views;    // one per level where storage works, else NULL
    VkFormat format;
    fxgl_format fx_format;
    int width, height, levels;
    bool storage;                // created with STORAGE usage
    bool integer;
    int resource;                // graph resource id
} vkr_image;

typedef enum vkr_op_kind {
    OP_COPY_IN, OP_UBO, OP_REFRESH, OP_PASS, OP_MIP, OP_COPY_OUT,
} vkr_op_kind;

typedef struct vkr_op {
    vkr_op_kind kind;
    int effect;                  // OP_UBO, OP_PASS, OP_MIP
    int pass;                    // OP_PASS: index into the effect's passes
    int image;                   // OP_MIP: texture index in the effect (-1: COLOR is not mipped)
    int level;                   // OP_MIP: level written
} vkr_op;

typedef struct vkr_pass {
    const fxgl_pass *fp;
    size_t technique, index;
    bool compute;
    bool to_back_buffer;
    VkRenderPass render_pass;
    VkFramebuffer framebuffer;
    VkPipeline pipeline;
    VkDescriptorSet set;
    uint32_t width, height;
    uint32_t attachments;        // colour attachments
    bool stencil;                // the runtime's stencil is attached and tested
    bool stencil_clear;          // the technique's first stencil pass: it starts from 0
    double gpu_ms;
    uint32_t query;              // first of its two timestamps
} vkr_pass;

typedef struct vkr_effect {
    const fxgl_effect *fx;
    vkr_image *images;           // per texture; .image NULL for semantic textures
    VkSampler *samplers;
    VkBuffer ubo;
    VkDeviceMemory ubo_memory;
    uint8_t *shadow;             // the uniform block's CPU copy
    float (*pingpong)[2];        // per uniform: a pingpong's value and direction
    fxgl_special_params *params; // per uniform: its special's annotations
    int ubo_resource;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    vkr_pass *passes;
    size_t pass_count;
    bool failed;
} vkr_effect;

typedef struct vkr_mip_pipeline {
    VkFormat format;
    VkPipeline pipeline;
} vkr_mip_pipeline;

struct fxgl_vk_runtime {
    fxgl_vk_desc desc;
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkPhysicalDeviceMemoryProperties memory_props;
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    float timestamp_period;      // ns per tick, 0: no timestamps
    VkCommandPool cmd_pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries;
    uint32_t query_count;
    uint64_t *stamps;            // query_count results (allocated at load, not per frame)

    vkr_image back_buffer, color, zero;
    // The runtime's stencil (back-buffer size), as the GL runtime's: attached to
    // passes that enable stencil and whose viewport is the back buffer's size.
    VkImage stencil;
    VkDeviceMemory stencil_memory;
    VkImageView stencil_view;
    VkFormat stencil_format;
    VkImageAspectFlags stencil_aspects;
    VkBuffer stage_in, stage_out;
    VkDeviceMemory stage_in_mem, stage_out_mem;
    void *stage_in_map, *stage_out_map;

    // mip generation (the GL runtime's box filter, as compute)
    VkDescriptorSetLayout mip_set_layout;
    VkPipelineLayout mip_layout;
    VkDescriptorPool mip_pool;
    VkSampler nearest;
    vkr_mip_pipeline mip_pipelines[8];
    int mip_pipeline_count;
    VkDescriptorSet *mip_sets;   // per OP_MIP op (indexed by op)

    vkr_effect effects[VKR_MAX_EFFECTS];
    int effect_count;
    int next_resource;

    vkr_op *ops;
    size_t op_count;
    fxgl_graph *graph;
    bool dirty;                  // ops and graph to rebuild

    uint64_t frame_count;
    double start_time, last_time, frame_ms;
    uint32_t random_state;
    fxgl_vk_stats stats;
};

// --- small helpers ---

static void logf_(fxgl_vk_runtime *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(fxgl_vk_runtime *rt, const char *fmt, ...) {
    if (!rt->desc.log) {
        return;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    rt->desc.log(rt->desc.user, msg);
}

static void fail(char *why, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(char *why, size_t size, const char *fmt, ...) {
    if (!why || !size) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int memory_type(fxgl_vk_runtime *rt, uint32_t bits, VkMemoryPropertyFlags want) {
    for (uint32_t i = 0; i < rt->memory_props.memoryTypeCount; i++) {
        if ((bits & (1u << i)) &&
            (rt->memory_props.memoryTypes[i].propertyFlags & want) == want) {
            return (int)i;
        }
    }
    return -1;
}

static VkFormat vk_format(fxgl_format f) {
    switch (f) {
    case FXGL_FORMAT_R8: return VK_FORMAT_R8_UNORM;
    case FXGL_FORMAT_R16: return VK_FORMAT_R16_UNORM;
    case FXGL_FORMAT_R16F: return VK_FORMAT_R16_SFLOAT;
    case FXGL_FORMAT_R32I: return VK_FORMAT_R32_SINT;
    case FXGL_FORMAT_R32U: return VK_FORMAT_R32_UINT;
    case FXGL_FORMAT_R32F: return VK_FORMAT_R32_SFLOAT;
    case FXGL_FORMAT_RG8: return VK_FORMAT_R8G8_UNORM;
    case FXGL_FORMAT_RG16: return VK_FORMAT_R16G16_UNORM;
    case FXGL_FORMAT_RG16F: return VK_FORMAT_R16G16_SFLOAT;
    case FXGL_FORMAT_RG32F: return VK_FORMAT_R32G32_SFLOAT;
    case FXGL_FORMAT_RGBA8: return VK_FORMAT_R8G8B8A8_UNORM;
    case FXGL_FORMAT_RGBA16: return VK_FORMAT_R16G16B16A16_UNORM;
    case FXGL_FORMAT_RGBA16F: return VK_FORMAT_R16G16B16A16_SFLOAT;
    case FXGL_FORMAT_RGBA32I: return VK_FORMAT_R32G32B32A32_SINT;
    case FXGL_FORMAT_RGBA32U: return VK_FORMAT_R32G32B32A32_UINT;
    case FXGL_FORMAT_RGBA32F: return VK_FORMAT_R32G32B32A32_SFLOAT;
    case FXGL_FORMAT_RGB10A2: return VK_FORMAT_A2B10G10R10_UNORM_PACK32;
    case FXGL_FORMAT_RG11B10F: return VK_FORMAT_B10G11R11_UFLOAT_PACK32;
    default: return VK_FORMAT_UNDEFINED;
    }
}

// The GLSL image format of a storage view (the mip generator's too).
static const char *glsl_image_format(fxgl_format f) {
    switch (f) {
    case FXGL_FORMAT_R8: return "r8";
    case FXGL_FORMAT_R16: return "r16";
    case FXGL_FORMAT_R16F: return "r16f";
    case FXGL_FORMAT_R32F: return "r32f";
    case FXGL_FORMAT_RG8: return "rg8";
    case FXGL_FORMAT_RG16: return "rg16";
    case FXGL_FORMAT_RG16F: return "rg16f";
    case FXGL_FORMAT_RG32F: return "rg32f";
    case FXGL_FORMAT_RGBA8: return "rgba8";
    case FXGL_FORMAT_RGBA16: return "rgba16";
    case FXGL_FORMAT_RGBA16F: return "rgba16f";
    case FXGL_FORMAT_RGBA32F: return "rgba32f";
    case FXGL_FORMAT_RGB10A2: return "rgb10_a2";
    case FXGL_FORMAT_RG11B10F: return "r11f_g11f_b10f";
    default: return NULL; // integer formats get no mips
    }
}

// --- images and buffers ---

static VkImageView make_view(fxgl_vk_runtime *rt, VkImage image, VkFormat format, int base,
                             int levels, VkImageUsageFlags usage) {
    VkImageViewUsageCreateInfo use = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
                                      .usage = usage};
    VkImageViewCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .pNext = usage ? &use : NULL,
        .image = image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)base, (uint32_t)levels, 0, 1},
    };
    VkImageView v = VK_NULL_HANDLE;
    vkCreateImageView(rt->device, &ci, NULL, &v);
    return v;
}

// Device-local memory of its own for image, bound to it: load time only.
static bool image_memory(fxgl_vk_runtime *rt, VkImage image, VkDeviceMemory *memory) {
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(rt->device, image, &req);
    int type = memory_type(rt, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type};
    return type >= 0 && vkAllocateMemory(rt->device, &ai, NULL, memory) == VK_SUCCESS &&
           vkBindImageMemory(rt->device, image, *memory, 0) == VK_SUCCESS;
}

static bool make_image(fxgl_vk_runtime *rt, vkr_image *im, fxgl_format f, int w, int h,
                       int levels, bool attachment, bool want_storage, char *why,
                       size_t why_size) {
    memset(im, 0, sizeof(*im));
    im->format = vk_format(f);
    im->fx_format = f;
    im->width = w;
    im->height = h;
    im->levels = levels;
    im->integer = f == FXGL_FORMAT_R32I || f == FXGL_FORMAT_R32U ||
                  f == FXGL_FORMAT_RGBA32I || f == FXGL_FORMAT_RGBA32U;
    im->resource = rt->next_resource++;
    if (im->format == VK_FORMAT_UNDEFINED) {
        fail(why, why_size, "format %s has no Vulkan format", fxgl_format_name(f));
        return false;
    }
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(rt->physical, im->format, &fp);
    VkFormatFeatureFlags feat = fp.optimalTilingFeatures;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                              VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (attachment) {
        if (!(feat & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT)) {
            fail(why, why_size, "format %s cannot be rendered to on this device",
                 fxgl_format_name(f));
            return false;
        }
        usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    }
    // Storage: what the effect asks for, and what the mip generator writes.
    bool mips = levels > 1 && glsl_image_format(f) != NULL;
    if ((want_storage || mips) && (feat & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)) {
        usage |= VK_IMAGE_USAGE_STORAGE_BIT;
        im->storage = true;
    } else if (want_storage) {
        fail(why, why_size, "format %s cannot be a storage image on this device",
             fxgl_format_name(f));
        return false;
    }
    bool srgb = f == FXGL_FORMAT_RGBA8;
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = srgb ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT : 0,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = im->format,
        .extent = {(uint32_t)w, (uint32_t)h, 1},
        .mipLevels = (uint32_t)levels,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    if (vkCreateImage(rt->device, &ci, NULL, &im->image) != VK_SUCCESS) {
        fail(why, why_size, "vkCreateImage failed (%dx%d %s)", w, h, fxgl_format_name(f));
        return false;
    }
    if (!image_memory(rt, im->image, &im->memory)) {
        fail(why, why_size, "out of device memory for a %dx%d image", w, h);
        return false;
    }
    VkImageUsageFlags no_storage = usage & ~(VkImageUsageFlags)VK_IMAGE_USAGE_STORAGE_BIT;
    im->view = make_view(rt, im->image, im->format, 0, levels, 0);
    if (attachment) {
        im->attach_view = make_view(rt, im->image, im->format, 0, 1, 0);
    }
    if (srgb) {
        im->srgb_view = make_view(rt, im->image, VK_FORMAT_R8G8B8A8_SRGB, 0, levels, no_storage);
        if (attachment) {
            im->attach_srgb = make_view(rt, im->image, VK_FORMAT_R8G8B8A8_SRGB, 0, 1, no_storage);
        }
    }
    if (im->storage) {
        im->level_views = calloc((size_t)levels, sizeof(*im->level_views));
        if (!im->level_views) {
            fail(why, why_size, "out of memory");
            return false;
        }
        for (int l = 0; l < levels; l++) {
            im->level_views[l] = make_view(rt, im->image, im->format, l, 1, 0);
        }
    }
    return im->view != VK_NULL_HANDLE;
}

static void free_image(fxgl_vk_runtime *rt, vkr_image *im) {
    if (im->level_views) {
        for (int l = 0; l < im->levels; l++) {
            vkDestroyImageView(rt->device, im->level_views[l], NULL);
        }
        free(im->level_views);
    }
    vkDestroyImageView(rt->device, im->view, NULL);
    vkDestroyImageView(rt->device, im->srgb_view, NULL);
    vkDestroyImageView(rt->device, im->attach_view, NULL);
    vkDestroyImageView(rt->device, im->attach_srgb, NULL);
    vkDestroyImage(rt->device, im->image, NULL);
    vkFreeMemory(rt->device, im->memory, NULL);
    memset(im, 0, sizeof(*im));
}

static bool make_buffer(fxgl_vk_runtime *rt, VkDeviceSize size, VkBufferUsageFlags usage,
                        bool host, VkBuffer *buf, VkDeviceMemory *mem, void **map) {
    VkBufferCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                             .usage = usage};
    if (vkCreateBuffer(rt->device, &ci, NULL, buf) != VK_SUCCESS) {
        return false;
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(rt->device, *buf, &req);
    int type = memory_type(rt, req.memoryTypeBits,
                           host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type};
    if (type < 0 || vkAllocateMemory(rt->device, &ai, NULL, mem) != VK_SUCCESS ||
        vkBindBufferMemory(rt->device, *buf, *mem, 0) != VK_SUCCESS) {
        return false;
    }
    return !host || vkMapMemory(rt->device, *mem, 0, size, 0, map) == VK_SUCCESS;
}

// One-time commands at load: every new image to GENERAL, zero-filled (the
// GL runtime zero-fills every level too).
static bool begin_once(fxgl_vk_runtime *rt) {
    vkResetCommandBuffer(rt->cmd, 0);
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    return vkBeginCommandBuffer(rt->cmd, &bi) == VK_SUCCESS;
}

static bool submit_wait(fxgl_vk_runtime *rt) {
    if (vkEndCommandBuffer(rt->cmd) != VK_SUCCESS) {
        return false;
    }
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                       .pCommandBuffers = &rt->cmd};
    vkResetFences(rt->device, 1, &rt->fence);
    if (vkQueueSubmit(rt->queue, 1, &si, rt->fence) != VK_SUCCESS) {
        return false;
    }
    return vkWaitForFences(rt->device, 1, &rt->fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS;
}

// Every write before it visible to every command after it: load-time
// copies, and the graph's full barriers (its switch).
static void full_barrier(fxgl_vk_runtime *rt) {
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
    vkCmdPipelineBarrier(rt->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

// A new image into GENERAL and cleared (colour to zero, depth and stencil
// to 1 and 0), the clear visible to every command after it: load time only.
static void init_image(fxgl_vk_runtime *rt, VkImage image, VkImageSubresourceRange range,
                       bool depth_stencil) {
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                              .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                              .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                              .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = image, .subresourceRange = range};
    vkCmdPipelineBarrier(rt->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &b);
    if (depth_stencil) {
        VkClearDepthStencilValue zero = {1.0f, 0};
        vkCmdClearDepthStencilImage(rt->cmd, image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
    } else {
        VkClearColorValue zero = {{0}};
        vkCmdClearColorImage(rt->cmd, image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
    }
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    b.oldLayout = VK_IMAGE_LAYOUT_GENERAL;
    vkCmdPipelineBarrier(rt->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 1, &b);
}

static void init_color_image(fxgl_vk_runtime *rt, const vkr_image *im) {
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
    init_image(rt, im->image, all, false);
}

// Level 0 of im from pixels (texel_size bytes a texel, rows top first),
// through a staging buffer made for it: load time only.
static bool upload(fxgl_vk_runtime *rt, const vkr_image *im, const uint8_t *pixels,
                   size_t texel_size) {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
    size_t bytes = (size_t)im->width * (size_t)im->height * texel_size;
    bool ok = make_buffer(rt, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, &buf, &mem, &map);
    if (ok) {
        memcpy(map, pixels, bytes);
        ok = begin_once(rt);
    }
    if (ok) {
        full_barrier(rt);
        VkBufferImageCopy c = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .imageExtent = {(uint32_t)im->width, (uint32_t)im->height, 1}};
        vkCmdCopyBufferToImage(rt->cmd, buf, im->image, VK_IMAGE_LAYOUT_GENERAL, 1, &c);
        full_barrier(rt);
        ok = submit_wait(rt);
    }
    vkDestroyBuffer(rt->device, buf, NULL);
    vkFreeMemory(rt->device, mem, NULL);
    return ok;
}

// --- shaders ---

static VkShaderModule shader_module(fxgl_vk_runtime *rt, const char *glsl, fxgl_stage stage,
                                    char *why, size_t why_size) {
    uint32_t *words;
    size_t count;
    char log[2048];
    if (!fxgl_vk_spirv(glsl, stage, NULL, &words, &count, log, sizeof(log))) {
        fail(why, why_size, "SPIR-V: %s", log);
        return VK_NULL_HANDLE;
    }
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = count * 4, .pCode = words};
    VkShaderModule m = VK_NULL_HANDLE;
    if (vkCreateShaderModule(rt->device, &ci, NULL, &m) != VK_SUCCESS) {
        fail(why, why_size, "vkCreateShaderModule failed");
    }
    free(words);
    return m;
}

// A compute pipeline of glsl over layout; VK_NULL_HANDLE with why.
static VkPipeline compute_pipeline(fxgl_vk_runtime *rt, const char *glsl, VkPipelineLayout layout,
                                   char *why, size_t why_size) {
    VkShaderModule m = shader_module(rt, glsl, FXGL_STAGE_COMPUTE, why, why_size);
    if (!m) {
        return VK_NULL_HANDLE;
    }
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = m, .pName = "main"},
        .layout = layout,
    };
    VkPipeline p = VK_NULL_HANDLE;
    VkResult r = vkCreateComputePipelines(rt->device, VK_NULL_HANDLE, 1, &ci, NULL, &p);
    vkDestroyShaderModule(rt->device, m, NULL);
    if (r != VK_SUCCESS) {
        fail(why, why_size, "the compute pipeline does not build");
        return VK_NULL_HANDLE;
    }
    return p;
}

// The GL runtime's mip filter (fxgl_mip_filter_main: level n is the box
// average of level n-1, clamped at an odd edge), one pipeline per image format.
static VkPipeline mip_pipeline(fxgl_vk_runtime *rt, const vkr_image *im, char *why,
                               size_t why_size) {
    for (int i = 0; i < rt->mip_pipeline_count; i++) {
        if (rt->mip_pipelines[i].format == im->format) {
            return rt->mip_pipelines[i].pipeline;
        }
    }
    if (rt->mip_pipeline_count == (int)(sizeof(rt->mip_pipelines) / sizeof(rt->mip_pipelines[0]))) {
        fail(why, why_size, "too many mip formats");
        return VK_NULL_HANDLE;
    }
    char src[1400];
    snprintf(src, sizeof(src),
             "#version 450\n"
             "layout(local_size_x = 8, local_size_y = 8) in;\n"
             "layout(set = 0, binding = 0) uniform sampler2D src;\n"
             "layout(set = 0, binding = 1, %s) uniform writeonly image2D dst;\n"
             "layout(push_constant) uniform _gmip { int lod; };\n"
             "%s",
             glsl_image_format(im->fx_format), fxgl_mip_filter_main);
    VkPipeline p = compute_pipeline(rt, src, rt->mip_layout, why, why_size);
    if (p == VK_NULL_HANDLE) {
        return VK_NULL_HANDLE;
    }
    rt->mip_pipelines[rt->mip_pipeline_count++] = (vkr_mip_pipeline){im->format, p};
    return p;
}

// --- create / destroy ---

// The first stencil format the device renders to (no depth is ever tested).
static bool make_stencil(fxgl_vk_runtime *rt) {
    static const VkFormat formats[] = {VK_FORMAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT,
                                       VK_FORMAT_D32_SFLOAT_S8_UINT};
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && !rt->stencil_format; i++) {
        VkFormatProperties fp;
        vkGetPhysicalDeviceFormatProperties(rt->physical, formats[i], &fp);
        if (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) {
            rt->stencil_format = formats[i];
        }
    }
    if (!rt->stencil_format) {
        return false;
    }
    rt->stencil_aspects = VK_IMAGE_ASPECT_STENCIL_BIT |
                          (rt->stencil_format == VK_FORMAT_S8_UINT ? 0 : VK_IMAGE_ASPECT_DEPTH_BIT);
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
        .format = rt->stencil_format,
        .extent = {(uint32_t)rt->desc.width, (uint32_t)rt->desc.height, 1}, .mipLevels = 1,
        .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT};
    if (vkCreateImage(rt->device, &ci, NULL, &rt->stencil) != VK_SUCCESS) {
        rt->stencil = VK_NULL_HANDLE;
        return false;
    }
    VkImageViewCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = rt->stencil, .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = rt->stencil_format,
                                .subresourceRange = {rt->stencil_aspects, 0, 1, 0, 1}};
    if (!image_memory(rt, rt->stencil, &rt->stencil_memory) ||
        vkCreateImageView(rt->device, &vi, NULL, &rt->stencil_view) != VK_SUCCESS) {
        return false;
    }
    return true;
}

static bool make_device(fxgl_vk_runtime *rt, char *why, size_t why_size) {
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "fxgl", .apiVersion = VK_API_VERSION_1_2};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app};
    VkResult r = vkCreateInstance(&ici, NULL, &rt->instance);
    if (r != VK_SUCCESS) {
        fail(why, why_size, "no Vulkan driver (vkCreateInstance: %d)", (int)r);
        return false;
    }
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(rt->instance, &n, NULL);
    VkPhysicalDevice devs[16];
    n = n > 16 ? 16 : n;
    vkEnumeratePhysicalDevices(rt->instance, &n, devs);
    for (uint32_t i = 0; i < n && !rt->physical; i++) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(devs[i], &props);
        if (props.apiVersion < VK_API_VERSION_1_2) {
            continue;
        }
        uint32_t qn = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, NULL);
        VkQueueFamilyProperties qf[16];
        qn = qn > 16 ? 16 : qn;
        vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, qf);
        for (uint32_t q = 0; q < qn; q++) {
            VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
            if ((qf[q].queueFlags & need) == need) {
                rt->physical = devs[i];
                rt->queue_family = q;
                snprintf(rt->device_name, sizeof(rt->device_name), "%s", props.deviceName);
                rt->timestamp_period =
                    qf[q].timestampValidBits ? props.limits.timestampPeriod : 0.0f;
                break;
            }
        }
    }
    if (!rt->physical) {
        fail(why, why_size, "no Vulkan 1.2 device with a graphics and compute queue");
        return false;
    }
    vkGetPhysicalDeviceMemoryProperties(rt->physical, &rt->memory_props);
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = rt->queue_family, .queueCount = 1,
                                   .pQueuePriorities = &prio};
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(rt->physical, &have);
    VkPhysicalDeviceFeatures feats = {
        .independentBlend = have.independentBlend,
        .samplerAnisotropy = have.samplerAnisotropy,
        .shaderStorageImageExtendedFormats = have.shaderStorageImageExtendedFormats,
        .fragmentStoresAndAtomics = have.fragmentStoresAndAtomics,
    };
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                              .pEnabledFeatures = &feats};
    r = vkCreateDevice(rt->physical, &dci, NULL, &rt->device);
    if (r != VK_SUCCESS) {
        fail(why, why_size, "vkCreateDevice failed (%d)", (int)r);
        return false;
    }
    vkGetDeviceQueue(rt->device, rt->queue_family, 0, &rt->queue);
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = rt->queue_family};
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if (vkCreateCommandPool(rt->device, &pci, NULL, &rt->cmd_pool) != VK_SUCCESS ||
        (cai.commandPool = rt->cmd_pool,
         vkAllocateCommandBuffers(rt->device, &cai, &rt->cmd) != VK_SUCCESS) ||
        vkCreateFence(rt->device, &fci, NULL, &rt->fence) != VK_SUCCESS) {
        fail(why, why_size, "command pool, buffer or fence not created");
        return false;
    }
    return true;
}

fxgl_vk_runtime *fxgl_vk_create(const fxgl_vk_desc *desc, char *why, size_t why_size) {
    if (desc->width < 1 || desc->height < 1) {
        fail(why, why_size, "no size");
        return NULL;
    }
    fxgl_vk_runtime *rt = calloc(1, sizeof(*rt));
    if (!rt) {
        fail(why, why_size, "out of memory");
        return NULL;
    }
    rt->desc = *desc;
    rt->random_state = 1u; // the GL runtime's seed when its host gives none
    rt->graph = fxgl_graph_create();
    rt->dirty = true;
    rt->next_resource = RES_FIRST_FREE;
    if (!rt->graph || !make_device(rt, why, why_size)) {
        fxgl_vk_destroy(rt);
        return NULL;
    }
    VkDeviceSize bytes = (VkDeviceSize)desc->width * (VkDeviceSize)desc->height * 4;
    bool ok = make_image(rt, &rt->back_buffer, FXGL_FORMAT_RGBA8, desc->width, desc->height, 1,
                         true, false, why, why_size) &&
              make_image(rt, &rt->color, FXGL_FORMAT_RGBA8, desc->width, desc->height, 1, false,
                         false, why, why_size) &&
              make_image(rt, &rt->zero, FXGL_FORMAT_R16F, 1, 1, 1, false, false, why, why_size);
    rt->back_buffer.resource = RES_BB;
    rt->color.resource = RES_COLOR;
    rt->zero.resource = RES_ZERO;
    rt->next_resource = RES_FIRST_FREE;
    ok = ok &&
         make_buffer(rt, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true, &rt->stage_in,
                     &rt->stage_in_mem, &rt->stage_in_map) &&
         make_buffer(rt, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, true, &rt->stage_out,
                     &rt->stage_out_mem, &rt->stage_out_map);
    if (!ok) {
        if (why && !why[0]) {
            fail(why, why_size, "the back buffer or its staging buffers were not created");
        }
        fxgl_vk_destroy(rt);
        return NULL;
    }
    // The mip generator's layout: source sampler, destination level, lod.
    VkDescriptorSetLayoutBinding mb[2] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayoutCreateInfo ml = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 2,
        .pBindings = mb};
    VkPushConstantRange pc = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkSamplerCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                               .maxLod = VK_LOD_CLAMP_NONE};
    if (vkCreateDescriptorSetLayout(rt->device, &ml, NULL, &rt->mip_set_layout) != VK_SUCCESS ||
        vkCreatePipelineLayout(rt->device,
                               &(VkPipelineLayoutCreateInfo){
                                   .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                   .setLayoutCount = 1, .pSetLayouts = &rt->mip_set_layout,
                                   .pushConstantRangeCount = 1, .pPushConstantRanges = &pc},
                               NULL, &rt->mip_layout) != VK_SUCCESS ||
        vkCreateSampler(rt->device, &sci, NULL, &rt->nearest) != VK_SUCCESS) {
        fail(why, why_size, "the mip generator's layout was not created");
        fxgl_vk_destroy(rt);
        return NULL;
    }
    if (!make_stencil(rt)) {
        logf_(rt, "no stencil format: passes with StencilEnable fail to load");
    }
    if (!begin_once(rt)) {
        fxgl_vk_destroy(rt);
        return NULL;
    }
    if (rt->stencil) {
        VkImageSubresourceRange all = {rt->stencil_aspects, 0, 1, 0, 1};
        init_image(rt, rt->stencil, all, true);
    }
    init_color_image(rt, &rt->back_buffer);
    init_color_image(rt, &rt->color);
    init_color_image(rt, &rt->zero);
    if (!submit_wait(rt)) {
        fail(why, why_size, "the first submission failed");
        fxgl_vk_destroy(rt);
        return NULL;
    }
    return rt;
}

static void free_effect(fxgl_vk_runtime *rt, vkr_effect *e) {
    for (size_t p = 0; p < e->pass_count; p++) {
        vkDestroyPipeline(rt->device, e->passes[p].pipeline, NULL);
        vkDestroyFramebuffer(rt->device, e->passes[p].framebuffer, NULL);
        vkDestroyRenderPass(rt->device, e->passes[p].render_pass, NULL);
    }
    free(e->passes);
    if (e->fx) {
        for (size_t i = 0; e->images && i < e->fx->texture_count; i++) {
            free_image(rt, &e->images[i]);
        }
        for (size_t i = 0; e->samplers && i < e->fx->sampler_count; i++) {
            vkDestroySampler(rt->device, e->samplers[i], NULL);
        }
    }
    free(e->images);
    free(e->samplers);
    vkDestroyBuffer(rt->device, e->ubo, NULL);
    vkFreeMemory(rt->device, e->ubo_memory, NULL);
    free(e->shadow);
    free(e->pingpong);
    free(e->params);
    vkDestroyDescriptorPool(rt->device, e->pool, NULL);
    vkDestroyPipelineLayout(rt->device, e->layout, NULL);
    vkDestroyDescriptorSetLayout(rt->device, e->set_layout, NULL);
    memset(e, 0, sizeof(*e));
}

void fxgl_vk_destroy(fxgl_vk_runtime *rt) {
    if (!rt) {
        return;
    }
    if (rt->device) {
        vkDeviceWaitIdle(rt->device);
        for (int i = 0; i < rt->effect_count; i++) {
            free_effect(rt, &rt->effects[i]);
        }
        for (int i = 0; i < rt->mip_pipeline_count; i++) {
            vkDestroyPipeline(rt->device, rt->mip_pipelines[i].pipeline, NULL);
        }
        vkDestroyDescriptorPool(rt->device, rt->mip_pool, NULL);
        vkDestroyPipelineLayout(rt->device, rt->mip_layout, NULL);
        vkDestroyDescriptorSetLayout(rt->device, rt->mip_set_layout, NULL);
        vkDestroySampler(rt->device, rt->nearest, NULL);
        vkDestroyQueryPool(rt->device, rt->queries, NULL);
        free_image(rt, &rt->back_buffer);
        free_image(rt, &rt->color);
        free_image(rt, &rt->zero);
        vkDestroyImageView(rt->device, rt->stencil_view, NULL);
        vkDestroyImage(rt->device, rt->stencil, NULL);
        vkFreeMemory(rt->device, rt->stencil_memory, NULL);
        vkDestroyBuffer(rt->device, rt->stage_in, NULL);
        vkDestroyBuffer(rt->device, rt->stage_out, NULL);
        vkFreeMemory(rt->device, rt->stage_in_mem, NULL);
        vkFreeMemory(rt->device, rt->stage_out_mem, NULL);
        vkDestroyFence(rt->device, rt->fence, NULL);
        vkDestroyCommandPool(rt->device, rt->cmd_pool, NULL);
        vkDestroyDevice(rt->device, NULL);
    }
    if (rt->instance) {
        vkDestroyInstance(rt->instance, NULL);
    }
    fxgl_graph_destroy(rt->graph);
    free(rt->ops);
    free(rt->mip_sets);
    free(rt->stamps);
    free(rt);
}

const char *fxgl_vk_device_name(const fxgl_vk_runtime *rt) {
    return rt->device_name;
}

// --- loading an effect ---

static VkSamplerAddressMode address(fxgl_address a) {
    switch (a) {
    case FXGL_ADDRESS_MIRROR: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    case FXGL_ADDRESS_CLAMP: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    case FXGL_ADDRESS_BORDER: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    default: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    }
}

static VkBlendFactor blend_factor(fxgl_blend_factor f) {
    static const VkBlendFactor map[] = {
        VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_SRC_COLOR,
        VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR, VK_BLEND_FACTOR_DST_COLOR,
        VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR, VK_BLEND_FACTOR_SRC_ALPHA,
        VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_FACTOR_DST_ALPHA,
        VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA};
    return (unsigned)f < sizeof(map) / sizeof(map[0]) ? map[f] : VK_BLEND_FACTOR_ONE;
}

static VkBlendOp blend_op(fxgl_blend_op op) {
    switch (op) {
    case FXGL_BLEND_OP_SUBTRACT: return VK_BLEND_OP_SUBTRACT;
    case FXGL_BLEND_OP_REVSUBTRACT: return VK_BLEND_OP_REVERSE_SUBTRACT;
    case FXGL_BLEND_OP_MIN: return VK_BLEND_OP_MIN;
    case FXGL_BLEND_OP_MAX: return VK_BLEND_OP_MAX;
    default: return VK_BLEND_OP_ADD;
    }
}

static VkPrimitiveTopology topology(fxgl_topology t) {
    switch (t) {
    case FXGL_TOPOLOGY_POINTLIST: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case FXGL_TOPOLOGY_LINELIST: return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case FXGL_TOPOLOGY_LINESTRIP: return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    case FXGL_TOPOLOGY_TRIANGLESTRIP: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    default: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    }
}

static bool pass_targets(const fxgl_pass *fp, int texture) {
    for (int i = 0; i < fp->render_target_count; i++) {
        if (fp->render_targets[i] == texture) {
            return true;
        }
    }
    return false;
}

// The image view sampler i reads in pass fp (the GL runtime's choices:
// COLOR is the refreshed copy, another semantic and a pass's own render
// target read the zero texture).
static VkImageView sampled_view(fxgl_vk_runtime *rt, const vkr_effect *e, const fxgl_pass *fp,
                                size_t i) {
    const fxgl_sampler *s = &e->fx->samplers[i];
    const fxgl_texture *t = &e->fx->textures[s->texture];
    const vkr_image *im;
    if (t->semantic) {
        im = strcmp(t->semantic, "COLOR") == 0 ? &rt->color : &rt->zero;
    } else if (fp && pass_targets(fp, s->texture)) {
        im = &rt->zero;
    } else {
        im = &e->images[s->texture];
    }
    return s->srgb && im->srgb_view ? im->srgb_view : im->view;
}

static bool build_set_layout(fxgl_vk_runtime *rt, vkr_effect *e, char *why, size_t why_size) {
    const fxgl_effect *fx = e->fx;
    size_t n = 1 + fx->sampler_count + fx->storage_count;
    VkDescriptorSetLayoutBinding *b = calloc(n, sizeof(*b));
    if (!b) {
        fail(why, why_size, "out of memory");
        return false;
    }
    size_t k = 0;
    VkShaderStageFlags all = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT |
                             VK_SHADER_STAGE_COMPUTE_BIT;
    if (fx->uniform_block_size) {
        b[k++] = (VkDescriptorSetLayoutBinding){FXGL_VK_UNIFORM_BINDING,
                                                VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, all, NULL};
    }
    for (size_t i = 0; i < fx->sampler_count; i++) {
        b[k++] = (VkDescriptorSetLayoutBinding){(uint32_t)FXGL_VK_SAMPLER_BINDING((int)i),
                                                VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, all,
                                                NULL};
    }
    for (size_t i = 0; i < fx->storage_count; i++) {
        b[k++] = (VkDescriptorSetLayoutBinding){(uint32_t)FXGL_VK_STORAGE_BINDING(fx, (int)i),
                                                VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, all, NULL};
    }
    VkDescriptorSetLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = (uint32_t)k, .pBindings = b};
    VkResult r = vkCreateDescriptorSetLayout(rt->device, &ci, NULL, &e->set_layout);
    free(b);
    VkPushConstantRange pc = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16}; // _fxgl_view (exact varyings)
    VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1, .pSetLayouts = &e->set_layout,
                                     .pushConstantRangeCount = 1, .pPushConstantRanges = &pc};
    if (r != VK_SUCCESS || vkCreatePipelineLayout(rt->device, &pl, NULL, &e->layout) != VK_SUCCESS) {
        fail(why, why_size, "the descriptor set or pipeline layout was not created");
        return false;
    }
    // A set per pass (a pass reading its own target binds the zero texture there).
    size_t passes = e->pass_count ? e->pass_count : 1;
    VkDescriptorPoolSize sizes[3] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, (uint32_t)passes},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, (uint32_t)(passes * (fx->sampler_count + 1))},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, (uint32_t)(passes * (fx->storage_count + 1))},
    };
    VkDescriptorPoolCreateInfo dp = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = (uint32_t)passes, .poolSizeCount = 3,
                                     .pPoolSizes = sizes};
    if (vkCreateDescriptorPool(rt->device, &dp, NULL, &e->pool) != VK_SUCCESS) {
        fail(why, why_size, "the descriptor pool was not created");
        return false;
    }
    return true;
}

static bool write_set(fxgl_vk_runtime *rt, vkr_effect *e, vkr_pass *p) {
    const fxgl_effect *fx = e->fx;
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = e->pool, .descriptorSetCount = 1,
                                      .pSetLayouts = &e->set_layout};
    if (vkAllocateDescriptorSets(rt->device, &ai, &p->set) != VK_SUCCESS) {
        return false;
    }
    size_t n = 1 + fx->sampler_count + fx->storage_count;
    VkWriteDescriptorSet *w = calloc(n, sizeof(*w));
    VkDescriptorImageInfo *img = calloc(n, sizeof(*img));
    if (!w || !img) {
        free(w);
        free(img);
        return false;
    }
    size_t k = 0;
    VkDescriptorBufferInfo bi = {e->ubo, 0, VK_WHOLE_SIZE};
    if (fx->uniform_block_size) {
        w[k++] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                        .dstSet = p->set, .dstBinding = FXGL_VK_UNIFORM_BINDING,
                                        .descriptorCount = 1,
                                        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                        .pBufferInfo = &bi};
    }
    for (size_t i = 0; i < fx->sampler_count; i++) {
        img[k] = (VkDescriptorImageInfo){e->samplers[i], sampled_view(rt, e, p->fp, i),
                                         VK_IMAGE_LAYOUT_GENERAL};
        w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = p->set,
                                      .dstBinding = (uint32_t)FXGL_VK_SAMPLER_BINDING((int)i),
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                      .pImageInfo = &img[k]};
        k++;
    }
    for (size_t i = 0; i < fx->storage_count; i++) {
        const fxgl_storage *s = &fx->storages[i];
        const vkr_image *im = &e->images[s->texture];
        if (!im->level_views) {
            continue; // load refused the effect already
        }
        img[k] = (VkDescriptorImageInfo){VK_NULL_HANDLE, im->level_views[s->level],
                                         VK_IMAGE_LAYOUT_GENERAL};
        w[k] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = p->set,
                                      .dstBinding = (uint32_t)FXGL_VK_STORAGE_BINDING(fx, (int)i),
                                      .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                      .pImageInfo = &img[k]};
        k++;
    }
    vkUpdateDescriptorSets(rt->device, (uint32_t)k, w, 0, NULL);
    free(w);
    free(img);
    return true;
}

static bool build_graphics(fxgl_vk_runtime *rt, vkr_effect *e, vkr_pass *p, char *why,
                           size_t why_size) {
    const fxgl_effect *fx = e->fx;
    const fxgl_pass *fp = p->fp;
    VkAttachmentDescription att[FXGL_MAX_RENDER_TARGETS + 1];
    VkAttachmentReference ref[FXGL_MAX_RENDER_TARGETS + 1];
    VkImageView views[FXGL_MAX_RENDER_TARGETS + 1];
    int n = fp->render_target_count ? fp->render_target_count : 1;
    p->to_back_buffer = fp->render_target_count == 0;
    for (int i = 0; i < n; i++) {
        const vkr_image *im = p->to_back_buffer ? &rt->back_buffer
                                                : &e->images[fp->render_targets[i]];
        bool srgb = fp->srgb_write && im->attach_srgb;
        views[i] = srgb ? im->attach_srgb : im->attach_view;
        att[i] = (VkAttachmentDescription){
            .format = srgb ? VK_FORMAT_R8G8B8A8_SRGB : im->format,
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .loadOp = fp->clear_render_targets ? VK_ATTACHMENT_LOAD_OP_CLEAR
                                               : VK_ATTACHMENT_LOAD_OP_LOAD,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
            .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
            .finalLayout = VK_IMAGE_LAYOUT_GENERAL,
        };
        ref[i] = (VkAttachmentReference){(uint32_t)i, VK_IMAGE_LAYOUT_GENERAL};
        if (i == 0) {
            p->width = (uint32_t)im->width;
            p->height = (uint32_t)im->height;
        }
    }
    if (fp->viewport_width > 0 && fp->viewport_height > 0 && !p->to_back_buffer) {
        p->width = (uint32_t)fp->viewport_width;
        p->height = (uint32_t)fp->viewport_height;
    }
    p->attachments = (uint32_t)n;
    // The GL runtime's rule: the stencil is attached where the pass enables it
    // and renders at the back buffer's size; elsewhere the test is off.
    p->stencil = fp->stencil_enable && p->width == (uint32_t)rt->desc.width &&
                 p->height == (uint32_t)rt->desc.height;
    if (p->stencil && !rt->stencil) {
        fail(why, why_size, "pass %zu: the device has no stencil format", p->index);
        return false;
    }
    if (p->stencil) {
        views[n] = rt->stencil_view;
        att[n] = (VkAttachmentDescription){
            .format = rt->stencil_format, .samples = VK_SAMPLE_COUNT_1_BIT,
            .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE, .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .stencilLoadOp = p->stencil_clear ? VK_ATTACHMENT_LOAD_OP_CLEAR
                                              : VK_ATTACHMENT_LOAD_OP_LOAD,
            .stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE,
            .initialLayout = VK_IMAGE_LAYOUT_GENERAL, .finalLayout = VK_IMAGE_LAYOUT_GENERAL};
        ref[n] = (VkAttachmentReference){(uint32_t)n, VK_IMAGE_LAYOUT_GENERAL};
    }
    uint32_t total = (uint32_t)n + p->stencil;
    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                .colorAttachmentCount = (uint32_t)n, .pColorAttachments = ref,
                                .pDepthStencilAttachment = p->stencil ? &ref[n] : NULL};
    VkRenderPassCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                  .attachmentCount = total, .pAttachments = att,
                                  .subpassCount = 1, .pSubpasses = &sub};
    if (vkCreateRenderPass(rt->device, &rci, NULL, &p->render_pass) != VK_SUCCESS) {
        fail(why, why_size, "pass %zu: render pass not created", p->index);
        return false;
    }
    VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                   .renderPass = p->render_pass, .attachmentCount = total,
                                   .pAttachments = views, .width = p->width,
                                   .height = p->height, .layers = 1};
    if (vkCreateFramebuffer(rt->device, &fci, NULL, &p->framebuffer) != VK_SUCCESS) {
        fail(why, why_size, "pass %zu: framebuffer not created", p->index);
        return false;
    }
    const fxgl_shader *vs = &fx->shaders[fp->vertex_shader];
    const fxgl_shader *ps = fp->pixel_shader >= 0 ? &fx->shaders[fp->pixel_shader] : NULL;
    VkShaderModule vm = shader_module(rt, vs->glsl, FXGL_STAGE_VERTEX, why, why_size);
    VkShaderModule pm = ps && vm ? shader_module(rt, ps->glsl, FXGL_STAGE_PIXEL, why, why_size)
                                 : VK_NULL_HANDLE;
    if (!vm || (ps && !pm)) {
        vkDestroyShaderModule(rt->device, vm, NULL);
        return false;
    }
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vm, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = pm, .pName = "main"},
    };
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = topology(fp->topology)};
    VkViewport vp = {0, 0, (float)p->width, (float)p->height, 0, 1};
    VkRect2D sc = {{0, 0}, {p->width, p->height}};
    VkPipelineViewportStateCreateInfo vps = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, .viewportCount = 1,
        .pViewports = &vp, .scissorCount = 1, .pScissors = &sc};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineColorBlendAttachmentState bl[FXGL_MAX_RENDER_TARGETS];
    for (int i = 0; i < n; i++) {
        const fxgl_target_blend *b = &fp->blend[i];
        uint8_t mask = b->write_mask & 0xF;
        // As the GL runtime: channels the shader never writes keep the target's.
        int comps = ps ? ps->target_components[i] : 0;
        if (comps > 0 && comps < 4) {
            mask &= (uint8_t)((1u << comps) - 1u);
        }
        bl[i] = (VkPipelineColorBlendAttachmentState){
            .blendEnable = b->enable,
            .srcColorBlendFactor = blend_factor(b->src), .dstColorBlendFactor = blend_factor(b->dst),
            .colorBlendOp = blend_op(b->op),
            .srcAlphaBlendFactor = blend_factor(b->src_alpha),
            .dstAlphaBlendFactor = blend_factor(b->dst_alpha),
            .alphaBlendOp = blend_op(b->op_alpha),
            .colorWriteMask = mask,
        };
    }
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = (uint32_t)n, .pAttachments = bl};
    // fxgl_stencil_op lists ZERO before KEEP; Vulkan the other way round.
    VkStencilOpState so = {
        .failOp = fp->stencil_fail <= 1 ? (VkStencilOp)(1 - fp->stencil_fail)
                                        : (VkStencilOp)fp->stencil_fail,
        .passOp = fp->stencil_pass <= 1 ? (VkStencilOp)(1 - fp->stencil_pass)
                                        : (VkStencilOp)fp->stencil_pass,
        .depthFailOp = fp->stencil_depth_fail <= 1 ? (VkStencilOp)(1 - fp->stencil_depth_fail)
                                                   : (VkStencilOp)fp->stencil_depth_fail,
        .compareOp = (VkCompareOp)fp->stencil_func, // the same order as fxgl_compare
        .compareMask = fp->stencil_read_mask,
        .writeMask = fp->stencil_write_mask,
        .reference = fp->stencil_ref};
    VkPipelineDepthStencilStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .stencilTestEnable = VK_TRUE, .front = so, .back = so};
    VkGraphicsPipelineCreateInfo gci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = ps ? 2 : 1, .pStages = stages, .pVertexInputState = &vi,
        .pInputAssemblyState = &ia, .pViewportState = &vps, .pRasterizationState = &rs,
        .pMultisampleState = &ms, .pDepthStencilState = p->stencil ? &ds : NULL,
        .pColorBlendState = &cb, .layout = e->layout,
        .renderPass = p->render_pass};
    VkResult r = vkCreateGraphicsPipelines(rt->device, VK_NULL_HANDLE, 1, &gci, NULL,
                                           &p->pipeline);
    vkDestroyShaderModule(rt->device, vm, NULL);
    vkDestroyShaderModule(rt->device, pm, NULL);
    if (r != VK_SUCCESS) {
        fail(why, why_size, "pass %zu: the pipeline does not build (%d)", p->index, (int)r);
        return false;
    }
    return true;
}

static bool build_compute(fxgl_vk_runtime *rt, vkr_effect *e, vkr_pass *p, char *why,
                          size_t why_size) {
    const fxgl_shader *cs = &e->fx->shaders[p->fp->compute_shader];
    char reason[256] = "";
    p->pipeline = compute_pipeline(rt, cs->glsl, e->layout, reason, sizeof(reason));
    if (p->pipeline == VK_NULL_HANDLE) {
        fail(why, why_size, "pass %zu: %s", p->index, reason);
        return false;
    }
    return true;
}

static bool load_effect(fxgl_vk_runtime *rt, vkr_effect *e, char *why, size_t why_size) {
    const fxgl_effect *fx = e->fx;
    for (size_t s = 0; s < fx->shader_count; s++) {
        if (!fx->shaders[s].glsl) {
            fail(why, why_size, "entry point '%s' has no code (compile for vk450)",
                 fx->shaders[s].entry);
            return false;
        }
    }
    e->images = calloc(fx->texture_count + 1, sizeof(*e->images));
    e->samplers = calloc(fx->sampler_count + 1, sizeof(*e->samplers));
    for (size_t t = 0; t < fx->technique_count; t++) {
        e->pass_count += fx->techniques[t].pass_count;
    }
    e->passes = calloc(e->pass_count + 1, sizeof(*e->passes));
    if (!e->images || !e->samplers || !e->passes) {
        fail(why, why_size, "out of memory");
        return false;
    }
    if (!begin_once(rt)) {
        fail(why, why_size, "no command buffer");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < fx->texture_count && ok; i++) {
        const fxgl_texture *t = &fx->textures[i];
        if (t->semantic) {
            continue;
        }
        if (t->dim != FXGL_TEXTURE_2D) {
            fail(why, why_size, "texture '%s': only 2D textures are supported by the Vulkan path",
                 t->name);
            ok = false;
            break;
        }
        ok = make_image(rt, &e->images[i], t->format, t->width, t->height, t->levels,
                        t->render_target, t->storage_access, why, why_size);
        if (ok) {
            init_color_image(rt, &e->images[i]);
        }
    }
    if (!submit_wait(rt) || !ok) {
        if (ok) {
            fail(why, why_size, "the image initialisation failed");
        }
        return false;
    }
    for (size_t i = 0; i < fx->texture_count; i++) {
        const fxgl_texture *t = &fx->textures[i];
        if (t->semantic || !t->source) {
            continue;
        }
        char reason[512], path[1024];
        uint8_t *pixels = NULL;
        // Bytes as they are, or floats in 0..1, as the GL runtime loads images.
        bool bytes = t->format == FXGL_FORMAT_R8 || t->format == FXGL_FORMAT_RG8 ||
                     t->format == FXGL_FORMAT_RGBA8;
        bool floats = t->format == FXGL_FORMAT_R32F || t->format == FXGL_FORMAT_RG32F ||
                      t->format == FXGL_FORMAT_RGBA32F;
        size_t texel = (size_t)fxgl_format_channels(t->format) * (floats ? sizeof(float) : 1);
        if (!bytes && !floats) {
            snprintf(reason, sizeof(reason),
                     "'%s': images load only into R8/RG8/RGBA8/R32F/RG32F/RGBA32F", t->source);
        } else if (!fxgl_source_find(fx->path, rt->desc.texture_dirs, rt->desc.texture_dir_count,
                                     t->source, path, sizeof(path))) {
            snprintf(reason, sizeof(reason), "source '%s' not found in: %.400s", t->source,
                     path[0] ? path : "(no folders)");
        } else {
            pixels = fxgl_source_pixels(path, t->source, t->width, t->height,
                                        fxgl_format_channels(t->format), floats, reason,
                                        sizeof(reason));
        }
        // As in the GL runtime, a missing image leaves the texture zero.
        if (!pixels) {
            logf_(rt, "texture '%s': %s; it stays zero", t->name, reason);
        } else if (!upload(rt, &e->images[i], pixels, texel)) {
            logf_(rt, "texture '%s': the upload of '%s' failed", t->name, t->source);
        } else if (t->levels > 1) {
            logf_(rt, "texture '%s': the mips of '%s' are not generated by the Vulkan path",
                  t->name, t->source);
        }
        free(pixels);
    }
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(rt->physical, &have);
    for (size_t i = 0; i < fx->sampler_count; i++) {
        const fxgl_sampler *s = &fx->samplers[i];
        bool aniso = s->min_filter == FXGL_FILTER_ANISOTROPIC && have.samplerAnisotropy;
        VkSamplerCreateInfo ci = {
            .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
            .magFilter = s->mag_filter == FXGL_FILTER_POINT ? VK_FILTER_NEAREST : VK_FILTER_LINEAR,
            .minFilter = s->min_filter == FXGL_FILTER_POINT ? VK_FILTER_NEAREST : VK_FILTER_LINEAR,
            .mipmapMode = s->mip_filter == FXGL_FILTER_POINT ? VK_SAMPLER_MIPMAP_MODE_NEAREST
                                                             : VK_SAMPLER_MIPMAP_MODE_LINEAR,
            .addressModeU = address(s->address_u), .addressModeV = address(s->address_v),
            .addressModeW = address(s->address_w),
            .mipLodBias = s->lod_bias,
            .anisotropyEnable = aniso, .maxAnisotropy = aniso ? 16.0f : 1.0f,
            .minLod = s->min_lod < -1000.0f ? -1000.0f : s->min_lod,
            .maxLod = s->max_lod > 1000.0f ? VK_LOD_CLAMP_NONE : s->max_lod,
            .borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
        };
        if (vkCreateSampler(rt->device, &ci, NULL, &e->samplers[i]) != VK_SUCCESS) {
            fail(why, why_size, "sampler '%s' not created", s->name);
            return false;
        }
    }
    if (fx->uniform_block_size) {
        void *unused;
        if (!make_buffer(rt, fx->uniform_block_size,
                         VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         false, &e->ubo, &e->ubo_memory, &unused)) {
            fail(why, why_size, "the uniform buffer was not created");
            return false;
        }
        e->shadow = calloc(1, fx->uniform_block_size);
        e->pingpong = calloc(fx->uniform_count + 1, sizeof(*e->pingpong));
        e->params = calloc(fx->uniform_count + 1, sizeof(*e->params));
        if (!e->shadow || !e->pingpong || !e->params) {
            fail(why, why_size, "out of memory");
            return false;
        }
        for (size_t i = 0; i < fx->uniform_count; i++) {
            fxgl_special_params_init(&e->params[i], &fx->uniforms[i]);
        }
        for (size_t i = 0; i < fx->uniform_count; i++) {
            const fxgl_uniform *u = &fx->uniforms[i];
            if (u->initial_data && u->offset + u->size <= fx->uniform_block_size) {
                memcpy(e->shadow + u->offset, u->initial_data, u->size);
            }
        }
        e->ubo_resource = rt->next_resource++;
    }
    if (!build_set_layout(rt, e, why, why_size)) {
        return false;
    }
    size_t k = 0;
    bool first_stencil = true; // the first stencil pass of a technique starts from zero
    for (size_t t = 0; t < fx->technique_count; t++) {
        for (size_t i = 0; i < fx->techniques[t].pass_count; i++, k++) {
            vkr_pass *p = &e->passes[k];
            p->fp = &fx->techniques[t].passes[i];
            p->technique = t;
            p->index = i;
            p->compute = p->fp->compute_shader >= 0;
            p->gpu_ms = -1;
            if (i == 0) {
                first_stencil = true;
            }
            // build_graphics decides whether the pass gets the stencil; its
            // render pass clears it when this would be the technique's first.
            p->stencil_clear = first_stencil;
            bool built = p->compute ? build_compute(rt, e, p, why, why_size)
                                    : build_graphics(rt, e, p, why, why_size);
            p->stencil_clear = p->stencil && first_stencil;
            first_stencil = first_stencil && !p->stencil;
            if (!built || !write_set(rt, e, p)) {
                if (built) {
                    fail(why, why_size, "pass %zu: no descriptor set", i);
                }
                return false;
            }
        }
    }
    return true;
}

int fxgl_vk_add_effect(fxgl_vk_runtime *rt, const fxgl_effect *fx, char *why, size_t why_size) {
    if (rt->effect_count == VKR_MAX_EFFECTS) {
        fail(why, why_size, "too many effects (limit is %d)", VKR_MAX_EFFECTS);
        return -1;
    }
    vkr_effect *e = &rt->effects[rt->effect_count];
    memset(e, 0, sizeof(*e));
    e->fx = fx;
    if (!load_effect(rt, e, why, why_size)) {
        vkDeviceWaitIdle(rt->device);
        free_effect(rt, e);
        return -1;
    }
    rt->dirty = true;
    return rt->effect_count++;
}

// --- uniforms ---

// The std140 placement of the module (matrices row-major, 16-byte rows).
static void uniform_write(vkr_effect *e, const fxgl_uniform *u, const fxgl_value *v) {
    uint32_t offsets[16];
    int n = fxgl_uniform_offsets(u, v->count, offsets);
    for (int c = 0; c < n; c++) {
        if (offsets[c] + 4 <= e->fx->uniform_block_size) {
            uint32_t bits = fxgl_uniform_bits(v, c, u->scalar);
            memcpy(e->shadow + offsets[c], &bits, 4);
        }
    }
}

bool fxgl_vk_set_uniform(fxgl_vk_runtime *rt, int effect, const char *name,
                         const fxgl_value *value) {
    if (effect < 0 || effect >= rt->effect_count || !rt->effects[effect].shadow) {
        return false;
    }
    vkr_effect *e = &rt->effects[effect];
    for (size_t i = 0; i < e->fx->uniform_count; i++) {
        const fxgl_uniform *u = &e->fx->uniforms[i];
        if (strcmp(u->name, name) == 0 && u->special == FXGL_SPECIAL_NONE) {
            uniform_write(e, u, value);
            return true;
        }
    }
    return false;
}

// The special uniforms a headless frame can give, as the GL runtime computes
// them (src/gl/special.c); input devices and the overlay read zero here.
// The clock's specials come from the GL runtime's own code (fxgl_backend.h),
// drawing from one xorshift32 seeded with 1 in the GL runtime's order
// (effects in order, their special uniforms in declaration order), so
// `random` and pingpong's random steps give the GL path's values.
static void update_specials(fxgl_vk_runtime *rt, vkr_effect *e, double seconds) {
    fxgl_special_clock clock = {rt->frame_ms, rt->frame_count, seconds - rt->start_time, NULL,
                                &rt->random_state};
    for (size_t i = 0; i < e->fx->uniform_count; i++) {
        const fxgl_uniform *u = &e->fx->uniforms[i];
        if (u->special == FXGL_SPECIAL_NONE) {
            continue;
        }
        fxgl_value v = {.scalar = FXGL_SCALAR_INT, .count = 4}; // keys, mouse, overlay, ...: zero
        fxgl_special_clock_value(u, &e->params[i], e->pingpong[i], &clock, &v);
        uniform_write(e, u, &v);
    }
}

// --- the frame's commands as graph nodes ---

static bool push_op(fxgl_vk_runtime *rt, size_t *cap, vkr_op op) {
    if (rt->op_count == *cap) {
        size_t n = *cap ? *cap * 2 : 64;
        vkr_op *ops = realloc(rt->ops, n * sizeof(*ops));
        if (!ops) {
            return false;
        }
        rt->ops = ops;
        *cap = n;
    }
    rt->ops[rt->op_count++] = op;
    return true;
}

static fxgl_graph_use whole(int resource, unsigned access, fxgl_graph_usage usage, int levels) {
    return (fxgl_graph_use){.resource = resource, .first_mip = 0, .mip_count = (uint16_t)levels,
                            .access = (uint8_t)access, .usage = (uint8_t)usage};
}

// The uses of one op (at most: UBO + samplers + storages + targets).
static size_t op_uses(fxgl_vk_runtime *rt, const vkr_op *op, fxgl_graph_use *u, size_t max) {
    size_t n = 0;
    switch (op->kind) {
    case OP_COPY_IN:
        u[n++] = whole(RES_STAGE_IN, FXGL_GRAPH_READ, FXGL_GRAPH_COPY, 1);
        u[n++] = whole(RES_BB, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY, 1);
        return n;
    case OP_COPY_OUT:
        u[n++] = whole(RES_BB, FXGL_GRAPH_READ, FXGL_GRAPH_COPY, 1);
        u[n++] = whole(RES_STAGE_OUT, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY, 1);
        return n;
    case OP_REFRESH:
        u[n++] = whole(RES_BB, FXGL_GRAPH_READ, FXGL_GRAPH_COPY, 1);
        u[n++] = whole(RES_COLOR, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY, 1);
        return n;
    case OP_UBO:
        u[n++] = whole(rt->effects[op->effect].ubo_resource, FXGL_GRAPH_WRITE, FXGL_GRAPH_COPY, 1);
        return n;
    case OP_MIP: {
        const vkr_image *im = &rt->effects[op->effect].images[op->image];
        u[n] = whole(im->resource, FXGL_GRAPH_READ, FXGL_GRAPH_SAMPLED, 1);
        u[n++].first_mip = (uint16_t)(op->level - 1);
        u[n] = whole(im->resource, FXGL_GRAPH_WRITE, FXGL_GRAPH_STORAGE, 1);
        u[n++].first_mip = (uint16_t)op->level;
        return n;
    }
    case OP_PASS:
        break;
    }
    const vkr_effect *e = &rt->effects[op->effect];
    const vkr_pass *p = &e->passes[op->pass];
    const fxgl_effect *fx = e->fx;
    const fxgl_shader *st[3] = {
        p->fp->vertex_shader >= 0 ? &fx->shaders[p->fp->vertex_shader] : NULL,
        p->fp->pixel_shader >= 0 ? &fx->shaders[p->fp->pixel_shader] : NULL,
        p->fp->compute_shader >= 0 ? &fx->shaders[p->fp->compute_shader] : NULL};
    bool ubo = false;
    for (int s = 0; s < 3; s++) {
        if (!st[s]) {
            continue;
        }
        ubo |= st[s]->uniform_binding >= 0;
        for (size_t i = 0; i < st[s]->sampler_count && n < max; i++) {
            const fxgl_sampler *sm = &fx->samplers[st[s]->samplers[i].object];
            const fxgl_texture *t = &fx->textures[sm->texture];
            int res = t->semantic ? (strcmp(t->semantic, "COLOR") == 0 ? RES_COLOR : RES_ZERO)
                      : pass_targets(p->fp, sm->texture) ? RES_ZERO
                                                         : e->images[sm->texture].resource;
            int levels = t->semantic ? 1 : e->images[sm->texture].levels;
            u[n++] = whole(res, FXGL_GRAPH_READ, FXGL_GRAPH_SAMPLED, levels);
        }
        for (size_t i = 0; i < st[s]->storage_count && n < max; i++) {
            const fxgl_storage *sg = &fx->storages[st[s]->storages[i].object];
            u[n] = whole(e->images[sg->texture].resource, FXGL_GRAPH_READ | FXGL_GRAPH_WRITE,
                         FXGL_GRAPH_STORAGE, 1);
            u[n++].first_mip = (uint16_t)sg->level;
        }
    }
    if (ubo && n < max) {
        u[n++] = whole(e->ubo_resource, FXGL_GRAPH_READ, FXGL_GRAPH_UNIFORM, 1);
    }
    if (!p->compute) {
        int targets = p->fp->render_target_count ? p->fp->render_target_count : 1;
        for (int i = 0; i < targets && n < max; i++) {
            int res = p->to_back_buffer ? RES_BB : e->images[p->fp->render_targets[i]].resource;
            bool blends = p->fp->blend[i].enable;
            u[n++] = whole(res, FXGL_GRAPH_WRITE | (blends ? FXGL_GRAPH_READ : 0),
                           FXGL_GRAPH_ATTACHMENT, 1);
        }
        if (p->stencil && n < max) {
            u[n++] = whole(RES_STENCIL, FXGL_GRAPH_READ | FXGL_GRAPH_WRITE,
                           FXGL_GRAPH_DEPTH_STENCIL, 1);
        }
    }
    return n;
}

// The mips of a texture a pass wrote (GL: after a write to a target or a
// storage with MipLevels > 1; none for integer formats).
static bool push_mips(fxgl_vk_runtime *rt, size_t *cap, int effect, int texture) {
    const vkr_image *im = &rt->effects[effect].images[texture];
    if (im->levels < 2 || !im->storage || !glsl_image_format(im->fx_format)) {
        return true;
    }
    for (int l = 1; l < im->levels; l++) {
        if (!push_op(rt, cap, (vkr_op){.kind = OP_MIP, .effect = effect, .image = texture,
                                       .level = l})) {
            return false;
        }
    }
    return true;
}

// The GL runtime's order: copy in, uniforms, then per technique its passes,
// COLOR refreshed before the first pass of a technique and after a pass that
// wrote the back buffer, unless the back buffer is unchanged since the last
// refresh; copy out.
static bool build_ops(fxgl_vk_runtime *rt) {
    size_t cap = 0;
    rt->op_count = 0;
    bool ok = push_op(rt, &cap, (vkr_op){.kind = OP_COPY_IN});
    for (int i = 0; i < rt->effect_count && ok; i++) {
        if (rt->effects[i].ubo) {
            ok = push_op(rt, &cap, (vkr_op){.kind = OP_UBO, .effect = i});
        }
    }
    bool bb_changed = true;
    for (int i = 0; i < rt->effect_count && ok; i++) {
        vkr_effect *e = &rt->effects[i];
        size_t k = 0;
        for (size_t t = 0; t < e->fx->technique_count && ok; t++) {
            bool refresh = true;
            for (size_t p = 0; p < e->fx->techniques[t].pass_count && ok; p++, k++) {
                vkr_pass *vp = &e->passes[k];
                if (refresh && bb_changed) {
                    ok = push_op(rt, &cap, (vkr_op){.kind = OP_REFRESH});
                    bb_changed = false;
                }
                refresh = false;
                ok = ok && push_op(rt, &cap, (vkr_op){.kind = OP_PASS, .effect = i,
                                                      .pass = (int)k});
                if (vp->compute) {
                    const fxgl_shader *cs = &e->fx->shaders[vp->fp->compute_shader];
                    for (size_t s = 0; s < cs->storage_count && ok && vp->fp->generate_mipmaps;
                         s++) {
                        ok = push_mips(rt, &cap, i,
                                       e->fx->storages[cs->storages[s].object].texture);
                    }
                } else if (vp->to_back_buffer) {
                    bb_changed = refresh = true;
                } else if (vp->fp->generate_mipmaps) {
                    for (int r = 0; r < vp->fp->render_target_count && ok; r++) {
                        ok = push_mips(rt, &cap, i, vp->fp->render_targets[r]);
                    }
                }
            }
        }
    }
    ok = ok && push_op(rt, &cap, (vkr_op){.kind = OP_COPY_OUT});
    if (!ok) {
        return false;
    }
    fxgl_graph_reset(rt->graph);
    // Room for every use a pass can have: its stages' samplers and storages,
    // the uniform block, its targets and the stencil.
    size_t max_uses = 4 + FXGL_MAX_RENDER_TARGETS;
    for (int i = 0; i < rt->effect_count; i++) {
        size_t n = 4 + FXGL_MAX_RENDER_TARGETS +
                   3 * (rt->effects[i].fx->sampler_count + rt->effects[i].fx->storage_count);
        max_uses = n > max_uses ? n : max_uses;
    }
    fxgl_graph_use *uses = malloc(max_uses * sizeof(*uses));
    if (!uses) {
        return false;
    }
    size_t mips = 0;
    for (size_t i = 0; i < rt->op_count; i++) {
        const vkr_op *op = &rt->ops[i];
        size_t n = op_uses(rt, op, uses, max_uses);
        fxgl_graph_cmd cmd = op->kind == OP_PASS
                                 ? (rt->effects[op->effect].passes[op->pass].compute
                                        ? FXGL_GRAPH_COMPUTE
                                        : FXGL_GRAPH_DRAW)
                             : op->kind == OP_MIP ? FXGL_GRAPH_COMPUTE
                                                  : FXGL_GRAPH_TRANSFER;
        mips += op->kind == OP_MIP;
        if (fxgl_graph_add(rt->graph, cmd, uses, n) != (int)i) {
            free(uses);
            return false;
        }
    }
    free(uses);
    if (!fxgl_graph_compile(rt->graph, &(fxgl_graph_options){.reorder = rt->desc.reorder,
                                                             .full_barriers =
                                                                 rt->desc.full_barriers})) {
        return false;
    }
    // The mip generator's descriptor sets, one per OP_MIP.
    free(rt->mip_sets);
    rt->mip_sets = calloc(rt->op_count, sizeof(*rt->mip_sets));
    vkDestroyDescriptorPool(rt->device, rt->mip_pool, NULL);
    rt->mip_pool = VK_NULL_HANDLE;
    if (!rt->mip_sets) {
        return false;
    }
    if (mips) {
        VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, (uint32_t)mips},
                                         {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, (uint32_t)mips}};
        VkDescriptorPoolCreateInfo dp = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                         .maxSets = (uint32_t)mips, .poolSizeCount = 2,
                                         .pPoolSizes = sizes};
        if (vkCreateDescriptorPool(rt->device, &dp, NULL, &rt->mip_pool) != VK_SUCCESS) {
            return false;
        }
        for (size_t i = 0; i < rt->op_count; i++) {
            const vkr_op *op = &rt->ops[i];
            if (op->kind != OP_MIP) {
                continue;
            }
            const vkr_image *im = &rt->effects[op->effect].images[op->image];
            char why[256];
            if (!mip_pipeline(rt, im, why, sizeof(why))) {
                logf_(rt, "mips: %s", why);
                return false;
            }
            VkDescriptorSetAllocateInfo ai = {
                .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                .descriptorPool = rt->mip_pool, .descriptorSetCount = 1,
                .pSetLayouts = &rt->mip_set_layout};
            if (vkAllocateDescriptorSets(rt->device, &ai, &rt->mip_sets[i]) != VK_SUCCESS) {
                return false;
            }
            VkDescriptorImageInfo src = {rt->nearest, im->view, VK_IMAGE_LAYOUT_GENERAL};
            VkDescriptorImageInfo dst = {VK_NULL_HANDLE, im->level_views[op->level],
                                         VK_IMAGE_LAYOUT_GENERAL};
            VkWriteDescriptorSet w[2] = {
                {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = rt->mip_sets[i],
                 .dstBinding = 0, .descriptorCount = 1,
                 .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, .pImageInfo = &src},
                {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = rt->mip_sets[i],
                 .dstBinding = 1, .descriptorCount = 1,
                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, .pImageInfo = &dst},
            };
            vkUpdateDescriptorSets(rt->device, 2, w, 0, NULL);
        }
    }
    // Timestamps: the frame's two, and two per pass.
    vkDestroyQueryPool(rt->device, rt->queries, NULL);
    rt->queries = VK_NULL_HANDLE;
    rt->query_count = 0;
    if (rt->desc.timestamps && rt->timestamp_period > 0) {
        uint32_t q = 2;
        for (int i = 0; i < rt->effect_count; i++) {
            for (size_t p = 0; p < rt->effects[i].pass_count; p++) {
                rt->effects[i].passes[p].query = q;
                q += 2;
            }
        }
        VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                     .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = q};
        free(rt->stamps);
        rt->stamps = calloc(q, sizeof(*rt->stamps));
        if (rt->stamps && vkCreateQueryPool(rt->device, &qci, NULL, &rt->queries) == VK_SUCCESS) {
            rt->query_count = q;
        }
    }
    fxgl_graph_counters c = fxgl_graph_counts(rt->graph);
    rt->stats.nodes = c.nodes;
    rt->stats.edges = c.edges;
    rt->stats.levels = c.levels;
    rt->stats.batches = c.batches;
    rt->stats.barrier_calls = c.barrier_calls;
    rt->stats.barriers = c.barriers;
    rt->stats.naive_barrier_calls = c.naive_barrier_calls;
    rt->dirty = false;
    return true;
}

// --- recording ---

static void stage_access(const fxgl_graph_use *u, fxgl_graph_cmd cmd, VkPipelineStageFlags *stage,
                         VkAccessFlags *access) {
    bool w = u->access & FXGL_GRAPH_WRITE, r = u->access & FXGL_GRAPH_READ;
    VkPipelineStageFlags shader = cmd == FXGL_GRAPH_COMPUTE
                                      ? VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT
                                      : VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                                            VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    switch ((fxgl_graph_usage)u->usage) {
    case FXGL_GRAPH_COPY:
        *stage |= VK_PIPELINE_STAGE_TRANSFER_BIT;
        *access = (w ? VK_ACCESS_TRANSFER_WRITE_BIT : 0) | (r ? VK_ACCESS_TRANSFER_READ_BIT : 0);
        break;
    case FXGL_GRAPH_UNIFORM:
        *stage |= shader;
        *access = VK_ACCESS_UNIFORM_READ_BIT;
        break;
    case FXGL_GRAPH_SAMPLED:
        *stage |= shader;
        *access = VK_ACCESS_SHADER_READ_BIT;
        break;
    case FXGL_GRAPH_STORAGE:
        *stage |= shader;
        *access = (w ? VK_ACCESS_SHADER_WRITE_BIT : 0) | (r ? VK_ACCESS_SHADER_READ_BIT : 0);
        break;
    case FXGL_GRAPH_DEPTH_STENCIL:
        *stage |= VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                  VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
        *access = (w ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT : 0) |
                  (r ? VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT : 0);
        break;
    case FXGL_GRAPH_ATTACHMENT:
        *stage |= VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
        *access = (w ? VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT : 0) |
                  (r ? VK_ACCESS_COLOR_ATTACHMENT_READ_BIT : 0);
        break;
    }
}

// The graph's resource id -> Vulkan object (an image or a buffer).
static bool resource_object(fxgl_vk_runtime *rt, int res, VkImage *image, VkBuffer *buffer) {
    *image = VK_NULL_HANDLE;
    *buffer = VK_NULL_HANDLE;
    switch (res) {
    case RES_BB: *image = rt->back_buffer.image; return true;
    case RES_COLOR: *image = rt->color.image; return true;
    case RES_ZERO: *image = rt->zero.image; return true;
    case RES_STENCIL: *image = rt->stencil; return true;
    case RES_STAGE_IN: *buffer = rt->stage_in; return true;
    case RES_STAGE_OUT: *buffer = rt->stage_out; return true;
    }
    for (int i = 0; i < rt->effect_count; i++) {
        vkr_effect *e = &rt->effects[i];
        if (e->ubo && e->ubo_resource == res) {
            *buffer = e->ubo;
            return true;
        }
        for (size_t t = 0; t < e->fx->texture_count; t++) {
            if (e->images[t].image && e->images[t].resource == res) {
                *image = e->images[t].image;
                return true;
            }
        }
    }
    return false;
}

#define VKR_MAX_BARRIERS 64

static void record_barriers(fxgl_vk_runtime *rt, size_t position) {
    size_t n;
    bool full;
    const fxgl_graph_barrier *b = fxgl_graph_barriers_before(rt->graph, position, &n, &full);
    if (full) {
        full_barrier(rt);
        return;
    }
    if (!n) {
        return;
    }
    VkImageMemoryBarrier ib[VKR_MAX_BARRIERS];
    VkBufferMemoryBarrier bb[VKR_MAX_BARRIERS];
    uint32_t ni = 0, nb = 0;
    VkPipelineStageFlags src = 0, dst = 0;
    for (size_t i = 0; i < n; i++) {
        VkAccessFlags sa = 0, da = 0;
        stage_access(&b[i].src, b[i].src_cmd, &src, &sa);
        stage_access(&b[i].dst, b[i].dst_cmd, &dst, &da);
        VkImage image;
        VkBuffer buffer;
        if (!resource_object(rt, b[i].resource, &image, &buffer)) {
            continue;
        }
        if (image && ni < VKR_MAX_BARRIERS) {
            ib[ni++] = (VkImageMemoryBarrier){
                .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = sa,
                .dstAccessMask = da, .oldLayout = VK_IMAGE_LAYOUT_GENERAL,
                .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = image,
                .subresourceRange = {b[i].resource == RES_STENCIL ? rt->stencil_aspects
                                                                  : VK_IMAGE_ASPECT_COLOR_BIT,
                                     b[i].first_mip, b[i].mip_count, 0, 1}};
        } else if (buffer && nb < VKR_MAX_BARRIERS) {
            bb[nb++] = (VkBufferMemoryBarrier){
                .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, .srcAccessMask = sa,
                .dstAccessMask = da, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = buffer, .offset = 0,
                .size = VK_WHOLE_SIZE};
        }
    }
    if (ni + nb) {
        vkCmdPipelineBarrier(rt->cmd, src, dst, 0, 0, NULL, nb, bb, ni, ib);
    }
}

static void record_op(fxgl_vk_runtime *rt, const vkr_op *op, size_t index) {
    VkImageSubresourceLayers layer0 = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    VkExtent3D extent = {(uint32_t)rt->desc.width, (uint32_t)rt->desc.height, 1};
    switch (op->kind) {
    case OP_COPY_IN: {
        VkBufferImageCopy c = {.imageSubresource = layer0, .imageExtent = extent};
        vkCmdCopyBufferToImage(rt->cmd, rt->stage_in, rt->back_buffer.image,
                               VK_IMAGE_LAYOUT_GENERAL, 1, &c);
        rt->stats.copies++;
        return;
    }
    case OP_COPY_OUT: {
        VkBufferImageCopy c = {.imageSubresource = layer0, .imageExtent = extent};
        vkCmdCopyImageToBuffer(rt->cmd, rt->back_buffer.image, VK_IMAGE_LAYOUT_GENERAL,
                               rt->stage_out, 1, &c);
        rt->stats.copies++;
        return;
    }
    case OP_REFRESH: {
        VkImageCopy c = {.srcSubresource = layer0, .dstSubresource = layer0, .extent = extent};
        vkCmdCopyImage(rt->cmd, rt->back_buffer.image, VK_IMAGE_LAYOUT_GENERAL, rt->color.image,
                       VK_IMAGE_LAYOUT_GENERAL, 1, &c);
        rt->stats.copies++;
        rt->stats.color_refreshes++;
        return;
    }
    case OP_UBO: {
        vkr_effect *e = &rt->effects[op->effect];
        // vkCmdUpdateBuffer takes at most 65536 bytes a call.
        for (uint32_t off = 0; off < e->fx->uniform_block_size; off += 65536) {
            uint32_t n = e->fx->uniform_block_size - off;
            n = n > 65536 ? 65536 : n;
            vkCmdUpdateBuffer(rt->cmd, e->ubo, off, n, e->shadow + off);
        }
        rt->stats.updates++;
        return;
    }
    case OP_MIP: {
        const vkr_image *im = &rt->effects[op->effect].images[op->image];
        VkPipeline pipe = VK_NULL_HANDLE;
        for (int i = 0; i < rt->mip_pipeline_count; i++) {
            pipe = rt->mip_pipelines[i].format == im->format ? rt->mip_pipelines[i].pipeline
                                                             : pipe;
        }
        int lod = op->level - 1;
        vkCmdBindPipeline(rt->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
        vkCmdBindDescriptorSets(rt->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, rt->mip_layout, 0, 1,
                                &rt->mip_sets[index], 0, NULL);
        vkCmdPushConstants(rt->cmd, rt->mip_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &lod);
        uint32_t w = (uint32_t)(im->width >> op->level), h = (uint32_t)(im->height >> op->level);
        w = w ? w : 1;
        h = h ? h : 1;
        vkCmdDispatch(rt->cmd, (w + 7) / 8, (h + 7) / 8, 1);
        rt->stats.pipeline_binds++;
        rt->stats.descriptor_binds++;
        rt->stats.dispatches++;
        rt->stats.mip_levels++;
        return;
    }
    case OP_PASS:
        break;
    }
    vkr_effect *e = &rt->effects[op->effect];
    vkr_pass *p = &e->passes[op->pass];
    if (rt->queries) {
        vkCmdWriteTimestamp(rt->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, rt->queries, p->query);
    }
    if (p->compute) {
        vkCmdBindPipeline(rt->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
        vkCmdBindDescriptorSets(rt->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->layout, 0, 1, &p->set,
                                0, NULL);
        vkCmdDispatch(rt->cmd, p->fp->dispatch[0], p->fp->dispatch[1],
                      p->fp->dispatch[2] ? p->fp->dispatch[2] : 1);
        rt->stats.dispatches++;
    } else {
        VkClearValue clears[FXGL_MAX_RENDER_TARGETS + 1];
        memset(clears, 0, sizeof(clears));
        VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                    .renderPass = p->render_pass, .framebuffer = p->framebuffer,
                                    .renderArea = {{0, 0}, {p->width, p->height}},
                                    .clearValueCount = p->attachments + p->stencil,
                                    .pClearValues = clears};
        vkCmdBeginRenderPass(rt->cmd, &bi, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(rt->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
        vkCmdBindDescriptorSets(rt->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, e->layout, 0, 1,
                                &p->set, 0, NULL);
        vkCmdDraw(rt->cmd, p->fp->vertex_count, 1, 0, 0);
        vkCmdEndRenderPass(rt->cmd);
        rt->stats.draws++;
    }
    rt->stats.pipeline_binds++;
    rt->stats.descriptor_binds++;
    if (rt->queries) {
        vkCmdWriteTimestamp(rt->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, rt->queries,
                            p->query + 1);
    }
}

bool fxgl_vk_frame(fxgl_vk_runtime *rt, const uint8_t *in, uint8_t *out, double time, char *why,
                   size_t why_size) {
    if (rt->dirty && !build_ops(rt)) {
        fail(why, why_size, "the frame's graph could not be built");
        return false;
    }
    double t0 = now_s();
    rt->frame_ms = rt->frame_count ? (time - rt->last_time) * 1000.0 : 0.0;
    if (rt->frame_count == 0) {
        rt->start_time = time;
    }
    rt->last_time = time;
    for (int i = 0; i < rt->effect_count; i++) {
        if (rt->effects[i].shadow) {
            update_specials(rt, &rt->effects[i], time);
        }
    }
    size_t bytes = (size_t)rt->desc.width * (size_t)rt->desc.height * 4;
    memcpy(rt->stage_in_map, in, bytes);
    fxgl_vk_stats *s = &rt->stats;
    s->draws = s->dispatches = s->pipeline_binds = s->descriptor_binds = s->copies = 0;
    s->updates = s->mip_levels = s->color_refreshes = 0;
    if (!begin_once(rt)) {
        fail(why, why_size, "vkBeginCommandBuffer failed");
        return false;
    }
    if (rt->queries) {
        vkCmdResetQueryPool(rt->cmd, rt->queries, 0, rt->query_count);
        vkCmdWriteTimestamp(rt->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, rt->queries, 0);
    }
    size_t count;
    const int *order = fxgl_graph_order(rt->graph, &count);
    for (size_t i = 0; i < count; i++) {
        record_barriers(rt, i);
        record_op(rt, &rt->ops[order[i]], (size_t)order[i]);
    }
    // The copy out made visible to the host that reads it after the fence
    // (outside the graph: the host is not a node).
    VkBufferMemoryBarrier host = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
                                  .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .buffer = rt->stage_out, .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(rt->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                         NULL, 1, &host, 0, NULL);
    if (rt->queries) {
        vkCmdWriteTimestamp(rt->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, rt->queries, 1);
    }
    // CPU time: the specials, the upload copy and the recording, not the wait.
    s->cpu_ms = (now_s() - t0) * 1000.0;
    bool ok = submit_wait(rt);
    if (!ok) {
        fail(why, why_size, "the frame's submission failed (device lost?)");
        return false;
    }
    memcpy(out, rt->stage_out_map, bytes);
    s->gpu_ms = -1;
    if (rt->queries) {
        uint64_t *ts = rt->stamps;
        if (vkGetQueryPoolResults(rt->device, rt->queries, 0, rt->query_count,
                                        rt->query_count * sizeof(*ts), ts, sizeof(*ts),
                                        VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
            double ns = rt->timestamp_period;
            s->gpu_ms = (double)(ts[1] - ts[0]) * ns * 1e-6;
            for (int i = 0; i < rt->effect_count; i++) {
                for (size_t p = 0; p < rt->effects[i].pass_count; p++) {
                    vkr_pass *vp = &rt->effects[i].passes[p];
                    vp->gpu_ms = (double)(ts[vp->query + 1] - ts[vp->query]) * ns * 1e-6;
                }
            }
        }
    }
    rt->frame_count++;
    return true;
}

const fxgl_vk_stats *fxgl_vk_stats_get(const fxgl_vk_runtime *rt) {
    return &rt->stats;
}

double fxgl_vk_pass_gpu_ms(const fxgl_vk_runtime *rt, int effect, size_t technique, size_t pass) {
    if (effect < 0 || effect >= rt->effect_count) {
        return -1;
    }
    const vkr_effect *e = &rt->effects[effect];
    for (size_t p = 0; p < e->pass_count; p++) {
        if (e->passes[p].technique == technique && e->passes[p].index == pass) {
            return e->passes[p].gpu_ms;
        }
    }
    return -1;
}
