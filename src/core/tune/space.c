/*
 * tune's space (space.h): the default knob families and their ladders,
 * what is left out and why, --space rows, and the current values.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "space.h"
#include "../knob/plan.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* What a knob needs of the workload to act at all. */
enum needs {
	NEEDS_NOTHING,
	NEEDS_READS,	   /* buffered reads: read-ahead */
	NEEDS_WRITES,	   /* writes through the block layer */
	NEEDS_DIRTY,	   /* buffered writes: the dirty thresholds */
	NEEDS_FILE_ACCESS, /* a file system's files: atime */
};

/* The default space: a family, its ladder, what it needs. */
static const struct {
	const char *knob;
	const char *ladder;
	enum needs needs;
} defaults[] = {
    {"read_ahead_kb", "16,64,256,512,1024,4096", NEEDS_READS},
    {"scheduler", "none,mq-deadline,kyber,bfq", NEEDS_NOTHING},
    {"nr_requests", "32,64,128,256", NEEDS_NOTHING},
    {"add_random", "0,1", NEEDS_NOTHING},
    {"rq_affinity", "1,2", NEEDS_NOTHING},
    {"nomerges", "0,2", NEEDS_NOTHING},
    {"wbt_lat_usec", "0,75000", NEEDS_WRITES},
    {"atime", "noatime,relatime", NEEDS_FILE_ACCESS},
    {"vm.dirty_ratio", "5,10,20,40", NEEDS_DIRTY},
    {"vm.dirty_background_ratio", "2,5,10,20", NEEDS_DIRTY},
};

void tune_space_init(struct tune_space *sp)
{
	memset(sp, 0, sizeof(*sp));
}

static void row_release(struct tune_row *r)
{
	unsigned i;

	for (i = 0; i < r->nr_values; i++)
		free(r->values[i]);
	free(r->values);
	free(r->knob);
}

void tune_space_release(struct tune_space *sp)
{
	unsigned i;

	if (!sp)
		return;
	for (i = 0; i < sp->nr_rows; i++)
		row_release(&sp->rows[i]);
	free(sp->rows);
	for (i = 0; i < sp->nr_out; i++) {
		free(sp->out[i].knob);
		free(sp->out[i].why);
	}
	free(sp->out);
	for (i = 0; i < sp->nr_refused; i++)
		free(sp->refused[i]);
	free(sp->refused);
	memset(sp, 0, sizeof(*sp));
}

static void left_out(struct tune_space *sp, const char *knob, const char *why)
{
	ALLOC_GROW(sp->out, sp->nr_out + 1, sp->alloc_out);
	sp->out[sp->nr_out].knob = xstrdup(knob);
	sp->out[sp->nr_out].why = xstrdup(why);
	sp->nr_out++;
}

/* Does the workload read, write, at all? From its name (the rw
 * workloads); the others are taken to do both. */
static int w_reads(const struct workload *w)
{
	const char *n = w->ops->name;

	return strcmp(n, "seqwrite") && strcmp(n, "randwrite");
}

static int w_writes(const struct workload *w)
{
	const char *n = w->ops->name;

	return strcmp(n, "seqread") && strcmp(n, "randread");
}

/* Direct I/O (the rw workloads' direct=1). */
static int w_direct(const struct workload *w)
{
	const struct workload_common *c = w->params;

	return c->direct;
}

/* Why knob, which needs needs, cannot act on w; NULL when it can. */
static const char *cannot_act(const struct workload *w, const char *knob,
			      enum needs needs)
{
	const char *why =
	    w->ops->knob_above ? w->ops->knob_above(w, knob) : NULL;

	if (why)
		return why;
	switch (needs) {
	case NEEDS_READS:
		if (!w_reads(w))
			return "the workload does not read";
		if (w_direct(w))
			return "direct I/O goes around the page cache, "
			       "where read-ahead acts";
		break;
	case NEEDS_DIRTY:
		if (!w_writes(w))
			return "the workload does not write";
		if (w_direct(w))
			return "direct I/O dirties no page cache";
		break;
	case NEEDS_WRITES:
		if (!w_writes(w))
			return "the workload does not write";
		break;
	case NEEDS_FILE_ACCESS:
	case NEEDS_NOTHING:
		break;
	}
	return NULL;
}

/* What knob needs of the workload to act, as the default space says;
 * nothing for a knob not in it. */
static enum needs needs_of(const char *knob)
{
	size_t i;

	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (!strcmp(defaults[i].knob, knob))
			return defaults[i].needs;
	return NEEDS_NOTHING;
}

/* Split "v1,v2,..." into row r's values. -EINVAL for an empty one. */
static int split_values(struct tune_row *r, const char *list)
{
	unsigned alloc = 0;
	const char *p = list;

	for (;;) {
		size_t n = strcspn(p, ",");
		size_t i;

		if (!n)
			return -EINVAL;
		for (i = 0; i < n; i++)
			if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
				return -EINVAL;
		ALLOC_GROW(r->values, r->nr_values + 1, alloc);
		r->values[r->nr_values++] = xstrndup(p, n);
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* Can knob be bound on kctx? 0, or -errno with err saying why not. */
static int bindable(const struct knob_ctx *kctx, const char *knob,
		    struct strbuf *err)
{
	struct knob k;
	int ret;

	memset(&k, 0, sizeof(k));
	ret = knob_resolve(kctx, knob, &k, NULL, err);
	knob_release(&k);
	return ret;
}

void tune_space_default(struct tune_space *sp, const struct knob_ctx *kctx,
			const struct workload *w)
{
	struct strbuf why = STRBUF_INIT;
	unsigned i;

	for (i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		const char *cant;
		struct tune_row *r;

		strbuf_reset(&why);
		if (bindable(kctx, defaults[i].knob, &why)) {
			left_out(sp, defaults[i].knob, why.buf);
			continue;
		}
		cant = cannot_act(w, defaults[i].knob, defaults[i].needs);
		if (cant) {
			left_out(sp, defaults[i].knob, cant);
			continue;
		}
		ALLOC_GROW(sp->rows, sp->nr_rows + 1, sp->alloc_rows);
		r = &sp->rows[sp->nr_rows++];
		memset(r, 0, sizeof(*r));
		r->knob = xstrdup(defaults[i].knob);
		split_values(r, defaults[i].ladder);
	}
	strbuf_release(&why);
}

int tune_space_add(struct tune_space *sp, const char *row,
		   const struct knob_ctx *kctx, const struct workload *w,
		   struct strbuf *err)
{
	const char *eq = strchr(row, '=');
	struct tune_row r = {0};
	const char *cant;
	unsigned i;
	int ret;

	if (!eq || eq == row || !eq[1])
		return err_set(err, -EINVAL,
			       "invalid --space '%s': expected KNOB=V1,V2,... "
			       "(e.g. read_ahead_kb=128,1024)",
			       row);
	r.knob = xstrndup(row, (size_t)(eq - row));
	r.given = 1;
	if (split_values(&r, eq + 1)) {
		ret = err_set(err, -EINVAL,
			      "invalid --space '%s': an empty or unprintable "
			      "value",
			      r.knob);
		goto fail;
	}
	for (i = 0; i < sp->nr_rows; i++)
		if (!strcmp(sp->rows[i].knob, r.knob)) {
			ret = err_set(err, -EINVAL,
				      "'%s' is given twice; give all its "
				      "values in one --space %s=A,B,...",
				      r.knob, r.knob);
			goto fail;
		}
	ret = bindable(kctx, r.knob, err);
	if (ret)
		goto fail;
	cant = w ? cannot_act(w, r.knob, needs_of(r.knob)) : NULL;
	if (cant) {
		ret = err_set(err, -EINVAL, "'%s' cannot act on %s: %s", r.knob,
			      w->ops->name, cant);
		goto fail;
	}
	ALLOC_GROW(sp->rows, sp->nr_rows + 1, sp->alloc_rows);
	sp->rows[sp->nr_rows++] = r;
	return 0;
fail:
	row_release(&r);
	return ret;
}

/* Plan knob=value alone on kctx: its canonical text and the value in
 * force now into canon and now. 0 or -errno with err. */
static int plan_one(struct knob_ctx *kctx, const char *knob, const char *value,
		    struct strbuf *canon, struct strbuf *now,
		    struct strbuf *err)
{
	struct knob_plan p;
	struct strbuf as = STRBUF_INIT;
	int ret;

	knob_plan_init(&p, kctx);
	strbuf_addf(&as, "%s=%s", knob, value);
	ret = knob_plan_add(&p, as.buf, err);
	if (!ret)
		ret = knob_plan_build(&p, err);
	if (!ret && p.nr == 1) {
		strbuf_setf(canon, "%s", p.v[0].canon.buf);
		strbuf_setf(now, "%s", p.v[0].before.buf);
	} else if (!ret) {
		ret = err_set(err, -EINVAL, "'%s' is not one knob", knob);
	}
	knob_plan_release(&p);
	strbuf_release(&as);
	return ret;
}

/* Resolve row r (see tune_space_resolve()); 0, 1 to leave it out with
 * why, or -errno. */
static int resolve_row(struct tune_space *sp, struct tune_row *r,
		       struct knob_ctx *kctx, struct strbuf *why,
		       struct strbuf *err)
{
	struct strbuf canon = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf e = STRBUF_INIT;
	char **canons = xcalloc(r->nr_values + 1, sizeof(*canons));
	unsigned i, j, k = 0, n0 = r->nr_values;
	int cur = -1, ret = 0;
	char *now_text = NULL;

	for (i = 0; i < r->nr_values; i++) {
		strbuf_reset(&e);
		if (plan_one(kctx, r->knob, r->values[i], &canon, &now, &e)) {
			if (r->given) {
				ret = err_set(err, -EINVAL, "--space %s: %s",
					      r->knob, e.buf);
				goto out;
			}
			strbuf_setf(&canon, "%s=%s: %s", r->knob, r->values[i],
				    e.buf);
			ALLOC_GROW(sp->refused, sp->nr_refused + 1,
				   sp->alloc_refused);
			sp->refused[sp->nr_refused++] =
			    strbuf_detach(&canon, NULL);
			free(r->values[i]);
			r->values[i] = NULL;
			continue;
		}
		if (!now_text)
			now_text = xstrdup(now.buf);
		for (j = 0; j < i; j++)
			if (canons[j] && !strcmp(canons[j], canon.buf))
				break;
		if (j < i) { /* the same value spelled twice */
			if (r->given) {
				ret = err_set(err, -EINVAL,
					      "--space %s: '%s' and '%s' are "
					      "the same value",
					      r->knob, r->values[j],
					      r->values[i]);
				goto out;
			}
			free(r->values[i]);
			r->values[i] = NULL;
			continue;
		}
		canons[i] = xstrdup(canon.buf);
		if (cur < 0 && !strcmp(canon.buf, now.buf))
			cur = (int)i;
	}
	if (!now_text) {
		ret = 1;
		strbuf_addstr(why, "the knob accepts none of its values here");
		goto out;
	}
	/* pack the values left; the current one first when it was not
	 * among them */
	for (i = 0; i < r->nr_values; i++)
		if (r->values[i]) {
			if ((int)i == cur)
				cur = (int)k;
			r->values[k++] = r->values[i];
		}
	r->nr_values = k;
	if (cur < 0) {
		r->values = xrealloc(r->values, (k + 1) * sizeof(*r->values));
		memmove(r->values + 1, r->values, k * sizeof(*r->values));
		r->values[0] = xstrdup(now_text);
		r->nr_values = k + 1;
		cur = 0;
	}
	r->current = (unsigned)cur;
	if (r->nr_values < 2) {
		ret = 1;
		strbuf_addf(why,
			    "it accepts no value here but its current "
			    "one (%s)",
			    now_text);
	}
out:
	for (i = 0; i < n0; i++)
		free(canons[i]);
	free(canons);
	free(now_text);
	strbuf_release(&canon);
	strbuf_release(&now);
	strbuf_release(&e);
	return ret;
}

int tune_space_resolve(struct tune_space *sp, struct knob_ctx *kctx,
		       struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	unsigned i = 0, k;
	int ret = 0;

	while (i < sp->nr_rows) {
		strbuf_reset(&why);
		ret = resolve_row(sp, &sp->rows[i], kctx, &why, err);
		if (ret < 0)
			break;
		if (ret == 0) {
			i++;
			continue;
		}
		if (sp->rows[i].given) {
			ret = err_set(err, -EINVAL, "--space %s: %s",
				      sp->rows[i].knob, why.buf);
			break;
		}
		left_out(sp, sp->rows[i].knob, why.buf);
		row_release(&sp->rows[i]);
		for (k = i + 1; k < sp->nr_rows; k++)
			sp->rows[k - 1] = sp->rows[k];
		sp->nr_rows--;
		ret = 0;
	}
	strbuf_release(&why);
	return ret < 0 ? ret : 0;
}

/* Is the canonical value canon within range "LO..HI" (numbers, either
 * end open) or "V1|V2|..."? */
static int in_range(const char *canon, const char *range)
{
	const char *dots = strstr(range, "..");
	char *end;
	double v, lo, hi;

	if (!dots) {
		size_t n = strlen(canon);
		const char *p = range;

		while (p) {
			const char *bar = strchr(p, '|');
			size_t m = bar ? (size_t)(bar - p) : strlen(p);

			if (m == n && !strncmp(p, canon, n))
				return 1;
			p = bar ? bar + 1 : NULL;
		}
		return 0;
	}
	v = strtod(canon, &end);
	if (end == canon)
		return 0;
	lo = dots == range ? -1e300 : strtod(range, NULL);
	hi = dots[2] ? strtod(dots + 2, NULL) : 1e300;
	return v >= lo && v <= hi;
}

int tune_space_limit(struct tune_space *sp, const char *limit,
		     struct knob_ctx *kctx, struct strbuf *err)
{
	const char *eq = strchr(limit, '=');
	struct strbuf canon = STRBUF_INIT, now = STRBUF_INIT;
	struct strbuf e = STRBUF_INIT;
	struct tune_row *r = NULL;
	unsigned i, k = 0;
	int ret = 0;

	if (!eq || eq == limit || !eq[1])
		return err_set(err, -EINVAL,
			       "cannot read --max-change '%s': give "
			       "KNOB=LO..HI or KNOB=V1|V2",
			       limit);
	for (i = 0; i < sp->nr_rows; i++)
		if (strlen(sp->rows[i].knob) == (size_t)(eq - limit) &&
		    !strncmp(sp->rows[i].knob, limit, (size_t)(eq - limit)))
			r = &sp->rows[i];
	if (!r)
		return err_set(err, -EINVAL,
			       "--max-change '%s': '%.*s' is not in the space",
			       limit, (int)(eq - limit), limit);
	for (i = 0; i < r->nr_values && !ret; i++) {
		int keep = i == r->current;

		if (!keep &&
		    !plan_one(kctx, r->knob, r->values[i], &canon, &now, &e))
			keep = in_range(canon.buf, eq + 1);
		if (keep) {
			if (i == r->current)
				r->current = k;
			r->values[k++] = r->values[i];
			continue;
		}
		if (r->given) {
			ret = err_set(err, -EINVAL,
				      "--space %s=%s is outside --max-change "
				      "%s",
				      r->knob, r->values[i], limit);
			r->values[k++] = r->values[i];
			continue;
		}
		strbuf_setf(&e, "%s=%s: outside --max-change %s", r->knob,
			    r->values[i], eq + 1);
		ALLOC_GROW(sp->refused, sp->nr_refused + 1, sp->alloc_refused);
		sp->refused[sp->nr_refused++] = strbuf_detach(&e, NULL);
		free(r->values[i]);
	}
	for (; i < r->nr_values; i++)
		r->values[k++] = r->values[i];
	r->nr_values = k;
	strbuf_release(&canon);
	strbuf_release(&now);
	strbuf_release(&e);
	return ret;
}
