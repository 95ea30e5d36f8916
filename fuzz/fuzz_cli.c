/*
 * fuzz_cli.c — libFuzzer harness of the command-line parser
 * (cli/run_options.c): the input split at NUL bytes into the arguments of
 * `iomodel run`, parsed and checked; nothing is opened. The messages of bad
 * input go to stderr, which run.sh silences.
 */
#include "cli/run_options.h"
#include "fuzz_common.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *argv[MAX_ARGS + 1];
	struct run_options o;
	int argc = 0;

	argv[argc++] = "run";
	for (char *p = text; p < text + size && argc < MAX_ARGS; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	(void)parse_run_options(&o, argc, argv);
	free(text);
	return 0;
}
