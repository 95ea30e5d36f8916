/*
 * units.h — parsing and printing of byte sizes, durations and counts as the
 * command line spells them.
 *
 * Sizes take binary multiples whatever the spelling: "512", "4k", "4K",
 * "4Ki", "4KiB", "4kb", "700MiB", "1.5G", "2t". A fraction must come out as a whole
 * number of bytes ("1.5k" is 1536, "1.1k" is refused).
 * Durations: "10s", "500ms", "250us", "100ns", "2m", "1h"; a bare number
 * means seconds. Fractions are allowed ("1.5s").
 * All parsers return 0, -EINVAL for malformed text or -ERANGE for a value
 * that does not fit, and leave *out untouched on failure.
 */
#ifndef IOMODEL_UNITS_H
#define IOMODEL_UNITS_H

#include <stddef.h>
#include <stdint.h>

int parse_size(const char *text, uint64_t *out);
int parse_duration_ns(const char *text, uint64_t *out);
/*
 * A size as fio reads it (its parse.c), from the `len` bytes at `text` (no
 * NUL needed): decimal digits, or "0x" and hex digits without a suffix, then
 * an optional suffix, case ignored: "b"; a prefix k, m, g, t, p alone or
 * followed by "b" or "i" (units of kb_base: 4k, 4kb, 4Ki are 4096 when
 * kb_base is 1024, fio's default, 4000 when it is 1000); or the prefix and
 * "ib" (the other unit: 4KiB is 4000 under kb_base 1024, 4096 under 1000, as
 * fio keeps old job files working). No sign, fraction or blank. kb_base
 * must be 1000 or 1024 (-EINVAL otherwise).
 */
int parse_fio_size(const char *text, size_t len, unsigned kb_base, uint64_t *out);
/* A plain decimal integer in [min, max]; -ERANGE outside it. */
int parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out);

/* "512 B", "4 KiB", "1.50 GiB": exact multiples print without decimals. */
void format_size(char *buf, size_t len, uint64_t bytes);
/* The shortest spelling parse_size() reads back exactly: "64g", "2880k", "1536". */
void format_size_exact(char *buf, size_t len, uint64_t bytes);

#define NSEC_PER_SEC 1000000000ULL
#define MIB (1024.0 * 1024.0)

#endif
