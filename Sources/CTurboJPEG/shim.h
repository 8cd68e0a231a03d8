// libjpeg-turbo's TurboJPEG API (tj*), which reports errors as return values and needs no
// setjmp: libjpeg's own API stops on a broken file with longjmp, which Swift cannot catch.
#ifndef SCROLLWAY_CTURBOJPEG_SHIM_H
#define SCROLLWAY_CTURBOJPEG_SHIM_H
#include <turbojpeg.h>
#endif
