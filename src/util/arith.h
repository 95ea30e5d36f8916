/* arith.h — small integer helpers shared by the models and the simulators. */
#ifndef IOMODEL_ARITH_H
#define IOMODEL_ARITH_H

#include <stdint.h>

/* Greatest common divisor (Euclid); gcd(a, 0) = a. */
static inline uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

#endif
