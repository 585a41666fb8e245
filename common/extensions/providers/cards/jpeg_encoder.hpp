// JPEG bytes of a rendered card through libjpeg: Cairo keeps pixels as native-endian 32-bit
// words, libjpeg takes rows of RGB bytes.
#pragma once

#include <cairo.h>

#include <string>

namespace squawk::providers::cards {

// `card` is an image surface in RGB24 (or ARGB32, whose premultiplied channels are then the
// picture over black); `quality` is 1..100. Throws generation::ProviderError (retryable) when
// libjpeg fails, which only running out of memory can cause here.
std::string encode_jpeg(cairo_surface_t* card, int quality);

}  // namespace squawk::providers::cards
