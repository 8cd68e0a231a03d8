// pixman: the images every view rasterizes into and that composition blends. The streaming
// copy and fill of window buffers are a C target of their own, ScrollwayCStreaming.
#ifndef SCROLLWAY_CPIXMAN_SHIM_H
#define SCROLLWAY_CPIXMAN_SHIM_H
#include <pixman.h>

#endif
