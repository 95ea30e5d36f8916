/*
 * bug.h — BUG_ON(): a broken invariant, as opposed to bad input or a failing
 * device. Module headers state their invariants in words; the code checks
 * them with BUG_ON() where they can break. Checked in debug builds (and so in
 * the ASan build of the test suite); compiled out with NDEBUG (release), where
 * the condition is still type-checked but never evaluated.
 *
 * Never use it for anything a user or a device can cause: those are errors
 * returned as -errno with a struct errmsg.
 */
#ifndef IOMODEL_BUG_H
#define IOMODEL_BUG_H

#include <stdio.h>
#include <stdlib.h>

#ifdef NDEBUG
#define BUG_ON(cond) ((void)sizeof(!(cond)))
#else
#define BUG_ON(cond) \
	((cond) ? bug_fail(__FILE__, __LINE__, __func__, #cond) : (void)0)
#endif

__attribute__((noreturn, cold)) static inline void
bug_fail(const char *file, int line, const char *func, const char *cond)
{
	fprintf(stderr, "iomodel: BUG at %s:%d in %s(): %s\n", file, line, func, cond);
	abort();
}

#endif
