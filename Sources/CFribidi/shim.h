// fribidi: the Unicode Bidirectional Algorithm (UAX #9). Raster asks it for each paragraph's
// embedding levels (and so its base direction) and reorders each line itself from them.
#ifndef SCROLLWAY_CFRIBIDI_SHIM_H
#define SCROLLWAY_CFRIBIDI_SHIM_H
#include <stdbool.h>
#include <fribidi.h>

// FRIBIDI_PAR_ON and FRIBIDI_IS_RTL are macros built from other macros, which Swift does not
// import: these name them.
static inline FriBidiParType sw_fribidi_par_auto(void) { return FRIBIDI_PAR_ON; }
static inline bool sw_fribidi_par_is_rtl(FriBidiParType t) { return FRIBIDI_IS_RTL(t) != 0; }
#endif
