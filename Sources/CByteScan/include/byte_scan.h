#ifndef ACTIONFLOW_BYTE_SCAN_H
#define ACTIONFLOW_BYTE_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// Copies the leading bytes of `source` that a JSON string can hold as they are (printable
/// ASCII other than a quote or a backslash) to `destination`, and returns how many. Stops at
/// the first other byte. `destination` must have room for `length` bytes: whole blocks of
/// sixteen are stored, so bytes after the returned count may be written too.
size_t byte_scan_copy_json_plain(const uint8_t *source, size_t length, uint8_t *destination);

/// The index of the first byte of `bytes` equal to `a`, `b` or `c` (repeat one to look for
/// fewer), or `length` when there is none.
size_t byte_scan_find_any(const uint8_t *bytes, size_t length, uint8_t a, uint8_t b, uint8_t c);

/// How many leading bytes are printable ASCII (0x20 to 0x7E).
size_t byte_scan_printable_ascii_prefix(const uint8_t *bytes, size_t length);

/// Whether every byte is below 0x80.
int byte_scan_is_ascii(const uint8_t *bytes, size_t length);

#endif
