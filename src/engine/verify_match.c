/*
 * verify_match.c — matching misdirected writes with the stale blocks they
 * leave (verify_match.h), for one job or for the ledger of a run's jobs.
 *
 * The misdirected writes are sorted by the place their header names (and
 * their sequence number); each stale block, in the order found, looks up the
 * first unmatched write meant for its offset (and sequence, when it knows
 * which write it expected) by binary search.
 */
#include "verify_match.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/bug.h"
#include "util/dynbuf.h"

/* Most entries of each list of a ledger: the cap of every job's, for 1024 jobs. */
#define LEDGER_MAX ((size_t)VERIFY_MATCH_MAX << 10)

struct verify_ledger {
	pthread_mutex_t lock;
	struct verify_match m;
};

void verify_match_init(struct verify_match *m)
{
	memset(m, 0, sizeof(*m));
}

void verify_match_release(struct verify_match *m)
{
	free(m->stale);
	free(m->mis);
	verify_match_init(m);
}

void verify_match_add_stale(struct verify_match *m, unsigned job, const struct verify_failure *f,
			    bool first)
{
	if (array_grow((void **)&m->stale, &m->alloc_stale, m->n_stale + 1, sizeof(*m->stale),
		       VERIFY_MATCH_MAX) == 0)
		m->stale[m->n_stale++] = (struct verify_stale){ f->offset, f->expected_sequence,
								job, first, false };
}

void verify_match_add_misdirected(struct verify_match *m, unsigned job,
				  const struct verify_failure *f)
{
	if (array_grow((void **)&m->mis, &m->alloc_mis, m->n_mis + 1, sizeof(*m->mis),
		       VERIFY_MATCH_MAX) == 0)
		m->mis[m->n_mis++] = (struct verify_astray){ *f, job, false };
}

int verify_match_take(struct verify_match *into, struct verify_match *from)
{
	int ret = array_grow((void **)&into->stale, &into->alloc_stale,
			     into->n_stale + from->n_stale, sizeof(*into->stale), LEDGER_MAX);

	if (!ret)
		ret = array_grow((void **)&into->mis, &into->alloc_mis, into->n_mis + from->n_mis,
				 sizeof(*into->mis), LEDGER_MAX);
	if (!ret) {
		if (from->n_stale)
			memcpy(into->stale + into->n_stale, from->stale,
			       from->n_stale * sizeof(*from->stale));
		if (from->n_mis)
			memcpy(into->mis + into->n_mis, from->mis, from->n_mis * sizeof(*from->mis));
		into->n_stale += from->n_stale;
		into->n_mis += from->n_mis;
	}
	verify_match_release(from);
	return ret ? -ENOMEM : 0;
}

static int by_intended(const void *a, const void *b)
{
	const struct verify_failure *x = &((const struct verify_astray *)a)->f;
	const struct verify_failure *y = &((const struct verify_astray *)b)->f;

	if (x->found_offset != y->found_offset)
		return x->found_offset < y->found_offset ? -1 : 1;
	return (x->found_sequence > y->found_sequence) - (x->found_sequence < y->found_sequence);
}

/* The first misdirected write meant for `s` and not yet matched, or NULL. */
static struct verify_astray *meant_for(struct verify_match *m, const struct verify_stale *s)
{
	size_t lo = 0, hi = m->n_mis;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->mis[mid].f.found_offset < s->offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->n_mis && m->mis[lo].f.found_offset == s->offset; lo++)
		if (!m->mis[lo].matched &&
		    (!s->sequence || m->mis[lo].f.found_sequence == s->sequence))
			return &m->mis[lo];
	return NULL;
}

static void uncount(struct verify_result *r, enum verify_kind kind)
{
	BUG_ON(!r->count[kind] || !r->failures);
	r->count[kind]--;
	r->failures--;
}

/* Each job's first_offset of lost writes: its first stale block not explained. */
static void first_lost(const struct verify_match *m, struct verify_result *const *results)
{
	for (size_t i = m->n_stale; i-- > 0;)
		if (!m->stale[i].explained)
			results[m->stale[i].job]->first_offset[VERIFY_LOST] = m->stale[i].offset;
}

void verify_match_settle(struct verify_match *m, struct verify_result *const *results)
{
	if (m->n_mis)
		qsort(m->mis, m->n_mis, sizeof(*m->mis), by_intended);
	for (size_t i = 1; i < m->n_mis; i++)
		if (!by_intended(&m->mis[i - 1], &m->mis[i])) {
			/* the same write seen twice: its landing place's rewrite went astray too */
			m->mis[i].matched = true;
			uncount(results[m->mis[i].job], VERIFY_MISDIRECTED);
		}
	for (size_t i = 0; i < m->n_stale; i++) {
		struct verify_stale *s = &m->stale[i];
		struct verify_astray *a = meant_for(m, s);

		if (!a)
			continue;
		s->explained = true;
		a->matched = true;
		uncount(results[s->job], VERIFY_LOST);
		if (s->first)
			results[s->job]->first = a->f;
	}
	first_lost(m, results);
}

int verify_ledger_create(struct verify_ledger **out)
{
	struct verify_ledger *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	pthread_mutex_init(&l->lock, NULL);
	verify_match_init(&l->m);
	*out = l;
	return 0;
}

void verify_ledger_free(struct verify_ledger *l)
{
	if (!l)
		return;
	verify_match_release(&l->m);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

int verify_ledger_deposit(struct verify_ledger *l, struct verify_match *m)
{
	int ret;

	pthread_mutex_lock(&l->lock);
	ret = verify_match_take(&l->m, m);
	pthread_mutex_unlock(&l->lock);
	return ret;
}

void verify_ledger_settle(struct verify_ledger *l, struct verify_result *const *results)
{
	verify_match_settle(&l->m, results);
}
