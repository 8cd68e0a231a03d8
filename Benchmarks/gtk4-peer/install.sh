#!/usr/bin/env bash
# Installs what the GTK4 benchmark peer (gtk4-list.py) needs, from Debian 12 packages.
# Only for the peer: this is not part of Scrollway's dependencies (Scripts/install-deps.sh).
# Idempotent: apt-get skips what is already installed (it upgrades a named package whose
# Debian version moved on). Works as root or through sudo.
set -euo pipefail

PACKAGES=(
  # The system python the peer runs under (/usr/bin/python3); pyenv pythons lack gi.
  python3
  # PyGObject: the GObject-introspection bindings the script imports as `gi`.
  python3-gi
  # GTK 4 typelib (pulls libgtk-4-1, the GTK 4 library itself).
  gir1.2-gtk-4.0
  # The font the peer's CSS asks for, same as Scrollway's list scene.
  fonts-dejavu-core
  # Only for GSK_RENDERER=gl (and GTK's default, which is gl): EGL and Mesa's software
  # rasteriser (llvmpipe), as there is no GPU. GTK loads them at run time, so nothing
  # above pulls them in; GSK_RENDERER=cairo needs neither.
  libegl1 libgl1-mesa-dri
)

bash "$(dirname "$0")/../../Scripts/apt-install.sh" install.sh "${PACKAGES[@]}"
