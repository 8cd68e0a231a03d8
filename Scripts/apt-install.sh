#!/usr/bin/env bash
# apt-install.sh WHO PACKAGE...: installs Debian packages as root or through sudo
# (`apt-get update`, then `apt-get install -y --no-install-recommends`). WHO names the caller in
# the error message. The lists themselves live in the callers: Scripts/install-deps.sh (the
# one list of Scrollway's dependencies) and Benchmarks/gtk4-peer/install.sh (the bench's peer).
set -euo pipefail

who=$1
shift
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "$who: need root or sudo to install: $*" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update
"${SUDO[@]}" apt-get install -y --no-install-recommends "$@"
