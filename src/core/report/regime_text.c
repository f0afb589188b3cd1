/*
 * Text for regime_text.h. The numbers are the ones the knob families
 * judged (knob_ops.regime): a reader who disagrees with "could not
 * matter" can check them against the thresholds printed here.
 */
#include <string.h>
#include "sections.h"
#include "regime_text.h"
#include "report_doc.h"
#include "../../util/units.h"
#include "../../util/banned.h"

/* " 2.2 GiB" */
static void add_size(struct strbuf *out, const char *before, uint64_t v)
{
	strbuf_addstr(out, before);
	units_fmt_bytes(out, v);
}

/* A count of a part, 0 when it is not there. */
#define HAS0(o, f) ((o)->has_##f == MODEL_SET ? (o)->f : 0)

void report_dirty_text(const struct truth_doc *t, struct strbuf *out)
{
	const struct truth_dirty_thresholds *d = t ? t->dirty_thresholds : NULL;
	const struct truth_cgroup_dirty *cg = t ? t->cgroup_dirty : NULL;
	int version = cg ? rd_count(cg->version) : 0;

	if (!t || t->has_dirty_peak_bytes != MODEL_SET)
		return;
	add_size(out, "  dirty memory: peak ", t->dirty_peak_bytes);
	add_size(out, ", writeback peak ", HAS0(t, writeback_peak_bytes));
	if (d) {
		add_size(out, "; thresholds: background ", d->background_bytes);
		add_size(out, ", throttle ", d->throttle_bytes);
		add_size(out, " (the kernel's, lowest during the run; of ",
			 d->dirtyable_bytes);
		strbuf_addstr(out, " dirtyable)");
	}
	strbuf_addch(out, '\n');
	if (!version)
		return;
	strbuf_addf(out, "  cgroup dirty memory (v%d", version);
	if (cg->memory_max_bytes)
		add_size(out, ", limit ", cg->memory_max_bytes);
	strbuf_addstr(out, "):");
	if (cg->has_dirty_peak_bytes == MODEL_SET)
		add_size(out, " peak ", cg->dirty_peak_bytes);
	else
		strbuf_addstr(out, " not sampled");
	if (HAS0(cg, background_bytes)) {
		add_size(out, "; its thresholds: background ",
			 cg->background_bytes);
		add_size(out, ", throttle ", HAS0(cg, throttle_bytes));
		add_size(out, " (of ", HAS0(cg, dirtyable_bytes));
		strbuf_addstr(out, " it could dirty: file pages and headroom "
				   "below its limit)");
	} else if (version == 1) {
		strbuf_addstr(out, "; cgroup v1 has no dirty thresholds of "
				   "its own, the system's apply");
	}
	strbuf_addch(out, '\n');
}

/* "bdflush.nfract=10 (vm.dirty_background_ratio on 'system')" */
static void knob_words(struct strbuf *out, const char *knob,
		       const char *canonical, const char *object,
		       const char *value)
{
	strbuf_addf(out, "%s", knob);
	if (value)
		strbuf_addf(out, "=%s", value);
	if (strcmp(knob, canonical) || (*object && strcmp(object, "system"))) {
		strbuf_addstr(out, " (");
		if (strcmp(knob, canonical))
			strbuf_addf(out, "%s%s", canonical,
				    *object && strcmp(object, "system") ? " "
									: "");
		if (*object && strcmp(object, "system"))
			strbuf_addf(out, "on '%s'", object);
		strbuf_addch(out, ')');
	}
}

void report_run_regimes(const struct run_doc *run, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < run->nr_regime; i++) {
		const struct run_regime_doc *g = &run->regime[i];
		const char *state = rd_s(g->state), *why = rd_s(g->why);

		if (!strcmp(state, "not_reached"))
			strbuf_addstr(out, "could not matter: ");
		else if (!strcmp(state, "unknown") && *why)
			strbuf_addstr(out, "regime unknown: ");
		else
			continue;
		knob_words(out, rd_s(g->knob), rd_s(g->canonical),
			   rd_s(g->object), rd_s(g->value));
		strbuf_addf(out, ": %s\n", why);
	}
}

/* The head of an entry: "KNOB (...) could not matter: none of N runs..." */
static void regime_head(const struct exp_regime *g, struct strbuf *out)
{
	int runs = rd_count(g->runs), not = rd_count(g->not_reached);

	knob_words(out, rd_s(g->factor), rd_s(g->canonical), rd_s(g->object),
		   NULL);
	if (!strcmp(rd_s(g->state), "unknown")) {
		strbuf_addf(out, ": regime unknown in its %d run%s: %s", runs,
			    runs == 1 ? "" : "s", rd_s(g->why));
		return;
	}
	strbuf_addf(out,
		    " could not matter: %s of its %d run%s reached the "
		    "regime it controls",
		    "none", runs, runs == 1 ? "" : "s");
	if (not < runs)
		strbuf_addf(out, " (%d could not be judged)", runs - not );
}

/* "at 10 (12 runs): why" */
static void regime_value(const struct exp_regime_value *v, struct strbuf *out)
{
	int runs = rd_count(v->runs);

	strbuf_addf(out, "at %s (%d run%s): %s", rd_s(v->value), runs,
		    runs == 1 ? "" : "s", rd_s(v->why));
}

bool report_regimes_present(const struct experiment_doc *doc)
{
	return doc->nr_regimes && !report_single_run(doc);
}

/* Each knob factor that could not matter, under a blank line: its head,
 * then a line per value. */
void report_regimes_section(const struct experiment_doc *doc, struct emit *e)
{
	struct strbuf t = STRBUF_INIT;
	size_t i, j;

	emit_gap(e);
	for (i = 0; i < doc->nr_regimes; i++) {
		const struct exp_regime *g = &doc->regimes[i];

		strbuf_reset(&t);
		regime_head(g, &t);
		emit_note(e, EMIT_NOTE_CAUTION, "%s", t.buf);
		emit_list(e, 2);
		for (j = 0; j < g->nr_values; j++) {
			strbuf_reset(&t);
			regime_value(&g->values[j], &t);
			emit_item(e, 0, "%s", t.buf);
		}
		emit_list_end(e);
	}
	strbuf_release(&t);
}
