/* fault.c — parsing and applying the fault injection of fault.h. */
#include "fault.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "sim/params.h"
#include "util/units.h"

static const struct sim_param fault_params[] = {
	{ "fault_eio_rate", PARAM_NUMBER, offsetof(struct sim_fault_config, eio_rate), "",
	  "probability that an IO fails with EIO", 0, 1, NULL },
	{ "fault_lost_write_rate", PARAM_NUMBER, offsetof(struct sim_fault_config, lost_write_rate),
	  "", "probability that a write is acknowledged but not stored", 0, 1, NULL },
	{ "fault_misdirect_rate", PARAM_NUMBER, offsetof(struct sim_fault_config, misdirect_rate),
	  "", "probability that a write lands 1-4 request lengths away", 0, 1, NULL },
	{ "fault_torn_rate", PARAM_NUMBER, offsetof(struct sim_fault_config, torn_rate), "",
	  "probability that only the first sectors of a write are stored", 0, 1, NULL },
	{ "fault_bitflip_rate", PARAM_NUMBER, offsetof(struct sim_fault_config, bitflip_rate), "",
	  "probability that a read (of written data) returns a flipped bit", 0, 1, NULL },
	{ "spike_rate", PARAM_NUMBER, offsetof(struct sim_fault_config, spike_rate), "",
	  "probability that an IO is delayed by spike_ms", 0, 1, NULL },
	{ "spike_ms", PARAM_NUMBER, offsetof(struct sim_fault_config, spike_ms), "ms",
	  "extra latency of a spike", 0, 1e7, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, 0, NULL },
};

bool sim_fault_is_key(const char *key)
{
	return !strcmp(key, "fault_eio") || sim_param_find(fault_params, key);
}

static int set_eio_range(struct sim_fault_config *f, const char *value, struct errmsg *err)
{
	char start[64];
	const char *dash = strchr(value, '-');
	uint64_t lo, hi;

	if (!dash || (size_t)(dash - value) >= sizeof(start))
		return errmsg_set(err, -EINVAL, "fault_eio '%s': expected START-END, e.g. 1g-2g",
				  value);
	memcpy(start, value, (size_t)(dash - value));
	start[dash - value] = '\0';
	if (parse_size(start, &lo) || parse_size(dash + 1, &hi) || hi <= lo)
		return errmsg_set(err, -EINVAL,
				  "fault_eio '%s': expected START-END sizes with START < END", value);
	f->eio_start = lo;
	f->eio_end = hi;
	return 0;
}

int sim_fault_set(struct sim_fault_config *f, const char *key, const char *value,
		  struct errmsg *err)
{
	if (!strcmp(key, "fault_eio"))
		return set_eio_range(f, value, err);
	return sim_param_set(fault_params, f, key, value, err);
}

void sim_fault_show(FILE *f, const struct sim_fault_config *cfg)
{
	char range[64] = "none";

	if (cfg->eio_end > cfg->eio_start)
		snprintf(range, sizeof(range), "%llu-%llu", (unsigned long long)cfg->eio_start,
			 (unsigned long long)cfg->eio_end);
	fprintf(f, "  %-22s %-12s %-8s %s\n", "fault_eio", range, "bytes",
		"IOs touching this byte range fail with EIO");
	sim_param_show(f, fault_params, cfg);
}

bool sim_fault_any(const struct sim_fault_config *cfg)
{
	return cfg->eio_end > cfg->eio_start || cfg->eio_rate > 0 || cfg->lost_write_rate > 0 ||
	       cfg->misdirect_rate > 0 || cfg->bitflip_rate > 0 || cfg->torn_rate > 0 ||
	       cfg->spike_rate > 0;
}

bool sim_fault_data_any(const struct sim_fault_config *cfg)
{
	return cfg->lost_write_rate > 0 || cfg->misdirect_rate > 0 || cfg->bitflip_rate > 0 ||
	       cfg->torn_rate > 0;
}

static bool draw(struct rng *rng, double p)
{
	return p > 0 && (double)(rng_next(rng) >> 11) * 0x1p-53 < p;
}

/* Where a misdirected write of `req` lands: 1-4 lengths away, inside the drive. */
static bool misdirect_target(struct rng *rng, const struct io_request *req, uint64_t capacity,
			     uint64_t *where)
{
	uint64_t d = (1 + rng_below(rng, 4)) * req->length;
	bool after = rng_next(rng) & 1;

	if (after && req->offset + req->length + d > capacity)
		after = false;
	if (!after && req->offset < d)
		after = req->offset + req->length + d <= capacity;
	if (!after && req->offset < d)
		return false;
	*where = after ? req->offset + d : req->offset - d;
	return true;
}

static enum sim_data_fault write_fault(const struct sim_fault_config *cfg, struct rng *rng,
				       const struct io_request *req,
				       const struct sim_fault_scope *scope, uint64_t *where)
{
	uint64_t sectors = req->length / scope->sector;

	if (draw(rng, cfg->lost_write_rate))
		return SIM_DATA_LOST;
	if (draw(rng, cfg->misdirect_rate) && misdirect_target(rng, req, scope->capacity, where))
		return SIM_DATA_MISDIRECTED;
	if (sectors >= 2 && draw(rng, cfg->torn_rate)) {
		*where = (1 + rng_below(rng, sectors - 1)) * scope->sector;
		return SIM_DATA_TORN;
	}
	return SIM_DATA_INTACT;
}

static void count(struct sim_fault_counters *c, enum sim_data_fault kind)
{
	c->lost_writes += kind == SIM_DATA_LOST;
	c->misdirected_writes += kind == SIM_DATA_MISDIRECTED;
	c->torn_writes += kind == SIM_DATA_TORN;
	c->bit_flips += kind == SIM_DATA_FLIPPED;
}

void sim_fault_apply(const struct sim_fault_config *cfg, struct rng *rng,
		     struct io_request *req, const struct sim_fault_scope *scope,
		     struct sim_fault_counters *counts, struct sim_fault_effect *fx)
{
	bool in_range = req->offset < cfg->eio_end && req->offset + req->length > cfg->eio_start;

	*fx = (struct sim_fault_effect){ 0, SIM_DATA_INTACT, 0 };
	if (req->result >= 0 && (in_range || draw(rng, cfg->eio_rate))) {
		req->result = -EIO;
		counts->eio++;
	}
	if (req->result == (int64_t)req->length) {
		if (req->op == IO_WRITE)
			fx->data = write_fault(cfg, rng, req, scope, &fx->where);
		else if (scope->data_written && draw(rng, cfg->bitflip_rate)) {
			fx->data = SIM_DATA_FLIPPED;
			fx->where = rng_below(rng, req->length * 8ULL);
		}
		count(counts, fx->data);
	}
	if (draw(rng, cfg->spike_rate)) {
		counts->spikes++;
		fx->extra_ns = (uint64_t)(cfg->spike_ms * 1e6);
	}
}
