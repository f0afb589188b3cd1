/*
 * Text output of a run, rendered from its iotrial/1 run object: `run`
 * prints the object it is about to store, `show` and `report` the one
 * they loaded, so a run reads the same wherever it is printed. Units are
 * labelled every time: MB/s is 10^6 bytes per second (fio's MB/s),
 * MiB/s is shown beside it, because the unit mix-up is half of what goes
 * wrong in hand-made benchmarks.
 *
 * Every member is read as optional: a run stored by an older iotrial or
 * imported from a file may lack any of them, and what is missing is
 * left out rather than printed as zero.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run_text.h"
#include "sections.h"
#include "report_doc.h"
#include "regime_text.h"
#include "fmt.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A count of a part that may not have it, 0 when it has not. */
#define HAS0(o, f) ((o)->has_##f == MODEL_SET ? (o)->f : 0)

/* v, or 0 when it is not a number. */
static double or0(double v)
{
	return isfinite(v) ? v : 0;
}

/* ", 2 GiB from 'vda' (the disk under it)": the bottom of the stack,
 * when it is not the top device itself. */
static void add_bottom(struct strbuf *out, const struct truth_doc *t,
		       uint64_t bytes, const char *verb)
{
	const char *bottom = rd_s(t->bottom_device);

	if (!*bottom || !t->device || !strcmp(bottom, t->device))
		return;
	strbuf_addstr(out, ", ");
	units_fmt_bytes(out, bytes);
	strbuf_addf(out, " %s '%s' (the disk under it)", verb, bottom);
}

/* The rows of the devices' iostat-like table. */
static void device_rows(const struct run_doc *run, struct strbuf *out)
{
	size_t i;

	strbuf_addf(out, "  %-10s %9s %9s %8s %8s %8s %8s %7s %6s %7s\n",
		    "device", "r/s", "w/s", "rMB/s", "wMB/s", "r_await",
		    "w_await", "aqu-sz", "%util", "flushes");
	for (i = 0; i < run->nr_devices; i++) {
		const struct truth_device_doc *d = &run->devices[i];
		const struct disk_delta_doc *x = d->delta;

		if (!x || isnan(x->r_s)) {
			strbuf_addf(out, "  %-10s (counters not readable)\n",
				    rd_s(d->name));
			continue;
		}
		strbuf_addf(out,
			    "  %-10s %9.1f %9.1f %8.2f %8.2f %8.2f %8.2f %7.2f "
			    "%6.1f %7llu\n",
			    rd_s(d->name), or0(x->r_s), or0(x->w_s),
			    or0(x->rmbps), or0(x->wmbps), or0(x->r_await_ms),
			    or0(x->w_await_ms), or0(x->aqu_sz),
			    or0(x->util_pct),
			    (unsigned long long)HAS0(x, flushes));
	}
}

void report_run_truth(const struct run_doc *run, struct strbuf *out)
{
	const struct truth_doc *t = run->truth;
	const struct truth_sampler *s = t ? t->sampler : NULL;
	double f;

	if (!t)
		return;
	if (!run->nr_devices || t->has_device_read_bytes != MODEL_SET) {
		strbuf_addf(out, "device truth: not available: %s\n",
			    t->no_device_reason ? t->no_device_reason
						: "no samples");
		/* the dirty peak beside the thresholds, as with devices */
		report_dirty_text(t, out);
		return;
	}
	strbuf_addf(out,
		    "device truth (sampled every %.0f ms, %llu samples; the "
		    "sampler used %.2f ms of CPU, %.3f%% of a core):\n",
		    s ? or0(s->interval_ms) : 0,
		    (unsigned long long)(s ? s->samples : 0),
		    s ? or0(s->cpu_s) * 1e3 : 0, s ? or0(s->cpu_pct) : 0);
	device_rows(run, out);
	if (t->logical_write_bytes) {
		strbuf_addstr(out, "  written: ");
		units_fmt_bytes(out, t->logical_write_bytes);
		strbuf_addf(out, " by the workload, ");
		units_fmt_bytes(out, HAS0(t, device_write_bytes));
		strbuf_addf(out, " reached '%s'", rd_s(t->device));
		add_bottom(out, t, HAS0(t, bottom_write_bytes), "reached");
		if (t->has_cancelled_write_bytes == MODEL_SET) {
			strbuf_addstr(out, ", ");
			units_fmt_bytes(out, t->cancelled_write_bytes);
			strbuf_addstr(out, " cancelled");
		}
		f = t->absorbed_fraction;
		if (isfinite(f))
			strbuf_addf(out, "; absorbed by the page cache: %.0f%%",
				    100.0 * f);
		strbuf_addch(out, '\n');
	}
	if (t->logical_read_bytes) {
		strbuf_addstr(out, "  read: ");
		units_fmt_bytes(out, t->logical_read_bytes);
		strbuf_addstr(out, " by the workload, ");
		units_fmt_bytes(out, HAS0(t, device_read_bytes));
		strbuf_addf(out, " from '%s'", rd_s(t->device));
		add_bottom(out, t, HAS0(t, bottom_read_bytes), "from");
		f = t->cached_read_fraction;
		if (isfinite(f))
			strbuf_addf(out, "; from the page cache: %.0f%%",
				    100.0 * f);
		strbuf_addch(out, '\n');
	}
	report_dirty_text(t, out);
	f = t->burst_mbps;
	if (isfinite(f))
		strbuf_addf(out,
			    "  throughput: %.1f MB/s burst (%.3f s, before the "
			    "final flush), %.1f MB/s settled\n",
			    f, or0(t->burst_seconds), or0(t->settled_mbps));
}

/*
 * "; machine 45% busy, 52% stolen by the hypervisor": the machine's CPU
 * over the run, the time the hypervisor gave to other guests apart (on
 * a shared VM it is the noise), said when it rounds to 1% or more.
 */
static void add_machine_cpu(struct strbuf *out, const struct run_cpu *cpu)
{
	double total = or0(cpu->system_total_s);
	double steal = or0(cpu->system_steal_s);
	double busy;

	steal = steal > 0 ? steal : 0;
	busy = or0(cpu->system_busy_s) - steal;
	strbuf_addf(out, "; machine %.0f%% busy",
		    100 * (busy > 0 ? busy : 0) / total);
	if (100 * steal / total >= 0.5)
		strbuf_addf(out, ", %.0f%% stolen by the hypervisor",
			    100 * steal / total);
}

/* "latency p50 .. p90 .. p99 .. p99.9 ..  max ..  mean .." of lat. */
static void add_latency(struct strbuf *out, const struct run_latency *lat)
{
	const char *const labels[] = {"p50", "p90", "p99", "p99.9"};
	const uint64_t v[] = {lat->p50, lat->p90, lat->p99, lat->p999};
	size_t i;

	strbuf_addstr(out, "           latency");
	for (i = 0; i < 4; i++) {
		strbuf_addf(out, " %s ", labels[i]);
		units_fmt_ns(out, (double)v[i]);
	}
	strbuf_addstr(out, "  max ");
	units_fmt_ns(out, (double)lat->max);
	strbuf_addstr(out, "  mean ");
	units_fmt_ns(out, or0(lat->mean));
	strbuf_addch(out, '\n');
}

/* The per-operation table of a file workload ("file_ops", in us). */
static void add_file_ops(struct strbuf *out, const struct run_doc *run)
{
	double s = or0(run->seconds) > 0 ? run->seconds : 1;
	uint64_t total = HAS0(run, file_ops_total);
	size_t i;

	strbuf_addf(out, "  ops      %.0f ops/s; %llu operations\n",
		    (double)total / s, (unsigned long long)total);
	if (run->has_dbench_mbps == MODEL_SET)
		strbuf_addf(out,
			    "  dbench   %.2f MB/s (ReadX and WriteX bytes over "
			    "the time, as dbench counts its throughput)\n",
			    or0(run->dbench_mbps));
	strbuf_addf(out, "  %-10s %9s %9s %9s %9s %9s %7s\n", "operation",
		    "count", "mean", "p50", "p99", "max", "errors");
	for (i = 0; i < run->nr_file_ops; i++) {
		const struct run_file_op *op = &run->file_ops[i];
		const double us[4] = {op->mean_us, op->p50_us, op->p99_us,
				      op->max_us};
		struct strbuf c[4] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				      STRBUF_INIT};
		unsigned k;

		for (k = 0; k < 4; k++)
			units_fmt_ns(&c[k], or0(us[k]) * 1e3);
		strbuf_addf(out, "  %-10s %9llu %9s %9s %9s %9s %7llu\n",
			    op->name, (unsigned long long)op->count, c[0].buf,
			    c[1].buf, c[2].buf, c[3].buf,
			    (unsigned long long)op->errors);
		for (k = 0; k < 4; k++)
			strbuf_release(&c[k]);
	}
}

/* The parameter name of run, or NULL (also when it is null). */
static const struct model_value *param(const struct run_doc *run,
				       const char *name)
{
	size_t i;

	for (i = 0; i < run->nr_params; i++)
		if (!strcmp(run->params[i].name, name))
			return run->params[i].value.type == MODEL_V_NULL
				   ? NULL
				   : &run->params[i].value;
	return NULL;
}

/* A parameter as text, "" when the run has none. */
static const char *param_text(const struct run_doc *run, const char *name,
			      struct strbuf *tmp)
{
	const struct model_value *v = param(run, name);

	strbuf_reset(tmp);
	if (v)
		report_value(tmp, v);
	return tmp->buf;
}

/* A parameter as a count (a number from 0 to 1e9), else 0. */
static int param_count(const struct model_value *v)
{
	double d = !v			       ? NAN
		   : v->type == MODEL_V_INT    ? (double)v->i
		   : v->type == MODEL_V_UINT   ? (double)v->u
		   : v->type == MODEL_V_DOUBLE ? v->d
					       : NAN;

	return isfinite(d) && d >= 0 && d < 1e9 ? (int)d : 0;
}

/* A parameter as true or false, as JSON would coerce it. */
static bool param_true(const struct model_value *v)
{
	if (!v)
		return false;
	switch (v->type) {
	case MODEL_V_BOOL:
		return v->b;
	case MODEL_V_INT:
		return v->i != 0;
	case MODEL_V_UINT:
		return v->u != 0;
	case MODEL_V_DOUBLE:
		return v->d != 0;
	case MODEL_V_STR:
		return v->s && *v->s;
	default:
		return false;
	}
}

/*
 * The line that says what ran where: the run's "described", or for a
 * run stored before it was kept, its workload and parameters.
 */
static void describe(struct strbuf *out, const struct run_doc *run)
{
	const char *path = run->target ? rd_s(run->target->path) : "";
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT,
		      d = STRBUF_INIT;
	const char *sep = "";
	size_t i;

	if (run->described && *run->described) {
		strbuf_addf(out, "%s\n", run->described);
	} else if (param(run, "bs")) {
		/* a block-I/O workload, its sizes in bytes as stored */
		int jobs = param_count(param(run, "jobs"));

		strbuf_addf(
		    out,
		    "%s: bs %s, %s, iodepth %s, %d job%s, %s, size %s "
		    "per job, on %s\n",
		    rd_s(run->workload), param_text(run, "bs", &a),
		    param_text(run, "engine", &b),
		    param_text(run, "iodepth", &c), jobs, jobs == 1 ? "" : "s",
		    param_true(param(run, "direct")) ? "O_DIRECT" : "buffered",
		    param_text(run, "size", &d), path);
	} else {
		strbuf_addf(out, "%s:", rd_s(run->workload));
		for (i = 0; i < run->nr_params; i++) {
			strbuf_reset(&a);
			report_value(&a, &run->params[i].value);
			if (run->params[i].value.type == MODEL_V_NULL || !a.len)
				continue;
			strbuf_addf(out, "%s %s %s", sep, run->params[i].name,
				    a.buf);
			sep = ",";
		}
		strbuf_addf(out, ", on %s\n", path);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
	strbuf_release(&d);
}

/* "  jobs     256: IOPS min .. median .. max ..; MB/s ..." */
static void jobs_summary(const struct run_doc *run, struct strbuf *out)
{
	size_t i, n = run->nr_jobs;
	double *iops = xcalloc(n, sizeof(*iops));
	double *mbps = xcalloc(n, sizeof(*mbps));
	double mi, mm;

	for (i = 0; i < n; i++) {
		iops[i] = or0(run->jobs[i].iops);
		mbps[i] = or0(run->jobs[i].mbps);
	}
	/* report_median() sorts them */
	mi = report_median(iops, n);
	mm = report_median(mbps, n);
	strbuf_addf(out,
		    "  jobs     %zu: IOPS min %.0f, median %.0f, max %.0f; "
		    "MB/s min %.1f, median %.1f, max %.1f (--per-job lists "
		    "each)\n",
		    n, iops[0], mi, iops[n - 1], mbps[0], mm, mbps[n - 1]);
	free(iops);
	free(mbps);
}

/* "  command  exited 0; printed 1234; its last line: ..." */
static void exec_text(const struct run_exec_doc *ex, struct strbuf *out)
{
	const char *last = ex->stderr_tail && *ex->stderr_tail
			       ? ex->stderr_tail
			       : rd_s(ex->stdout_tail);
	const char *nl = strrchr(last, '\n');

	strbuf_addf(out, "  command  exited %d", rd_count(ex->status));
	if (isfinite(ex->printed))
		strbuf_addf(out, "; printed %.6g", ex->printed);
	if (*last)
		strbuf_addf(out, "; its last line: %s", nl ? nl + 1 : last);
	strbuf_addch(out, '\n');
}

/* "  cgroup   memory limit 256 MiB (peak use 255 MiB, 99%), cpus 0" */
static void limits_text(const struct run_limits_doc *l, struct strbuf *out)
{
	uint64_t max = HAS0(l, memory_max), peak = HAS0(l, memory_peak);
	const char *sep = "";

	strbuf_addstr(out, "  cgroup   ");
	if (max) {
		strbuf_addstr(out, "memory limit ");
		units_fmt_bytes(out, max);
		if (peak) {
			strbuf_addstr(out, " (peak use ");
			units_fmt_bytes(out, peak);
			strbuf_addf(out, ", %.0f%%)",
				    100.0 * (double)peak / (double)max);
		}
		sep = ", ";
	}
	if (l->cpus) {
		strbuf_addf(out, "%scpus %s", sep, l->cpus);
		sep = ", ";
	}
	if (l->mems)
		strbuf_addf(out, "%smems %s", sep, l->mems);
	strbuf_addch(out, '\n');
}

/* "file 1, offset 4096, seed 7, seq 3" */
static void hdr_text(const struct run_verify_hdr_doc *h, struct strbuf *out)
{
	strbuf_addf(out, "file %llu, offset %llu, seed %llu, seq %llu",
		    (unsigned long long)(h ? h->file_id : 0),
		    (unsigned long long)(h ? h->offset : 0),
		    (unsigned long long)(h ? h->seed : 0),
		    (unsigned long long)(h ? h->seq : 0));
}

/* "  verify   crc32c: 4096 blocks, 0 mismatches; check cpu 0.01 s ..." */
static void verify_text(const struct run_verify_doc *v, struct strbuf *out)
{
	const struct run_verify_first *f = v->first;

	strbuf_addf(out,
		    "  verify   %s: %llu blocks checked, %llu mismatch%s; "
		    "check cpu %.3f s, read-back %.2f s\n",
		    rd_s(v->method), (unsigned long long)v->blocks,
		    (unsigned long long)v->mismatches,
		    v->mismatches == 1 ? "" : "es", or0(v->cpu_s),
		    or0(v->readback_s));
	if (!f)
		return;
	strbuf_addf(out, "  first mismatch: '%s' block at offset %llu",
		    rd_s(f->file), (unsigned long long)f->offset);
	if (f->has_bad_byte == MODEL_SET)
		strbuf_addf(out, " (first bad byte at offset %llu)",
			    (unsigned long long)f->bad_byte);
	strbuf_addf(out, ", found by %s: ",
		    !strcmp(rd_s(f->found_by), "read")
			? "a read of the workload"
			: "the read-back");
	if (!f->header_ok)
		strbuf_addstr(out, "no verify header; ");
	else
		strbuf_addf(out, "crc32c %s; ", f->crc_ok ? "ok" : "failed");
	strbuf_addstr(out, "expected ");
	hdr_text(f->expected, out);
	strbuf_addstr(out, "; found ");
	hdr_text(f->found, out);
	strbuf_addch(out, '\n');
}

/* "metric: mbps = 6962 MB/s (higher is better)" */
static void metric_text(const struct run_metric *m, struct strbuf *out)
{
	const char *unit = rd_s(m->unit);

	strbuf_addf(out, "metric: %s = ", rd_s(m->name));
	if (!strcmp(unit, "ns"))
		units_fmt_ns(out, or0(m->value));
	else
		report_fmt_value(out, or0(m->value));
	if (strcmp(unit, "ns") && *unit)
		strbuf_addf(out, " %s", unit);
	strbuf_addf(out, " (%s is better)\n",
		    m->higher_is_better ? "higher" : "lower");
}

/* "  read     12 IOPS, ..." and its latency, for a direction of run. */
static void dir_lines(const struct run_doc *run, const char *dir, uint64_t ops,
		      uint64_t bytes, const struct run_latency *lat,
		      struct strbuf *out)
{
	double s = or0(run->seconds) > 0 ? run->seconds : 1;
	struct strbuf sb = STRBUF_INIT;

	if (!ops)
		return;
	units_fmt_bytes(&sb, bytes);
	strbuf_addf(
	    out, "  %-8s %.0f IOPS, %.1f MB/s (%.1f MiB/s); %llu ops, %s\n",
	    dir, (double)ops / s, (double)bytes / s / 1e6,
	    (double)bytes / s / 1048576.0, (unsigned long long)ops, sb.buf);
	if (lat && lat->count)
		add_latency(out, lat);
	strbuf_release(&sb);
}

/* A job line's tail: its p50 and p99 per direction it moved, if the run
 * kept them ("; read p50 250 us p99 9.1 ms; write ..."). */
static void job_lat_text(const struct run_job *job, struct strbuf *out)
{
	const struct run_latencies *lat = job->latency_ns;
	const struct run_latency *l[2] = {lat ? lat->read : NULL,
					  lat ? lat->write : NULL};
	static const char *const dirs[] = {"read", "write"};
	size_t d;

	for (d = 0; d < 2; d++) {
		if (!l[d] || !l[d]->count)
			continue;
		strbuf_addf(out, "; %s p50 ", dirs[d]);
		units_fmt_ns(out, (double)l[d]->p50);
		strbuf_addstr(out, " p99 ");
		units_fmt_ns(out, (double)l[d]->p99);
	}
}

void report_run_summary(const struct run_doc *run, unsigned flags,
			struct strbuf *out)
{
	const struct run_cpu *cpu = run->cpu;
	const struct run_latencies *lat = run->latency_ns;
	bool file_ops = run->has_file_ops == MODEL_SET;
	double seconds = or0(run->seconds), burst = or0(run->burst_seconds);
	double user = cpu ? or0(cpu->user_s) : 0,
	       sys = cpu ? or0(cpu->sys_s) : 0;
	double cores = seconds > 0 ? (user + sys) / seconds : 0;
	size_t i, nr_jobs = run->nr_jobs;

	describe(out, run);
	strbuf_addf(out, "  time     %.3f s", seconds);
	if (run->bytes_written && run->fsyncs && burst > 0)
		strbuf_addf(out, " (I/O done at %.3f s, then %.3f s flushing)",
			    burst, seconds - burst);
	strbuf_addch(out, '\n');
	dir_lines(run, "read", run->ops_read, run->bytes_read,
		  lat ? lat->read : NULL, out);
	dir_lines(run, "write", run->ops_written, run->bytes_written,
		  lat ? lat->write : NULL, out);
	if (file_ops)
		add_file_ops(out, run);
	if (run->fsyncs)
		strbuf_addf(out, "  fsyncs   %llu\n",
			    (unsigned long long)run->fsyncs);
	strbuf_addf(out,
		    "  cpu      user %.2f s, sys %.2f s (%.0f%% of a core)",
		    user, sys, cores * 100);
	if (cpu && or0(cpu->system_total_s) > 0)
		add_machine_cpu(out, cpu);
	strbuf_addch(out, '\n');
	if (nr_jobs > REPORT_RUN_JOB_LINES && !file_ops &&
	    !(flags & REPORT_RUN_PER_JOB))
		jobs_summary(run, out);
	for (i = 0;
	     nr_jobs > 1 && !file_ops && i < nr_jobs &&
	     (nr_jobs <= REPORT_RUN_JOB_LINES || (flags & REPORT_RUN_PER_JOB));
	     i++) {
		strbuf_addf(out, "  job %-4zu %.0f IOPS, %.1f MB/s", i,
			    or0(run->jobs[i].iops), or0(run->jobs[i].mbps));
		job_lat_text(&run->jobs[i], out);
		strbuf_addch(out, '\n');
	}
	if (run->exec)
		exec_text(run->exec, out);
	if (run->limits)
		limits_text(run->limits, out);
	if (run->verify)
		verify_text(run->verify, out);
	report_run_truth(run, out);
	report_run_regimes(run, out);
	for (i = 0; i < run->nr_notes; i++)
		strbuf_addf(out, "note: %s\n", run->notes[i]);
	for (i = 0; i < run->nr_warnings; i++)
		strbuf_addf(out, "warning: %s\n", run->warnings[i]);
	if ((flags & REPORT_RUN_METRIC) && run->metric)
		metric_text(run->metric, out);
}

bool report_run_present(const struct experiment_doc *doc)
{
	return report_single_run(doc) != NULL;
}

/* A single run's page: its summary, as `run` printed it. */
void report_run_section(const struct experiment_doc *doc, struct emit *e)
{
	struct strbuf t = STRBUF_INIT;

	report_run_summary(report_single_run(doc), REPORT_RUN_METRIC, &t);
	emit_pre(e, t.buf);
	strbuf_release(&t);
}
