#!/bin/sh
# Runs a command with an unlocked Secret Service on Linux (a private D-Bus session with a fresh
# GNOME Keyring in a temporary folder), so keychain tests use the real thing without touching the
# user's own keyring. Elsewhere, or when already inside one, runs the command as is.
set -e
# Electron's specs open windows: where its runtime was fetched and there is no display, run under Xvfb.
if [ "$(uname -s)" = "Linux" ] && [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1 \
  && [ -f node_modules/electron/path.txt ] && [ -e "node_modules/electron/dist/$(cat node_modules/electron/path.txt)" ]; then
  exec xvfb-run -a sh "$0" "$@"
fi
if [ "$(uname -s)" = "Linux" ] && [ -z "${SELLER_DESK_IN_KEYRING:-}" ] && command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  export SELLER_DESK_IN_KEYRING=1
  SELLER_DESK_KEYRING_DIR=$(mktemp -d)
  export SELLER_DESK_KEYRING_DIR
  trap 'rm -rf "$SELLER_DESK_KEYRING_DIR"' EXIT
  dbus-run-session -- sh -c 'printf "%s" "seller-desk-test" | XDG_DATA_HOME="$SELLER_DESK_KEYRING_DIR" gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"' sh "$@" || exit $?
  exit 0
fi
exec "$@"
