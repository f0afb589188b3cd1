/*
 * The part of the help text that run and compare share: the workloads and
 * the parameters of one of them, printed from the workloads' own
 * param_spec tables, so the help lists exactly what the parser accepts.
 */
#include <stdio.h>
#include "cli.h"
#include "../core/workload/workload.h"
#include "../util/strbuf.h"
#include "../util/banned.h"

/* "bytes per I/O", plus the values a choice or a flag takes. */
static void param_text(const struct param_spec *p, struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, p->help);
	if (p->type == PARAM_BOOL)
		strbuf_addstr(out, " (0|1)");
	if (p->type != PARAM_CHOICE || !p->choices)
		return;
	strbuf_addstr(out, " (");
	for (i = 0; p->choices[i]; i++)
		strbuf_addf(out, "%s%s", i ? "|" : "", p->choices[i]);
	strbuf_addch(out, ')');
}

void cli_print_workload_help(FILE *out, const char *workload)
{
	const char *const *names = workload_names();
	const struct workload_ops *ops = workload_find(workload);
	const struct param_spec *p;
	struct strbuf text = STRBUF_INIT;
	size_t i;

	fprintf(out, "\nworkloads:\n");
	for (i = 0; names[i]; i++)
		fprintf(out, "  %-10s %s\n", names[i],
			workload_find(names[i])->summary);
	if (!ops)
		return;
	fprintf(out, "\nparameters of '%s' (--NAME=VALUE or --NAME VALUE):\n",
		ops->name);
	for (p = ops->params; p->name; p++) {
		strbuf_reset(&text);
		param_text(p, &text);
		fprintf(out, "  --%-10s %-44s [%s]\n", p->name, text.buf,
			p->def);
	}
	strbuf_release(&text);
}
