// xkbcommon: keymaps from names or from the compositor's keymap fd, keysyms, UTF-8 and modifiers;
// Compose tables (dead keys, the Compose key) from the locale, which ship in libxkbcommon-dev.
#ifndef SCROLLWAY_CXKBCOMMON_SHIM_H
#define SCROLLWAY_CXKBCOMMON_SHIM_H
#include <xkbcommon/xkbcommon.h>
#include <xkbcommon/xkbcommon-compose.h>
#endif
