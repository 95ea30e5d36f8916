/*
 * scratch.h — iomodel's own scratch files: made under a new name only, laid
 * out with incompressible data, marked as iomodel's so that one left behind
 * (SIGKILL, power loss, --keep) is recognised by the next run, and removed
 * only while the name still names the same file.
 *
 * The mark is the extended attribute user.iomodel.scratch. Its states:
 *
 *   (created, O_CREAT|O_EXCL|O_NOFOLLOW)
 *        │ scratch_lay_out(): mark "laying-out" before the first byte
 *        ▼
 *   laying-out ── killed ──► a leftover that is re-laid out (never measured)
 *        │ every byte written and fsync()ed
 *        ▼
 *   complete ─── killed / --keep ──► a leftover that may be reused
 *
 * Invariant: a file marked "complete" holds `size` bytes of layout data that
 * reached the medium. A filesystem without user xattrs (ENOTSUP, EPERM)
 * leaves the file unmarked: it is laid out and removed the same way, but a
 * leftover is then not recognised and counts as the user's file.
 */
#ifndef IOMODEL_SCRATCH_H
#define IOMODEL_SCRATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#define SCRATCH_XATTR "user.iomodel.scratch"

enum scratch_state {
	SCRATCH_UNMARKED,	/* no mark (a user's file, or no xattr support) */
	SCRATCH_LAYING_OUT,	/* iomodel's, killed during its layout */
	SCRATCH_COMPLETE,	/* iomodel's, fully laid out */
};

/* The mark on the open file `fd`; SCRATCH_UNMARKED if none or unreadable. */
enum scratch_state scratch_state(int fd);

/*
 * Write `size` bytes of incompressible data at offset 0 of `fd` (opened for
 * writing, without O_DIRECT): one word per 512-byte sector is fresh, so no
 * two sectors are equal (defeats dedup as well as compression). When `mark`,
 * the file carries "laying-out" from before the first write until the data is
 * synced, then "complete". Space is reserved first, so a full filesystem
 * fails at once. Checks `*stop` (may be NULL) between 1 MiB chunks.
 * Returns 0, -EINTR when stopped, or a negative errno (-ENOSPC, -EIO...).
 */
int scratch_lay_out(int fd, uint64_t size, bool mark, const volatile sig_atomic_t *stop);

/*
 * Remove `name` in the directory `dirfd` if it still names the file open as
 * `fd` (same device and inode), so a file put in its place is never removed.
 */
void scratch_remove(int dirfd, const char *name, int fd);

#endif
