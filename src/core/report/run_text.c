/*
 * Text output of a run. Units are labelled every time: MB/s is 10^6
 * bytes per second (fio's MB/s), MiB/s is shown beside it, because the
 * unit mix-up is half of what goes wrong in hand-made benchmarks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run_text.h"
#include "regime_text.h"
#include "../observe/truth.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static const char *const dir_names[IO_DIRS] = {"read", "write"};

/* ", 2 GiB from 'vda' (the disk under it)": the bottom of the stack,
 * when it is not the top device itself. */
static void add_bottom(struct strbuf *out, const struct truth *t,
		       uint64_t bytes, const char *verb)
{
	if (!t->have_bottom || !t->device ||
	    !strcmp(t->bottom_device, t->device))
		return;
	strbuf_addstr(out, ", ");
	units_fmt_bytes(out, bytes);
	strbuf_addf(out, " %s '%s' (the disk under it)", verb,
		    t->bottom_device);
}

void report_truth_text(const struct truth *t, struct strbuf *out)
{
	unsigned i;

	if (!t)
		return;
	if (!t->nr_devs || !t->have_device) {
		strbuf_addf(out, "device truth: not available: %s\n",
			    t->no_device_reason ? t->no_device_reason
						: "no samples");
		/* the dirty peak beside the thresholds, as with devices */
		report_dirty_text(t, out);
		return;
	}
	strbuf_addf(out,
		    "device truth (sampled every %.0f ms, %u samples; the "
		    "sampler used %.2f ms of CPU, %.3f%% of a core):\n",
		    t->interval_ms, t->series.nr_points, t->sampler_cpu_s * 1e3,
		    t->seconds > 0 ? 100.0 * t->sampler_cpu_s / t->seconds
				   : 0.0);
	strbuf_addf(out, "  %-10s %9s %9s %8s %8s %8s %8s %7s %6s %7s\n",
		    "device", "r/s", "w/s", "rMB/s", "wMB/s", "r_await",
		    "w_await", "aqu-sz", "%util", "flushes");
	for (i = 0; i < t->nr_devs; i++) {
		const struct truth_device *td = &t->devs[i];
		const struct disk_delta *d = &td->d;

		if (!td->valid) {
			strbuf_addf(out, "  %-10s (counters not readable)\n",
				    td->name);
			continue;
		}
		strbuf_addf(out,
			    "  %-10s %9.1f %9.1f %8.2f %8.2f %8.2f %8.2f %7.2f "
			    "%6.1f %7llu\n",
			    td->name, d->r_s, d->w_s, d->rmbps, d->wmbps,
			    d->r_await_ms, d->w_await_ms, d->aqu_sz,
			    d->util_pct, (unsigned long long)d->flushes);
	}
	if (t->logical_write_bytes) {
		strbuf_addstr(out, "  written: ");
		units_fmt_bytes(out, t->logical_write_bytes);
		strbuf_addf(out, " by the workload, ");
		units_fmt_bytes(out, t->device_write_bytes);
		strbuf_addf(out, " reached '%s'", t->device);
		add_bottom(out, t, t->bottom_write_bytes, "reached");
		if (t->have_procio) {
			strbuf_addstr(out, ", ");
			units_fmt_bytes(out, t->cancelled_write_bytes);
			strbuf_addstr(out, " cancelled");
		}
		if (isfinite(t->absorbed_fraction))
			strbuf_addf(out, "; absorbed by the page cache: %.0f%%",
				    100.0 * t->absorbed_fraction);
		strbuf_addch(out, '\n');
	}
	if (t->logical_read_bytes) {
		strbuf_addstr(out, "  read: ");
		units_fmt_bytes(out, t->logical_read_bytes);
		strbuf_addstr(out, " by the workload, ");
		units_fmt_bytes(out, t->device_read_bytes);
		strbuf_addf(out, " from '%s'", t->device);
		add_bottom(out, t, t->bottom_read_bytes, "from");
		if (isfinite(t->cached_read_fraction))
			strbuf_addf(out, "; from the page cache: %.0f%%",
				    100.0 * t->cached_read_fraction);
		strbuf_addch(out, '\n');
	}
	report_dirty_text(t, out);
	if (isfinite(t->burst_mbps))
		strbuf_addf(out,
			    "  throughput: %.1f MB/s burst (%.3f s, before the "
			    "final flush), %.1f MB/s settled\n",
			    t->burst_mbps, t->burst_seconds, t->settled_mbps);
}

/*
 * "; machine 45% busy, 52% stolen by the hypervisor": the machine's CPU
 * over the run, the time the hypervisor gave to other guests apart (on
 * a shared VM it is the noise), said when it rounds to 1% or more.
 */
static void add_machine_cpu(struct strbuf *out, const struct cpu_usage *c)
{
	double steal = c->system_steal_s > 0 ? c->system_steal_s : 0;
	double busy = c->system_busy_s - steal;

	strbuf_addf(out, "; machine %.0f%% busy",
		    100 * (busy > 0 ? busy : 0) / c->system_total_s);
	if (100 * steal / c->system_total_s >= 0.5)
		strbuf_addf(out, ", %.0f%% stolen by the hypervisor",
			    100 * steal / c->system_total_s);
}

static void add_latency(struct strbuf *out, const struct hist *h)
{
	static const struct {
		const char *label;
		double q;
	} qs[] = {{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}, {"p99.9", 0.999}};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addstr(&sb, "           latency");
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		strbuf_addf(&sb, " %s ", qs[i].label);
		units_fmt_ns(&sb, (double)hist_quantile(h, qs[i].q));
	}
	strbuf_addstr(&sb, "  max ");
	units_fmt_ns(&sb, (double)h->max_ns);
	strbuf_addstr(&sb, "  mean ");
	units_fmt_ns(&sb, hist_mean(h));
	strbuf_addf(out, "%s\n", sb.buf);
	strbuf_release(&sb);
}

/* The per-operation table of a file workload. */
static void add_file_ops(struct strbuf *out, const struct run_result *r)
{
	double s = r->seconds > 0 ? r->seconds : 1;
	unsigned i;

	strbuf_addf(out, "  ops      %.0f ops/s; %llu operations\n",
		    (double)r->file_ops / s, (unsigned long long)r->file_ops);
	if (r->have_dbench)
		strbuf_addf(out,
			    "  dbench   %.2f MB/s (ReadX and WriteX bytes over "
			    "the time, as dbench counts its throughput)\n",
			    r->dbench_mbps);
	strbuf_addf(out, "  %-10s %9s %9s %9s %9s %9s %7s\n", "operation",
		    "count", "mean", "p50", "p99", "max", "errors");
	for (i = 0; i < r->nr_op_results; i++) {
		const struct op_result *op = &r->op_results[i];
		struct strbuf c[4] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				      STRBUF_INIT};
		unsigned k;

		if (!op->lat.count && !op->errors)
			continue;
		units_fmt_ns(&c[0], hist_mean(&op->lat));
		units_fmt_ns(&c[1], (double)hist_quantile(&op->lat, 0.5));
		units_fmt_ns(&c[2], (double)hist_quantile(&op->lat, 0.99));
		units_fmt_ns(&c[3], (double)op->lat.max_ns);
		strbuf_addf(out, "  %-10s %9llu %9s %9s %9s %9s %7llu\n",
			    op->name, (unsigned long long)op->lat.count,
			    c[0].buf, c[1].buf, c[2].buf, c[3].buf,
			    (unsigned long long)op->errors);
		for (k = 0; k < 4; k++)
			strbuf_release(&c[k]);
	}
}

static void describe(struct strbuf *out, const struct workload *w,
		     const struct target *t)
{
	unsigned jobs = (unsigned)workload_u64(w, "jobs"), i;

	if (w->ops->describe) {
		w->ops->describe(w, t, out);
		return;
	}

	if (!workload_param(w, "bs")) {
		/* not a block-I/O workload: its parameters as they are */
		strbuf_addf(out, "%s:", w->ops->name);
		for (i = 0; w->ops->params[i].name; i++)
			if (*workload_str(w, w->ops->params[i].name))
				strbuf_addf(
				    out, "%s %s %s", i ? "," : "",
				    w->ops->params[i].name,
				    workload_str(w, w->ops->params[i].name));
		strbuf_addf(out, ", on %s\n",
			    t->workdir ? t->workdir : t->path);
		return;
	}
	strbuf_addf(out,
		    "%s: bs %s, %s, iodepth %s, %u job%s, %s, size %s per "
		    "job, on %s\n",
		    w->ops->name, workload_str(w, "bs"),
		    workload_str(w, "engine"), workload_str(w, "iodepth"), jobs,
		    jobs == 1 ? "" : "s",
		    workload_u64(w, "direct") ? "O_DIRECT" : "buffered",
		    workload_str(w, "size"), t->workdir ? t->workdir : t->path);
}

/* Job i's IOPS and MB/s. */
static void job_rates(const struct run_result *r, unsigned i, double *iops,
		      double *mbps)
{
	const struct job_result *j = &r->jobs[i];
	double s = j->seconds > 0 ? j->seconds : r->seconds;

	*iops = s > 0 ? (double)(j->ops[0] + j->ops[1]) / s : 0;
	*mbps = s > 0 ? (double)(j->bytes[0] + j->bytes[1]) / s / 1e6 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[n] (sorted in place). */
static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "  jobs     256: IOPS min .. median .. max ..; MB/s ..." */
static void jobs_summary(const struct run_result *r, struct strbuf *out)
{
	unsigned i, n = r->nr_jobs;
	double *iops = xcalloc(n, sizeof(*iops));
	double *mbps = xcalloc(n, sizeof(*mbps));

	for (i = 0; i < n; i++)
		job_rates(r, i, &iops[i], &mbps[i]);
	qsort(iops, n, sizeof(*iops), cmp_double);
	qsort(mbps, n, sizeof(*mbps), cmp_double);
	strbuf_addf(out,
		    "  jobs     %u: IOPS min %.0f, median %.0f, max %.0f; "
		    "MB/s min %.1f, median %.1f, max %.1f (--per-job lists "
		    "each)\n",
		    n, iops[0], median_of(iops, n), iops[n - 1], mbps[0],
		    median_of(mbps, n), mbps[n - 1]);
	free(iops);
	free(mbps);
}

/* "  command  exited 0; printed 1234; its last line: ..." */
static void exec_text(const struct run_exec *ex, struct strbuf *out)
{
	const char *last = ex->stderr_tail && *ex->stderr_tail
			       ? ex->stderr_tail
			       : ex->stdout_tail;
	const char *nl = last ? strrchr(last, '\n') : NULL;

	strbuf_addf(out, "  command  exited %d", ex->status);
	if (ex->have_printed)
		strbuf_addf(out, "; printed %.6g", ex->printed);
	if (last && *last)
		strbuf_addf(out, "; its last line: %s", nl ? nl + 1 : last);
	strbuf_addch(out, '\n');
}

/* "  cgroup   memory.max 256 MiB (peak 255 MiB, 99%), cpus 0" */
static void limits_text(const struct run_limits *l, struct strbuf *out)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	const char *sep = "";

	strbuf_addstr(out, "  cgroup   ");
	if (l->memory_max) {
		units_fmt_bytes(&a, l->memory_max);
		strbuf_addf(out, "memory limit %s", a.buf);
		if (l->memory_peak) {
			units_fmt_bytes(&b, l->memory_peak);
			strbuf_addf(out, " (peak use %s, %.0f%%)", b.buf,
				    100.0 * (double)l->memory_peak /
					(double)l->memory_max);
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
	strbuf_release(&a);
	strbuf_release(&b);
}

/* "  verify   crc32c: 4096 blocks, 0 mismatches; check cpu 0.01 s ..." */
static void verify_text(const struct run_verify *v, struct strbuf *out)
{
	strbuf_addf(out,
		    "  verify   %s: %llu blocks checked, %llu mismatch%s; "
		    "check cpu %.3f s, read-back %.2f s\n",
		    v->method, (unsigned long long)v->blocks,
		    (unsigned long long)v->mismatches,
		    v->mismatches == 1 ? "" : "es", v->cpu_s, v->readback_s);
	if (v->have_first) {
		strbuf_addstr(out, "  first mismatch: ");
		run_verify_describe(v, out);
		strbuf_addch(out, '\n');
	}
}

void report_run_text(const struct workload *w, const struct target *t,
		     const struct run_result *r, unsigned flags,
		     struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;
	double cores =
	    r->seconds > 0 ? (r->cpu.user_s + r->cpu.sys_s) / r->seconds : 0;
	unsigned d, i;

	describe(out, w, t);
	strbuf_addf(out, "  time     %.3f s", r->seconds);
	if (r->bytes[IO_WRITE] && r->fsyncs && r->burst_seconds > 0)
		strbuf_addf(out, " (I/O done at %.3f s, then %.3f s flushing)",
			    r->burst_seconds, r->seconds - r->burst_seconds);
	strbuf_addf(out, "\n");
	for (d = 0; d < IO_DIRS; d++) {
		double s = r->seconds > 0 ? r->seconds : 1;

		if (!r->ops[d])
			continue;
		strbuf_reset(&sb);
		units_fmt_bytes(&sb, r->bytes[d]);
		strbuf_addf(
		    out,
		    "  %-8s %.0f IOPS, %.1f MB/s (%.1f MiB/s); %llu ops, "
		    "%s\n",
		    dir_names[d], (double)r->ops[d] / s,
		    (double)r->bytes[d] / s / 1e6,
		    (double)r->bytes[d] / s / 1048576.0,
		    (unsigned long long)r->ops[d], sb.buf);
		if (r->lat[d].count)
			add_latency(out, &r->lat[d]);
	}
	if (r->nr_op_results)
		add_file_ops(out, r);
	if (r->fsyncs)
		strbuf_addf(out, "  fsyncs   %llu\n",
			    (unsigned long long)r->fsyncs);
	strbuf_addf(out,
		    "  cpu      user %.2f s, sys %.2f s (%.0f%% of a core)",
		    r->cpu.user_s, r->cpu.sys_s, cores * 100);
	if (r->cpu.system_total_s > 0)
		add_machine_cpu(out, &r->cpu);
	strbuf_addf(out, "\n");
	if (r->nr_jobs > REPORT_RUN_JOB_LINES && !r->nr_op_results &&
	    !(flags & REPORT_RUN_PER_JOB))
		jobs_summary(r, out);
	for (i = 0; r->nr_jobs > 1 && !r->nr_op_results && i < r->nr_jobs &&
		    (r->nr_jobs <= REPORT_RUN_JOB_LINES ||
		     (flags & REPORT_RUN_PER_JOB));
	     i++) {
		double iops, mbps;

		job_rates(r, i, &iops, &mbps);
		strbuf_addf(out, "  job %-4u %.0f IOPS, %.1f MB/s\n", i, iops,
			    mbps);
	}
	if (r->exec)
		exec_text(r->exec, out);
	if (r->limits)
		limits_text(r->limits, out);
	if (r->verify)
		verify_text(r->verify, out);
	report_truth_text(r->truth, out);
	report_run_regimes_text(r, out);
	for (i = 0; i < r->nr_notes; i++)
		strbuf_addf(out, "note: %s\n", r->notes[i]);
	for (i = 0; i < r->nr_warnings; i++)
		strbuf_addf(out, "warning: %s\n", r->warnings[i]);
	strbuf_release(&sb);
}
