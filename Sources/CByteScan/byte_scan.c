#include "byte_scan.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

/// 0xFF for each byte of `block` that is not printable ASCII. A signed comparison with 0x20
/// also catches every byte from 0x80 up.
static inline __m128i unprintable(__m128i block) {
    return _mm_or_si128(_mm_cmplt_epi8(block, _mm_set1_epi8(0x20)), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x7F)));
}

/// One bit per byte of `block` that a JSON string cannot hold as it is.
static inline unsigned json_stops(__m128i block) {
    __m128i stops = _mm_or_si128(unprintable(block),
                                 _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('"')), _mm_cmpeq_epi8(block, _mm_set1_epi8('\\'))));
    return (unsigned)_mm_movemask_epi8(stops);
}
#endif

static inline int is_printable(uint8_t byte) {
    return byte >= 0x20 && byte < 0x7F;
}

static inline int is_json_plain(uint8_t byte) {
    return is_printable(byte) && byte != '"' && byte != '\\';
}

size_t byte_scan_copy_json_plain(const uint8_t *source, size_t length, uint8_t *destination) {
#if defined(__SSE2__)
    if (length >= 16) {
        size_t index = 0;
        for (; index + 16 <= length; index += 16) {
            __m128i block = _mm_loadu_si128((const __m128i *)(source + index));
            _mm_storeu_si128((__m128i *)(destination + index), block);
            unsigned stops = json_stops(block);
            if (stops != 0) return index + (size_t)__builtin_ctz(stops);
        }
        if (index == length) return length;
        // The last sixteen bytes, overlapping bytes already found plain and copied.
        size_t last = length - 16;
        __m128i block = _mm_loadu_si128((const __m128i *)(source + last));
        _mm_storeu_si128((__m128i *)(destination + last), block);
        unsigned stops = json_stops(block) >> (index - last);
        return stops != 0 ? index + (size_t)__builtin_ctz(stops) : length;
    }
    if (length >= 8) {
        // The first and the last eight bytes (they overlap below sixteen).
        uint64_t head, tail;
        memcpy(&head, source, 8);
        memcpy(&tail, source + length - 8, 8);
        memcpy(destination, &head, 8);
        memcpy(destination + length - 8, &tail, 8);
        unsigned stops = json_stops(_mm_set_epi64x((long long)tail, (long long)head));
        if ((stops & 0xFF) != 0) return (size_t)__builtin_ctz(stops);
        return (stops >> 8) != 0 ? length - 8 + (size_t)__builtin_ctz(stops >> 8) : length;
    }
#endif
    size_t index = 0;
    while (index < length && is_json_plain(source[index])) {
        destination[index] = source[index];
        index += 1;
    }
    return index;
}

size_t byte_scan_find_any(const uint8_t *bytes, size_t length, uint8_t a, uint8_t b, uint8_t c) {
    size_t index = 0;
#if defined(__SSE2__)
    if (length >= 16) {
        const __m128i wantA = _mm_set1_epi8((char)a), wantB = _mm_set1_epi8((char)b), wantC = _mm_set1_epi8((char)c);
        for (;; index += 16) {
            // The last block overlaps bytes already looked at, which hold none of the three.
            size_t at = index + 16 <= length ? index : length - 16;
            __m128i block = _mm_loadu_si128((const __m128i *)(bytes + at));
            __m128i found = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(block, wantA), _mm_cmpeq_epi8(block, wantB)), _mm_cmpeq_epi8(block, wantC));
            unsigned mask = (unsigned)_mm_movemask_epi8(found);
            if (mask != 0) return at + (size_t)__builtin_ctz(mask);
            if (at + 16 == length) return length;
        }
    }
#endif
    for (; index < length; index++) {
        uint8_t byte = bytes[index];
        if (byte == a || byte == b || byte == c) break;
    }
    return index;
}

size_t byte_scan_printable_ascii_prefix(const uint8_t *bytes, size_t length) {
    size_t index = 0;
#if defined(__SSE2__)
    if (length >= 16) {
        for (;; index += 16) {
            // The last block overlaps bytes already found printable.
            size_t at = index + 16 <= length ? index : length - 16;
            __m128i block = _mm_loadu_si128((const __m128i *)(bytes + at));
            unsigned mask = (unsigned)_mm_movemask_epi8(unprintable(block));
            if (mask != 0) return at + (size_t)__builtin_ctz(mask);
            if (at + 16 == length) return length;
        }
    }
#endif
    while (index < length && is_printable(bytes[index])) index += 1;
    return index;
}

int byte_scan_is_ascii(const uint8_t *bytes, size_t length) {
    size_t index = 0;
    uint64_t combined = 0;
    for (; index + 8 <= length; index += 8) {
        uint64_t word;
        memcpy(&word, bytes + index, 8);
        combined |= word;
    }
    for (; index < length; index++) combined |= bytes[index];
    return (combined & 0x8080808080808080ULL) == 0;
}
