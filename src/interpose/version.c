/*
 * version.c - the version string, one place for the log and `fxgl --version`.
 */
#include "config.h"

#include "fxgl_interpose.h"

const char *ip_version(void) {
    return PACKAGE_NAME " " PACKAGE_VERSION;
}
