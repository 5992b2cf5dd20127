# bench/setup.sh - sourced by the bench scripts (with $top set): finds or
# makes the build tree they take their programs from, so that each script
# runs from a fresh clone with one command.
#
# bench_build FILE... sets $build: $BUILD when given; else the first of
# b/ (a developer's tree) and build/ (tools/bootstrap.sh's) that holds every
# FILE (paths inside a build tree); else it runs `sh tools/bootstrap.sh
# bench`, which installs the Debian packages the scripts use and builds
# build/ with every bench program, and takes build/.
bench_build() {
    if [ -n "${BUILD:-}" ]; then
        build=$(cd "$BUILD" && pwd)
        return 0
    fi
    for candidate in "$top/b" "$top/build"; do
        complete=yes
        for f in "$@"; do
            [ -e "$candidate/$f" ] || complete=no
        done
        if [ "$complete" = yes ]; then
            build=$candidate
            return 0
        fi
    done
    echo "$(basename "$0"): no build tree with $*: running sh tools/bootstrap.sh bench" >&2
    sh "$top/tools/bootstrap.sh" bench >&2 || exit 1
    build=$top/build
}
