/*
 * The I/O scheduler and its parameters (queue/scheduler, queue/iosched/).
 *
 * Names: the kernel lists what it offers ("none [mq-deadline] kyber
 * bfq"), and only those are accepted. The single-queue names people
 * still type (cfq, deadline, noop; blk-mq replaced them in 5.0) are
 * translated with a note, unless this kernel still offers them. A name
 * means its successor and nothing else: where the device does not
 * offer that (cfq's bfq, often a module not loaded), the name is
 * refused with why and what is offered, and the knobs listing says
 * so instead of offering the translation.
 *
 * Switching the scheduler is not a single write: the kernel resets
 * nr_requests and replaces iosched/ with the new scheduler's parameters
 * at their defaults. So save() captures the scheduler, nr_requests and
 * every iosched parameter, and restore() puts all of them back, in that
 * order. A plan applies the scheduler first and iosched.* after it; a
 * parameter of a scheduler that is not active yet is checked against
 * what that scheduler is known to offer and written after the switch.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "knob-int.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A single-queue name and the blk-mq scheduler that replaced it. */
struct sched_legacy {
	const char *old, *now, *why;
};

static const struct sched_legacy legacy[] = {
    {"cfq", "bfq",
     "cfq was removed in Linux 5.0; bfq is its successor (proportional "
     "share per process, tuned differently)"},
    {"deadline", "mq-deadline",
     "'deadline' is the single-queue name; blk-mq calls it "
     "'mq-deadline'"},
    {"noop", "none", "'noop' is the single-queue name; blk-mq calls it 'none'"},
};

/* A scheduler parameter we know: its unit, for durations and listing. */
struct iosched_param {
	const char *sched, *name;
	const char *unit; /* "ms", "us", "ns", "KiB", "sectors", "" */
	uint64_t unit_ns; /* for durations; 0: not a duration */
};

static const struct iosched_param params[] = {
    {"mq-deadline", "read_expire", "ms", 1000000},
    {"mq-deadline", "write_expire", "ms", 1000000},
    {"mq-deadline", "writes_starved", "", 0},
    {"mq-deadline", "front_merges", "", 0},
    {"mq-deadline", "fifo_batch", "", 0},
    {"mq-deadline", "async_depth", "", 0},
    {"mq-deadline", "prio_aging_expire", "ms", 1000000},
    {"bfq", "back_seek_max", "KiB", 0},
    {"bfq", "back_seek_penalty", "", 0},
    {"bfq", "fifo_expire_async", "ms", 1000000},
    {"bfq", "fifo_expire_sync", "ms", 1000000},
    {"bfq", "low_latency", "", 0},
    {"bfq", "max_budget", "sectors", 0},
    {"bfq", "slice_idle", "ms", 1000000},
    {"bfq", "slice_idle_us", "us", 1000},
    {"bfq", "strict_guarantees", "", 0},
    {"bfq", "timeout_sync", "ms", 1000000},
    {"kyber", "read_lat_nsec", "ns", 1},
    {"kyber", "write_lat_nsec", "ns", 1},
};

/* The spec of sched/name, or NULL. */
static const struct iosched_param *iosched_param_find(const char *sched,
						      const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(params); i++)
		if ((!sched || !strcmp(params[i].sched, sched)) &&
		    !strcmp(params[i].name, name))
			return &params[i];
	return NULL;
}

/* Do we know the parameter set of sched? */
static int sched_known(const char *sched)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(params); i++)
		if (!strcmp(params[i].sched, sched))
			return 1;
	return 0;
}

/*
 * Read queue/scheduler of disk: the offered names into offered (may be
 * NULL) and the active one into active.
 */
static int read_offered(const char *root, const char *disk,
			struct knob_list *offered, struct strbuf *active,
			struct strbuf *err)
{
	struct strbuf raw = STRBUF_INIT;
	char *p = knob_path(root, "/sys/block/%s/queue/scheduler", disk);
	struct strbuf first = STRBUF_INIT;
	char *tok, *save = NULL;
	int ret, nr = 0;

	ret = knob_read_file(p, "scheduler", &raw, err);
	free(p);
	if (ret)
		goto out;
	strbuf_reset(active);
	for (tok = strtok_r(raw.buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(tok);

		if (tok[0] == '[' && n > 2 && tok[n - 1] == ']') {
			tok[n - 1] = '\0';
			tok++;
			strbuf_reset(active);
			strbuf_addstr(active, tok);
		} else if (!nr++) {
			/* one choice may be printed without brackets */
			strbuf_addstr(&first, tok);
		}
		if (offered)
			knob_list_add(offered, tok);
	}
	if (!active->len && nr == 1)
		strbuf_addstr(active, first.buf);
out:
	strbuf_release(&raw);
	strbuf_release(&first);
	return ret;
}

/* The parameter names in queue/iosched/, sorted. */
static void iosched_names(const char *root, const char *disk,
			  struct knob_list *out)
{
	char *p = knob_path(root, "/sys/block/%s/queue/iosched", disk);
	struct dirent **ents = NULL;
	int n, i;

	n = scandir(p, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.')
			knob_list_add(out, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	free(p);
}

/* Space separated offered names, for messages. */
static void join(const struct knob_list *l, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		strbuf_addf(out, "%s%s", i ? " " : "", l->v[i]);
}

/* knob_ops.names: the knobs of this family that ctx can bind. */
static void sched_names(const struct knob_ctx *ctx, struct knob_list *out)
{
	struct knob_list ps = {0};
	size_t i;

	if (!ctx->disk && !ctx->anywhere)
		return;
	knob_list_add(out, "scheduler");
	if (!ctx->disk)
		return; /* iosched.* are the active scheduler's */
	iosched_names(ctx->root, ctx->disk, &ps);
	for (i = 0; i < ps.nr; i++) {
		char *n = knob_path("", "iosched.%s", ps.v[i]);

		knob_list_add(out, n);
		free(n);
	}
	knob_list_release(&ps);
}

/* knob_ops.persist: the scheduler is tuned's "elevator", and its file
 * reads back every scheduler with the active one in brackets. */
static void sched_persist(const struct knob *k, struct knob_persist *p)
{
	if (strcmp(k->name, "scheduler"))
		return; /* iosched.*: a queue attribute like any */
	p->tuned_disk = "elevator";
	p->selected_word = 1;
}

/* Resolve "iosched.PARAM". */
static int resolve_param(const struct knob_ctx *ctx, const char *param,
			 struct knob *k, struct strbuf *err)
{
	struct strbuf active = STRBUF_INIT, rel = STRBUF_INIT,
		      have = STRBUF_INIT;
	struct knob_list ps = {0};
	char *name = knob_path("", "iosched.%s", param);
	const char *sched;
	int ret;

	ret = knob_bind_device(ctx, k, name, "scheduler", err);
	if (ret)
		goto out;
	ret = read_offered(ctx->root, ctx->disk, NULL, &active, err);
	if (ret) {
		ret = -ENODEV; /* no scheduler file: no parameters either */
		goto out;
	}
	sched = ctx->pending_sched ? ctx->pending_sched : active.buf;
	k->prio = KNOB_PRIO_IOSCHED;
	k->spec = iosched_param_find(sched, param);
	free(k->path);
	strbuf_addf(&rel, "/sys/block/%s/queue/iosched/%s", ctx->disk, param);
	k->path = knob_path(ctx->root, "%s", rel.buf);
	if (strcmp(sched, active.buf)) {
		/* written after the plan switches to sched */
		k->deferred = 1;
		if (sched_known(sched) && !k->spec) {
			for (size_t i = 0; i < ARRAY_SIZE(params); i++)
				if (!strcmp(params[i].sched, sched))
					strbuf_addf(&have, "%s%s",
						    have.len ? " " : "",
						    params[i].name);
			ret = err_set(err, -EINVAL,
				      "scheduler '%s' has no parameter '%s'; "
				      "it has: %s",
				      sched, param, have.buf);
		}
		goto out;
	}
	iosched_names(ctx->root, ctx->disk, &ps);
	if (!knob_list_has(&ps, param)) {
		join(&ps, &have);
		if (ps.nr)
			ret = err_set(err, -EINVAL,
				      "the active scheduler '%s' of '%s' has "
				      "no parameter '%s'; it has: %s",
				      active.buf, ctx->disk, param, have.buf);
		else
			ret = err_set(err, -EINVAL,
				      "the active scheduler '%s' of '%s' has "
				      "no parameters; switch with "
				      "scheduler=NAME first",
				      active.buf, ctx->disk);
	}
out:
	knob_list_release(&ps);
	strbuf_release(&active);
	strbuf_release(&rel);
	strbuf_release(&have);
	free(name);
	return ret;
}

/* knob_ops.resolve: bind a name of this family to ctx, or -ENOENT. */
static int sched_resolve(const struct knob_ctx *ctx, const char *name,
			 struct knob *k, struct strbuf *note,
			 struct strbuf *err)
{
	(void)note;
	if (!strcmp(name, "scheduler")) {
		k->prio = KNOB_PRIO_SCHED;
		return knob_bind_device(ctx, k, "scheduler", "scheduler", err);
	}
	if (!strncmp(name, "iosched.", 8) && name[8] && !strchr(name + 8, '/'))
		return resolve_param(ctx, name + 8, k, err);
	return KNOB_NOT_MINE;
}

/* Is k the scheduler itself (not an iosched.* parameter)? */
static int is_sched(const struct knob *k)
{
	return !strcmp(k->name, "scheduler");
}

/* knob_ops.read: the current value, canonical. */
static int sched_read(const struct knob *k, struct strbuf *value,
		      struct strbuf *err)
{
	if (!is_sched(k))
		return knob_read_file(k->path, k->name, value, err);
	/* the object of a device knob is its disk */
	return read_offered(k->root, k->object, NULL, value, err);
}

/* Parse a scheduler name: offered, legacy-translated, or an error. */
static int parse_sched(const struct knob *k, const char *in,
		       struct strbuf *canon, struct strbuf *note,
		       struct strbuf *err)
{
	struct knob_list offered = {0};
	struct strbuf active = STRBUF_INIT, list = STRBUF_INIT;
	const char *near;
	size_t i;
	int ret;

	ret = read_offered(k->root, k->object, &offered, &active, err);
	if (ret)
		goto out;
	join(&offered, &list);
	if (knob_looks_numeric(in)) {
		ret = err_set(err, -EINVAL,
			      "'scheduler' takes the name of an I/O scheduler, "
			      "not a number or size ('%s'); '%s' offers: %s",
			      in, k->object, list.buf);
		goto out;
	}
	if (knob_list_has(&offered, in)) {
		strbuf_addstr(canon, in);
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(legacy); i++) {
		if (strcmp(in, legacy[i].old))
			continue;
		if (!knob_list_has(&offered, legacy[i].now)) {
			/* a name means its successor, nothing else: when
			 * that is not here, there is nothing to set */
			ret = err_set(err, -EINVAL,
				      "'%s' is a single-queue scheduler of "
				      "Linux before 5.0, read as '%s', which "
				      "'%s' does not offer (not built into "
				      "this kernel, or its module not "
				      "loaded); '%s' offers: %s",
				      in, legacy[i].now, k->object, k->object,
				      list.buf);
			goto out;
		}
		strbuf_addstr(canon, legacy[i].now);
		if (note)
			strbuf_addf(note, "%s%s; using '%s'",
				    note->len ? "; " : "", legacy[i].why,
				    legacy[i].now);
		goto out;
	}
	near = suggest_nearest(in, (const char *const *)offered.v, offered.nr);
	if (near)
		ret = err_set(err, -EINVAL,
			      "'%s' does not offer scheduler '%s' (did you "
			      "mean '%s'?); it offers: %s",
			      k->object, in, near, list.buf);
	else
		ret = err_set(err, -EINVAL,
			      "'%s' does not offer scheduler '%s'; it "
			      "offers: %s",
			      k->object, in, list.buf);
out:
	knob_list_release(&offered);
	strbuf_release(&active);
	strbuf_release(&list);
	return ret;
}

/* knob_ops.parse: what a person typed -> the canonical value. */
static int sched_parse(const struct knob *k, const char *in,
		       struct strbuf *canon, struct strbuf *note,
		       struct strbuf *err)
{
	const struct iosched_param *ps = k->spec;
	int64_t v;
	int ret;

	if (is_sched(k))
		return parse_sched(k, in, canon, note, err);
	if (ps && ps->unit_ns)
		ret = knob_parse_duration(k, in, ps->unit_ns, ps->unit, 0,
					  INT32_MAX, &v, err);
	else
		ret = knob_parse_int(k, in, 0, INT32_MAX,
				     "a whole number such as 16", &v, err);
	if (!ret)
		strbuf_addf(canon, "%lld", (long long)v);
	return ret;
}

/* knob_ops.write: write the canonical value (verified by the caller). */
static int sched_write(const struct knob *k, const char *canon,
		       struct strbuf *err)
{
	return knob_write_file(k->path, k->name, canon, err);
}

/* Append " key=value" for one file, if readable. */
static void snap_add(struct strbuf *snap, const char *key, const char *path)
{
	struct strbuf v = STRBUF_INIT;

	if (!strbuf_read_file(&v, path, 4096)) {
		strbuf_trim(&v);
		if (v.len && !strchr(v.buf, ' '))
			strbuf_addf(snap, " %s=%s", key, v.buf);
	}
	strbuf_release(&v);
}

/* knob_ops.save: what restore needs, side effects included. */
static int sched_save(const struct knob *k, struct strbuf *orig,
		      struct strbuf *err)
{
	struct strbuf active = STRBUF_INIT;
	struct knob_list ps = {0};
	char *p;
	size_t i;
	int ret;

	if (!is_sched(k))
		return knob_read_file(k->path, k->name, orig, err);
	ret = read_offered(k->root, k->object, NULL, &active, err);
	if (ret)
		goto out;
	strbuf_addf(orig, "scheduler=%s", active.buf);
	p = knob_path(k->root, "/sys/block/%s/queue/nr_requests", k->object);
	snap_add(orig, "nr_requests", p);
	free(p);
	iosched_names(k->root, k->object, &ps);
	for (i = 0; i < ps.nr; i++) {
		char *key = knob_path("", "iosched.%s", ps.v[i]);

		p = knob_path(k->root, "/sys/block/%s/queue/iosched/%s",
			      k->object, ps.v[i]);
		snap_add(orig, key, p);
		free(p);
		free(key);
	}
out:
	knob_list_release(&ps);
	strbuf_release(&active);
	return ret;
}

/* State for restoring a scheduler snapshot pair by pair. */
struct restore_state {
	const struct knob *k;
	struct strbuf *err;
	int first_err;
};

/* Write one key=value of a snapshot and read it back. */
static int restore_pair(const char *key, const char *value, void *data)
{
	struct restore_state *st = data;
	const struct knob *k = st->k;
	struct strbuf now = STRBUF_INIT, e = STRBUF_INIT;
	char *p;
	int ret;

	if (!strcmp(key, "scheduler"))
		p = knob_path(k->root, "/sys/block/%s/queue/scheduler",
			      k->object);
	else if (!strncmp(key, "iosched.", 8))
		p = knob_path(k->root, "/sys/block/%s/queue/iosched/%s",
			      k->object, key + 8);
	else if (!strcmp(key, "nr_requests"))
		p = knob_path(k->root, "/sys/block/%s/queue/nr_requests",
			      k->object);
	else
		return 0; /* a newer iotrial's key: nothing we can do */
	ret = knob_write_file(p, key, value, &e);
	if (!ret && !strcmp(key, "scheduler"))
		ret = read_offered(k->root, k->object, NULL, &now, &e);
	else if (!ret)
		ret = knob_read_file(p, key, &now, &e);
	if (!ret && strcmp(now.buf, value))
		ret = err_set(&e, -EIO,
			      "wrote '%s' to '%s' on '%s' but it reads back "
			      "as '%s'",
			      value, key, k->object, now.buf);
	if (ret && !st->first_err) {
		st->first_err = ret;
		strbuf_reset(st->err);
		strbuf_addstr(st->err, e.buf);
	}
	free(p);
	strbuf_release(&now);
	strbuf_release(&e);
	/* a scheduler that cannot come back makes its parameters moot */
	return ret && !strcmp(key, "scheduler") ? ret : 0;
}

/* knob_ops.restore: bring back what save captured, verified. */
static int sched_restore(const struct knob *k, const char *orig,
			 struct strbuf *err)
{
	struct restore_state st = {k, err, 0};
	struct strbuf now = STRBUF_INIT;
	int ret;

	if (!is_sched(k)) {
		if (access(k->path, F_OK))
			return err_set(err, -ESTALE,
				       "'%s' no longer exists on '%s' (the "
				       "scheduler changed since)",
				       k->name, k->object);
		ret = knob_apply(k, orig, &now, NULL, err);
		strbuf_release(&now);
		return ret;
	}
	ret = knob_each_pair(orig, restore_pair, &st);
	if (ret == -EINVAL && !st.first_err)
		return err_set(err, -EINVAL,
			       "cannot read the saved scheduler state '%s'",
			       orig);
	return st.first_err;
}

/* knob_ops.describe: unit, allowed values and notes for listing. */
static void sched_describe(const struct knob *k, const char *value,
			   struct knob_desc *d)
{
	const struct iosched_param *ps = k->spec;
	struct knob_list offered = {0};
	struct strbuf active = STRBUF_INIT;
	size_t i;
	int known;

	if (!is_sched(k)) {
		strbuf_addstr(&d->unit, ps ? ps->unit : "");
		if (ps && *ps->unit)
			strbuf_addf(&d->shown, "%s %s", value, ps->unit);
		strbuf_addstr(&d->allowed, "0 or more");
		if (ps && ps->unit_ns)
			strbuf_addstr(&d->allowed,
				      " (or a duration such as 5ms)");
		strbuf_addf(&d->notes,
			    "a parameter of the active scheduler; switching "
			    "the scheduler replaces it\n");
		return;
	}
	known = !read_offered(k->root, k->object, &offered, &active, NULL);
	if (known)
		join(&offered, &d->allowed);
	for (i = 0; i < ARRAY_SIZE(legacy); i++)
		strbuf_addf(&d->legacy, "%s%s", i ? " " : "", legacy[i].old);
	/* a translation to what the disk does not offer is none: said so,
	 * never offered */
	strbuf_addstr(&d->notes, "legacy names are translated: ");
	for (i = 0; i < ARRAY_SIZE(legacy); i++)
		if (!known || knob_list_has(&offered, legacy[i].now))
			strbuf_addf(&d->notes, "%s%s -> %s", i ? ", " : "",
				    legacy[i].old, legacy[i].now);
		else
			strbuf_addf(&d->notes, "%s%s (%s, not offered here)",
				    i ? ", " : "", legacy[i].old,
				    legacy[i].now);
	strbuf_addf(&d->notes,
		    "\nswitching resets nr_requests and the iosched.* "
		    "parameters; iotrial applies the scheduler first and "
		    "restores all of them\n");
	knob_list_release(&offered);
	strbuf_release(&active);
}

/* knob_ops.how: what a write does, for --dry-run. */
static void sched_how(const struct knob *k, const char *canon,
		      struct strbuf *out)
{
	(void)canon;
	strbuf_addf(out, "write '%s'", k->path);
	if (is_sched(k))
		strbuf_addstr(out,
			      " (the kernel resets nr_requests and "
			      "iosched.* to the new scheduler's defaults)");
	else if (k->deferred)
		strbuf_addstr(out, " (after the scheduler switch)");
}

/*
 * The kernel counts time in the queue in whole milliseconds, so one
 * request at a time can average a little over 1 across an interval.
 */
#define SCHED_ONE_AQU 1.05

/*
 * knob_ops.regime: a scheduler (and each of its parameters) orders and
 * merges requests that wait; on a device that never held more than one
 * at a time there was nothing to order, and schedulers can differ only
 * by their own CPU cost.
 */
static enum knob_regime sched_regime(const struct knob *k, const char *canon,
				     const struct knob_obs *o,
				     struct strbuf *why)
{
	const struct knob_obs_dev *d = knob_obs_dev(o, k->object);

	(void)canon;
	if (!d || !d->intervals)
		return KNOB_REGIME_UNKNOWN;
	if (d->max_in_flight > 1 || d->max_aqu_sz > SCHED_ONE_AQU) {
		strbuf_addf(why,
			    "'%s' held up to %llu request%s in flight at a "
			    "sample and up to %.2f on average over a sampling "
			    "interval",
			    d->name, (unsigned long long)d->max_in_flight,
			    d->max_in_flight == 1 ? "" : "s", d->max_aqu_sz);
		return KNOB_REGIME_REACHED;
	}
	strbuf_addf(why,
		    "'%s' never had more than one request in flight at its "
		    "%u samples, and at most %.2f on average over any "
		    "interval: with one request at a time there is nothing "
		    "to order or merge, so schedulers can differ only by "
		    "their own CPU cost",
		    d->name, d->intervals + 1, d->max_aqu_sz);
	return KNOB_REGIME_NOT_REACHED;
}

const struct knob_ops knob_sched_ops = {
    .family = "sched",
    .names = sched_names,
    .persist = sched_persist,
    .resolve = sched_resolve,
    .read = sched_read,
    .parse = sched_parse,
    .write = sched_write,
    .save = sched_save,
    .restore = sched_restore,
    .describe = sched_describe,
    .how = sched_how,
    .regime = sched_regime,
};
