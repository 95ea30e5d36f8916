/*
 * io_request.h — the vocabulary every layer shares: the two operation types
 * and one IO request as the engine hands it to a backend and a simulated
 * drive completes it. Neutral ground, so that model/ and sim/ need not
 * include backend/.
 */
#ifndef IOMODEL_IO_REQUEST_H
#define IOMODEL_IO_REQUEST_H

#include <stdint.h>

enum io_op {
	IO_READ = 0,
	IO_WRITE = 1,
};

/* "read" or "write": the one spelling used in every output. */
static inline const char *io_op_name(enum io_op op)
{
	return op == IO_WRITE ? "write" : "read";
}

struct io_request {
	uint64_t offset;
	uint32_t length;
	enum io_op op;
	unsigned slot;		/* unique among requests in flight: 0 .. queue_depth-1 */
	unsigned buf_index;	/* which of the registered buffers */
	void *buf;
	uint64_t submit_ns;	/* set by the engine when queued */
	uint64_t complete_ns;	/* set by the backend on completion */
	int64_t result;		/* set by the backend: bytes done or -errno */
};

#endif
