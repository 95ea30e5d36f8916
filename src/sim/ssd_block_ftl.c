/*
 * ssd_block_ftl.c — the block-mapped flash translation layer of the early
 * MLC drives (JMicron JMF602: OCZ Core, RiDATA). The host's address space is
 * cut into merge units of erase_block x channels bytes; each unit is mapped
 * whole onto one erase block per channel, page i of the unit on channel
 * i % channels, so large transfers run on all channels at once. There is no
 * page map: a unit can only be rewritten whole. A write that leaves part of
 * a unit untouched merges it — reads the untouched pages, erases the blocks,
 * programs the whole unit. Hence the 0-2 penalties of a random write: none
 * for an aligned write of whole units, one for a small write inside a unit,
 * two for a large write with ragged ends. A full penalty costs
 * unit/read STR + erase + unit/program STR, which is the seeds'
 * C/R + C/W for merge unit C.
 *
 * Invariants:
 *   1. A unit is mapped (holds host data) or not. Only a write maps it; only
 *      a TRIM covering the whole unit unmaps it.
 *   2. A write to a mapped unit costs, on every channel, one erase and the
 *      programming of all ppb pages there, plus a read of each page there the
 *      write does not cover whole (a page written in part is read, merged
 *      and programmed: read-modify-write) — or, with merge=whole (the
 *      JMF602), of every page of the unit whenever the write leaves any of
 *      it: the controller reads the unit whole, merges in the new data and
 *      rewrites it whole, so a large write with ragged ends pays two full
 *      penalties, the seeds' 0-1-2 steps.
 *   3. A write to an unmapped unit programs only the pages it touches: the
 *      blocks behind it are erased already (fresh drive, or erased in the
 *      background after TRIM).
 *   4. Each channel does its share of a unit in one booking; channels work in
 *      parallel, and on one channel units follow one another in request
 *      order. time_spread spreads each booking on its own draw, or, with
 *      lockstep=on, one draw per unit written in part times every
 *      channel's share alike (a unit written whole takes its nominal time,
 *      no draw), so a merge's time (the slowest channel's) keeps its
 *      nominal mean; a read's draw times the first page on every channel,
 *      the pages after it take their nominal time (their own spread
 *      averages out).
 *   5. With merge_stall_rate, a write that merges a mapped unit stalls with
 *      that chance: every channel of the unit is held merge_stall_ms longer
 *      (the JMF602's stutter). Whole-unit writes and reads never stall.
 *
 * States of a merge unit and the function behind each transition:
 *
 *      unmapped --write_unit(): program the touched pages--> mapped
 *      mapped --write_unit(): whole unit, erase + program--> mapped
 *      mapped --write_unit(): partial, merge (read, erase, program)--> mapped
 *      mapped --ssd_bftl_trim(): TRIM of the whole unit--> unmapped
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ssd_dev.h"

/* How many of the pages [pa, pb) live on channel c (page i on i % ch). */
static uint64_t span(uint64_t pa, uint64_t pb, uint64_t c, uint64_t ch)
{
	if (pb <= pa)
		return 0;
	return (pb + ch - 1 - c) / ch - (pa + ch - 1 - c) / ch;
}

#define NOMINAL ((uint64_t)1 << 32)	/* lockstep scale of work whose spread averages out */

/*
 * lockstep: one draw times the work of a unit (of a read) on every channel,
 * the scale x 2^32; 0 when each channel's booking draws its own (or none).
 */
static uint64_t lockstep_scale(struct ssd_dev *d)
{
	return d->lockstep && d->t.spread_q32 ? ssd_spread(d, NOMINAL) : 0;
}

/* dur x scale / 2^32 */
static uint64_t scaled(uint64_t dur, uint64_t scale)
{
	return (uint64_t)(((unsigned __int128)dur * scale) >> 32);
}

/* Book `dur` (x scale, or spread on its own) and then `stall` on channel c. */
static uint64_t book(struct ssd_dev *d, uint64_t c, uint64_t at, uint64_t dur, uint64_t scale,
		     uint64_t stall)
{
	if (scale)
		dur = scaled(dur, scale);
	else if (d->t.spread_q32)
		dur = ssd_spread(d, dur);
	return ssd_chan_book(d, (unsigned)c, at, dur + stall);
}

/* Write bytes [a, b) of unit u, the data at hand from `at`; the end time. */
static uint64_t write_unit(struct ssd_dev *d, uint64_t u, uint64_t a, uint64_t b, uint64_t at)
{
	const struct ssd_geometry *g = &d->g;
	uint64_t pa = a / g->page, pb = (b + g->page - 1) / g->page;
	uint64_t fa = (a + g->page - 1) / g->page, fb = b / g->page;
	bool partial = a || b != g->unit;
	uint64_t end = at, scale = partial || !d->lockstep ? lockstep_scale(d) : NOMINAL, stall = 0;

	if (!d->bf.mapped[u]) {
		for (uint64_t c = 0; c < g->channels; c++) {
			uint64_t n = span(pa, pb, c, g->channels);

			if (n)
				end = ssd_max(end, book(d, c, at, n * d->t.prog, scale, 0));
		}
		d->cnt.media_write_bytes += (pb - pa) * g->page;
		d->bf.mapped[u] = 1;
		d->bf.nmapped++;
		return end;
	}
	if (partial && d->t.merge_stall_below && rng_next(&d->jitter) < d->t.merge_stall_below)
		stall = d->t.merge_stall;	/* the controller stutters: every channel waits */
	for (uint64_t c = 0; c < g->channels; c++) {
		bool whole = d->merge == SSD_MERGE_WHOLE && partial;
		uint64_t reads = whole ? g->ppb : g->ppb - span(fa, fb, c, g->channels);
		uint64_t work = reads * d->t.read + d->t.erase + g->ppb * d->t.prog;

		end = ssd_max(end, book(d, c, at, work, scale, stall));
		d->cnt.media_read_bytes += reads * g->page;
	}
	d->cnt.erases += g->channels;
	d->cnt.media_write_bytes += g->unit;
	if (partial)
		d->cnt.merges++;
	return end;
}

int ssd_bftl_write(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at, uint64_t *done)
{
	uint64_t end = off + len, unit = d->g.unit, t = at;

	for (uint64_t u = off / unit; u * unit < end; u++) {
		uint64_t base = u * unit;
		uint64_t a = off > base ? off - base : 0;
		uint64_t b = end < base + unit ? end - base : unit;

		t = ssd_max(t, write_unit(d, u, a, b, at));
	}
	*done = t;
	return 0;
}

uint64_t ssd_bftl_read(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at)
{
	const struct ssd_geometry *g = &d->g;
	uint64_t pa = off / g->page, pb = (off + len + g->page - 1) / g->page, end = at;
	uint64_t scale = lockstep_scale(d), first = scale ? scaled(d->t.read, scale) : d->t.read;

	if (d->lockstep)	/* the bus waits for the first pages as they are read */
		d->bf.first_ready = at + first;
	for (uint64_t c = 0; c < g->channels; c++) {
		uint64_t n = span(pa, pb, c, g->channels);

		if (n && d->lockstep)	/* the drawn first page, then pages whose spread averages out */
			end = ssd_max(end, ssd_chan_book(d, (unsigned)c, at, (n - 1) * d->t.read + first));
		else if (n)
			end = ssd_max(end, ssd_chan_run(d, (unsigned)c, at, n * d->t.read));
	}
	d->cnt.media_read_bytes += (pb - pa) * g->page;
	return end;
}

void ssd_bftl_trim(struct ssd_dev *d, uint64_t off, uint64_t len)
{
	uint64_t unit = d->g.unit;

	for (uint64_t u = (off + unit - 1) / unit; (u + 1) * unit <= off + len; u++) {
		if (d->bf.mapped[u]) {
			d->bf.mapped[u] = 0;
			d->bf.nmapped--;
		}
	}
}

int ssd_bftl_init(struct ssd_dev *d, const struct ssd_config *c)
{
	uint64_t keep;

	d->bf.mapped = calloc(d->g.units, 1);
	if (!d->bf.mapped)
		return -ENOMEM;
	if (c->state == SSD_FRESH)
		return 0;
	memset(d->bf.mapped, 1, d->g.units);
	d->bf.nmapped = d->g.units;
	if (c->state == SSD_TRIMMED && c->trim) {
		keep = (uint64_t)(c->live * (double)c->capacity);
		keep = keep > c->capacity ? c->capacity : keep;
		ssd_bftl_trim(d, keep, c->capacity - keep);
	}
	return 0;
}

void ssd_bftl_release(struct ssd_dev *d)
{
	free(d->bf.mapped);
	d->bf.mapped = NULL;
}
