/*
 * Text output of a run. Units are labelled every time: MB/s is 10^6
 * bytes per second (fio's MB/s), MiB/s is shown beside it, because the
 * unit mix-up is half of what goes wrong in hand-made benchmarks.
 */
#include <string.h>
#include "run_text.h"
#include "../observe/truth.h"
#include "../../util/units.h"
#include "../../util/banned.h"

static const char *const dir_names[IO_DIRS] = {"read", "write"};

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

static void describe(struct strbuf *out, const struct workload *w,
		     const struct target *t)
{
	unsigned jobs = (unsigned)workload_u64(w, "jobs");

	strbuf_addf(out,
		    "%s: bs %s, %s, iodepth %s, %u job%s, %s, size %s per "
		    "job, on %s\n",
		    w->ops->name, workload_str(w, "bs"),
		    workload_str(w, "engine"), workload_str(w, "iodepth"), jobs,
		    jobs == 1 ? "" : "s",
		    workload_u64(w, "direct") ? "O_DIRECT" : "buffered",
		    workload_str(w, "size"), t->workdir ? t->workdir : t->path);
}

void report_run_text(const struct workload *w, const struct target *t,
		     const struct run_result *r, struct strbuf *out)
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
		add_latency(out, &r->lat[d]);
	}
	if (r->fsyncs)
		strbuf_addf(out, "  fsyncs   %llu\n",
			    (unsigned long long)r->fsyncs);
	strbuf_addf(out,
		    "  cpu      user %.2f s, sys %.2f s (%.0f%% of a core)",
		    r->cpu.user_s, r->cpu.sys_s, cores * 100);
	if (r->cpu.system_total_s > 0)
		strbuf_addf(out, "; machine %.0f%% busy",
			    100 * r->cpu.system_busy_s / r->cpu.system_total_s);
	strbuf_addf(out, "\n");
	for (i = 0; r->nr_jobs > 1 && i < r->nr_jobs; i++) {
		const struct job_result *j = &r->jobs[i];
		double s = j->seconds > 0 ? j->seconds : r->seconds;
		uint64_t ops = j->ops[0] + j->ops[1];
		uint64_t bytes = j->bytes[0] + j->bytes[1];

		strbuf_addf(out, "  job %-4u %.0f IOPS, %.1f MB/s\n", i,
			    s > 0 ? (double)ops / s : 0,
			    s > 0 ? (double)bytes / s / 1e6 : 0);
	}
	/* DEVICE TRUTH SUMMARY HOOK */
	strbuf_reset(&sb);
	truth_format_text(r->truth, &sb);
	strbuf_add(out, sb.buf, sb.len);
	for (i = 0; i < r->nr_notes; i++)
		strbuf_addf(out, "note: %s\n", r->notes[i]);
	for (i = 0; i < r->nr_warnings; i++)
		strbuf_addf(out, "warning: %s\n", r->warnings[i]);
	strbuf_release(&sb);
}
