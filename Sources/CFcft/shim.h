// fcft: FreeType + fontconfig text rasterized into pixman glyph images (the stack foot uses).
// fcft_init() must run before fcft_from_name().
#ifndef SCROLLWAY_CFCFT_SHIM_H
#define SCROLLWAY_CFCFT_SHIM_H
// pixman.h through CPixman's shim, so that module (not this one) owns its declarations:
// otherwise a file importing only CPixman cannot see them once this module is built first.
#include "../CPixman/shim.h"
#include <fcft/fcft.h>
#endif
