/*
 * sim_cmd.c — `iomodel sim list` (the preset drives, one line each) and
 * `iomodel sim show SPEC` (every parameter of a simulated drive with its unit
 * and meaning, the figures derived from them, and the fault settings).
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "sim/spec.h"

void cmd_sim_usage(FILE *f)
{
	fputs("usage: iomodel sim list\n"
	      "       iomodel sim show DRIVE[,key=value...]\n"
	      "\n"
	      "Simulated drives are targets like any other: iomodel run --target sim:DRIVE.\n"
	      "DRIVE is a preset (see 'sim list'), a model (hdd or ssd) with its defaults,\n"
	      "or an INI file (a path with '/' or ending in .ini); key=value pairs override\n"
	      "any parameter that 'sim show' lists.\n", f);
}

static int sim_list(void)
{
	const struct sim_preset *p;

	printf("%-16s %-6s %s\n", "preset", "model", "drive");
	for (unsigned i = 0; (p = sim_preset_at(i)); i++)
		printf("%-16s %-6s %s\n", p->name, p->model->name, p->summary);
	printf("\nmodels without a preset: sim:hdd, sim:ssd (see 'iomodel sim show hdd')\n"
	       "arrays of these: sim:raid0, raid1, raid10, raid5, raid6 "
	       "(see 'iomodel sim show raid5')\n");
	return EXIT_OK;
}

static int sim_show(const char *text)
{
	struct sim_spec spec;
	struct errmsg err;

	if (!strncmp(text, "sim:", 4))
		text += 4;
	if (sim_spec_parse(&spec, text, &err))
		return bad("'%s': %s", text, err.text);
	sim_spec_show(stdout, &spec);
	sim_spec_release(&spec);
	return EXIT_OK;
}

int cmd_sim(int argc, char **argv)
{
	const char *verb = argc > 1 ? argv[1] : NULL;

	if (verb && (!strcmp(verb, "-h") || !strcmp(verb, "--help"))) {
		cmd_sim_usage(stdout);
		return EXIT_OK;
	}
	if (verb && !strcmp(verb, "list") && argc == 2)
		return sim_list();
	if (verb && !strcmp(verb, "show") && argc == 3)
		return sim_show(argv[2]);
	if (verb && (!strcmp(verb, "list") || !strcmp(verb, "show")))
		return bad("sim %s: expected %s", verb, !strcmp(verb, "list") ? "no argument"
			   : "one drive, e.g. 'sim show ocz-core'");
	return bad("sim: expected 'list' or 'show DRIVE' (see 'iomodel sim --help')");
}
