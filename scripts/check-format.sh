#!/bin/sh
# Fails when clang-format would change any C file.
set -eu
files=$(find src tests/unit tests/fuzz -name '*.[ch]' | sort)
clang-format --dry-run --Werror $files
