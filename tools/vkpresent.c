/*
 * vkpresent.c - the Vulkan side of the differential tool (tools/refdiff.sh):
 * a minimal Vulkan program that shows a PNG in an X11 window through a
 * swapchain for N frames, then reads its own window back and writes a PNG.
 *
 *   fxgl-vkpresent [--frames N] IN.png OUT.png
 *
 * Each frame copies the image (buffer to image, no shader, no filtering)
 * into the acquired swapchain image and presents it. A layer such as
 * vkBasalt, enabled through the environment, runs its effect on that image
 * at present time, so the window shows the layer's result. The read-back is
 * XGetImage on the window, converted through the visual's channel masks, so
 * without a layer OUT equals IN bit for bit in R, G and B (the window has no
 * alpha: OUT is opaque). tests/refdiff/test_vkpresent.sh checks exactly that.
 *
 * Exit status: 0 written; 1 failure; 2 usage; 77 no X display or no Vulkan
 * device that can present to it (the caller's tests skip with this reason).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#define VK_USE_PLATFORM_XLIB_KHR
#include <vulkan/vulkan.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb_image.h>
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#pragma GCC diagnostic pop

#define EXIT_SKIP 77

typedef struct vkp {
    Display *dpy;
    Window win;
    int width, height;
    VkInstance instance;
    VkSurfaceKHR surface;
    VkPhysicalDevice phys;
    uint32_t family;
    VkDevice device;
    VkQueue queue;
    VkSwapchainKHR swapchain;
    VkFormat format;
    VkImage images[16];
    uint32_t image_count;
    VkBuffer staging;
    VkDeviceMemory staging_mem;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkSemaphore acquired, copied;
    VkFence fence;
} vkp;

static int fail(const char *what, VkResult r) {
    fprintf(stderr, "fxgl-vkpresent: %s failed (VkResult %d)\n", what, (int)r);
    return 1;
}

static Bool is_map_notify(Display *dpy, XEvent *ev, XPointer arg) {
    (void)dpy;
    return ev->type == MapNotify && ev->xmap.window == *(Window *)arg;
}

/* The window: no background (the server never paints over what the
 * swapchain put there) and mapped before the swapchain is made, waiting for
 * the server's MapNotify rather than for any time. */
static int open_window(vkp *v) {
    v->dpy = XOpenDisplay(NULL);
    if (!v->dpy) {
        fprintf(stderr, "fxgl-vkpresent: cannot open the X display (DISPLAY=%s)\n",
                getenv("DISPLAY") ? getenv("DISPLAY") : "");
        return EXIT_SKIP;
    }
    XSetWindowAttributes wa = {0};
    wa.background_pixmap = None;
    wa.event_mask = StructureNotifyMask;
    v->win = XCreateWindow(v->dpy, DefaultRootWindow(v->dpy), 0, 0, (unsigned)v->width,
                           (unsigned)v->height, 0, CopyFromParent, InputOutput, CopyFromParent,
                           CWBackPixmap | CWEventMask, &wa);
    XStoreName(v->dpy, v->win, "fxgl-vkpresent");
    XMapWindow(v->dpy, v->win);
    XEvent ev;
    XIfEvent(v->dpy, &ev, is_map_notify, (XPointer)&v->win);
    return 0;
}

static int make_device(vkp *v) {
    const char *inst_ext[] = {VK_KHR_SURFACE_EXTENSION_NAME, VK_KHR_XLIB_SURFACE_EXTENSION_NAME};
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "fxgl-vkpresent",
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app,
                                .enabledExtensionCount = 2,
                                .ppEnabledExtensionNames = inst_ext};
    VkResult r = vkCreateInstance(&ici, NULL, &v->instance);
    if (r != VK_SUCCESS) {
        fprintf(stderr, "fxgl-vkpresent: no Vulkan instance with X11 surfaces (VkResult %d):"
                        " is a Vulkan driver installed (mesa-vulkan-drivers)?\n", (int)r);
        return EXIT_SKIP;
    }
    VkXlibSurfaceCreateInfoKHR sci = {.sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR,
                                      .dpy = v->dpy, .window = v->win};
    if ((r = vkCreateXlibSurfaceKHR(v->instance, &sci, NULL, &v->surface)) != VK_SUCCESS)
        return fail("vkCreateXlibSurfaceKHR", r);

    VkPhysicalDevice devs[16];
    uint32_t n = 16;
    r = vkEnumeratePhysicalDevices(v->instance, &n, devs);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return fail("vkEnumeratePhysicalDevices", r);
    for (uint32_t d = 0; d < n && !v->phys; d++) {
        VkQueueFamilyProperties fam[16];
        uint32_t nf = 16;
        vkGetPhysicalDeviceQueueFamilyProperties(devs[d], &nf, fam);
        for (uint32_t f = 0; f < nf; f++) {
            VkBool32 present = VK_FALSE;
            vkGetPhysicalDeviceSurfaceSupportKHR(devs[d], f, v->surface, &present);
            // vkBasalt draws on the queue the program presents on: graphics is needed.
            if (present && (fam[f].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
                v->phys = devs[d];
                v->family = f;
                break;
            }
        }
    }
    if (!v->phys) {
        fprintf(stderr, "fxgl-vkpresent: no Vulkan device presents to this X display\n");
        return EXIT_SKIP;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(v->phys, &props);
    fprintf(stderr, "fxgl-vkpresent: device %s\n", props.deviceName);

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = v->family, .queueCount = 1,
                                   .pQueuePriorities = &prio};
    const char *dev_ext[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                              .enabledExtensionCount = 1, .ppEnabledExtensionNames = dev_ext};
    if ((r = vkCreateDevice(v->phys, &dci, NULL, &v->device)) != VK_SUCCESS)
        return fail("vkCreateDevice", r);
    vkGetDeviceQueue(v->device, v->family, 0, &v->queue);
    return 0;
}

static int make_swapchain(vkp *v) {
    VkSurfaceCapabilitiesKHR caps;
    VkResult r = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(v->phys, v->surface, &caps);
    if (r != VK_SUCCESS)
        return fail("vkGetPhysicalDeviceSurfaceCapabilitiesKHR", r);
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) {
        fprintf(stderr, "fxgl-vkpresent: the swapchain cannot be a copy destination\n");
        return 1;
    }
    VkSurfaceFormatKHR formats[64];
    uint32_t nf = 64;
    r = vkGetPhysicalDeviceSurfaceFormatsKHR(v->phys, v->surface, &nf, formats);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return fail("vkGetPhysicalDeviceSurfaceFormatsKHR", r);
    // UNORM, as a GL default framebuffer: the bytes copied in are the bytes
    // shown, and an effect's COLOR reads them without sRGB decoding (ReShade's
    // COLOR is UNORM unless a sampler asks for SRGBTexture).
    v->format = VK_FORMAT_UNDEFINED;
    VkColorSpaceKHR space = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
    for (uint32_t i = 0; i < nf && v->format == VK_FORMAT_UNDEFINED; i++) {
        if (formats[i].format == VK_FORMAT_B8G8R8A8_UNORM ||
            formats[i].format == VK_FORMAT_R8G8B8A8_UNORM) {
            v->format = formats[i].format;
            space = formats[i].colorSpace;
        }
    }
    if (v->format == VK_FORMAT_UNDEFINED) {
        fprintf(stderr, "fxgl-vkpresent: the surface offers no 8-bit UNORM RGBA/BGRA format\n");
        return 1;
    }
    VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if (!(caps.supportedCompositeAlpha & alpha))
        alpha = (VkCompositeAlphaFlagBitsKHR)(caps.supportedCompositeAlpha &
                                              -caps.supportedCompositeAlpha);
    uint32_t count = caps.minImageCount;
    VkSwapchainCreateInfoKHR sci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = v->surface,
        .minImageCount = count,
        .imageFormat = v->format,
        .imageColorSpace = space,
        .imageExtent = {(uint32_t)v->width, (uint32_t)v->height},
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = alpha,
        // FIFO: the one mode every implementation has; frames are paced by
        // waiting for the queue, never by time.
        .presentMode = VK_PRESENT_MODE_FIFO_KHR,
        .clipped = VK_FALSE,
    };
    if ((r = vkCreateSwapchainKHR(v->device, &sci, NULL, &v->swapchain)) != VK_SUCCESS)
        return fail("vkCreateSwapchainKHR", r);
    v->image_count = 16;
    r = vkGetSwapchainImagesKHR(v->device, v->swapchain, &v->image_count, v->images);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        return fail("vkGetSwapchainImagesKHR", r);
    return 0;
}

/* The staging buffer holds the image in the swapchain's byte order. */
static int upload(vkp *v, const unsigned char *rgba) {
    VkDeviceSize size = (VkDeviceSize)v->width * (VkDeviceSize)v->height * 4;
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                              .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                              .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = vkCreateBuffer(v->device, &bci, NULL, &v->staging);
    if (r != VK_SUCCESS)
        return fail("vkCreateBuffer", r);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(v->device, v->staging, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(v->phys, &mp);
    const VkMemoryPropertyFlags want =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    if (type == UINT32_MAX) {
        fprintf(stderr, "fxgl-vkpresent: no host-visible coherent memory\n");
        return 1;
    }
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size, .memoryTypeIndex = type};
    if ((r = vkAllocateMemory(v->device, &mai, NULL, &v->staging_mem)) != VK_SUCCESS)
        return fail("vkAllocateMemory", r);
    vkBindBufferMemory(v->device, v->staging, v->staging_mem, 0);
    unsigned char *p;
    if ((r = vkMapMemory(v->device, v->staging_mem, 0, size, 0, (void **)&p)) != VK_SUCCESS)
        return fail("vkMapMemory", r);
    bool bgra = v->format == VK_FORMAT_B8G8R8A8_UNORM;
    for (size_t i = 0; i < (size_t)size; i += 4) {
        p[i + 0] = rgba[i + (bgra ? 2 : 0)];
        p[i + 1] = rgba[i + 1];
        p[i + 2] = rgba[i + (bgra ? 0 : 2)];
        p[i + 3] = rgba[i + 3];
    }
    vkUnmapMemory(v->device, v->staging_mem);
    return 0;
}

static void barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                    VkAccessFlags src, VkAccessFlags dst) {
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                              .srcAccessMask = src, .dstAccessMask = dst,
                              .oldLayout = from, .newLayout = to,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = image,
                              .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 1, &b);
}

/* One frame: acquire, copy, present, then wait for the queue so that one
 * frame at a time is in flight and the semaphores are free again. */
static int frame(vkp *v) {
    uint32_t index;
    VkResult r = vkAcquireNextImageKHR(v->device, v->swapchain, UINT64_MAX, v->acquired,
                                       VK_NULL_HANDLE, &index);
    if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR)
        return fail("vkAcquireNextImageKHR", r);
    vkResetCommandPool(v->device, v->pool, 0);
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    vkBeginCommandBuffer(v->cmd, &bi);
    barrier(v->cmd, v->images[index], VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy copy = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                              .imageExtent = {(uint32_t)v->width, (uint32_t)v->height, 1}};
    vkCmdCopyBufferToImage(v->cmd, v->staging, v->images[index],
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
    barrier(v->cmd, v->images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_ACCESS_MEMORY_READ_BIT);
    vkEndCommandBuffer(v->cmd);
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .waitSemaphoreCount = 1, .pWaitSemaphores = &v->acquired,
                       .pWaitDstStageMask = &stage,
                       .commandBufferCount = 1, .pCommandBuffers = &v->cmd,
                       .signalSemaphoreCount = 1, .pSignalSemaphores = &v->copied};
    if ((r = vkQueueSubmit(v->queue, 1, &si, v->fence)) != VK_SUCCESS)
        return fail("vkQueueSubmit", r);
    VkPresentInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                           .waitSemaphoreCount = 1, .pWaitSemaphores = &v->copied,
                           .swapchainCount = 1, .pSwapchains = &v->swapchain,
                           .pImageIndices = &index};
    r = vkQueuePresentKHR(v->queue, &pi);
    if (r != VK_SUCCESS && r != VK_SUBOPTIMAL_KHR)
        return fail("vkQueuePresentKHR", r);
    vkWaitForFences(v->device, 1, &v->fence, VK_TRUE, UINT64_MAX);
    vkResetFences(v->device, 1, &v->fence);
    vkQueueWaitIdle(v->queue);
    return 0;
}

static int shift_of(unsigned long mask) {
    int s = 0;
    while (mask && !(mask & 1)) {
        mask >>= 1;
        s++;
    }
    return s;
}

/* XGetImage of the window, through the image's own channel masks (so no
 * byte order is assumed), as opaque RGBA. */
static int read_back(vkp *v, const char *path) {
    XSync(v->dpy, False);
    XImage *im = XGetImage(v->dpy, v->win, 0, 0, (unsigned)v->width, (unsigned)v->height,
                           AllPlanes, ZPixmap);
    if (!im) {
        fprintf(stderr, "fxgl-vkpresent: XGetImage failed\n");
        return 1;
    }
    unsigned long masks[3] = {im->red_mask, im->green_mask, im->blue_mask};
    for (int c = 0; c < 3; c++) {
        if (masks[c] >> shift_of(masks[c]) != 0xff) {
            fprintf(stderr, "fxgl-vkpresent: the window is not 8 bits per channel"
                            " (masks %lx %lx %lx)\n", masks[0], masks[1], masks[2]);
            XDestroyImage(im);
            return 1;
        }
    }
    unsigned char *out = malloc((size_t)v->width * (size_t)v->height * 4);
    if (!out) {
        XDestroyImage(im);
        return 1;
    }
    for (int y = 0; y < v->height; y++) {
        for (int x = 0; x < v->width; x++) {
            unsigned long px = XGetPixel(im, x, y);
            unsigned char *o = out + ((size_t)y * (size_t)v->width + (size_t)x) * 4;
            for (int c = 0; c < 3; c++)
                o[c] = (unsigned char)((px & masks[c]) >> shift_of(masks[c]));
            o[3] = 255;
        }
    }
    XDestroyImage(im);
    int ok = stbi_write_png(path, v->width, v->height, 4, out, v->width * 4);
    free(out);
    if (!ok) {
        fprintf(stderr, "fxgl-vkpresent: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

static void teardown(vkp *v) {
    if (v->device) {
        vkDeviceWaitIdle(v->device);
        if (v->fence)
            vkDestroyFence(v->device, v->fence, NULL);
        if (v->acquired)
            vkDestroySemaphore(v->device, v->acquired, NULL);
        if (v->copied)
            vkDestroySemaphore(v->device, v->copied, NULL);
        if (v->pool)
            vkDestroyCommandPool(v->device, v->pool, NULL);
        if (v->staging)
            vkDestroyBuffer(v->device, v->staging, NULL);
        if (v->staging_mem)
            vkFreeMemory(v->device, v->staging_mem, NULL);
        if (v->swapchain)
            vkDestroySwapchainKHR(v->device, v->swapchain, NULL);
        vkDestroyDevice(v->device, NULL);
    }
    if (v->surface)
        vkDestroySurfaceKHR(v->instance, v->surface, NULL);
    if (v->instance)
        vkDestroyInstance(v->instance, NULL);
    v->device = NULL;
    v->swapchain = VK_NULL_HANDLE;
    v->surface = VK_NULL_HANDLE;
    v->instance = NULL;
}

int main(int argc, char **argv) {
    int frames = 3;
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (!in) {
            in = argv[i];
        } else if (!out) {
            out = argv[i];
        } else {
            in = NULL;
            break;
        }
    }
    if (!in || !out || frames < 1) {
        fprintf(stderr, "usage: fxgl-vkpresent [--frames N] IN.png OUT.png\n");
        return 2;
    }
    vkp v = {0};
    int comp;
    unsigned char *rgba = stbi_load(in, &v.width, &v.height, &comp, 4);
    if (!rgba) {
        fprintf(stderr, "fxgl-vkpresent: cannot read %s: %s\n", in, stbi_failure_reason());
        return 1;
    }
    int rc = open_window(&v);
    if (!rc)
        rc = make_device(&v);
    if (!rc)
        rc = make_swapchain(&v);
    if (!rc)
        rc = upload(&v, rgba);
    if (!rc) {
        VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .queueFamilyIndex = v.family};
        VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1};
        VkSemaphoreCreateInfo sei = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        if (vkCreateCommandPool(v.device, &pci, NULL, &v.pool) != VK_SUCCESS ||
            (cai.commandPool = v.pool,
             vkAllocateCommandBuffers(v.device, &cai, &v.cmd) != VK_SUCCESS) ||
            vkCreateSemaphore(v.device, &sei, NULL, &v.acquired) != VK_SUCCESS ||
            vkCreateSemaphore(v.device, &sei, NULL, &v.copied) != VK_SUCCESS ||
            vkCreateFence(v.device, &fci, NULL, &v.fence) != VK_SUCCESS)
            rc = fail("creating the frame objects", VK_ERROR_INITIALIZATION_FAILED);
    }
    for (int f = 0; !rc && f < frames; f++)
        rc = frame(&v);
    // Destroying the swapchain finishes every present still queued in the
    // driver's presentation thread, so the window holds the last frame when
    // it is read.
    teardown(&v);
    if (!rc)
        rc = read_back(&v, out);
    stbi_image_free(rgba);
    if (v.dpy) {
        XDestroyWindow(v.dpy, v.win);
        XCloseDisplay(v.dpy);
    }
    return rc;
}
