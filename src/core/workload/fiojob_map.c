/*
 * Mapping fio job sections onto the rw workloads; see fiojob_map.h.
 *
 * A job sees the options of every [global] section above it, then its
 * own; of two settings of one option (or of its alias) the job's wins,
 * and within a section the later line. Every option a job uses is
 * checked against the subset before anything else, so that one error
 * lists all of them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fiojob_map-int.h"
#include "../engine/engine.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Is "name=..." among the command line's parameters? Its value. */
static const char * override(const struct fiojob_overrides *o, const char *name)
{
	size_t n = strlen(name);
	unsigned i = o->nr_params;

	while (i-- > 0)
		if (!strncmp(o->params[i], name, n) && o->params[i][n] == '=')
			return o->params[i] + n + 1;
	return NULL;
}

/* Map the job in section index sec into r. */
static int map_job(const struct fiojob *j, unsigned sec,
		   const struct fiojob_opt *const *globals,
		   const struct fiojob_overrides *ov, struct fiojob_run *r,
		   struct strbuf *warn, struct strbuf *err)
{
	const struct fiojob_view v = {j, sec, globals};
	const struct fiojob_opt *o, *size_o, *mixr, *mixw, *dir_o, *buf_o;
	uint64_t bs, size = 0, u, numjobs, iodepth, fsync_n;
	const char *engine = "psync", *n;
	int b, direct = 0, end_fsync, writes;

	r->section = xstrdup(j->secs[sec].name);
	/* fio names a job after its header; only its own name= renames it
	 * (a [global] name= does not) */
	n = fiojob_get(&j->secs[sec], "name", NULL);
	r->name = xstrdup(n && *n ? n : r->section);
	r->file = xstrdup(j->secs[sec].file);
	r->line = j->secs[sec].line;
	fiojob_add_param(r, "label=%s", r->name);
	if (fiojob_map_rw(fiojob_find(&v, "rw"), &r->workload, err))
		return -EINVAL;
	writes =
	    strcmp(r->workload, "seqread") && strcmp(r->workload, "randread");
	if (fiojob_map_bs(&v, &bs, err) ||
	    fiojob_map_blockalign(&v, r->workload, bs, err))
		return -EINVAL;
	fiojob_add_param(r, "bs=%llu", (unsigned long long)bs);
	/* size: bytes, or a share of the device the caller resolves */
	size_o = fiojob_find(&v, "size");
	if (size_o && fiojob_one_value(size_o, err))
		return -EINVAL;
	if (size_o && strchr(fiojob_val(size_o), '%')) {
		unsigned long pct = strtoul(fiojob_val(size_o), NULL, 10);

		if (!pct || pct > 100)
			return fiojob_opt_err(err, size_o,
					      "invalid size '%s': a "
					      "percentage is from 1%% to "
					      "100%%",
					      fiojob_val(size_o));
		r->size_pct = (unsigned)pct;
	} else if (fiojob_get_size(size_o, &size, err)) {
		return -EINVAL;
	}
	o = fiojob_find(&v, "filesize");
	if (o && (fiojob_one_value(o, err) || fiojob_get_size(o, &u, err)))
		return -EINVAL;
	if (o && !size_o)
		size = u;
	o = fiojob_find(&v, "nrfiles");
	if (fiojob_get_count(o, 1, &u, err))
		return -EINVAL;
	if (u != 1)
		return fiojob_opt_err(err, o,
				      "nrfiles=%s: iotrial gives each job one "
				      "file; use numjobs for more files",
				      fiojob_val(o));
	if (size)
		fiojob_add_param(r, "size=%llu", (unsigned long long)size);
	if (fiojob_get_count(fiojob_find(&v, "numjobs"), 1, &numjobs, err) ||
	    fiojob_get_count(fiojob_find(&v, "iodepth"), 1, &iodepth, err))
		return -EINVAL;
	fiojob_add_param(r, "jobs=%llu", (unsigned long long)numjobs);
	fiojob_add_param(r, "iodepth=%llu", (unsigned long long)iodepth);
	if (fiojob_map_batch(&v, iodepth, r, err))
		return -EINVAL;
	if (fiojob_map_engine(fiojob_find(&v, "ioengine"), &engine, warn, err))
		return -EINVAL;
	fiojob_add_param(r, "engine=%s", engine);
	o = fiojob_find(&v, "sqthread_poll");
	if (fiojob_get_bool(o, 0, &b, err))
		return -EINVAL;
	if (b && strcmp(engine, "io_uring"))
		return fiojob_opt_err(err, o,
				      "'%s' is io_uring's submission polling; "
				      "this job's engine is %s",
				      o->key, engine);
	if (b)
		fiojob_add_param(r, "sqpoll=1");
	/* direct and buffered say the same thing: the later one wins */
	o = fiojob_find(&v, "direct");
	buf_o = fiojob_find(&v, "buffered");
	if (buf_o && fiojob_later(&v, o, buf_o) == buf_o) {
		if (fiojob_get_bool(buf_o, 1, &b, err))
			return -EINVAL;
		direct = !b;
	} else if (fiojob_get_bool(o, 0, &direct, err)) {
		return -EINVAL;
	}
	fiojob_add_param(r, "direct=%d", direct);
	o = fiojob_find(&v, "fdatasync");
	if (fiojob_get_count(o, 0, &u, err))
		return -EINVAL;
	if (u && writes)
		return fiojob_opt_err(err, o,
				      "fdatasync=%s: iotrial flushes with "
				      "fsync; use fsync=%s",
				      fiojob_val(o), fiojob_val(o));
	if (fiojob_get_count(fiojob_find(&v, "fsync"), 0, &fsync_n, err) ||
	    fiojob_get_bool(fiojob_find(&v, "end_fsync"), 0, &end_fsync, err))
		return -EINVAL;
	/* fio ignores both for a job that only reads */
	if (writes && fsync_n)
		fiojob_add_param(r, "fsync=%llu", (unsigned long long)fsync_n);
	if (writes && end_fsync)
		fiojob_add_param(r, "end_fsync=1");
	/* fio flushes inside a job only when asked (fsync=, end_fsync=1);
	 * iotrial's own default (settle=sync) would add a flush fio never
	 * makes, so a job file runs as fio runs it */
	if (writes)
		fiojob_add_param(r, "settle=none");
	if (!strcmp(r->workload, "randrw")) {
		uint64_t pct = 50;

		mixr = fiojob_find(&v, "rwmixread");
		mixw = fiojob_find(&v, "rwmixwrite");
		if (mixw && (!mixr || mixw->line > mixr->line)) {
			if (fiojob_get_count(mixw, 50, &u, err))
				return -EINVAL;
			pct = u <= 100 ? 100 - u : 101;
			o = mixw;
		} else {
			if (fiojob_get_count(mixr, 50, &pct, err))
				return -EINVAL;
			o = mixr;
		}
		if (pct > 100)
			return fiojob_opt_err(err, o,
					      "'%s=%s' is not a percentage",
					      o->key, fiojob_val(o));
		fiojob_add_param(r, "rwmixread=%llu", (unsigned long long)pct);
	}
	if (fiojob_get_time(fiojob_find(&v, "runtime"), &r->time_ns, err) ||
	    fiojob_get_time(fiojob_find(&v, "ramp_time"), &r->ramp_ns, err) ||
	    fiojob_get_bool(fiojob_find(&v, "time_based"), 0, &r->time_based,
			    err) ||
	    fiojob_get_count(fiojob_find(&v, "loops"), 1, &r->loops, err))
		return -EINVAL;
	o = fiojob_find(&v, "startdelay");
	if (o && (fiojob_one_value(o, err) ||
		  fiojob_get_time(o, &r->startdelay_ns, err)))
		return -EINVAL;
	if (!r->loops)
		r->loops = 1;
	if (r->time_based && !r->time_ns && !ov->time_ns)
		return fiojob_opt_err(err, fiojob_find(&v, "time_based"),
				      "time_based without runtime= runs until "
				      "stopped; give runtime= (or --time)");
	if (ov->time_ns) {
		r->time_ns = ov->time_ns;
		r->time_based = 1;
	}
	/* fio's default hint: random or sequential, as the job is */
	o = fiojob_find(&v, "fadvise_hint");
	if (o && strcmp(fiojob_val(o), "0") && strcmp(fiojob_val(o), "1"))
		return fiojob_opt_err(err, o,
				      "fadvise_hint=%s: iotrial gives the "
				      "hint of the job's pattern (1) or none "
				      "(0)",
				      fiojob_val(o));
	if (!o || !strcmp(fiojob_val(o), "1"))
		fiojob_add_param(r, "fadvise=1");
	/* fio drops the file from the cache at every pass by default */
	if (fiojob_get_bool(fiojob_find(&v, "invalidate"), 1, &b, err))
		return -EINVAL;
	if (b)
		fiojob_add_param(r, "invalidate=1");
	if (fiojob_get_bool(fiojob_find(&v, "norandommap"), 0, &b, err))
		return -EINVAL;
	/* fio's default random map: each block once per pass */
	if (!b && strncmp(r->workload, "rand", 4) == 0)
		fiojob_add_param(r, "randommap=1");
	if (fiojob_map_verify(&v, writes, r, warn, err))
		return -EINVAL;
	dir_o = fiojob_find(&v, "directory");
	if (dir_o && fiojob_one_name(fiojob_val(dir_o), &r->directory))
		return fiojob_opt_err(err, dir_o,
				      "directory=%s names several "
				      "directories; iotrial uses one",
				      fiojob_val(dir_o));
	o = fiojob_find(&v, "filename");
	if (o && fiojob_one_name(fiojob_val(o), &r->filename))
		return fiojob_opt_err(err, o,
				      "filename=%s names several files; "
				      "iotrial gives each job one file",
				      fiojob_val(o));
	if (o && numjobs > 1)
		fiojob_add_param(r, "shared=1");
	if (!size && !r->size_pct && !override(ov, "size") &&
	    !(r->filename && r->filename[0] == '/'))
		return err_set(err, -EINVAL,
			       "%s:%u: [%s] has no size= or filesize=; fio "
			       "needs one for a file it creates (or pass "
			       "--size)",
			       r->file, r->line, r->section);
	for (u = 0; u < ov->nr_params; u++)
		fiojob_add_param(r, "%s", ov->params[u]);
	return 0;
}

const struct param_setting *fiojob_run_settings(struct fiojob_run *r)
{
	unsigned k;

	if (r->settings)
		return r->settings;
	r->settings = xcalloc(r->nr_params + 1, sizeof(*r->settings));
	r->setting_names = xcalloc(r->nr_params + 1, sizeof(*r->setting_names));
	for (k = 0; k < r->nr_params; k++) {
		const char *eq = strchr(r->params[k], '=');
		size_t n =
		    eq ? (size_t)(eq - r->params[k]) : strlen(r->params[k]);

		r->setting_names[k] = xstrndup(r->params[k], n);
		r->settings[k].name = r->setting_names[k];
		r->settings[k].value = eq ? eq + 1 : "";
	}
	return r->settings;
}

void fiojob_plan_release(struct fiojob_plan *plan)
{
	unsigned i, k;

	if (!plan)
		return;
	for (i = 0; i < plan->nr; i++) {
		struct fiojob_run *r = &plan->runs[i];

		for (k = 0; k < r->nr_params; k++) {
			free(r->params[k]);
			if (r->setting_names)
				free(r->setting_names[k]);
		}
		free(r->params);
		free(r->settings);
		free(r->setting_names);
		free(r->section);
		free(r->file);
		free(r->name);
		free(r->directory);
		free(r->filename);
	}
	free(plan->runs);
	memset(plan, 0, sizeof(*plan));
}

/*
 * The engine of every job that runs, first: an engine iotrial does not
 * have explains the rest of such a file (net's hostname=, sg's
 * sg_write_mode=), so it is the one thing a refusal names.
 */
static int check_engines(const struct fiojob *j, const char *const *runs,
			 struct strbuf *err)
{
	const struct fiojob_opt **globals =
	    xcalloc(fiojob_nr_known(), sizeof(*globals));
	const char *engine;
	unsigned s;
	int ret = 0;

	for (s = 0; s < j->nr_secs && !ret; s++) {
		const struct fiojob_view v = {j, s, globals};
		const struct fiojob_opt *o;

		if (j->secs[s].is_global)
			fiojob_note_globals(&j->secs[s], globals);
		if (!runs[s])
			continue;
		o = fiojob_find(&v, "ioengine");
		if (o && !engine_find_fio(fiojob_val(o)))
			ret = fiojob_map_engine(o, &engine, NULL, err);
	}
	free(globals);
	return ret;
}

int fiojob_map(const struct fiojob *j, const struct fiojob_overrides *o,
	       struct fiojob_plan *plan, struct strbuf *warn,
	       struct strbuf *err)
{
	const char **runs = xcalloc(j->nr_secs + 1, sizeof(*runs));
	const struct fiojob_opt **globals =
	    xcalloc(fiojob_nr_known(), sizeof(*globals));
	unsigned s, nr_jobs = 0, group = 0, report = 0, prev = -1u;
	int ret = 0;

	memset(plan, 0, sizeof(*plan));
	for (s = 0; s < j->nr_secs; s++) {
		if (j->secs[s].is_global)
			continue;
		nr_jobs++;
		if (!o->section || !strcmp(o->section, j->secs[s].name))
			runs[s] = j->secs[s].name;
	}
	if (!nr_jobs) {
		ret = err_set(err, -ENOENT,
			      "'%s' has no job section; fio runs [name] "
			      "sections (besides [global])",
			      j->nr_files ? j->files[0] : "");
		goto out;
	}
	for (s = 0; s < j->nr_secs && o->section; s++)
		if (runs[s])
			break;
	if (o->section && s == j->nr_secs) {
		struct strbuf names = STRBUF_INIT;

		for (s = 0; s < j->nr_secs; s++)
			if (!j->secs[s].is_global)
				strbuf_addf(&names, "%s'%s'",
					    names.len ? ", " : "",
					    j->secs[s].name);
		ret = err_set(err, -ENOENT,
			      "'%s' has no job section '%s'; it has %s",
			      j->files[0], o->section, names.buf);
		strbuf_release(&names);
		goto out;
	}
	ret = check_engines(j, runs, err);
	if (!ret)
		ret = fiojob_check_subset(j, runs, o->lenient, warn, err);
	for (s = 0; !ret && s < j->nr_secs; s++) {
		const struct fiojob_view v = {j, s, globals};
		struct fiojob_run *r;
		int stonewall = 0, new_group = 0, gr = 0;

		if (j->secs[s].is_global)
			fiojob_note_globals(&j->secs[s], globals);
		if (!runs[s])
			continue;
		ret = fiojob_get_bool(fiojob_find(&v, "stonewall"), 0,
				      &stonewall, err);
		if (!ret)
			ret = fiojob_get_bool(fiojob_find(&v, "new_group"), 0,
					      &new_group, err);
		if (!ret)
			ret = fiojob_get_bool(
			    fiojob_find(&v, "group_reporting"), 0, &gr, err);
		if (ret)
			break;
		ALLOC_GROW(plan->runs, plan->nr + 1, plan->alloc);
		r = &plan->runs[plan->nr++];
		memset(r, 0, sizeof(*r));
		if (prev != -1u) {
			group += stonewall;
			report += stonewall || new_group;
		}
		r->group = group;
		r->report = report;
		r->group_reporting = gr;
		ret = map_job(j, s, globals, o, r, warn, err);
		prev = plan->nr - 1;
	}
out:
	free(globals);
	free(runs);
	return ret;
}

int fiojob_run_resolve(struct fiojob_run *r, int blockdev,
		       uint64_t capacity_bytes, uint64_t *out_ios,
		       struct strbuf *err)
{
	uint64_t size = 0, bs = 4096, jobs = 1;
	int size_given = 0;
	unsigned i;

	*out_ios = 0;
	/* the last setting of each wins, the command line's included */
	for (i = 0; i < r->nr_params; i++) {
		const char *p = r->params[i];

		if (!strncmp(p, "size=", 5)) {
			size_given = 1;
			if (units_parse_size(p + 5, 0, &size, NULL, NULL))
				size = 0;
		} else if (!strncmp(p, "bs=", 3)) {
			if (units_parse_size(p + 3, 0, &bs, NULL, NULL))
				bs = 4096;
		} else if (!strncmp(p, "jobs=", 5)) {
			if (units_parse_count(p + 5, &jobs, NULL))
				jobs = 1;
		}
	}
	if (r->size_pct && !size_given) {
		if (!blockdev)
			return err_set(err, -EINVAL,
				       "%s:%u: [%s] has size=%u%%, a share of "
				       "a device; on a directory give --size",
				       r->file, r->line, r->section,
				       r->size_pct);
		size = (uint64_t)((unsigned __int128)capacity_bytes *
				  r->size_pct / 100) /
		       jobs / bs * bs;
		fiojob_add_param(r, "size=%llu", (unsigned long long)size);
	}
	if (!size && blockdev) {
		if (jobs > 1)
			return err_set(err, -EINVAL,
				       "%s:%u: [%s]: every one of numjobs=%llu "
				       "would cover the whole device in fio; "
				       "give size= (or --size) for each",
				       r->file, r->line, r->section,
				       (unsigned long long)jobs);
		size = capacity_bytes;
	}
	if (r->time_based)
		return 0;
	if (!size || !bs)
		return err_set(err, -EINVAL, "%s:%u: [%s] has no size", r->file,
			       r->line, r->section);
	*out_ios = size / bs * jobs * r->loops;
	if (!*out_ios)
		*out_ios = jobs;
	return 0;
}
