// pixman: the images every view rasterizes into and that composition blends.
#ifndef SCROLLWAY_CPIXMAN_SHIM_H
#define SCROLLWAY_CPIXMAN_SHIM_H
#include <pixman.h>
#endif
