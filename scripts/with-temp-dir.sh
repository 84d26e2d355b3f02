#!/bin/sh
# Runs a command with TMPDIR set to a fresh folder of its own, removed when it ends (passed, failed or
# stopped): the snapshots, user-data folders and browser profiles the tests make do not pile up in the
# system's temporary folder run after run (they filled this machine's disk once).
dir=$(mktemp -d "${TMPDIR:-/tmp}/seller-desk-tests-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
TMPDIR="$dir" "$@"
