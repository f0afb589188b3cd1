/*
 * The loop of a live switchback (live.h): per slot, switch the knobs
 * when the arm changes, wait the window out in short sleeps (so a
 * signal ends it within a fraction of a second), measure, check the
 * knobs still hold what was written and the abort rules. Every ending
 * rolls the session back to its mark.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "live.h"
#include "live-int.h"
#include "counting.h"
#include "../knob/plan.h"
#include "../observe/procfile.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define LIVE_TICK_NS 50000000ull /* 50 ms */

/* One pass of observe over its windows: its state. */
struct live_pass {
	struct live *lv;
	const struct live_hooks *h;
	struct session *s;
	uint64_t mark;
	struct knob_plan cur; /* the arm in force, applied */
	unsigned cur_arm;     /* -1u: none yet */
	int stat_fd;
	uint64_t t0;
	struct live_slot *slots;
	size_t nr;
	char **warnings;
	size_t nr_warnings;
	double other_carry; /* MB the cgroup counted ahead of the device */
};

/* Keep the warning msg for the report. A warning of the whole
 * experiment, known only at its end, is only kept: said as it goes too,
 * it would come twice, one line apart. */
static void pass_keep(struct live_pass *r, struct strbuf *msg)
{
	r->warnings =
	    xrealloc(r->warnings, (r->nr_warnings + 1) * sizeof(*r->warnings));
	r->warnings[r->nr_warnings++] = strbuf_detach(msg, NULL);
}

/* Say a warning as it happens (the warn hook) and keep it. */
static void pass_warn(struct live_pass *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void pass_warn(struct live_pass *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (r->h->warn)
		r->h->warn(r->h->ctx, sb.buf);
	pass_keep(r, &sb);
}

/* Does every knob of the arm in force still hold what was written? If
 * not, say whose value is kept and return false. */
static bool knobs_ours(struct live_pass *r)
{
	struct strbuf now = STRBUF_INIT, e = STRBUF_INIT, subj = STRBUF_INIT;
	bool ours = true;
	size_t i;

	for (i = 0; i < r->cur.nr && ours; i++) {
		const struct knob_change *c = &r->cur.v[i];

		strbuf_reset(&now);
		if (!c->applied || c->k.ops->read(&c->k, &now, &e))
			continue;
		strbuf_trim(&now);
		if (!strcmp(now.buf, c->after.buf))
			continue;
		ours = false;
		knob_subject(&subj, c->k.name, c->k.object);
		pass_warn(
		    r,
		    "%s is now '%s', not the '%s' observe set: someone else "
		    "changed it; observe stops and keeps their value",
		    subj.buf, now.buf, c->after.buf);
		strbuf_setf(&r->lv->stopped, "%s was changed by someone else",
			    subj.buf);
		r->lv->changed_by_other = true;
	}
	strbuf_release(&now);
	strbuf_release(&e);
	strbuf_release(&subj);
	return ours;
}

/* session_log of a switch: its notes (each value restored, each one
 * set) would be dozens of lines per hour; warnings still go out. */
static void quiet_say(void *data, enum session_say_level level, const char *msg)
{
	const struct session_log *log = data;

	if (level == SESSION_SAY_WARN)
		session_say(log, level, "%s", msg);
}

/*
 * Put arm in force: the arm before rolled back to the originals, then
 * the new one applied. So the journal holds one record per knob of the
 * arm in force, whose original is what was there before observe, and
 * every ending (an abort, a signal, recovery after a crash) is one
 * write per knob, not a walk back through every switch.
 */
static int switch_to(struct live_pass *r, unsigned arm, struct strbuf *err)
{
	struct session_log quiet = {.say = quiet_say,
				    .data = (void *)r->h->log};
	struct knob_plan p;
	int ret;

	if (arm == r->cur_arm)
		return 0;
	ret = live_arm_plan(r->lv, arm, &p, err);
	if (!ret && r->cur.nr)
		ret = session_rollback(r->s, r->mark, &quiet, err);
	if (!ret && p.nr)
		ret = session_apply(r->s, &p, &quiet, err);
	knob_plan_release(&r->cur);
	r->cur = p;
	r->cur_arm = arm;
	return ret;
}

/* Sleep until deadline or the stop flag. False when stopped. */
static bool wait_until(struct live_pass *r, uint64_t deadline)
{
	for (;;) {
		uint64_t now = clock_now_ns();
		struct timespec ts;
		uint64_t left;

		if (r->lv->c.stop && *r->lv->c.stop)
			return false;
		if (now >= deadline)
			return true;
		left = deadline - now;
		if (left > LIVE_TICK_NS)
			left = LIVE_TICK_NS;
		ts.tv_sec = (time_t)(left / 1000000000ull);
		ts.tv_nsec = (long)(left % 1000000000ull);
		nanosleep(&ts, NULL);
	}
}

/* The median of the baseline's windows so far (settle ones too: a rule
 * protects production, not the analysis); NaN when none. */
static double baseline_median(const struct live_pass *r)
{
	double *v = xcalloc(r->nr + 1, sizeof(*v)), m = NAN;
	size_t i, n = 0;

	for (i = 0; i < r->nr; i++)
		if (r->slots[i].w.arm == r->lv->e.baseline &&
		    isfinite(r->slots[i].w.metric))
			v[n++] = r->slots[i].w.metric;
	if (n)
		m = stats_median(v, n);
	free(v);
	return m;
}

/* Is metric a rate (per second), so that per load it is first made the
 * window's amount (device MB per dump, not MB/s per dump)? */
static bool is_rate(const struct live *lv)
{
	const char *m = lv->c.metric;

	if (!strcmp(m, "mbps") || !strcmp(m, "iops"))
		return true;
	return !strcmp(m, "metric") &&
	       ((lv->c.src->kind == LW_SRC_CMD && lv->c.src->counter) ||
		(lv->c.src->kind == LW_SRC_FILE && !lv->c.src->extract));
}

/* The window's metric, per load when asked. */
static double window_metric(const struct live *lv, const struct lw_measure *m)
{
	double v = lw_metric(m, lv->c.metric), load;

	if (!lv->c.per_load)
		return v;
	if (is_rate(lv))
		v *= m->seconds;
	if (!strcmp(lv->c.per_load, "requests"))
		load = m->requests;
	else if (!strcmp(lv->c.per_load, "mb"))
		load = m->mb;
	else
		load = m->user_ok ? m->user * m->seconds : NAN;
	return load > 0 ? v / load : NAN;
}

static double window_load(const struct live *lv, const struct lw_measure *m)
{
	if (lv->c.src && lv->c.src->kind && m->user_ok &&
	    strcmp(lv->c.metric, "metric"))
		return m->user * m->seconds;
	if (m->have_cg)
		return m->cg_mb;
	return m->have_disk ? m->mb : NAN;
}

/* Check the abort rules on slot sl; the first that fires goes to *out. */
static bool check_aborts(struct live_pass *r, const struct live_slot *sl,
			 struct live_abort **out)
{
	struct strbuf why = STRBUF_INIT;
	double base = baseline_median(r);
	unsigned i;

	for (i = 0; i < r->lv->c.nr_aborts; i++) {
		const struct lw_abort *a = &r->lv->c.aborts[i];
		double v = lw_metric(&sl->m, a->metric);

		if (!lw_abort_fires(a, v, base, &why))
			continue;
		*out = xcalloc(1, sizeof(**out));
		(*out)->rule = xstrdup(a->text);
		(*out)->why = xstrdup(why.buf);
		(*out)->value = v;
		/* 0-based: the slot just measured */
		(*out)->window = (int)r->nr - 1;
		strbuf_setf(&r->lv->stopped, "--abort-if '%s' fired: %s",
			    a->text, why.buf);
		r->lv->aborted = true;
		strbuf_release(&why);
		return true;
	}
	strbuf_release(&why);
	return false;
}

/* Measure slot i of the schedule into r->slots[r->nr]. False when the
 * experiment ends here (stopped, aborted, someone else's change). */
static bool one_slot(struct live_pass *r, size_t i, struct live_abort **abort,
		     struct strbuf *err, int *ret)
{
	struct live *lv = r->lv;
	const struct sb_slot *s = &lv->sched.v[i];
	uint64_t len = s->settle ? lv->c.settle_ns : lv->c.window_ns;
	struct strbuf e = STRBUF_INIT;
	struct lw_reading a, b;
	struct live_slot *sl;
	struct live_window_info info;
	bool full, go_on = true;

	if (r->cur_arm != -1u && s->arm != r->cur_arm && !knobs_ours(r))
		return false;
	*ret = switch_to(r, s->arm, err);
	if (*ret && r->nr) {
		/* what was measured stands; the experiment ends here */
		pass_warn(r, "a change was refused: %s; observe stops",
			  err->buf);
		strbuf_setf(&lv->stopped, "a change was refused: %s", err->buf);
		lv->refused = true;
		strbuf_reset(err);
		*ret = 0;
		return false;
	}
	if (*ret)
		return false;
	lw_read(r->stat_fd, lv->c.cgroup, &a);
	full = wait_until(r, a.t_ns + len);
	lw_read(r->stat_fd, lv->c.cgroup, &b);
	sl = &r->slots[r->nr];
	memset(sl, 0, sizeof(*sl));
	sl->start_s = (double)(a.t_ns - r->t0) / 1e9;
	if (lw_measure(&a, &b, lv->c.src, &sl->m, &e)) {
		pass_warn(r, "window %zu: %s", r->nr + 1, e.buf);
		sl->note = xstrdup(e.buf);
	}
	sl->w = (struct sb_window){
	    .block = s->block,
	    .arm = s->arm,
	    .settle = s->settle,
	    .cut_short = !full,
	    .t_s = sl->start_s + sl->m.seconds / 2,
	    .metric = window_metric(lv, &sl->m),
	    .load = window_load(lv, &sl->m),
	};
	/*
	 * Scoped: more than 5% of the device's bytes were someone else's.
	 * A request of the cgroup's issued before a boundary and completed
	 * after it counts in one window for the cgroup and in the next for
	 * the device: what the cgroup counted ahead is carried over, so it
	 * is not taken for another process's I/O.
	 */
	if (sl->m.have_cg) {
		double other = sl->m.other_mb + r->other_carry;

		r->other_carry = other < 0 ? other : 0;
		sl->m.other_mb = other > 0 ? other : 0;
	}
	if (sl->m.have_cg && sl->m.other_mb > 0.05 * sl->m.mb &&
	    sl->m.other_mb >= 0.1) {
		struct strbuf o = STRBUF_INIT;

		strbuf_addf(&o,
			    "other I/O on the device: %.1f of its %.1f MB were "
			    "not the cgroup's",
			    sl->m.other_mb, sl->m.mb);
		sl->other = strbuf_detach(&o, NULL);
		sl->w.suspect = true;
	}
	if (!full) {
		lv->interrupted = true;
		strbuf_setf(&lv->stopped, "interrupted by a signal");
		go_on = false;
	}
	r->nr++;
	if (go_on && check_aborts(r, sl, abort))
		go_on = false;
	if (go_on && !knobs_ours(r))
		go_on = false;
	info = (struct live_window_info){
	    .seq = i,
	    .nr = lv->sched.nr,
	    .block = s->block,
	    .nr_blocks = lv->c.blocks,
	    .arm = lv->e.arms[s->arm].label,
	    .settle = s->settle,
	    .metric = sl->w.metric,
	    .load = sl->w.load,
	    .load_unit = live_load_unit(lv),
	    .elapsed_s = (double)(b.t_ns - r->t0) / 1e9,
	};
	if (r->h->window)
		r->h->window(r->h->ctx, &info);
	strbuf_release(&e);
	return go_on;
}

/* The events the judged metric counted in slot s: the log's matching
 * lines, or the device's (the cgroup's) requests; NaN when the metric
 * is no count (a gauge, a group's numbers, a latency, per load). */
static double slot_events(const struct live *lv, const struct live_slot *s)
{
	const char *m = lv->c.metric;

	if (lv->c.per_load || !m)
		return NAN;
	if (!strcmp(m, "metric") && lv->c.src &&
	    lv->c.src->kind == LW_SRC_FILE && !lv->c.src->extract)
		return s->m.user_ok ? s->m.user * s->m.seconds : NAN;
	if (!strcmp(m, "iops")) {
		if (s->m.have_cg)
			return s->m.cg_iops * s->m.seconds;
		return s->m.have_disk ? (double)(s->m.d.reads + s->m.d.writes)
				      : NAN;
	}
	return NAN;
}

/* The sd of the blocks' log-ratios of each arm against the baseline,
 * pooled, over the analysed windows; NaN with fewer than three. */
static double blocks_log_sd(const struct live_pass *r)
{
	const struct live *lv = r->lv;
	unsigned base = lv->e.baseline;
	double sum = 0, sum2 = 0;
	size_t i, j, n = 0;

	for (i = 0; i < r->nr; i++) {
		const struct sb_window *b = &r->slots[i].w;

		if (!sb_window_used(b) || b->arm != base)
			continue;
		for (j = 0; j < r->nr; j++) {
			const struct sb_window *w = &r->slots[j].w;
			double l;

			if (!sb_window_used(w) || w->block != b->block ||
			    w->arm == base)
				continue;
			l = log(w->metric / b->metric);
			sum += l;
			sum2 += l * l;
			n++;
		}
	}
	if (n < 3)
		return NAN;
	return sqrt(fmax(0, (sum2 - sum * sum / (double)n) / (double)(n - 1)));
}

/* Warn when the metric is a count too small for the windows to tell
 * much, and the windows varied as a count at random does: what counting
 * alone leaves of the interval, and the window that would count enough
 * (counting.h). */
static void warn_counting(struct live_pass *r)
{
	struct live *lv = r->lv;
	struct live_count_floor f;
	struct strbuf msg = STRBUF_INIT;
	double *ev = xcalloc(r->nr + 1, sizeof(*ev));
	unsigned blocks = 0;
	size_t i, n = 0;

	for (i = 0; i < r->nr; i++) {
		double e = slot_events(lv, &r->slots[i]);

		if (!sb_window_used(&r->slots[i].w) || !isfinite(e) || e <= 0)
			continue;
		ev[n++] = e;
		if (r->slots[i].w.block + 1 > blocks)
			blocks = r->slots[i].w.block + 1;
	}
	if (live_count_floor(ev, n, blocks, (double)lv->c.window_ns / 1e9,
			     blocks_log_sd(r), &f)) {
		strbuf_addf(&msg,
			    "the %s counted about %.0f a window, and the "
			    "windows varied as much as a count of events that "
			    "come at random does (a spread of about %.0f%% a "
			    "window): counting alone keeps the interval near "
			    "+-%.0f%% after %u blocks, whatever the knob does; "
			    "windows of %.0f s (--window %.0fs) would count "
			    "about %.0f",
			    strcmp(lv->c.metric, "iops")
				? "log's matching lines"
				: "device's requests",
			    f.events, 100 * f.spread, 100 * f.halfwidth, blocks,
			    f.window_s, f.window_s, LIVE_COUNT_WANTED);
		pass_keep(r, &msg);
	}
	free(ev);
}

int live_run(struct live *lv, const struct live_hooks *h, struct strbuf *err)
{
	struct live_pass r = {.lv = lv, .h = h, .cur_arm = -1u, .stat_fd = -1};
	struct live_abort *abort = NULL;
	struct strbuf path = STRBUF_INIT, e = STRBUF_INIT;
	size_t i;
	int ret;

	knob_plan_init(&r.cur, lv->c.kctx);
	r.slots = xcalloc(lv->sched.nr + 1, sizeof(*r.slots));
	if (lv->c.disk) {
		strbuf_addf(&path, "/sys/block/%s/stat", lv->c.disk);
		r.stat_fd = procfile_open(path.buf);
		if (r.stat_fd < 0)
			pass_warn(&r,
				  "cannot read '%s': the device's numbers are "
				  "not measured",
				  path.buf);
	}
	ret = lv->c.src ? lw_source_start(lv->c.src, err) : 0;
	if (ret)
		goto out;
	ret = session_open(&r.s, "observe", 0, h->log, err);
	if (ret)
		goto out;
	r.mark = session_mark(r.s);
	r.t0 = clock_now_ns();
	for (i = 0; i < lv->sched.nr; i++)
		if (!one_slot(&r, i, &abort, err, &ret))
			break;
	/* every ending: the originals back, newest record first */
	{
		uint64_t t = clock_now_ns();
		int rr = session_rollback(r.s, r.mark, h->log, &e);

		if (rr && !ret)
			ret = err_set(err, rr, "%s", e.buf);
		if (abort) {
			abort->restored_after_s =
			    (double)(clock_now_ns() - t) / 1e9;
			abort->has_restored_after_s = MODEL_SET;
		}
	}
	session_close(r.s, h->log);
	r.s = NULL;
	if (ret)
		goto out;
	if (lv->c.settle_ns == 0)
		pass_warn(&r,
			  "no settle period: each window just after a switch "
			  "is analysed and still carries some of the arm "
			  "before, which pulls every ratio toward 1; give "
			  "--settle (one window by default)");
	warn_counting(&r);
	ret = live_build_object(lv, r.slots, r.nr,
				(const char *const *)r.warnings, r.nr_warnings,
				abort, err);
	abort = NULL;
out:
	if (r.s) {
		session_rollback(r.s, r.mark, h->log, &e);
		session_close(r.s, h->log);
	}
	live_abort_free(abort);
	if (r.stat_fd >= 0)
		procfile_close(r.stat_fd);
	knob_plan_release(&r.cur);
	for (i = 0; i < r.nr; i++) {
		free(r.slots[i].note);
		free(r.slots[i].other);
	}
	free(r.slots);
	for (i = 0; i < r.nr_warnings; i++)
		free(r.warnings[i]);
	free(r.warnings);
	strbuf_release(&path);
	strbuf_release(&e);
	return ret;
}
