// sd-bus, libsystemd's D-Bus client and service library: the project's one D-Bus library
// (BUILDING.md says why). Only the bus is used, not the rest of libsystemd.
#ifndef SCROLLWAY_CSYSTEMD_SHIM_H
#define SCROLLWAY_CSYSTEMD_SHIM_H
#include <systemd/sd-bus.h>
#endif
