/*
 * The device terms of a file-layer replay's fidelity (fidelity.h): once
 * the run's device truth is attached, what reached the replay target's
 * device is compared with what reached the capture's (the trace's meta
 * device.*, format 1.2); the score and the fidelity note replay_run.c
 * wrote are amended, and a far-off term warns.
 */
#include <stdlib.h>
#include <string.h>
#include "workload.h"
#include "replay-int.h"
#include "../observe/truth.h"
#include "../trace/fidelity.h"
#include "../trace/trace_summary.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define NOTE_PREFIX "replay fidelity "

/* The replay's side: the device holding the target's file system. */
static void from_truth(const struct run_result *r, struct fidelity_dev *d)
{
	const struct truth *t = r->truth;
	const struct disk_delta *x;

	memset(d, 0, sizeof(*d));
	if (!t || !t->have_device || !t->nr_devs || !t->devs[0].valid)
		return;
	x = &t->devs[0].d;
	d->read_bytes = x->read_bytes;
	d->write_bytes = x->write_bytes;
	d->requests = x->reads + x->writes;
	d->busy_depth = x->util_pct > 0 ? x->aqu_sz / (x->util_pct / 100) : 0;
	d->busy_ms = x->util_pct / 100 * x->seconds * 1000;
	d->have = 1;
	d->have_traced = 1;
	d->traced_read = r->bytes[IO_READ];
	d->traced_write = r->bytes[IO_WRITE];
}

/* The note replay_run.c wrote, or -1. */
static int find_note(const struct run_result *r)
{
	unsigned i;

	for (i = 0; i < r->nr_notes; i++)
		if (!strncmp(r->notes[i], NOTE_PREFIX, strlen(NOTE_PREFIX)))
			return (int)i;
	return -1;
}

/* "replay fidelity S of 100 (off by: P)REST" with the new score and the
 * device terms after P; unjudged, if any, is said at the end. */
static void amend_note(struct run_result *r, double score,
		       const struct fidelity_devterms *f, const char *unjudged)
{
	struct strbuf sb = STRBUF_INIT;
	int i = find_note(r);
	const char *old, *close;
	unsigned k;
	int first;

	if (i < 0)
		return;
	old = r->notes[i];
	close = strchr(old, ')');
	if (!strstr(old, "(off by: ") || !close)
		return;
	strbuf_addf(&sb, NOTE_PREFIX "%.1f of 100 (off by: ", score);
	strbuf_add(&sb, strstr(old, "(off by: ") + 9,
		   (size_t)(close - (strstr(old, "(off by: ") + 9)));
	for (k = 0; k < FDEV__NR; k++)
		if (f->applies[k])
			strbuf_addf(
			    &sb, ", %s %.1f%%",
			    fidelity_dev_name((enum fidelity_dev_component)k),
			    100 * f->err[k]);
	/* what a setting moved: the experiment's result, shown apart */
	for (k = 0, first = 1; k < FDEV__NR; k++)
		if (f->moved & 1u << k) {
			strbuf_addf(
			    &sb, "%s%s %.1f%%",
			    first ? "; a setting's effect, not judged: " : ", ",
			    fidelity_dev_name((enum fidelity_dev_component)k),
			    100 * f->err[k]);
			first = 0;
		}
	strbuf_addstr(&sb, close);
	if (*unjudged && !f->judged)
		strbuf_addf(&sb, "; device terms %s", unjudged);
	else if (*unjudged)
		strbuf_addf(&sb, "; %s", unjudged);
	free(r->notes[i]);
	r->notes[i] = strbuf_detach(&sb, NULL);
}

void rp_judge_device(const struct trace *t, unsigned moves, uint64_t drops,
		     struct run_result *r)
{
	struct strbuf why = STRBUF_INIT, unjudged = STRBUF_INIT;
	struct fidelity_dev c, d;
	struct fidelity_devterms f;
	struct trace_summary s;
	unsigned i;

	if (!r->have_fidelity)
		return;
	trace_summarize_layer(t, 0, &s);
	fidelity_dev_from_meta(t, &c);
	from_truth(r, &d);
	d.cache_drops = drops;
	fidelity_device(&c, &d, s.bytes_read, s.bytes_written, moves, &f, &why,
			&unjudged);
	r->fidelity = fidelity_combine(r->fidelity, &f);
	r->have_fidelity_dev = 1;
	for (i = 0; i < FDEV__NR && i < 4; i++) {
		r->fidelity_dev[i] = f.applies[i] ? f.err[i] : -1;
		r->fidelity_dev_moved[i] = f.moved & 1u << i ? f.err[i] : -1;
	}
	r->fidelity_dev_moved_bits = f.moved;
	free(r->fidelity_dev_why);
	r->fidelity_dev_why = unjudged.len ? xstrdup(unjudged.buf) : NULL;
	amend_note(r, r->fidelity, &f, unjudged.buf);
	if (f.poor)
		run_result_warn_kind(r, RUN_WARN_FIDELITY,
				     "the replay was not faithful to its "
				     "trace at the device: %s",
				     why.buf);
	trace_summary_release(&s);
	strbuf_release(&why);
	strbuf_release(&unjudged);
}

int rp_run_judged(struct workload *w, struct run_result *r, struct strbuf *err)
{
	struct rp_state *st = w->priv;
	int ret = rp_run(w, r, err);

	if (!ret && !st->blk)
		rp_judge_device(&st->t, st->moves, st->run_drops, r);
	return ret;
}
