#!/bin/sh
# Fails when src/ uses a call that is unsafe on untrusted data.
set -eu
if grep -rnE '(^|[^A-Za-z0-9_])(strcpy|sprintf|strtok|atoi|sscanf|gets)[[:space:]]*\(' src/; then
    echo "banned call found in src/ (use the bounded helpers in src/core/)" >&2
    exit 1
fi
