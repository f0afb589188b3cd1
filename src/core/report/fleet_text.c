/*
 * The fleet section of a merged experiment (sections.h): one row per
 * host, failed hosts included with their reason, so that nobody reads a
 * fleet verdict without seeing which hosts it stands on and which it
 * does not; then per arm whether the hosts agree:
 *
 *   fleet: 4 hosts, 3 merged, 1 failed
 *   host  kernel          read_ahead_kb=1024
 *   h1    6.1.0-18-amd64  1.120 faster
 *   h2    6.1.0-18-amd64  0.910 slower
 *   h3    6.5.0-1 (!)     1.040 inconclusive
 *   h4    failed at 'iotrial version': the host runs 'iotrial 0.0.9' ...
 *   (!): differs from most hosts (kernel, devices or schedulers)
 *
 *   hosts on read_ahead_kb=1024: mixed: 1 faster, 1 slower, 1 inconclusive
 *   (ratios 0.910 to 1.120)
 *
 * Nothing for an experiment without a fleet part.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "sections.h"
#include "report_doc.h"
#include "suspect.h"
#include "../../util/banned.h"

/* Does a host's verdict v carry reasons to suspect it? */
static bool marked(const struct fleet_host_verdict *v)
{
	return v->has_suspect == MODEL_SET && v->nr_suspect > 0;
}

/* A host's number, NaN when it has none. */
#define HV_NUM(v, f) ((v)->has_##f == MODEL_SET ? (v)->f : NAN)

/* One good host's cells: kernel, then its ratio and verdict per arm. */
static void host_cells(const struct fleet_host_doc *h, struct emit *e)
{
	size_t i;

	emit_cell(e, "%s%s", rd_s(h->kernel), h->nr_differs ? " (!)" : "");
	for (i = 0; i < h->nr_verdicts; i++) {
		const struct fleet_host_verdict *v = &h->verdicts[i];
		double r = HV_NUM(v, ratio);

		if (isfinite(r))
			emit_cell(e, "%.3f %s", r, rd_s(v->verdict));
		else
			emit_cell(e, "%s", rd_s(v->verdict));
		emit_mark(e, (marked(v) ? EMIT_MARK_SUSPECT : 0) |
				 (v->stated ? EMIT_MARK_STATED : 0));
	}
	emit_row(e);
}

/* Under a host whose revert did not run or failed: that it may still
 * hold a changed setting (its failure line may say why, but not that). */
static void revert_row(const struct fleet_host_doc *h, struct emit *e)
{
	const char *r = rd_s(h->revert);

	if (!*r || !strcmp(r, "ok"))
		return;
	emit_cell(e, "%s", "");
	emit_cell(e,
		  "(!) iotrial revert %s there: the host may still hold a "
		  "changed setting; run 'iotrial revert' on it",
		  strcmp(r, "not run") ? "failed" : "did not run");
	emit_row(e);
}

/* "what verdict v says": "faster, ratio 50.000, p 0". */
static void says(const struct fleet_host_verdict *v, struct strbuf *out)
{
	double r = HV_NUM(v, ratio), p = HV_NUM(v, p_adjusted);

	strbuf_addstr(out,
		      v->verdict && *v->verdict ? v->verdict : "no verdict");
	if (isfinite(r))
		strbuf_addf(out, ", ratio %.3f", r);
	if (isfinite(p))
		strbuf_addf(out, ", p %.3g", p);
}

/* The footnotes of the hosts' verdicts: "* HOST LABEL: why" for each
 * marked one, then "# HOST LABEL: its file says ..." for each whose
 * file states another than its runs give. */
static void host_notes(const struct experiment_doc *doc, struct emit *e)
{
	const struct fleet_doc *f = doc->fleet;
	struct strbuf h = STRBUF_INIT, t = STRBUF_INIT;
	size_t i, j;

	for (i = 0; i < f->nr_host_list; i++)
		for (j = 0; j < f->host_list[i].nr_verdicts; j++) {
			const struct fleet_host_verdict *v =
			    &f->host_list[i].verdicts[j];
			struct suspect_src s;

			if (!marked(v))
				continue;
			strbuf_reset(&h);
			strbuf_reset(&t);
			strbuf_addf(&h, "%s %s", rd_s(f->host_list[i].host),
				    rd_s(v->label));
			suspect_src_host(doc, v, &s);
			suspect_doc_note(doc, &s, h.buf, &t);
			emit_note(e, EMIT_NOTE_SUSPECT, "%s", t.buf);
		}
	for (i = 0; i < f->nr_host_list; i++)
		for (j = 0; j < f->host_list[i].nr_verdicts; j++) {
			const struct fleet_host_verdict *v =
			    &f->host_list[i].verdicts[j];

			if (!v->stated)
				continue;
			strbuf_reset(&t);
			strbuf_addf(&t, "%s %s: its file says ",
				    rd_s(f->host_list[i].host), rd_s(v->label));
			says(v->stated, &t);
			strbuf_addstr(&t, ", its runs give ");
			says(v, &t);
			strbuf_addstr(&t, "; the fleet counts its runs");
			emit_note(e, EMIT_NOTE_STATED, "%s", t.buf);
		}
	strbuf_release(&h);
	strbuf_release(&t);
}

/* The counts of the hosts' verdicts: "2 faster, 1 slower". */
static void counts(struct strbuf *out, const struct exp_verdict *v)
{
	static const char *const order[] = {"faster", "slower", "equivalent",
					    "inconclusive", "no verdict"};
	size_t i, j, shown = 0;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		for (j = 0; j < v->nr_hosts; j++)
			if (!strcmp(v->hosts[j].name, order[i]) &&
			    rd_count(v->hosts[j].value))
				strbuf_addf(out, "%s%d %s", shown++ ? ", " : "",
					    rd_count(v->hosts[j].value),
					    order[i]);
	for (j = 0; j < v->nr_hosts; j++) {
		for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
			if (!strcmp(v->hosts[j].name, order[i]))
				break;
		if (i == sizeof(order) / sizeof(order[0]))
			strbuf_addf(out, "%s%d %s", shown++ ? ", " : "",
				    (int)v->hosts[j].value, v->hosts[j].name);
	}
}

bool report_fleet_present(const struct experiment_doc *doc)
{
	return doc->fleet != NULL;
}

/*
 *   fleet: 4 hosts, 3 merged, 1 failed
 *   host  kernel          read_ahead_kb=1024
 *   h1    6.1.0-18-amd64  1.120 faster
 *   h3    6.5.0-1 (!)     1.040 inconclusive
 *   h4    failed at 'iotrial version': the host runs 'iotrial 0.0.9' ...
 *   (!): differs from most hosts (kernel, devices or schedulers)
 *
 *   hosts on read_ahead_kb=1024: mixed: 1 faster, 1 inconclusive
 *   (ratios 1.040 to 1.120)
 */
void report_fleet_section(const struct experiment_doc *doc, struct emit *e)
{
	const struct fleet_doc *f = doc->fleet;
	struct emit_col cols[EMIT_MAX_COLS];
	struct emit_table t = {"fleet", cols, 2, false};
	size_t i, host_w = 4, kernel_w = 6, col_w = 16;
	bool any_flag = false;
	struct strbuf s = STRBUF_INIT;

	for (i = 0; i < f->nr_host_list; i++) {
		size_t hn = strlen(rd_s(f->host_list[i].host));
		size_t kn = strlen(rd_s(f->host_list[i].kernel));

		host_w = hn > host_w ? hn : host_w;
		kernel_w = kn > kernel_w ? kn : kernel_w;
	}
	for (i = 0; i < doc->nr_verdicts; i++)
		if (strlen(rd_s(doc->verdicts[i].label)) > col_w)
			col_w = strlen(rd_s(doc->verdicts[i].label));
	cols[0] = (struct emit_col){"host", EMIT_LABEL, 0, 1, host_w};
	cols[1] = (struct emit_col){"kernel", EMIT_TEXT, 0, 1, kernel_w + 4};
	for (i = 0; i < doc->nr_verdicts && t.nr_cols < EMIT_MAX_COLS; i++)
		cols[t.nr_cols++] = (struct emit_col){
		    rd_s(doc->verdicts[i].label), EMIT_VERDICT, 0, 1, col_w};
	emit_gap(e);
	strbuf_addf(&s, "fleet: %d host%s, %d merged, %d failed",
		    rd_count(f->nr_hosts),
		    rd_count(f->nr_hosts) == 1 ? "" : "s", rd_count(f->nr_ok),
		    rd_count(f->nr_failed));
	emit_heading(e, 2, s.buf, s.buf);
	emit_table(e, &t);
	for (i = 0; i < f->nr_host_list; i++) {
		const struct fleet_host_doc *h = &f->host_list[i];

		emit_cell(e, "%s", rd_s(h->host));
		if (strcmp(rd_s(h->status), "ok")) {
			strbuf_reset(&s);
			strbuf_addstr(&s, "failed");
			if (h->task && *h->task)
				strbuf_addf(&s, " at '%s'", h->task);
			strbuf_addf(&s, ": %s", rd_s(h->error));
			emit_cell(e, "%s", s.buf);
			emit_row(e);
			revert_row(h, e);
			continue;
		}
		any_flag |= h->nr_differs > 0;
		host_cells(h, e);
		revert_row(h, e);
	}
	emit_table_end(e);
	if (any_flag)
		emit_note(e, EMIT_NOTE_PLAIN, "%s",
			  "(!): differs from most hosts in kernel, devices or "
			  "schedulers; see the warnings");
	host_notes(doc, e);
	for (i = 0; i < doc->nr_verdicts; i++) {
		const struct exp_verdict *v = &doc->verdicts[i];

		if (v->has_hosts != MODEL_SET)
			continue;
		strbuf_reset(&s);
		strbuf_addf(&s, "hosts on %s: %s: ", rd_s(v->label),
			    rd_s(v->agreement));
		counts(&s, v);
		strbuf_addf(
		    &s, " (host ratios %.3f to %.3f)",
		    v->has_host_ratio_min == MODEL_SET ? v->host_ratio_min
						       : NAN,
		    v->has_host_ratio_max == MODEL_SET ? v->host_ratio_max
						       : NAN);
		if (!strcmp(rd_s(v->verdict), "mixed"))
			strbuf_addf(&s,
				    "; no fleet verdict: the setting helps "
				    "some hosts and hurts others (pooled: %s)",
				    rd_s(v->pooled_verdict));
		emit_gap(e);
		emit_line(e, "%s", s.buf);
	}
	strbuf_release(&s);
}
