/*
 * fuzz_raid.c — libFuzzer harness of `iomodel raid` (cli/raid_cmd.c): the
 * input split at NUL bytes into its arguments, parsed, checked and planned
 * (capacity, performance, reliability, link), the plan printed as text or
 * JSON to stdout, which run.sh silences. Members are two drive models of
 * the seed corpus, named by the arguments "M" (an HDD-like fit of a CSV
 * sweep) and "S" (an SSD's characterize). Inputs that would touch other
 * files (a '/', -o/--output, --member-fit) or run a simulated drive
 * ("sim:", seconds per run) are skipped.
 */
#include "cli/commands.h"
#include "fuzz_common.h"

#define MAX_ARGS 64

static const char model_m[] = "fuzz/corpus/model/sweep-fit.json";
static const char model_s[] = "fuzz/corpus/model/ocz-core-characterize.json";

/* An argument that writes or reads a file other than the two models, or runs a simulator. */
static int out_of_bounds(const char *arg)
{
	if (strchr(arg, '/') || strstr(arg, "sim:") || strstr(arg, "member-fit"))
		return 1;
	if (!strncmp(arg, "--", 2))
		return !strncmp(arg + 2, "output", strcspn(arg + 2, "=")) && arg[2] != '=' &&
		       arg[2] != '\0';
	return arg[0] == '-' && strchr(arg, 'o') != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *argv[MAX_ARGS + 1];
	int argc = 0;

	argv[argc++] = "raid";
	for (char *p = text; p < text + size && argc < MAX_ARGS; p += strlen(p) + 1) {
		if (out_of_bounds(p))
			goto out;
		argv[argc++] = !strcmp(p, "M") ? (char *)model_m
			     : !strcmp(p, "S") ? (char *)model_s : p;
	}
	argv[argc] = NULL;
	(void)cmd_raid(argc, argv);
	fflush(stdout);
out:
	free(text);
	return 0;
}
