// libpng's simplified API (png_image_*), which reports errors in the struct and needs no setjmp.
#ifndef SCROLLWAY_CPNG_SHIM_H
#define SCROLLWAY_CPNG_SHIM_H
#include <png.h>
#endif
