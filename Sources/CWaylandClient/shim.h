// wayland-client and wayland-cursor. The libc calls Swift cannot reach directly are a C target
// of their own, ScrollwayCSystem.
#ifndef SCROLLWAY_CWAYLANDCLIENT_SHIM_H
#define SCROLLWAY_CWAYLANDCLIENT_SHIM_H

#include <wayland-client.h>
#include <wayland-cursor.h>

#endif
