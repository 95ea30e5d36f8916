/* merge.c — adding the results of concurrent jobs (merge.h). */
#include "merge.h"

int timeline_merge(struct timeline *dst, const struct timeline *src)
{
	if (src->len > dst->len) {
		int ret = timeline_grow(dst, src->len - 1);

		if (ret)
			return ret;
	}
	for (size_t i = 0; i < src->len; i++) {
		struct timeline_second *d = &dst->seconds[i];
		const struct timeline_second *s = &src->seconds[i];

		d->ios += s->ios;
		d->bytes += s->bytes;
		if (s->max_lat_ns > d->max_lat_ns)
			d->max_lat_ns = s->max_lat_ns;
	}
	return 0;
}

int run_result_merge(struct run_result *dst, const struct run_result *src)
{
	for (int i = 0; i < 2; i++) {
		int ret;

		dst->op[i].ios += src->op[i].ios;
		dst->op[i].bytes += src->op[i].bytes;
		hist_merge(&dst->op[i].lat, &src->op[i].lat);
		ret = timeline_merge(&dst->op[i].timeline, &src->op[i].timeline);
		if (ret)
			return ret;
	}
	if (src->elapsed_ns > dst->elapsed_ns)
		dst->elapsed_ns = src->elapsed_ns;
	if (src->cpu_user_s + src->cpu_sys_s > dst->cpu_user_s + dst->cpu_sys_s) {
		dst->cpu_user_s = src->cpu_user_s;
		dst->cpu_sys_s = src->cpu_sys_s;
	}
	dst->interrupted |= src->interrupted;
	if (!dst->error.set)
		dst->error = src->error;
	return 0;
}
