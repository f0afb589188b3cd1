/*
 * The switches that pin behaviour, for every command: --compat=VERSION
 * and --behaviour=NAME (anywhere before "--", or IOTRIAL_COMPAT and
 * IOTRIAL_BEHAVIOUR in the environment), taken out of argv by main()
 * before the command parses its own options; and --schema=N, an option
 * row of each command that prints JSON. The registry and its rules are
 * core/compat/compat.c; this file only reads the switches, holds what
 * they chose for the one invocation, and prints.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/compat/compat.h"
#include "../util/error.h"
#include "../util/strbuf.h"
#include "../version.h"
#include "../util/banned.h"

/* What this invocation chose; set once by cli_compat_setup(). */
static struct compat chosen;
static int chosen_ready;

/* Make chosen this binary's defaults, once. */
static void ready(void)
{
	if (!chosen_ready) {
		compat_init(&chosen, IOTRIAL_VERSION, NULL);
		chosen_ready = 1;
	}
}

const struct compat *cli_compat(void)
{
	ready();
	return &chosen;
}

/* Apply one --behaviour value, a comma-separated list of names. */
static int choose_list(const char *list, const char *from)
{
	struct strbuf err = STRBUF_INIT, name = STRBUF_INIT;
	const char *p = list;
	int ret = 0;

	while (!ret) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		strbuf_reset(&name);
		strbuf_add(&name, p, len);
		if (compat_choose(&chosen, name.buf, &err)) {
			error("%s: %s; see 'iotrial help compat'", from,
			      err.buf);
			ret = -1;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	strbuf_release(&err);
	strbuf_release(&name);
	return ret;
}

/* Pin to version, from names where it came from for the error. */
static int pin(const char *version, const char *from)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (compat_pin(&chosen, version, &err)) {
		error("%s=%s: %s", from, version, err.buf);
		ret = -1;
	}
	strbuf_release(&err);
	return ret;
}

/*
 * If argv[*i] is "--NAME=V" or "--NAME V", the value (and *i moved past
 * it); else NULL. *missing is set for "--NAME" with nothing after it.
 */
static const char *take(int argc, const char **argv, int *i, const char *name,
			int *missing)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, "--", 2) || strncmp(a + 2, name, len))
		return NULL;
	if (a[2 + len] == '=')
		return a + 3 + len;
	if (a[2 + len])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

int cli_compat_setup(int *argc, const char **argv)
{
	const char *env;
	int i, k, missing = 0;

	ready();
	env = getenv("IOTRIAL_COMPAT");
	if (env && *env && pin(env, "IOTRIAL_COMPAT"))
		return -1;
	env = getenv("IOTRIAL_BEHAVIOUR");
	if (env && *env && choose_list(env, "IOTRIAL_BEHAVIOUR"))
		return -1;
	for (i = k = 1; i < *argc; i++) {
		const char *v;

		if (!strcmp(argv[i], "--")) {
			while (i < *argc)
				argv[k++] = argv[i++];
			break;
		}
		if ((v = take(*argc, argv, &i, "compat", &missing))) {
			if (pin(v, "--compat"))
				return -1;
			continue;
		}
		if ((v = take(*argc, argv, &i, "behaviour", &missing))) {
			if (choose_list(v, "--behaviour"))
				return -1;
			continue;
		}
		if (missing) {
			error("option '%s' needs a value", argv[i]);
			return -1;
		}
		argv[k++] = argv[i];
	}
	argv[k] = NULL;
	*argc = k;
	return 0;
}

int cli_compat_old(enum compat_id id)
{
	struct strbuf w = STRBUF_INIT;
	int old;

	ready();
	old = compat_old(&chosen, id);
	if (compat_warns(&chosen, id, &w))
		warning("%s", w.buf);
	strbuf_release(&w);
	return old;
}

void cli_compat_help(struct strbuf *out)
{
	ready();
	compat_describe(&chosen, out);
}

int cli_schema_option(const struct option *opt, const char *arg)
{
	(void)opt;
	if (arg && !strcmp(arg, "1"))
		return 0;
	error("--schema=%s: this iotrial writes JSON schema 1 (%s) only; a "
	      "new schema is written only when asked for, by a release that "
	      "has it",
	      arg ? arg : "", IOTRIAL_SCHEMA);
	return -1;
}
