# data/local.mk - standard headers, built-in effects and the default preset
# (included by Makefile.am).

EXTRA_DIST += data/local.mk data/README.md
