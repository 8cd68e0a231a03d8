#!/usr/bin/env bash
# Installs every Debian package Scrollway needs to build, test and run.
# This is the ONE list of system dependencies: README, BUILDING.md and .ci/run all call it.
# Idempotent: apt-get skips what is already installed. Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  # Wayland client library, wayland-scanner and the protocol XMLs we generate code from.
  libwayland-dev libwayland-bin wayland-protocols
  # Keyboard maps: xkbcommon and the keymap data it compiles from.
  libxkbcommon-dev xkb-data
  # Compose tables (dead keys, the Compose key) by locale: /usr/share/X11/locale/*/Compose.
  libx11-data
  # Raster: pixman images, fcft text (FreeType + fontconfig, shaped by HarfBuzz), fribidi for
  # right-to-left text, PNG and JPEG files (libjpeg-turbo's TurboJPEG API), the default font
  # (DejaVu covers Latin, Hebrew and Arabic).
  libpixman-1-dev libfcft-dev libfribidi-dev libpng-dev libturbojpeg0-dev fonts-dejavu-core
  # The headless test compositor and the headers our input-injection module builds against.
  weston libweston-10-dev
  # The other desktops the conformance suite and `scrollway rig --compositor` run headless:
  # sway (wlroots; it runs as nobody through setpriv, from util-linux, when we are root),
  # mutter (GNOME's, in a session bus of its own from dbus), and phoc with squeekboard (the
  # phone stack; gsettings turns the screen keyboard on).
  sway util-linux mutter dbus phoc squeekboard libglib2.0-bin
  # KWin (KDE's; the rig runs a copy of kwin_wayland, whose file capability a container may refuse).
  kwin-wayland
  # sd-bus, the one D-Bus library: the rigs speak to mutter and KWin over D-Bus.
  libsystemd-dev
  # Accessibility: at-spi2-core's bus launcher and registry (`AccessibilityBus`), and libatspi
  # through Python's GObject bindings, the AT-SPI client the tests read an app's tree with
  # (Scripts/atspi-client.py).
  at-spi2-core python3-gi gir1.2-atspi-2.0
  # Orca, the screen reader, run headless by the tests (`ScreenReader`): GTK 3's broadwayd gives
  # it a display, speech-dispatcher takes its speech (a module of ours writes it to a file).
  orca libgtk-3-bin speech-dispatcher
  # Build tooling used by the scripts (pkg-config locates every library above).
  pkg-config
)

bash "$(dirname "$0")/apt-install.sh" install-deps.sh "${PACKAGES[@]}"
