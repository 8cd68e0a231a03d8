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
static inline FriBidiParType sw_fribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType sw_fribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }
// What rule P2 reads of a code point: 1 a strong left-to-right letter (L), 2 a strong
// right-to-left one (R, AL), 3 an isolate's opening (LRI, RLI, FSI), 4 its closing (PDI), 0
// anything else.
static inline int sw_fribidi_p2_class(FriBidiChar c) {
    FriBidiCharType t = fribidi_get_bidi_type(c);
    if (t == FRIBIDI_TYPE_LTR) return 1;
    if (t == FRIBIDI_TYPE_RTL || t == FRIBIDI_TYPE_AL) return 2;
    if (t == FRIBIDI_TYPE_LRI || t == FRIBIDI_TYPE_RLI || t == FRIBIDI_TYPE_FSI) return 3;
    if (t == FRIBIDI_TYPE_PDI) return 4;
    return 0;
}
#endif
