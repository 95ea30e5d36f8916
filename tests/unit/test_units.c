/* test_units.c — size, duration and count parsing (util/units.h). */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "util/units.h"

static void sizes(struct check_state *st)
{
	static const struct { const char *text; unsigned long long want; } ok[] = {
		{ "512", 512 }, { "4k", 4096 }, { "4K", 4096 }, { "4KiB", 4096 },
		{ "4Ki", 4096 }, { "128Ki", 128 << 10 }, { "16Mi", 16 << 20 }, { "1gi", 1 << 30 },
		{ "4kb", 4096 }, { "700MiB", 700ULL << 20 }, { "1.5G", 3ULL << 29 },
		{ "0.5k", 512 }, { "2t", 2ULL << 40 }, { "1b", 1 }, { "0", 0 },
		{ "16EiB", 0 },
	};
	static const char *const malformed[] = {
		"", "k", "-4k", " 4k", "4 k", "4x", "4kk", "1.1k", "0x10", "4k ", "nan", "inf",
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int ret = parse_size(ok[i].text, &v);

		if (!strcmp(ok[i].text, "16EiB")) {
			CHECK(st, ret == -EINVAL, "'16EiB' is no known suffix: %d", ret);
			continue;
		}
		CHECK(st, ret == 0 && v == ok[i].want, "'%s' -> %d %llu", ok[i].text, ret,
		      (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		v = 12345;
		CHECK(st, parse_size(malformed[i], &v) == -EINVAL && v == 12345,
		      "'%s' should be refused, untouched", malformed[i]);
	}
	CHECK(st, parse_size("16384p", &v) == -ERANGE, "2^64 bytes overflows");
	CHECK(st, parse_size("16383p", &v) == 0 && v == 16383ULL << 50, "just below 2^64");
}

/*
 * fio's spellings, checked against what fio 3.33 did with each as bs= (the
 * io_bytes / total_ios of a null-engine run, tests/e2e/data/fio/README.md).
 */
static void fio_sizes(struct check_state *st)
{
	static const struct { const char *text; unsigned kb_base; unsigned long long want; } ok[] = {
		{ "4k", 1024, 4096 }, { "4K", 1024, 4096 }, { "4kb", 1024, 4096 },
		{ "4KB", 1024, 4096 }, { "4Ki", 1024, 4096 }, { "4KiB", 1024, 4000 },
		{ "4kib", 1024, 4000 }, { "0x1000", 1024, 4096 }, { "4096", 1024, 4096 },
		{ "1m", 1024, 1 << 20 }, { "1Mi", 1024, 1 << 20 }, { "1MiB", 1024, 1000000 },
		{ "16Mi", 1024, 16 << 20 }, { "4KiB", 1000, 4096 }, { "4k", 1000, 4000 },
		{ "4Ki", 1000, 4000 }, { "512b", 1024, 512 }, { "2t", 1024, 2ULL << 40 },
	};
	static const char *const malformed[] = {
		"", "k", "-4k", " 4k", "4 k", "4x", "4kk", "1.5k", "0x", "0x10k", "4kibb", "4ib",
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		int ret = parse_fio_size(ok[i].text, strlen(ok[i].text), ok[i].kb_base, &v);

		CHECK(st, ret == 0 && v == ok[i].want, "fio '%s' (kb_base %u) -> %d %llu",
		      ok[i].text, ok[i].kb_base, ret, (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		v = 12345;
		CHECK(st, parse_fio_size(malformed[i], strlen(malformed[i]), 1024, &v) == -EINVAL &&
		      v == 12345, "fio '%s' should be refused, untouched", malformed[i]);
	}
	CHECK(st, parse_fio_size("4k-16k", 2, 1024, &v) == 0 && v == 4096, "a length bounds the text");
	CHECK(st, parse_fio_size("4k", 2, 512, &v) == -EINVAL, "kb_base 512 refused");
	CHECK(st, parse_fio_size("16384p", 6, 1024, &v) == -ERANGE, "2^64 bytes overflows");
}

static void durations(struct check_state *st)
{
	static const struct { const char *text; unsigned long long want; } ok[] = {
		{ "10s", 10000000000ULL }, { "500ms", 500000000ULL }, { "2m", 120000000000ULL },
		{ "1h", 3600000000000ULL }, { "250us", 250000ULL }, { "100ns", 100 },
		{ "3", 3000000000ULL }, { "1.5s", 1500000000ULL }, { "0.25ms", 250000ULL },
	};
	static const char *const malformed[] = { "", "s", "-1s", "10x", "1 s", "10mss" };
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		CHECK(st, parse_duration_ns(ok[i].text, &v) == 0 && v == ok[i].want,
		      "'%s' -> %llu", ok[i].text, (unsigned long long)v);
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++)
		CHECK(st, parse_duration_ns(malformed[i], &v) == -EINVAL,
		      "'%s' should be refused", malformed[i]);
	CHECK(st, parse_duration_ns("1000000000h", &v) == -ERANGE, "overflow");
}

static void counts(struct check_state *st)
{
	uint64_t v;

	CHECK(st, parse_count("32", 1, 1024, &v) == 0 && v == 32, "32");
	CHECK(st, parse_count("0", 1, 1024, &v) == -ERANGE, "below min");
	CHECK(st, parse_count("1025", 1, 1024, &v) == -ERANGE, "above max");
	CHECK(st, parse_count("3.5", 1, 1024, &v) == -EINVAL, "fraction");
	CHECK(st, parse_count("-1", 0, 10, &v) == -EINVAL, "negative");
	CHECK(st, parse_count("99999999999999999999999", 0, UINT64_MAX, &v) == -ERANGE,
	      "beyond 64 bits");
}

static void formatting(struct check_state *st)
{
	char buf[32];

	format_size(buf, sizeof(buf), 512);
	CHECK(st, !strcmp(buf, "512 B"), "%s", buf);
	format_size(buf, sizeof(buf), 4096);
	CHECK(st, !strcmp(buf, "4 KiB"), "%s", buf);
	format_size(buf, sizeof(buf), 3ULL << 29);
	CHECK(st, !strcmp(buf, "1.50 GiB"), "%s", buf);
	format_size_exact(buf, sizeof(buf), 64ULL << 30);
	CHECK(st, !strcmp(buf, "64g"), "%s", buf);
	format_size_exact(buf, sizeof(buf), 2880ULL << 10);
	CHECK(st, !strcmp(buf, "2880k"), "%s", buf);
	format_size_exact(buf, sizeof(buf), 1536);
	CHECK(st, !strcmp(buf, "1536"), "%s", buf);
	format_size_exact(buf, sizeof(buf), 0);
	CHECK(st, !strcmp(buf, "0"), "%s", buf);
	for (uint64_t v = 1; v < (1ULL << 62); v = v * 3 + 1024) {
		uint64_t back;

		format_size_exact(buf, sizeof(buf), v);
		if (parse_size(buf, &back) || back != v) {
			CHECK(st, 0, "%llu -> '%s' does not read back", (unsigned long long)v, buf);
			break;
		}
	}
}

int main(void)
{
	struct check_state st = { 0, 0 };

	sizes(&st);
	fio_sizes(&st);
	durations(&st);
	counts(&st);
	formatting(&st);
	return check_exit(&st, "units");
}
