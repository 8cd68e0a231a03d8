// xkbcommon: keymaps from names or from the compositor's keymap fd, keysyms, UTF-8 and modifiers.
#ifndef SCROLLWAY_CXKBCOMMON_SHIM_H
#define SCROLLWAY_CXKBCOMMON_SHIM_H
#include <xkbcommon/xkbcommon.h>
#endif
