/*
 * Building a plan from KNOB=VALUE assignments. Two passes, because an
 * iosched.* parameter depends on the scheduler the same command may
 * switch to: scheduler assignments are parsed first and tell the context
 * which scheduler is pending, then the rest. The result is sorted by
 * apply order (scheduler, iosched.*, nr_requests, max_sectors_kb,
 * read-ahead, other queue limits, mounts, sysctls), ties in command-line
 * order. One journal group may appear once, so vm.dirty_bytes and
 * vm.dirty_ratio in one command is a conflict, not a silent overwrite.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "plan.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void knob_plan_init(struct knob_plan *p, struct knob_ctx *ctx)
{
	memset(p, 0, sizeof(*p));
	p->ctx = ctx;
}

/* Free one change's contents. */
static void change_release(struct knob_change *c)
{
	knob_release(&c->k);
	free(c->input_name);
	free(c->input);
	strbuf_release(&c->canon);
	strbuf_release(&c->note);
	strbuf_release(&c->side);
	strbuf_release(&c->before);
	strbuf_release(&c->after);
	strbuf_release(&c->how);
}

void knob_plan_release(struct knob_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nr; i++)
		change_release(&p->v[i]);
	free(p->v);
	for (i = 0; i < p->nr_raw; i++) {
		free(p->raw[i]);
		free(p->raw_note[i]);
	}
	free(p->raw);
	free(p->raw_note);
	memset(p, 0, sizeof(*p));
}

/* Queue one assignment, with a note its change starts with (or NULL). */
static void add_raw(struct knob_plan *p, const char *assignment,
		    const char *note)
{
	ALLOC_GROW(p->raw, p->nr_raw + 1, p->alloc_raw);
	p->raw[p->nr_raw] = xstrdup(assignment);
	p->raw_note =
	    xrealloc(p->raw_note, p->alloc_raw * sizeof(*p->raw_note));
	p->raw_note[p->nr_raw++] = note ? xstrdup(note) : NULL;
}

/*
 * bdflush='80 0 0 0 500 3000 90 0 0': queue the bdflush.* assignment of
 * each field that has a modern knob; the first carries the note that
 * says what was translated and what was not.
 */
static int add_bdflush_line(struct knob_plan *p, const char *line,
			    struct strbuf *err)
{
	struct knob_list as = {0};
	struct strbuf note = STRBUF_INIT;
	size_t i;
	int ret = knob_bdflush_split(line, &as, &note, err);

	for (i = 0; !ret && i < as.nr; i++)
		add_raw(p, as.v[i], i ? NULL : note.buf);
	knob_list_release(&as);
	strbuf_release(&note);
	return ret;
}

int knob_plan_add(struct knob_plan *p, const char *assignment,
		  struct strbuf *err)
{
	const char *eq = strchr(assignment, '=');
	char *name;
	int line;

	if (!eq || eq == assignment)
		return err_set(err, -EINVAL,
			       "'%s' is not KNOB=VALUE (e.g. "
			       "scheduler=mq-deadline); 'iotrial knobs' lists "
			       "the knobs",
			       assignment);
	name = xstrndup(assignment, (size_t)(eq - assignment));
	line = knob_is_bdflush_line(name);
	free(name);
	if (line)
		return add_bdflush_line(p, eq + 1, err);
	add_raw(p, assignment, NULL);
	return 0;
}

/* Resolve and parse raw assignment i into a new change. */
static int build_one(struct knob_plan *p, size_t i, struct strbuf *err)
{
	const char *a = p->raw[i], *eq = strchr(a, '=');
	struct knob_change c;
	int ret;

	memset(&c, 0, sizeof(c));
	strbuf_init(&c.canon, 0);
	strbuf_init(&c.note, 0);
	strbuf_init(&c.side, 0);
	strbuf_init(&c.before, 0);
	strbuf_init(&c.after, 0);
	strbuf_init(&c.how, 0);
	c.input_name = xstrndup(a, (size_t)(eq - a));
	c.input = xstrdup(eq + 1);
	c.order = (unsigned)i;
	if (p->raw_note[i])
		strbuf_addstr(&c.note, p->raw_note[i]);
	ret = knob_resolve(p->ctx, c.input_name, &c.k, &c.note, err);
	if (ret)
		goto fail;
	if (!*c.input) {
		ret = err_set(err, -EINVAL, "'%s' needs a value after '='",
			      c.input_name);
		goto fail;
	}
	ret = c.k.ops->parse(&c.k, c.input, &c.canon, &c.note, err);
	if (ret)
		goto fail;
	knob_loop_note(p->ctx, &c.k, &c.note); /* a loop device's own queue */
	if (!c.k.deferred) {
		ret = c.k.ops->read(&c.k, &c.before, err);
		if (ret)
			goto fail;
	}
	if (c.k.ops->how)
		c.k.ops->how(&c.k, c.canon.buf, &c.how);
	else
		strbuf_addf(&c.how, "write '%s'", c.k.path);
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = c;
	return 0;
fail:
	change_release(&c);
	return ret;
}

/* Is raw assignment i a scheduler assignment? */
static int is_sched_assignment(const char *a)
{
	return !strncmp(a, "scheduler=", 10);
}

/* qsort order: apply priority, then command-line order. */
static int by_prio(const void *a, const void *b)
{
	const struct knob_change *x = a, *y = b;

	if (x->k.prio != y->k.prio)
		return x->k.prio < y->k.prio ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Two changes of one group on one object cannot both be applied. A raw
 * knob that names a known knob's file (sysctl:vm.dirty_ratio) is that
 * knob here: given beside it, it is the same setting given twice.
 */
static int check_conflicts(const struct knob_plan *p, struct strbuf *err)
{
	struct knob *twins = xcalloc(p->nr ? p->nr : 1, sizeof(*twins));
	const struct knob **as = xcalloc(p->nr ? p->nr : 1, sizeof(*as));
	struct strbuf tc = STRBUF_INIT;
	size_t i, k;
	int ret = 0;

	for (i = 0; i < p->nr; i++)
		as[i] =
		    knob_raw_twin(&p->v[i].k, p->v[i].canon.buf, &twins[i], &tc)
			? &p->v[i].k
			: &twins[i];
	for (i = 0; i < p->nr && !ret; i++)
		for (k = i + 1; k < p->nr && !ret; k++) {
			const struct knob *a = as[i], *b = as[k];

			if (strcmp(a->group, b->group) ||
			    strcmp(a->object, b->object))
				continue;
			if (strcmp(p->v[i].k.name, p->v[k].k.name) &&
			    (!strcmp(a->name, b->name) ||
			     a->ops == &knob_raw_ops))
				ret = err_set(err, -EINVAL,
					      "'%s' and '%s' are one setting "
					      "(the file '%s'); give only one",
					      p->v[i].input_name,
					      p->v[k].input_name, a->path);
			else if (!strcmp(a->name, b->name))
				ret = err_set(err, -EINVAL,
					      "'%s' is given twice; give "
					      "each knob once",
					      a->name);
			else
				ret =
				    err_set(err, -EINVAL,
					    "'%s' and '%s' are one setting in "
					    "two units (writing one zeroes "
					    "the other); give only one",
					    a->name, b->name);
		}
	for (i = 0; i < p->nr; i++)
		knob_release(&twins[i]);
	free(twins);
	free(as);
	strbuf_release(&tc);
	return ret;
}

int knob_plan_build(struct knob_plan *p, struct strbuf *err)
{
	size_t i;
	int ret = 0, pass;

	free(p->ctx->pending_sched);
	p->ctx->pending_sched = NULL;
	for (pass = 0; pass < 2 && !ret; pass++) {
		for (i = 0; i < p->nr_raw && !ret; i++) {
			if (is_sched_assignment(p->raw[i]) != !pass)
				continue;
			ret = build_one(p, i, err);
			if (ret || pass)
				continue;
			/* iosched.* below is checked against this one */
			if (strcmp(p->v[p->nr - 1].canon.buf,
				   p->v[p->nr - 1].before.buf)) {
				free(p->ctx->pending_sched);
				p->ctx->pending_sched =
				    xstrdup(p->v[p->nr - 1].canon.buf);
			}
		}
	}
	free(p->ctx->pending_sched);
	p->ctx->pending_sched = NULL;
	if (ret)
		return ret;
	if (p->nr) /* an empty plan has no array: qsort(NULL) is undefined */
		qsort(p->v, p->nr, sizeof(*p->v), by_prio);
	return check_conflicts(p, err);
}

int knob_plan_refresh(struct knob_plan *p, struct knob_change *c,
		      struct strbuf *err)
{
	struct knob k;
	struct strbuf canon = STRBUF_INIT;
	int ret;

	ret = knob_resolve(p->ctx, c->input_name, &k, NULL, err);
	if (!ret && k.deferred)
		ret = err_set(err, -EIO,
			      "the scheduler of '%s' did not change "
			      "as planned",
			      k.object);
	if (!ret)
		ret = k.ops->parse(&k, c->input, &canon, NULL, err);
	if (!ret) {
		knob_release(&c->k);
		c->k = k;
		strbuf_reset(&c->canon);
		strbuf_addstr(&c->canon, canon.buf);
		ret = c->k.ops->read(&c->k, &c->before, err);
	} else {
		knob_release(&k);
	}
	strbuf_release(&canon);
	return ret;
}

int knob_change_unchanged(const struct knob_change *c)
{
	return !c->k.deferred && c->before.len &&
	       !strcmp(c->before.buf, c->canon.buf);
}

void knob_show_value(const struct knob *k, const char *value,
		     struct strbuf *out)
{
	struct knob_desc d;

	knob_desc_init(&d);
	if (k->ops->describe)
		k->ops->describe(k, value, &d);
	strbuf_addstr(out, d.shown.len ? d.shown.buf : value);
	knob_desc_release(&d);
}

int knob_plan_need_root(const struct knob_plan *p, struct strbuf *err)
{
	if (!geteuid() || !p->nr)
		return 0;
	return err_set(err, -EPERM,
		       "changing '%s' needs root; run as root ('iotrial set "
		       "--dry-run %s=%s' shows the plan and 'iotrial knobs' "
		       "the knobs without root)",
		       p->v[0].k.name, p->v[0].k.name, p->v[0].canon.buf);
}
