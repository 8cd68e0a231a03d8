// Streaming (non-temporal) copies and fills of whole rows, for window buffers that the
// compositor reads next, not this process (`Canvas.copyStreaming`, `Canvas.streamsFills`).
// Why and what each saved: docs/decisions.md.
#ifndef SCROLLWAY_CSTREAMING_H
#define SCROLLWAY_CSTREAMING_H

#include <stddef.h>
#include <stdint.h>

/// memmove with non-temporal stores: the same bytes end up at `dst`, but written around the
/// caches, without the read of each destination line that plain stores make first; the source
/// is fetched ahead non-temporally, so megabytes read once do not evict the working set.
/// Overlap is allowed in either direction (copied forwards when `dst` is before `src`,
/// backwards when after). Off x86-64, memmove.
void sw_memmove_streaming(void *dst, const void *src, size_t n);

/// Fills `height` rows of `width` 32-bit pixels, `stride` bytes apart, with `pixel`, using
/// streaming stores: what pixman's solid SRC fill writes, without first reading each
/// destination line into the cache. `dst` must be 4-byte aligned. Off x86-64, plain stores.
void sw_fill_streaming(void *dst, size_t stride, size_t width, size_t height, uint32_t pixel);

#endif
