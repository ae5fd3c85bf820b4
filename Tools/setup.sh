#!/usr/bin/env bash
# Installs what building LiveCollection needs and is missing: jansson
# (libjansson-dev), libedit (libedit-dev, the REPL's line editing) and
# pkg-config; with --tests, also tmux (the REPL's terminal test), chromium and
# chromium-driver (the inspector page's browser test) and nodejs (the pages'
# scripts parsed). Safe to run again; does nothing when all is there.
set -euo pipefail

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if ! pkg-config --exists jansson 2>/dev/null; then need+=(libjansson-dev); fi
if ! pkg-config --exists libedit 2>/dev/null; then need+=(libedit-dev); fi
if [ "${1:-}" = "--tests" ]; then
    command -v tmux >/dev/null 2>&1 || need+=(tmux)
    command -v chromium >/dev/null 2>&1 || need+=(chromium)
    command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
    command -v node >/dev/null 2>&1 || need+=(nodejs)
fi
if [ "${#need[@]}" -gt 0 ]; then
    echo "setup: installing ${need[*]}"
    sudo_cmd=()
    [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
    echo "setup: the Swift toolchain (swift) is not on PATH; install Swift 6.1 or newer first." >&2
    exit 1
fi
