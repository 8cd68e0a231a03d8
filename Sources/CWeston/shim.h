// libweston-10's public headers: used by the input-injection module and to pin the weston
// version the test rig is built against.
#ifndef SCROLLWAY_CWESTON_SHIM_H
#define SCROLLWAY_CWESTON_SHIM_H
// pixman.h through CPixman's shim, so that module (not this one) owns its declarations:
// otherwise a file importing only CPixman cannot see them once this module is built first.
#include "../CPixman/shim.h"
#include <libweston/libweston.h>
#include <libweston/version.h>
#include <libweston/config-parser.h>
#if WESTON_VERSION_MAJOR != 10
#error "Scrollway's test rig is pinned to libweston 10 (its input entry points are internal API)"
#endif
#endif
