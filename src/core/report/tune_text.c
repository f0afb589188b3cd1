/*
 * The tune section: the answer of `iotrial tune` (the winner, the
 * settings equivalent to it, the smallest change, the knobs that made
 * no difference, what was not tried and why, the runs against a full
 * grid) or of `iotrial bisect` (the settings that carry the difference,
 * their share, those that carry none), from the document's "tune" or
 * "bisect" part, one line of the page each. Strings are made printable:
 * a stored object may come from elsewhere.
 */
#include <math.h>
#include <string.h>
#include "sections.h"
#include "../../util/text.h"
#include "../../util/banned.h"

/* Append s to out, every control character made a '?'; NULL is "?". */
static void add_str(struct strbuf *out, const char *s)
{
	size_t at = out->len;

	strbuf_addstr(out, s ? s : "?");
	text_make_printable(out->buf + at);
	strbuf_setlen(out, strlen(out->buf));
}

/* "read_ahead_kb=1024 scheduler=none", or none when there is none. */
static void add_changes(struct strbuf *out, const struct model_param *p,
			size_t n, const char *none)
{
	size_t i;

	for (i = 0; i < n; i++) {
		strbuf_addstr(out, i ? " " : "");
		add_str(out, p[i].name);
		strbuf_addch(out, '=');
		add_str(out,
			p[i].value.type == MODEL_V_STR ? p[i].value.s : "?");
	}
	if (!n)
		strbuf_addstr(out, none);
}

/* "2.620x (95% CI 2.600-2.650, better)" */
static void add_ratio(struct strbuf *out, const struct tune_call_doc *c)
{
	if (!c || !isfinite(c->ratio)) {
		strbuf_addstr(out, "no ratio (too few runs)");
		return;
	}
	strbuf_addf(out, "%.3fx", c->ratio);
	if (isfinite(c->ci_low) && isfinite(c->ci_high))
		strbuf_addf(out, " (95%% CI %.3f-%.3f, ", c->ci_low,
			    c->ci_high);
	else
		strbuf_addstr(out, " (");
	add_str(out, c->call);
	strbuf_addch(out, ')');
}

/* The candidate that ran as arm, or NULL. */
static const struct tune_cand_doc *cand_of_arm(const struct tune_doc *t,
					       int64_t arm)
{
	size_t i;

	for (i = 0; i < t->nr_candidates; i++)
		if (t->candidates[i].has_arm == MODEL_SET &&
		    t->candidates[i].arm == arm)
			return &t->candidates[i];
	return NULL;
}

/* The knob's values, its current one starred. */
static void add_space_row(struct strbuf *out, const struct tune_space_doc *x)
{
	const char *cur = x->current ? x->current : "";
	size_t k;

	strbuf_addstr(out, "  ");
	add_str(out, x->knob);
	strbuf_addch(out, ' ');
	for (k = 0; k < x->nr_values; k++) {
		strbuf_addstr(out, k ? "," : "");
		add_str(out, x->values[k]);
		if (x->values[k] && !strcmp(x->values[k], cur))
			strbuf_addch(out, '*');
	}
	strbuf_addstr(out, ": ");
	add_str(out, x->finding);
	strbuf_addstr(out, ", leader ");
	add_str(out, x->leader);
	strbuf_addch(out, '\n');
}

/* A candidate that changes something, with its ratio, or what keeping
 * the current settings is called. */
static void add_pick(struct strbuf *out, const char *head,
		     const struct tune_cand_doc *x, const char *keep,
		     const char *tail)
{
	strbuf_addstr(out, head);
	if (!x || !x->nr_changes) {
		strbuf_addstr(out, keep);
		return;
	}
	add_changes(out, x->changes, x->nr_changes, "?");
	strbuf_addstr(out, ": ");
	add_ratio(out, x->call);
	strbuf_addstr(out, tail);
}

/* What the knobs of the space were found to be, beyond the winner. */
static void add_findings(struct strbuf *out, const struct tune_doc *t)
{
	const struct tune_space_doc *x;
	size_t i;
	int said = 0;

	for (i = 0; i < t->nr_space; i++) {
		x = &t->space[i];
		if (!x->finding || strcmp(x->finding, "no difference"))
			continue;
		strbuf_addstr(out, said++ ? ", " : "no difference: ");
		add_str(out, x->knob);
	}
	if (said)
		strbuf_addstr(out, " (every value within the margin of the "
				   "current one)\n");
	for (i = 0; i < t->nr_space; i++) {
		x = &t->space[i];
		if (!x->irrelevant_why)
			continue;
		strbuf_addstr(out,
			      x->finding && !strcmp(x->finding, "irrelevant")
				  ? "irrelevant: "
				  : "no run reached what it acts on, "
				    "though its values differed: ");
		add_str(out, x->knob);
		strbuf_addstr(out, ": ");
		add_str(out, x->irrelevant_why);
		strbuf_addch(out, '\n');
	}
}

static void race_text(const struct tune_doc *t, struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, "space (* the current value):\n");
	for (i = 0; i < t->nr_space; i++)
		add_space_row(out, &t->space[i]);
	for (i = 0; i < t->nr_left_out; i++) {
		strbuf_addstr(out, i ? "; " : "left out: ");
		add_str(out, t->left_out[i].knob);
		strbuf_addstr(out, " (");
		add_str(out, t->left_out[i].why);
		strbuf_addch(out, ')');
	}
	if (t->nr_left_out)
		strbuf_addch(out, '\n');
	for (i = 0; i < t->nr_refused; i++) {
		strbuf_addstr(out, i ? "; " : "not tried: ");
		add_str(out, t->refused[i]);
	}
	if (t->nr_refused)
		strbuf_addch(out, '\n');
	add_pick(out, "winner:      ", t->winner,
		 "the current settings (no candidate beat them)\n",
		 " against the current settings\n");
	strbuf_addstr(out, "equivalent:  ");
	for (i = 0; i < t->nr_equivalent; i++) {
		const struct tune_cand_doc *c =
		    cand_of_arm(t, t->equivalent[i]);

		strbuf_addstr(out, i ? "; " : "");
		add_changes(out, c ? c->changes : NULL, c ? c->nr_changes : 0,
			    "the current settings");
	}
	if (!t->nr_equivalent)
		strbuf_addstr(out, "none shown within the margin");
	strbuf_addch(out, '\n');
	add_pick(out, "recommended: ", t->recommended,
		 "keep the current settings (no candidate was shown better "
		 "than them)\n",
		 "\n             (the fewest knobs changed among the winner "
		 "and its equivalents)\n");
	add_findings(out, t);
	for (i = 0; i < t->nr_interactions; i++) {
		const struct tune_inter_doc *x = &t->interactions[i];

		strbuf_addstr(out, "interaction: ");
		add_str(out, x->nr_knobs > 0 ? x->knobs[0] : NULL);
		strbuf_addstr(out, " x ");
		add_str(out, x->nr_knobs > 1 ? x->knobs[1] : NULL);
		strbuf_addstr(out, ": both over the product of each alone ");
		add_ratio(out, x->call);
		strbuf_addch(out, '\n');
	}
	if (t->combined) {
		strbuf_addstr(out, "combinations: ");
		add_str(out, t->combined);
		strbuf_addch(out, '\n');
	}
	strbuf_addf(out,
		    "runs: %.0f; a full grid of %.0f combinations with the "
		    "winner's %.0f runs each: %.0f",
		    (double)t->runs, (double)t->grid_arms,
		    (double)t->winner_runs, (double)t->grid_runs);
	if (t->grid_runs > 0) {
		double pct = 100.0 * t->runs / t->grid_runs;

		/* a wide space's share is well under 1%: not "0%" */
		strbuf_addf(out,
			    pct >= 1 || pct == 0 ? " (the race used %.0f%%)"
						 : " (the race used %.2g%%)",
			    pct);
	}
	strbuf_addstr(out, "\nstopped: ");
	add_str(out, t->stopped);
	strbuf_addch(out, '\n');
}

static void bisect_text(const struct bisect_doc *t, struct strbuf *out)
{
	static const char *const roles[] = {"carries", "none", "undecided",
					    "not reached"};
	static const char *const heads[] = {
	    "carry the difference: ",
	    "carry none of it (each share under the margin): ",
	    "could not tell (neither good nor bad): ", "not reached: "};
	const struct tune_minimal_doc *m = t->minimal;
	size_t i, n = t->nr_settings;
	unsigned r;

	strbuf_addstr(out, "the sets differ in: ");
	for (i = 0; i < n; i++) {
		strbuf_addstr(out, i ? ", " : "");
		add_str(out, t->settings[i].knob);
		strbuf_addch(out, ' ');
		add_str(out, t->settings[i].from);
		strbuf_addstr(out, " -> ");
		add_str(out, t->settings[i].to);
	}
	strbuf_addstr(out, "\nto against from: ");
	add_ratio(out, t->to_vs_from);
	strbuf_addch(out, '\n');
	for (r = 0; r < 4; r++) {
		int k = 0;

		for (i = 0; i < n; i++) {
			if (!t->settings[i].role ||
			    strcmp(t->settings[i].role, roles[r]))
				continue;
			strbuf_addstr(out, k++ ? ", " : heads[r]);
			add_str(out, t->settings[i].knob);
		}
		if (k)
			strbuf_addch(out, '\n');
	}
	if (m && isfinite(m->share)) {
		strbuf_addf(out,
			    "share of the effect: %.0f%% (95%% CI "
			    "%.0f%%-%.0f%%); alone it gives ",
			    100 * m->share, 100 * m->share_low,
			    100 * m->share_high);
		add_ratio(out, m->call);
		strbuf_addch(out, '\n');
	}
	for (i = 0; i < t->nr_steps; i++) {
		const struct tune_step_doc *x = &t->steps[i];

		strbuf_addf(out, "step %zu: ", i + 1);
		add_changes(out, x->changes, x->nr_changes, "-");
		strbuf_addstr(out, ": carries ");
		add_str(out, x->carries);
		strbuf_addf(out, " (%.0f blocks; against from ",
			    (double)x->blocks);
		add_ratio(out, x->vs_from);
		strbuf_addstr(out, ")\n");
	}
	strbuf_addf(out,
		    "steps: %.0f (testing each setting alone: %zu); "
		    "runs: %.0f\nstopped: ",
		    (double)t->steps_done, n, (double)t->runs);
	add_str(out, t->stopped);
	strbuf_addch(out, '\n');
}

bool report_tune_present(const struct experiment_doc *doc)
{
	return doc->tune || doc->bisect;
}

void report_tune_section(const struct experiment_doc *doc, struct emit *e)
{
	struct strbuf text = STRBUF_INIT;
	char *line, *next;

	if (doc->tune)
		race_text(doc->tune, &text);
	else if (doc->bisect)
		bisect_text(doc->bisect, &text);
	emit_gap(e);
	for (line = text.buf; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		emit_line(e, "%s", line);
	}
	strbuf_release(&text);
}
