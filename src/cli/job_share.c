/*
 * Files shared by job sections that name the same filename=; see
 * job_share.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "job_share.h"
#include "job_target.h"
#include "../util/error.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

/* Run r's file as fio would open it, on spec, into key; 0: none. */
static int share_key(const struct fiojob_run *r, const char *cli_target,
		     struct strbuf *spec, struct strbuf *key)
{
	const char *fn = r->filename;
	struct strbuf err = STRBUF_INIT;
	int ret;

	/* "$jobname" and its kin make a name per job: nothing shared */
	if (!fn || !*fn || strchr(fn, '$'))
		return 0;
	ret = job_cli_target(r, cli_target, spec, &err);
	strbuf_release(&err);
	if (ret)
		return 0; /* the section's run says why */
	strbuf_reset(key);
	strbuf_addf(key, "%s\n", spec->buf);
	if (fn[0] != '/')
		strbuf_addf(key, "%s/", r->directory ? r->directory : "");
	strbuf_addstr(key, fn);
	return 1;
}

void job_shares_init(struct job_shares *js, const struct fiojob_plan *plan,
		     const char *cli_target)
{
	struct strbuf spec = STRBUF_INIT, key = STRBUF_INIT;
	unsigned k, i;

	memset(js, 0, sizeof(*js));
	js->nr_runs = plan->nr;
	js->of_run = xcalloc(plan->nr ?: 1, sizeof(*js->of_run));
	js->got = xcalloc(plan->nr ?: 1, 1);
	for (k = 0; k < plan->nr; k++) {
		const struct fiojob_run *r = &plan->runs[k];
		struct job_share_file *f = NULL;

		if (!share_key(r, cli_target, &spec, &key))
			continue;
		for (i = 0; i < js->nr && !f; i++)
			if (!strcmp(js->files[i].key, key.buf))
				f = &js->files[i];
		if (!f) {
			ALLOC_GROW(js->files, js->nr + 1, js->alloc);
			f = &js->files[js->nr++];
			memset(f, 0, sizeof(*f));
			f->key = xstrdup(key.buf);
			f->spec = xstrdup(spec.buf);
			f->s.label = xstrdup(r->filename);
			snprintf(f->s.name, sizeof(f->s.name), "shared%u",
				 js->nr - 1);
		}
		f->users =
		    xrealloc(f->users, (f->nr_users + 1) * sizeof(*f->users));
		f->users[f->nr_users++] = r->section;
	}
	/* pointers last: files[] may have moved while it grew */
	for (k = 0; k < plan->nr; k++) {
		if (!share_key(&plan->runs[k], cli_target, &spec, &key))
			continue;
		for (i = 0; i < js->nr; i++)
			if (!strcmp(js->files[i].key, key.buf) &&
			    js->files[i].nr_users > 1)
				js->of_run[k] = &js->files[i];
	}
	strbuf_release(&spec);
	strbuf_release(&key);
}

void job_shares_release(struct job_shares *js)
{
	unsigned i;

	for (i = 0; i < js->nr; i++) {
		struct job_share_file *f = &js->files[i];

		if (f->t_open)
			target_release(&f->t);
		layout_share_release(&f->s);
		free(f->key);
		free(f->spec);
		free(f->users);
	}
	free(js->files);
	free(js->of_run);
	free(js->got);
	memset(js, 0, sizeof(*js));
}

struct layout_share *job_shares_get(struct job_shares *js, unsigned k,
				    const struct target *t, int *failed,
				    struct strbuf *err)
{
	struct job_share_file *f = k < js->nr_runs ? js->of_run[k] : NULL;
	int ret;

	*failed = 0;
	if (!f || t->kind != TARGET_DIR || !t->workdir)
		return NULL;
	if (!f->t_open) {
		/* its own work directory beside the sections' */
		ret = target_open(&f->t, f->spec, 0, NULL, err);
		if (ret) {
			*failed = 1;
			return NULL;
		}
		f->t_open = 1;
		f->s.dir = &f->t;
	}
	if (f->t.dev != t->dev) {
		/* -t and the filename's directory differ in a way the
		 * key did not catch: a link cannot cross file systems */
		return NULL;
	}
	js->got[k] = 1;
	return &f->s;
}

struct job_file_share *job_shares_doc(const struct job_shares *js, unsigned k)
{
	const struct job_share_file *f = k < js->nr_runs ? js->of_run[k] : NULL;
	struct job_file_share *o;
	unsigned i;

	if (!f || !js->got[k] || !f->s.uses)
		return NULL;
	o = xcalloc(1, sizeof(*o));
	o->filename = xstrdup(f->s.label);
	o->shared_by = xcalloc(f->nr_users ?: 1, sizeof(*o->shared_by));
	o->nr_shared_by = f->nr_users;
	for (i = 0; i < f->nr_users; i++)
		o->shared_by[i] = xstrdup(f->users[i]);
	o->laid_out_by = f->s.laid_out_by ? xstrdup(f->s.laid_out_by) : NULL;
	o->inode = (int64_t)f->s.ino;
	o->bytes = (int64_t)f->s.bytes;
	return o;
}
