/* spec.c — parsing "sim:" target specs, presets and INI device files (spec.h). */
#include "spec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "sim/params.h"
#include "sim/raid.h"
#include "util/input_file.h"

static const struct sim_model *const models[] = {
	&sim_hdd_model, &sim_ssd_model, &sim_raid0_model, &sim_raid1_model, &sim_raid10_model,
	&sim_raid5_model, &sim_raid6_model,
};
static const struct sim_preset *const preset_tables[] = { sim_hdd_presets, sim_ssd_presets };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct sim_preset *sim_preset_at(unsigned index)
{
	for (size_t t = 0; t < COUNT(preset_tables); t++) {
		for (const struct sim_preset *p = preset_tables[t]; p->name; p++)
			if (index-- == 0)
				return p;
	}
	return NULL;
}

const struct sim_preset *sim_preset_find(const char *name)
{
	const struct sim_preset *p;

	for (unsigned i = 0; (p = sim_preset_at(i)); i++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

static const struct sim_model *model_find(const char *name)
{
	for (size_t i = 0; i < COUNT(models); i++)
		if (!strcmp(models[i]->name, name))
			return models[i];
	return NULL;
}

int sim_spec_set(struct sim_spec *spec, const char *key, const char *value,
		 struct errmsg *err)
{
	if (sim_fault_is_key(key))
		return sim_fault_set(&spec->faults, key, value, err);
	return sim_param_set(spec->model->params, spec->config, key, value, err);
}

/* Apply "key=value,key=value" (modified in place). `where` prefixes errors. */
static int apply_settings(struct sim_spec *spec, char *list, const char *where,
			  struct errmsg *err)
{
	for (char *item = list, *next; item && *item; item = next) {
		char *eq;
		int ret;

		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		eq = strchr(item, '=');
		if (!eq || eq == item)
			return errmsg_set(err, -EINVAL, "%s'%s': expected key=value", where, item);
		*eq = '\0';
		ret = sim_spec_set(spec, item, eq + 1, err);
		if (ret) {
			struct errmsg inner = *err;

			return errmsg_set(err, ret, "%s%s", where, inner.text);
		}
	}
	return 0;
}

/* Start from a model's defaults, or from a preset's settings over them. */
static int spec_start(struct sim_spec *spec, const char *name, bool is_preset,
		      struct errmsg *err)
{
	const struct sim_preset *preset = is_preset ? sim_preset_find(name) : NULL;
	const struct sim_model *model = is_preset ? (preset ? preset->model : NULL)
						  : model_find(name);
	char *settings;
	char where[96];
	int ret;

	if (!model)
		return errmsg_set(err, -EINVAL, is_preset ? "unknown drive '%s' (see 'iomodel sim list')"
							  : "unknown model '%s': expected hdd, ssd or raid0|1|10|5|6",
				  name);
	spec->model = model;
	spec->preset = preset;
	spec->config = calloc(1, model->config_size);
	if (!spec->config)
		return errmsg_set(err, -ENOMEM, "out of memory for a device description");
	model->defaults(spec->config);
	if (!preset)
		return 0;
	settings = strdup(preset->settings);
	if (!settings)
		return errmsg_set(err, -ENOMEM, "out of memory for a device description");
	snprintf(where, sizeof(where), "preset '%s': ", preset->name);
	ret = apply_settings(spec, settings, where, err);
	free(settings);
	return ret;
}

struct ini_state {
	struct sim_spec *spec;
	struct errmsg *err;
	bool failed;		/* inih goes on after an error; we only keep the first */
};

static int ini_entry(void *user, const char *section, const char *key, const char *value)
{
	struct ini_state *st = user;
	struct sim_spec *spec = st->spec;

	if (st->failed)
		return 0;
	if (*section && strcmp(section, "device")) {
		errmsg_set(st->err, -EINVAL, "section [%s]: expected [device] or none", section);
	} else if (!spec->model) {
		if (strcmp(key, "preset") && strcmp(key, "model"))
			errmsg_set(st->err, -EINVAL, "'%s' before 'preset' or 'model'", key);
		else if (!spec_start(spec, value, !strcmp(key, "preset"), st->err))
			return 1;
	} else if (!strcmp(key, "preset") || !strcmp(key, "model")) {
		errmsg_set(st->err, -EINVAL, "'%s' must be the first setting", key);
	} else if (!sim_spec_set(spec, key, value, st->err)) {
		return 1;
	}
	st->failed = true;
	return 0;
}

/*
 * The lines of an INI file as inih reads them (an ini_reader). inih's line
 * buffer is fixed when the library is built (INI_MAX_LINE, 200 bytes on
 * Debian) and it counts every piece of a longer line as a line of its own,
 * so lines reach it only when they fit: a comment or an inline comment
 * ("key = v ; ...") of any length is cut, and a line still too long stops
 * the parse with an error naming it.
 */
struct ini_lines {
	const char *next, *end;
	unsigned line;		/* of the line handed out last */
	bool too_long;
};

static char *ini_read_line(char *buf, int size, void *stream)
{
	struct ini_lines *r = stream;
	const char *start = r->next, *nl, *text;
	size_t len;

	if (r->next >= r->end || r->too_long)
		return NULL;
	nl = memchr(start, '\n', (size_t)(r->end - start));
	len = (size_t)((nl ? nl : r->end) - start);
	r->next = nl ? nl + 1 : r->end;
	r->line++;
	text = start + strspn(start, " \t");
	if (text < start + len && (*text == ';' || *text == '#'))
		len = 0;				/* a whole-line comment */
	for (size_t i = 1; i < len && len + 2 > (size_t)size; i++)
		if (start[i] == ';' && (start[i - 1] == ' ' || start[i - 1] == '\t'))
			len = i;			/* an inline comment */
	if (len + 2 > (size_t)size) {
		r->too_long = true;
		return NULL;
	}
	memcpy(buf, start, len);
	buf[len] = '\n';
	buf[len + 1] = '\0';
	return buf;
}

static int parse_ini(struct sim_spec *spec, const char *path, struct errmsg *err)
{
	struct errmsg inner = { "" };
	struct ini_state st = { spec, &inner, false };
	struct ini_lines lines = { 0 };
	char *text;
	size_t len;
	int line, ret = input_file_read(path, &text, &len, &inner);

	if (ret == -EINVAL || ret == -EFBIG)
		return errmsg_set(err, ret, "device file %s", inner.text);
	if (ret)
		return errmsg_set(err, ret, "cannot read device file '%s': %s", path,
				  strerror(-ret));
	lines = (struct ini_lines){ .next = text, .end = text + len };
	line = ini_parse_stream(ini_read_line, &lines, ini_entry, &st);
	free(text);
	if (lines.too_long)
		return errmsg_set(err, -EINVAL, "%s:%u: line longer than %d bytes (comments "
				  "excepted)", path, lines.line, SIM_INI_MAX_LINE);
	if (line < 0)
		return errmsg_set(err, -EIO, "cannot read device file '%s'", path);
	if (line > 0 && !inner.text[0])
		snprintf(inner.text, sizeof(inner.text), "not a key = value line");
	if (line > 0)
		return errmsg_set(err, -EINVAL, "%s:%d: %s", path, line, inner.text);
	if (!spec->model)
		return errmsg_set(err, -EINVAL, "%s: no 'preset' or 'model' setting", path);
	return 0;
}

static bool names_a_file(const char *name)
{
	size_t len = strlen(name);

	return strchr(name, '/') || (len > 4 && !strcmp(name + len - 4, ".ini"));
}

int sim_spec_parse(struct sim_spec *spec, const char *text, struct errmsg *err)
{
	char *copy = strdup(text), *rest;
	int ret;

	memset(spec, 0, sizeof(*spec));
	if (!copy)
		return errmsg_set(err, -ENOMEM, "out of memory");
	rest = strchr(copy, ',');
	if (rest)
		*rest++ = '\0';
	if (!*copy)
		ret = errmsg_set(err, -EINVAL, "sim: needs a drive (see 'iomodel sim list')");
	else if (names_a_file(copy))
		ret = parse_ini(spec, copy, err);
	else
		ret = spec_start(spec, copy, !model_find(copy), err);
	if (!ret && rest)
		ret = apply_settings(spec, rest, "", err);
	if (!ret)
		ret = spec->model->check(spec->config, err);
	free(copy);
	if (ret)
		sim_spec_release(spec);
	return ret;
}

void sim_spec_release(struct sim_spec *spec)
{
	free(spec->config);
	memset(spec, 0, sizeof(*spec));
}

uint64_t sim_spec_memory(const struct sim_spec *spec)
{
	return spec->model->memory ? spec->model->memory(spec->config) : 0;
}

int sim_spec_create(const struct sim_spec *spec, uint64_t seed, struct sim_device **out,
		    struct errmsg *err)
{
	return spec->model->create(spec->config, seed, out, err);
}

void sim_spec_show(FILE *f, const struct sim_spec *spec)
{
	fprintf(f, "model %s", spec->model->name);
	if (spec->preset)
		fprintf(f, ", preset %s: %s", spec->preset->name, spec->preset->summary);
	fprintf(f, "\n\nparameters:\n");
	sim_param_show(f, spec->model->params, spec->config);
	fprintf(f, "\nderived:\n");
	spec->model->describe(f, spec->config);
	fprintf(f, "\nfault injection (off unless set):\n");
	sim_fault_show(f, &spec->faults);
}
