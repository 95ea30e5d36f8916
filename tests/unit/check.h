/*
 * check.h — the few macros the unit test programs share: CHECK() prints one
 * line per assertion that fails and counts it; check_exit() turns the count
 * into the exit status meson reads (0 pass, 1 fail).
 */
#ifndef IOMODEL_TEST_CHECK_H
#define IOMODEL_TEST_CHECK_H

#include <stdio.h>

struct check_state {
	unsigned run;
	unsigned failed;
};

#define CHECK(st, cond, ...)                                                 \
	do {                                                                 \
		(st)->run++;                                                 \
		if (!(cond)) {                                               \
			(st)->failed++;                                      \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                 \
			putchar('\n');                                       \
		}                                                            \
	} while (0)

static inline int check_exit(const struct check_state *st, const char *name)
{
	printf("%s: %u checks, %u failed\n", name, st->run, st->failed);
	return st->failed ? 1 : 0;
}

#endif
