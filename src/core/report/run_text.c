/*
 * Text output of a run, rendered from its iotrial/1 run object: `run`
 * prints the object it is about to store, `show` and `report` the one
 * they loaded, so a run reads the same wherever it is printed. Units are
 * labelled every time: MB/s is 10^6 bytes per second (fio's MB/s),
 * MiB/s is shown beside it, because the unit mix-up is half of what goes
 * wrong in hand-made benchmarks.
 *
 * Every key is read as optional: a run stored by an older iotrial or
 * imported from a file may lack any of them, and what is missing is
 * left out rather than printed as zero.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run_text.h"
#include "expjson.h"
#include "regime_text.h"
#include "report.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The number at key of o, or NAN when it is missing or not a number. */
static double num(struct json_object *o, const char *key)
{
	struct json_object *v = expjson_get(o, key);

	if (!v || (!json_object_is_type(v, json_type_double) &&
		   !json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

/* The number at key of o, 0 when missing. */
static double num0(struct json_object *o, const char *key)
{
	double v = num(o, key);

	return isfinite(v) ? v : 0;
}

/* The count at key of o (a non-negative integer), 0 when missing. */
static uint64_t count(struct json_object *o, const char *key)
{
	struct json_object *v = expjson_get(o, key);

	if (!v || !json_object_is_type(v, json_type_int))
		return 0;
	return json_object_get_uint64(v);
}

/* The value at key of o as text (a number as JSON writes it), "" when
 * missing. */
static const char *text(struct json_object *o, const char *key)
{
	struct json_object *v = expjson_get(o, key);

	return v ? json_object_get_string(v) : "";
}

/* Is key of o present and not null? */
static int has(struct json_object *o, const char *key)
{
	return expjson_get(o, key) != NULL;
}

/* ", 2 GiB from 'vda' (the disk under it)": the bottom of the stack,
 * when it is not the top device itself. */
static void add_bottom(struct strbuf *out, struct json_object *t,
		       const char *key, const char *verb)
{
	const char *bottom = expjson_str(t, "bottom_device");

	if (!*bottom || !has(t, "device") ||
	    !strcmp(bottom, expjson_str(t, "device")))
		return;
	strbuf_addstr(out, ", ");
	units_fmt_bytes(out, count(t, key));
	strbuf_addf(out, " %s '%s' (the disk under it)", verb, bottom);
}

/* The rows of the devices' iostat-like table. */
static void device_rows(struct json_object *devs, struct strbuf *out)
{
	size_t i, n = json_object_array_length(devs);

	strbuf_addf(out, "  %-10s %9s %9s %8s %8s %8s %8s %7s %6s %7s\n",
		    "device", "r/s", "w/s", "rMB/s", "wMB/s", "r_await",
		    "w_await", "aqu-sz", "%util", "flushes");
	for (i = 0; i < n; i++) {
		struct json_object *d = json_object_array_get_idx(devs, i);

		if (!has(d, "r_s")) {
			strbuf_addf(out, "  %-10s (counters not readable)\n",
				    expjson_str(d, "name"));
			continue;
		}
		strbuf_addf(out,
			    "  %-10s %9.1f %9.1f %8.2f %8.2f %8.2f %8.2f %7.2f "
			    "%6.1f %7llu\n",
			    expjson_str(d, "name"), num0(d, "r_s"),
			    num0(d, "w_s"), num0(d, "rmbps"), num0(d, "wmbps"),
			    num0(d, "r_await_ms"), num0(d, "w_await_ms"),
			    num0(d, "aqu_sz"), num0(d, "util_pct"),
			    (unsigned long long)count(d, "flushes"));
	}
}

void report_truth_text(struct json_object *run, struct strbuf *out)
{
	struct json_object *t =
	    expjson_get_type(run, "truth", json_type_object);
	struct json_object *devs =
	    expjson_get_type(run, "devices", json_type_array);
	struct json_object *s =
	    expjson_get_type(t, "sampler", json_type_object);
	double f;

	if (!t)
		return;
	if (!devs || !json_object_array_length(devs) ||
	    !has(t, "device_read_bytes")) {
		strbuf_addf(out, "device truth: not available: %s\n",
			    has(t, "no_device_reason")
				? expjson_str(t, "no_device_reason")
				: "no samples");
		/* the dirty peak beside the thresholds, as with devices */
		report_dirty_text(t, out);
		return;
	}
	strbuf_addf(out,
		    "device truth (sampled every %.0f ms, %llu samples; the "
		    "sampler used %.2f ms of CPU, %.3f%% of a core):\n",
		    num0(s, "interval_ms"),
		    (unsigned long long)count(s, "samples"),
		    num0(s, "cpu_s") * 1e3, num0(s, "cpu_pct"));
	device_rows(devs, out);
	if (count(t, "logical_write_bytes")) {
		strbuf_addstr(out, "  written: ");
		units_fmt_bytes(out, count(t, "logical_write_bytes"));
		strbuf_addf(out, " by the workload, ");
		units_fmt_bytes(out, count(t, "device_write_bytes"));
		strbuf_addf(out, " reached '%s'", expjson_str(t, "device"));
		add_bottom(out, t, "bottom_write_bytes", "reached");
		if (has(t, "cancelled_write_bytes")) {
			strbuf_addstr(out, ", ");
			units_fmt_bytes(out, count(t, "cancelled_write_bytes"));
			strbuf_addstr(out, " cancelled");
		}
		f = num(t, "absorbed_fraction");
		if (isfinite(f))
			strbuf_addf(out, "; absorbed by the page cache: %.0f%%",
				    100.0 * f);
		strbuf_addch(out, '\n');
	}
	if (count(t, "logical_read_bytes")) {
		strbuf_addstr(out, "  read: ");
		units_fmt_bytes(out, count(t, "logical_read_bytes"));
		strbuf_addstr(out, " by the workload, ");
		units_fmt_bytes(out, count(t, "device_read_bytes"));
		strbuf_addf(out, " from '%s'", expjson_str(t, "device"));
		add_bottom(out, t, "bottom_read_bytes", "from");
		f = num(t, "cached_read_fraction");
		if (isfinite(f))
			strbuf_addf(out, "; from the page cache: %.0f%%",
				    100.0 * f);
		strbuf_addch(out, '\n');
	}
	report_dirty_text(t, out);
	f = num(t, "burst_mbps");
	if (isfinite(f))
		strbuf_addf(out,
			    "  throughput: %.1f MB/s burst (%.3f s, before the "
			    "final flush), %.1f MB/s settled\n",
			    f, num0(t, "burst_seconds"),
			    num0(t, "settled_mbps"));
}

/*
 * "; machine 45% busy, 52% stolen by the hypervisor": the machine's CPU
 * over the run, the time the hypervisor gave to other guests apart (on
 * a shared VM it is the noise), said when it rounds to 1% or more.
 */
static void add_machine_cpu(struct strbuf *out, struct json_object *cpu)
{
	double total = num0(cpu, "system_total_s");
	double steal = num0(cpu, "system_steal_s");
	double busy;

	steal = steal > 0 ? steal : 0;
	busy = num0(cpu, "system_busy_s") - steal;
	strbuf_addf(out, "; machine %.0f%% busy",
		    100 * (busy > 0 ? busy : 0) / total);
	if (100 * steal / total >= 0.5)
		strbuf_addf(out, ", %.0f%% stolen by the hypervisor",
			    100 * steal / total);
}

/* "latency p50 .. p90 .. p99 .. p99.9 ..  max ..  mean .." of lat. */
static void add_latency(struct strbuf *out, struct json_object *lat)
{
	static const struct {
		const char *label, *key;
	} qs[] = {
	    {"p50", "p50"}, {"p90", "p90"}, {"p99", "p99"}, {"p99.9", "p999"}};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	strbuf_addstr(&sb, "           latency");
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		strbuf_addf(&sb, " %s ", qs[i].label);
		units_fmt_ns(&sb, (double)count(lat, qs[i].key));
	}
	strbuf_addstr(&sb, "  max ");
	units_fmt_ns(&sb, (double)count(lat, "max"));
	strbuf_addstr(&sb, "  mean ");
	units_fmt_ns(&sb, num0(lat, "mean"));
	strbuf_addf(out, "%s\n", sb.buf);
	strbuf_release(&sb);
}

/* The per-operation table of a file workload ("file_ops", in us). */
static void add_file_ops(struct strbuf *out, struct json_object *run,
			 struct json_object *ops)
{
	double s = num0(run, "seconds") > 0 ? num0(run, "seconds") : 1;
	uint64_t total = count(run, "file_ops_total");

	strbuf_addf(out, "  ops      %.0f ops/s; %llu operations\n",
		    (double)total / s, (unsigned long long)total);
	if (has(run, "dbench_mbps"))
		strbuf_addf(out,
			    "  dbench   %.2f MB/s (ReadX and WriteX bytes over "
			    "the time, as dbench counts its throughput)\n",
			    num0(run, "dbench_mbps"));
	strbuf_addf(out, "  %-10s %9s %9s %9s %9s %9s %7s\n", "operation",
		    "count", "mean", "p50", "p99", "max", "errors");
	json_object_object_foreach(ops, name, op)
	{
		static const char *const keys[4] = {"mean_us", "p50_us",
						    "p99_us", "max_us"};
		struct strbuf c[4] = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
				      STRBUF_INIT};
		unsigned k;

		for (k = 0; k < 4; k++)
			units_fmt_ns(&c[k], num0(op, keys[k]) * 1e3);
		strbuf_addf(out, "  %-10s %9llu %9s %9s %9s %9s %7llu\n", name,
			    (unsigned long long)count(op, "count"), c[0].buf,
			    c[1].buf, c[2].buf, c[3].buf,
			    (unsigned long long)count(op, "errors"));
		for (k = 0; k < 4; k++)
			strbuf_release(&c[k]);
	}
}

/*
 * The line that says what ran where: the run's "described", or for a
 * run stored before it was kept, its workload and parameters.
 */
static void describe(struct strbuf *out, struct json_object *run)
{
	struct json_object *params =
	    expjson_get_type(run, "params", json_type_object);
	struct json_object *t =
	    expjson_get_type(run, "target", json_type_object);
	const char *sep = "";

	if (*expjson_str(run, "described")) {
		strbuf_addf(out, "%s\n", expjson_str(run, "described"));
		return;
	}
	if (expjson_get(params, "bs")) {
		/* a block-I/O workload, its sizes in bytes as stored */
		int jobs = expjson_count(params, "jobs");
		struct json_object *direct = expjson_get(params, "direct");

		strbuf_addf(out,
			    "%s: bs %s, %s, iodepth %s, %d job%s, %s, size %s "
			    "per job, on %s\n",
			    expjson_str(run, "workload"), text(params, "bs"),
			    text(params, "engine"), text(params, "iodepth"),
			    jobs, jobs == 1 ? "" : "s",
			    direct && json_object_get_boolean(direct)
				? "O_DIRECT"
				: "buffered",
			    text(params, "size"), expjson_str(t, "path"));
		return;
	}
	strbuf_addf(out, "%s:", expjson_str(run, "workload"));
	if (params) {
		json_object_object_foreach(params, name, v)
		{
			const char *s = v ? json_object_get_string(v) : "";

			if (!*s)
				continue;
			strbuf_addf(out, "%s %s %s", sep, name, s);
			sep = ",";
		}
	}
	strbuf_addf(out, ", on %s\n", expjson_str(t, "path"));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[n], sorted. */
static double median_of(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "  jobs     256: IOPS min .. median .. max ..; MB/s ..." */
static void jobs_summary(struct json_object *jobs, struct strbuf *out)
{
	size_t i, n = json_object_array_length(jobs);
	double *iops = xcalloc(n, sizeof(*iops));
	double *mbps = xcalloc(n, sizeof(*mbps));

	for (i = 0; i < n; i++) {
		iops[i] = num0(json_object_array_get_idx(jobs, i), "iops");
		mbps[i] = num0(json_object_array_get_idx(jobs, i), "mbps");
	}
	qsort(iops, n, sizeof(*iops), cmp_double);
	qsort(mbps, n, sizeof(*mbps), cmp_double);
	strbuf_addf(out,
		    "  jobs     %zu: IOPS min %.0f, median %.0f, max %.0f; "
		    "MB/s min %.1f, median %.1f, max %.1f (--per-job lists "
		    "each)\n",
		    n, iops[0], median_of(iops, n), iops[n - 1], mbps[0],
		    median_of(mbps, n), mbps[n - 1]);
	free(iops);
	free(mbps);
}

/* "  command  exited 0; printed 1234; its last line: ..." */
static void exec_text(struct json_object *ex, struct strbuf *out)
{
	const char *last = *expjson_str(ex, "stderr_tail")
			       ? expjson_str(ex, "stderr_tail")
			       : expjson_str(ex, "stdout_tail");
	const char *nl = strrchr(last, '\n');

	strbuf_addf(out, "  command  exited %d", expjson_count(ex, "status"));
	if (isfinite(num(ex, "printed")))
		strbuf_addf(out, "; printed %.6g", num(ex, "printed"));
	if (*last)
		strbuf_addf(out, "; its last line: %s", nl ? nl + 1 : last);
	strbuf_addch(out, '\n');
}

/* "  cgroup   memory limit 256 MiB (peak use 255 MiB, 99%), cpus 0" */
static void limits_text(struct json_object *l, struct strbuf *out)
{
	uint64_t max = count(l, "memory_max"), peak = count(l, "memory_peak");
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
	if (has(l, "cpus")) {
		strbuf_addf(out, "%scpus %s", sep, expjson_str(l, "cpus"));
		sep = ", ";
	}
	if (has(l, "mems"))
		strbuf_addf(out, "%smems %s", sep, expjson_str(l, "mems"));
	strbuf_addch(out, '\n');
}

/* "file 1, offset 4096, seed 7, seq 3" */
static void hdr_text(struct json_object *h, struct strbuf *out)
{
	strbuf_addf(out, "file %llu, offset %llu, seed %llu, seq %llu",
		    (unsigned long long)count(h, "file_id"),
		    (unsigned long long)count(h, "offset"),
		    (unsigned long long)count(h, "seed"),
		    (unsigned long long)count(h, "seq"));
}

/* "  verify   crc32c: 4096 blocks, 0 mismatches; check cpu 0.01 s ..." */
static void verify_text(struct json_object *v, struct strbuf *out)
{
	struct json_object *f = expjson_get_type(v, "first", json_type_object);
	uint64_t bad = count(v, "mismatches");
	struct json_object *ok;

	strbuf_addf(out,
		    "  verify   %s: %llu blocks checked, %llu mismatch%s; "
		    "check cpu %.3f s, read-back %.2f s\n",
		    expjson_str(v, "method"),
		    (unsigned long long)count(v, "blocks"),
		    (unsigned long long)bad, bad == 1 ? "" : "es",
		    num0(v, "cpu_s"), num0(v, "readback_s"));
	if (!f)
		return;
	strbuf_addf(out, "  first mismatch: '%s' block at offset %llu",
		    expjson_str(f, "file"),
		    (unsigned long long)count(f, "offset"));
	if (has(f, "bad_byte"))
		strbuf_addf(out, " (first bad byte at offset %llu)",
			    (unsigned long long)count(f, "bad_byte"));
	strbuf_addf(out, ", found by %s: ",
		    !strcmp(expjson_str(f, "found_by"), "read")
			? "a read of the workload"
			: "the read-back");
	ok = expjson_get(f, "header_ok");
	if (!ok || !json_object_get_boolean(ok))
		strbuf_addstr(out, "no verify header; ");
	else
		strbuf_addf(out, "crc32c %s; ",
			    json_object_get_boolean(expjson_get(f, "crc_ok"))
				? "ok"
				: "failed");
	strbuf_addstr(out, "expected ");
	hdr_text(expjson_get(f, "expected"), out);
	strbuf_addstr(out, "; found ");
	hdr_text(expjson_get(f, "found"), out);
	strbuf_addch(out, '\n');
}

/* "metric: mbps = 6962 MB/s (higher is better)" */
static void metric_text(struct json_object *m, struct strbuf *out)
{
	const char *unit = expjson_str(m, "unit");
	struct json_object *hib = expjson_get(m, "higher_is_better");

	strbuf_addf(out, "metric: %s = ", expjson_str(m, "name"));
	if (!strcmp(unit, "ns"))
		units_fmt_ns(out, num0(m, "value"));
	else
		report_fmt_value(out, num0(m, "value"));
	if (strcmp(unit, "ns") && *unit)
		strbuf_addf(out, " %s", unit);
	strbuf_addf(out, " (%s is better)\n",
		    !hib || json_object_get_boolean(hib) ? "higher" : "lower");
}

/* Each string of the array at key of run, as "PREFIX: string". */
static void lines(struct json_object *run, const char *key, const char *prefix,
		  struct strbuf *out)
{
	struct json_object *a = expjson_get_type(run, key, json_type_array);
	size_t i, n = a ? json_object_array_length(a) : 0;

	for (i = 0; i < n; i++)
		strbuf_addf(
		    out, "%s: %s\n", prefix,
		    json_object_get_string(json_object_array_get_idx(a, i)));
}

/* "  read     12 IOPS, ..." and its latency, for dir of run. */
static void dir_lines(struct json_object *run, const char *dir,
		      const char *ops_key, const char *bytes_key,
		      struct strbuf *out)
{
	double s = num0(run, "seconds") > 0 ? num0(run, "seconds") : 1;
	uint64_t ops = count(run, ops_key), bytes = count(run, bytes_key);
	struct json_object *lat = expjson_get_type(
	    expjson_get(run, "latency_ns"), dir, json_type_object);
	struct strbuf sb = STRBUF_INIT;

	if (!ops)
		return;
	units_fmt_bytes(&sb, bytes);
	strbuf_addf(
	    out, "  %-8s %.0f IOPS, %.1f MB/s (%.1f MiB/s); %llu ops, %s\n",
	    dir, (double)ops / s, (double)bytes / s / 1e6,
	    (double)bytes / s / 1048576.0, (unsigned long long)ops, sb.buf);
	if (count(lat, "count"))
		add_latency(out, lat);
	strbuf_release(&sb);
}

/* A job line's tail: its p50 and p99 per direction it moved, if the run
 * kept them ("; read p50 250 us p99 9.1 ms; write ..."). */
static void job_lat_text(struct json_object *job, struct strbuf *out)
{
	static const char *const dirs[] = {"read", "write"};
	struct json_object *lat =
	    expjson_get_type(job, "latency_ns", json_type_object);

	for (size_t d = 0; lat && d < 2; d++) {
		struct json_object *l =
		    expjson_get_type(lat, dirs[d], json_type_object);

		if (!l || !count(l, "count"))
			continue;
		strbuf_addf(out, "; %s p50 ", dirs[d]);
		units_fmt_ns(out, (double)count(l, "p50"));
		strbuf_addstr(out, " p99 ");
		units_fmt_ns(out, (double)count(l, "p99"));
	}
}

void report_run_text(struct json_object *run, unsigned flags,
		     struct strbuf *out)
{
	struct json_object *cpu =
	    expjson_get_type(run, "cpu", json_type_object);
	struct json_object *jobs =
	    expjson_get_type(run, "jobs", json_type_array);
	struct json_object *file_ops =
	    expjson_get_type(run, "file_ops", json_type_object);
	struct json_object *o;
	double seconds = num0(run, "seconds"),
	       burst = num0(run, "burst_seconds");
	double cores =
	    seconds > 0 ? (num0(cpu, "user_s") + num0(cpu, "sys_s")) / seconds
			: 0;
	size_t i, nr_jobs = jobs ? json_object_array_length(jobs) : 0;

	describe(out, run);
	strbuf_addf(out, "  time     %.3f s", seconds);
	if (count(run, "bytes_written") && count(run, "fsyncs") && burst > 0)
		strbuf_addf(out, " (I/O done at %.3f s, then %.3f s flushing)",
			    burst, seconds - burst);
	strbuf_addch(out, '\n');
	dir_lines(run, "read", "ops_read", "bytes_read", out);
	dir_lines(run, "write", "ops_written", "bytes_written", out);
	if (file_ops)
		add_file_ops(out, run, file_ops);
	if (count(run, "fsyncs"))
		strbuf_addf(out, "  fsyncs   %llu\n",
			    (unsigned long long)count(run, "fsyncs"));
	strbuf_addf(out,
		    "  cpu      user %.2f s, sys %.2f s (%.0f%% of a core)",
		    num0(cpu, "user_s"), num0(cpu, "sys_s"), cores * 100);
	if (num0(cpu, "system_total_s") > 0)
		add_machine_cpu(out, cpu);
	strbuf_addch(out, '\n');
	if (nr_jobs > REPORT_RUN_JOB_LINES && !file_ops &&
	    !(flags & REPORT_RUN_PER_JOB))
		jobs_summary(jobs, out);
	for (i = 0;
	     nr_jobs > 1 && !file_ops && i < nr_jobs &&
	     (nr_jobs <= REPORT_RUN_JOB_LINES || (flags & REPORT_RUN_PER_JOB));
	     i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i);

		strbuf_addf(out, "  job %-4zu %.0f IOPS, %.1f MB/s", i,
			    num0(j, "iops"), num0(j, "mbps"));
		job_lat_text(j, out);
		strbuf_addch(out, '\n');
	}
	if ((o = expjson_get_type(run, "exec", json_type_object)))
		exec_text(o, out);
	if ((o = expjson_get_type(run, "limits", json_type_object)))
		limits_text(o, out);
	if ((o = expjson_get_type(run, "verify", json_type_object)))
		verify_text(o, out);
	report_truth_text(run, out);
	report_run_regimes_text(run, out);
	lines(run, "notes", "note", out);
	lines(run, "warnings", "warning", out);
	if ((flags & REPORT_RUN_METRIC) &&
	    (o = expjson_get_type(run, "metric", json_type_object)))
		metric_text(o, out);
}
