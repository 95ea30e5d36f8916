/*
 * verify_output.c — what `run --verify` found, as text (the table's verify
 * lines and the one-line summary the CLI prints on stderr) and as the
 * "verify" object of the run JSON (docs/json-schema.md).
 */
#include <stdio.h>
#include <string.h>

#include "run_output.h"

static const char *const kind_words[VERIFY_KINDS] = {
	[VERIFY_LOST] = "lost write", [VERIFY_MISDIRECTED] = "misdirected write",
	[VERIFY_TORN] = "torn write", [VERIFY_CORRUPT] = "corruption",
};

static void found_words(char *buf, size_t n, const struct verify_failure *f)
{
	if (!f->found_generation)
		snprintf(buf, n, "no stamp");
	else
		snprintf(buf, n, "generation %llu sequence %llu for offset %llu",
			 (unsigned long long)f->found_generation,
			 (unsigned long long)f->found_sequence, (unsigned long long)f->found_offset);
}

void verify_describe_first(char *buf, size_t n, const struct verify_result *v)
{
	const struct verify_failure *f = &v->first;
	char found[128];

	found_words(found, sizeof(found), f);
	switch (f->kind) {
	case VERIFY_LOST:
		if (f->expected_sequence)
			snprintf(buf, n, "lost write at offset %llu: holds %s, expected generation "
				 "%llu sequence %llu", (unsigned long long)f->offset, found,
				 (unsigned long long)f->expected_generation,
				 (unsigned long long)f->expected_sequence);
		else
			snprintf(buf, n, "lost write at offset %llu: holds %s, expected generation "
				 "%llu", (unsigned long long)f->offset, found,
				 (unsigned long long)f->expected_generation);
		break;
	case VERIFY_MISDIRECTED:
		snprintf(buf, n, "misdirected write found at offset %llu: holds %s",
			 (unsigned long long)f->offset, found);
		break;
	case VERIFY_TORN:
		snprintf(buf, n, "torn write at offset %llu: header and trailer of different "
			 "writes (%s)", (unsigned long long)f->offset, found);
		break;
	default:
		snprintf(buf, n, "corruption at offset %llu: a checksum does not match (%s)",
			 (unsigned long long)f->offset, found);
		break;
	}
}

void verify_summary(char *buf, size_t n, const struct verify_result *v)
{
	char first[320];

	verify_describe_first(first, sizeof(first), v);
	snprintf(buf, n, "%llu bad blocks of %llu checked (lost %llu, misdirected %llu, "
		 "torn %llu, corrupt %llu); first: %s",
		 (unsigned long long)v->failures, (unsigned long long)v->blocks_checked,
		 (unsigned long long)v->count[VERIFY_LOST],
		 (unsigned long long)v->count[VERIFY_MISDIRECTED],
		 (unsigned long long)v->count[VERIFY_TORN],
		 (unsigned long long)v->count[VERIFY_CORRUPT], first);
}

void verify_output_table(FILE *f, const struct verify_result *v)
{
	char line[512];
	const char *why;

	if (v->mode == VERIFY_OFF)
		return;
	/* two lines, so that the table stays in 80 columns */
	fprintf(f, "verify: generation %llu, %llu-byte blocks\n        %llu written, %llu checked",
		(unsigned long long)v->generation, (unsigned long long)v->block_bytes,
		(unsigned long long)v->blocks_written, (unsigned long long)v->blocks_checked);
	if (v->pass_ios)
		fprintf(f, " (pass: %llu reads in %.3f s)", (unsigned long long)v->pass_ios,
			(double)v->pass_ns / 1e9);
	if (v->mode == VERIFY_SELF)
		fputs(" (null: each write's own buffer)", f);
	if (!v->failures) {
		fputs(": no failures\n", f);
		return;
	}
	fputs(": FAILED\n", f);
	for (int k = 0; k < VERIFY_KINDS; k++)
		if (v->count[k])
			fprintf(f, "verify: %-17s %llu, first at offset %llu\n", kind_words[k],
				(unsigned long long)v->count[k],
				(unsigned long long)v->first_offset[k]);
	verify_describe_first(line, sizeof(line), v);
	/* "KIND at offset N: WHY": the why on a line of its own (80 columns) */
	why = strstr(line, ": ");
	if (why)
		fprintf(f, "verify: first failure: %.*s\n        %s\n", (int)(why - line), line,
			why + 2);
	else
		fprintf(f, "verify: first failure: %s\n", line);
}

static json_t *first_json(const struct verify_result *v)
{
	const struct verify_failure *f = &v->first;

	if (!v->failures)
		return json_null();
	return json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I}", "kind", verify_kind_name(f->kind),
			 "offset", (json_int_t)f->offset,
			 "expected_generation", (json_int_t)f->expected_generation,
			 "expected_sequence", (json_int_t)f->expected_sequence,
			 "found_generation", (json_int_t)f->found_generation,
			 "found_sequence", (json_int_t)f->found_sequence,
			 "found_offset", (json_int_t)f->found_offset);
}

json_t *verify_to_json(const struct verify_result *v)
{
	json_t *kinds = json_object();

	if (v->mode == VERIFY_OFF) {
		json_decref(kinds);
		return json_null();
	}
	for (int k = 0; k < VERIFY_KINDS; k++)
		json_object_set_new(kinds, verify_kind_name(k),
			json_pack("{s:I,s:o}", "count", (json_int_t)v->count[k], "first_offset",
				  v->count[k] ? json_integer((json_int_t)v->first_offset[k])
					      : json_null()));
	return json_pack("{s:s,s:I,s:I,s:I,s:I,s:{s:I,s:f},s:I,s:o,s:o}",
			 "mode", v->mode == VERIFY_SELF ? "self" : "read_back",
			 "generation", (json_int_t)v->generation,
			 "block_bytes", (json_int_t)v->block_bytes,
			 "blocks_written", (json_int_t)v->blocks_written,
			 "blocks_checked", (json_int_t)v->blocks_checked,
			 "pass", "ios", (json_int_t)v->pass_ios, "seconds", (double)v->pass_ns / 1e9,
			 "failures", (json_int_t)v->failures, "kinds", kinds,
			 "first", first_json(v));
}
