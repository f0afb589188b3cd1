/*
 * The document half of suspect.h: the reasons of a row of an experiment
 * document (a verdict, an effect, an interaction, a scaling row, a fleet
 * host's verdict) and their footnotes, for the renderers. A row stored
 * with its reasons has them; one stored before rows had them gets those
 * its arms' runs and drift give, as suspect_doc_mark() sets them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report_doc.h"
#include "suspect.h"
#include "suspect-int.h"
#include "../model/model_json.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One reason: a kind of flag that runs of an arm carried. */
struct reason {
	const char *arm, *label, *kind; /* role, the arm's label, kind */
	int64_t runs, of;
};

/* The reasons of a row. */
struct reasons {
	struct reason *r;
	size_t n, alloc;
};

static void reason_add(struct reasons *rs, const char *role, const char *label,
		       const char *kind, int64_t runs, int64_t of)
{
	ALLOC_GROW(rs->r, rs->n + 1, rs->alloc);
	rs->r[rs->n++] = (struct reason){role, label, kind, runs, of};
}

/* The reasons of arm index arm of doc in the role role, counted from
 * its runs and its drift. */
static void arm_reasons(const struct experiment_doc *doc, int64_t arm,
			const char *role, struct reasons *rs)
{
	const struct exp_arm *a = report_arm(doc, arm);
	int64_t counts[33] = {0}, n = 0;
	unsigned drift = suspect_drift_kind();
	size_t i;
	unsigned k;

	for (i = 0; i < doc->nr_runs; i++) {
		unsigned mask;

		if (doc->runs[i].arm != arm)
			continue;
		n++;
		mask =
		    doc->runs[i].run
			? suspect_warn_mask(doc->runs[i].run->warnings,
					    doc->runs[i].run->nr_warnings,
					    doc->runs[i].run->warning_kinds,
					    doc->runs[i].run->nr_warning_kinds)
			: 0;
		for (k = 0; k < drift && k < 32; k++)
			counts[k] += (mask >> k) & 1;
	}
	if (a && a->drift && a->drift->drifting)
		counts[drift < 33 ? drift : 32] = n;
	for (k = 0; k < nr_suspect_kinds; k++)
		if (suspect_kinds_table[k].counted &&
		    counts[suspect_kinds_table[k].kind])
			reason_add(rs, role, a ? rd_s(a->label) : "",
				   suspect_kinds_table[k].name,
				   counts[suspect_kinds_table[k].kind], n);
}

/* An arm index as the old getters read it: -1 when out of range. */
static int64_t arm_index(int64_t v)
{
	return v >= 0 && v < 1000000000 ? v : -1;
}

/* The rest of src: arm, and its baseline when it is another arm. */
static void src_pair(struct suspect_src *s, int64_t arm, int64_t base)
{
	s->nr_arms = 0;
	if (arm_index(arm) < 0)
		return;
	s->arm[0] = arm;
	s->base[0] = false;
	s->nr_arms = 1;
	if (arm_index(base) >= 0 && base != arm) {
		s->arm[1] = base;
		s->base[1] = true;
		s->nr_arms = 2;
	}
}

#define SRC_STORED(s, x)                                                       \
	do {                                                                   \
		(s)->stored = (x)->suspect;                                    \
		(s)->nr = (x)->nr_suspect;                                     \
		(s)->has = (x)->has_suspect;                                   \
	} while (0)

void suspect_src_verdict(const struct experiment_doc *doc,
			 const struct exp_verdict *v, struct suspect_src *s)
{
	SRC_STORED(s, v);
	src_pair(s, v->arm,
		 doc->has_baseline == MODEL_SET ? rd_count(doc->baseline) : 0);
}

void suspect_src_effect(const struct exp_effect *x, struct suspect_src *s)
{
	SRC_STORED(s, x);
	src_pair(s, x->arm, x->baseline_arm);
}

void suspect_src_scaling(const struct exp_scaling_row *x, struct suspect_src *s)
{
	SRC_STORED(s, x);
	src_pair(s, x->arm, x->baseline_arm);
}

void suspect_src_interaction(const struct exp_interaction *x,
			     struct suspect_src *s)
{
	size_t i;

	SRC_STORED(s, x);
	s->nr_arms = 0;
	for (i = 0; i < x->nr_arms && s->nr_arms < 4; i++)
		if (arm_index(x->arms[i]) >= 0) {
			s->arm[s->nr_arms] = x->arms[i];
			s->base[s->nr_arms++] = false;
		}
}

void suspect_src_host(const struct experiment_doc *doc,
		      const struct fleet_host_verdict *v, struct suspect_src *s)
{
	SRC_STORED(s, v);
	src_pair(s, v->arm,
		 doc->has_baseline == MODEL_SET ? rd_count(doc->baseline) : 0);
}

/* The reasons of s: the stored ones, or those its arms' runs give. */
static void reasons_of(const struct experiment_doc *doc,
		       const struct suspect_src *s, struct reasons *rs)
{
	size_t i;

	memset(rs, 0, sizeof(*rs));
	if (s->has == MODEL_SET) {
		for (i = 0; i < s->nr; i++)
			reason_add(rs, rd_s(s->stored[i].arm),
				   rd_s(s->stored[i].label),
				   rd_s(s->stored[i].kind), s->stored[i].runs,
				   s->stored[i].of);
		return;
	}
	for (i = 0; i < s->nr_arms; i++)
		arm_reasons(doc, s->arm[i], s->base[i] ? "baseline" : "arm",
			    rs);
}

bool suspect_doc_is(const struct experiment_doc *doc,
		    const struct suspect_src *s)
{
	struct reasons rs;
	bool yes;

	if (s->has == MODEL_SET)
		return s->nr > 0;
	reasons_of(doc, s, &rs);
	yes = rs.n > 0;
	free(rs.r);
	return yes;
}

bool suspect_verdict_is(const struct experiment_doc *doc,
			const struct exp_verdict *v)
{
	struct suspect_src s;

	suspect_src_verdict(doc, v, &s);
	return suspect_doc_is(doc, &s);
}

/*
 * The body of a footnote: each kind's phrase and, for every arm that
 * carried it, how many of its runs ("3 of 4 runs of the arm, 4 of 4 of
 * the baseline 'jobs=1'"); arms in the role "arm" are named by label
 * when name_arms is set (an effect's or an interaction's arms).
 */
static void footnote_body(const struct reasons *rs, bool name_arms,
			  struct strbuf *out)
{
	size_t k, i, said = 0;

	for (k = 0; k < nr_suspect_kinds; k++) {
		size_t listed = 0;

		for (i = 0; i < rs->n; i++) {
			const struct reason *r = &rs->r[i];

			if (strcmp(r->kind, suspect_kinds_table[k].name))
				continue;
			if (!listed)
				strbuf_addf(out, "%s %s (", said++ ? ";" : "",
					    suspect_kinds_table[k].phrase);
			strbuf_addf(out, "%s%d of %d %s", listed ? ", " : "",
				    rd_count(r->runs), rd_count(r->of),
				    listed ? "of" : "runs of");
			if (!strcmp(r->arm, "baseline"))
				strbuf_addf(out, " the baseline '%s'",
					    r->label);
			else if (name_arms)
				strbuf_addf(out, " '%s'", r->label);
			else
				strbuf_addstr(out, " the arm");
			listed++;
		}
		if (listed)
			strbuf_addch(out, ')');
	}
	/* an unknown kind (a newer iotrial's) is still a reason */
	if (!said && rs->n)
		strbuf_addf(out,
			    " warnings of a kind this iotrial does not know "
			    "('%s')",
			    rs->r[0].kind);
}

void suspect_doc_footnote(const struct experiment_doc *doc,
			  const struct exp_verdict *v, struct strbuf *out)
{
	struct suspect_src s;
	struct reasons rs;

	suspect_src_verdict(doc, v, &s);
	reasons_of(doc, &s, &rs);
	if (rs.n) {
		strbuf_addf(out, "%s:", rd_s(v->label));
		footnote_body(&rs, false, out);
		if (v->estimate && *v->estimate) {
			strbuf_addf(out,
				    "; --strict gives no faster/slower from "
				    "such runs (the estimate: %s",
				    v->estimate);
			if (isfinite(CMP_NUM(v, ratio)))
				strbuf_addf(out, " %.2fx", v->cmp->ratio);
			strbuf_addch(out, ')');
		}
	}
	free(rs.r);
}

void suspect_doc_note(const struct experiment_doc *doc,
		      const struct suspect_src *s, const char *heading,
		      struct strbuf *out)
{
	struct reasons rs;

	reasons_of(doc, s, &rs);
	if (rs.n) {
		strbuf_addf(out, "%s:", heading);
		footnote_body(&rs, true, out);
	}
	free(rs.r);
}

void suspect_doc_kinds(const struct experiment_doc *doc,
		       const struct suspect_src *s, struct strbuf *out)
{
	struct reasons rs;
	size_t i, j, said = 0;

	reasons_of(doc, s, &rs);
	for (i = 0; i < rs.n; i++) {
		for (j = 0; j < i && strcmp(rs.r[i].kind, rs.r[j].kind); j++)
			;
		if (j == i)
			strbuf_addf(out, "%s%s", said++ ? ", " : "",
				    rs.r[i].kind);
	}
	free(rs.r);
}

/* Append the reasons rs to the nr marks *out, as new strings. */
static void marks_add(const struct reasons *rs, struct exp_suspect **out,
		      size_t *nr)
{
	size_t i;

	*out = xrealloc(*out, (*nr + rs->n + 1) * sizeof(**out));
	for (i = 0; i < rs->n; i++) {
		struct exp_suspect *m = &(*out)[(*nr)++];

		memset(m, 0, sizeof(*m));
		m->arm = xstrdup(rs->r[i].arm);
		m->label = xstrdup(rs->r[i].label);
		m->kind = xstrdup(rs->r[i].kind);
		m->runs = rs->r[i].runs;
		m->of = rs->r[i].of;
	}
}

void suspect_doc_arm_reasons(const struct experiment_doc *doc, int64_t arm,
			     const char *role, struct exp_suspect **out,
			     size_t *nr)
{
	struct reasons rs = {0};

	arm_reasons(doc, arm, role, &rs);
	marks_add(&rs, out, nr);
	free(rs.r);
}

void suspect_doc_reasons(const struct experiment_doc *doc,
			 const struct suspect_src *s, struct exp_suspect **out,
			 size_t *nr)
{
	struct reasons rs;

	reasons_of(doc, s, &rs);
	marks_add(&rs, out, nr);
	free(rs.r);
}

/* Set the marks of the row src (*s, *nr, *has) to those its arms give,
 * whatever it held. */
static void mark_row(const struct experiment_doc *doc, struct suspect_src *src,
		     struct exp_suspect **s, size_t *nr, uint8_t *has)
{
	struct exp_suspect *m = NULL;
	size_t n = 0;

	src->has = MODEL_ABSENT;
	suspect_doc_reasons(doc, src, &m, &n);
	exp_suspects_free(*s, *nr);
	*s = m;
	*nr = n;
	*has = MODEL_SET;
}

/* Mark row x of doc, made a suspect_src by SRC_CALL (its arguments). */
#define MARK(doc, x, SRC_CALL)                                                 \
	do {                                                                   \
		struct suspect_src src_;                                       \
		SRC_CALL;                                                      \
		mark_row(doc, &src_, &(x)->suspect, &(x)->nr_suspect,          \
			 &(x)->has_suspect);                                   \
	} while (0)

void suspect_doc_mark(struct experiment_doc *doc)
{
	size_t i;

	for (i = 0; i < doc->nr_verdicts; i++)
		MARK(doc, &doc->verdicts[i],
		     suspect_src_verdict(doc, &doc->verdicts[i], &src_));
	for (i = 0; i < doc->nr_effects; i++)
		MARK(doc, &doc->effects[i],
		     suspect_src_effect(&doc->effects[i], &src_));
	for (i = 0; i < doc->nr_interactions; i++)
		MARK(doc, &doc->interactions[i],
		     suspect_src_interaction(&doc->interactions[i], &src_));
	for (i = 0; i < doc->nr_scaling; i++)
		MARK(doc, &doc->scaling[i],
		     suspect_src_scaling(&doc->scaling[i], &src_));
}

unsigned suspect_doc_apply_strict(struct experiment_doc *doc)
{
	unsigned refused = 0;
	size_t i;

	for (i = 0; i < doc->nr_verdicts; i++) {
		struct exp_verdict *v = &doc->verdicts[i];

		if (!v->verdict ||
		    (strcmp(v->verdict, "faster") &&
		     strcmp(v->verdict, "slower")) ||
		    !suspect_verdict_is(doc, v))
			continue;
		free(v->estimate);
		v->estimate = v->verdict;
		v->verdict = xstrdup(SUSPECT_VERDICT);
		refused++;
	}
	doc->strict = true;
	doc->has_strict = MODEL_SET;
	return refused;
}
