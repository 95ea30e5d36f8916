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
	  "", "probability that a write lands at another place", 0, 1, NULL },
	{ "fault_bitflip_rate", PARAM_NUMBER, offsetof(struct sim_fault_config, bitflip_rate), "",
	  "probability that a read returns a flipped bit", 0, 1, NULL },
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
	       cfg->misdirect_rate > 0 || cfg->bitflip_rate > 0 || cfg->spike_rate > 0;
}

static bool draw(struct rng *rng, double p)
{
	return p > 0 && (double)(rng_next(rng) >> 11) * 0x1p-53 < p;
}

uint64_t sim_fault_apply(const struct sim_fault_config *cfg, struct rng *rng,
			 struct io_request *req, struct sim_fault_counters *counts)
{
	bool in_range = req->offset < cfg->eio_end && req->offset + req->length > cfg->eio_start;

	if (req->result >= 0 && (in_range || draw(rng, cfg->eio_rate))) {
		req->result = -EIO;
		counts->eio++;
	}
	if (req->op == IO_WRITE) {
		counts->lost_writes += draw(rng, cfg->lost_write_rate);
		counts->misdirected_writes += draw(rng, cfg->misdirect_rate);
	} else {
		counts->bit_flips += draw(rng, cfg->bitflip_rate);
	}
	if (draw(rng, cfg->spike_rate)) {
		counts->spikes++;
		return (uint64_t)(cfg->spike_ms * 1e6);
	}
	return 0;
}
