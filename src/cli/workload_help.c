/*
 * What run and compare share about workloads on their command line: the
 * options of a workload's parameters, made from the workload's own
 * param_spec table (so --help lists, and the parser accepts, exactly the
 * parameters the workload has), and the list of workloads for their help.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../core/workload/workload.h"
#include "../core/experiment/metrics.h"
#include "../util/error.h"
#include "../util/strbuf.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/*
 * What a parameter's value looks like in --help and the manual: its
 * row's name for it ("DIST"), else its type's ("SIZE", "sync|none").
 */
static void param_argh(const struct param_spec *p, struct strbuf *out)
{
	size_t i;

	if (p->arg) {
		strbuf_addstr(out, p->arg);
		return;
	}
	switch (p->type) {
	case PARAM_SIZE:
		strbuf_addstr(out, "SIZE");
		break;
	case PARAM_UINT:
		strbuf_addstr(out, "N");
		break;
	case PARAM_BOOL:
		strbuf_addstr(out, "0|1");
		break;
	case PARAM_PERCENT:
		strbuf_addstr(out, "PERCENT");
		break;
	case PARAM_CHOICE:
		for (i = 0; p->choices && p->choices[i]; i++)
			strbuf_addf(out, "%s%s", i ? "|" : "", p->choices[i]);
		if (!i)
			strbuf_addstr(out, "NAME");
		break;
	case PARAM_STRING:
		strbuf_addstr(out, "TEXT");
		break;
	}
}

/* A bound of p as one types it: "64M", "4k", "4096", "100%". */
static void param_bound(const struct param_spec *p, uint64_t v,
			struct strbuf *out)
{
	static const char units[] = "kMGTP";
	int k = -1;

	if (p->type == PARAM_SIZE) {
		while (k < 4 && v && !(v & 1023)) {
			v >>= 10;
			k++;
		}
	}
	strbuf_addf(out, "%llu", (unsigned long long)v);
	if (k >= 0)
		strbuf_addch(out, units[k]);
	if (p->type == PARAM_PERCENT)
		strbuf_addch(out, '%');
}

/* Keep text for the rows of wo to point to; returns it. */
static const char *keep(struct workload_options *wo, struct strbuf *sb)
{
	ALLOC_GROW(wo->text, wo->nr_text + 1, wo->alloc_text);
	wo->text[wo->nr_text] = strbuf_detach(sb, NULL);
	return wo->text[wo->nr_text++];
}

void cli_workload_options(struct workload_options *wo,
			  const struct workload_ops *ops, option_cb cb,
			  void *data)
{
	const struct param_spec *p;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, k = 0;

	memset(wo, 0, sizeof(*wo));
	for (p = ops->params; p->name; p++)
		n++;
	/* a heading, the parameters, OPT_END (all zero) */
	wo->opts = xcalloc(n + 2, sizeof(*wo->opts));
	strbuf_addf(&sb, "parameters of '%s' (--NAME=VALUE or --NAME VALUE):",
		    ops->name);
	wo->opts[k].type = OPTION_GROUP;
	wo->opts[k++].help = keep(wo, &sb);
	for (p = ops->params; p->name; p++, k++) {
		struct option *o = &wo->opts[k];

		o->type = OPTION_CALLBACK;
		if (p->type == PARAM_BOOL)
			o->flags = OPT_FLAGARG; /* "--keep" alone is 1 */
		o->long_name = p->name;
		o->callback = cb;
		o->data = data;
		param_argh(p, &sb);
		o->argh = keep(wo, &sb);
		strbuf_addstr(&sb, p->help);
		o->help = keep(wo, &sb);
		/* the default and range for --help (the workload parses) */
		if (p->def && *p->def)
			o->def = p->def;
		o->choices = p->choices;
		if (p->type == PARAM_SIZE || p->type == PARAM_UINT ||
		    p->type == PARAM_PERCENT) {
			/* a size is 1 or more anyway, a count 0 or more */
			if (p->min > (p->type == PARAM_SIZE ? 1u : 0u)) {
				param_bound(p, p->min, &sb);
				o->min = keep(wo, &sb);
			}
			if (p->max) {
				param_bound(p, p->max, &sb);
				o->max = keep(wo, &sb);
			}
		}
	}
	wo->opts[k].type = OPTION_END;
}

void cli_workload_options_release(struct workload_options *wo)
{
	size_t i;

	if (!wo)
		return;
	for (i = 0; i < wo->nr_text; i++)
		free(wo->text[i]);
	free(wo->text);
	free(wo->opts);
	memset(wo, 0, sizeof(*wo));
}

void cli_workloads_list(struct strbuf *out)
{
	const char *const *names = workload_names();
	size_t i;

	strbuf_addstr(out, "\nworkloads:\n");
	for (i = 0; names[i]; i++)
		strbuf_addf(out, "  %-10s %s\n", names[i],
			    workload_find(names[i])->summary);
}

void cli_metrics_help(struct strbuf *out, const struct workload_ops *ops)
{
	const struct metric_def *m, *def = metric_default_for(ops, NULL, 0);
	size_t i;

	strbuf_addf(out, "\nmetrics of %s (--metric; which way is better):\n",
		    ops->name);
	for (i = 0; (m = metric_at(ops, i)); i++)
		strbuf_addf(out, "  %-11s %-5s %-6s %s%s\n", m->name, m->unit,
			    m->higher_is_better ? "higher" : "lower", m->help,
			    m == def ? " (default)" : "");
}

const struct workload_ops *cli_find_workload(const char *name, const char *cmd)
{
	const struct workload_ops *ops = workload_find(name);
	const char *const *names = workload_names();
	const char *near;
	size_t n = 0;

	if (ops)
		return ops;
	while (names[n])
		n++;
	near = suggest_nearest(name, names, n);
	if (near)
		error("unknown workload '%s'; did you mean '%s'?", name, near);
	else
		error("unknown workload '%s'; see 'iotrial %s --help' for the "
		      "list",
		      name, cmd);
	return NULL;
}
