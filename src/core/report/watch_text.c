/*
 * The lines of `iotrial watch` (watch_text.h). The columns are iostat -x's
 * as diskstats.c computes them for run results too, so a watch line and
 * a run's devices[] entry mean the same thing and the JSON lines use the
 * same keys; Dirty and Writeback come from the sampler's /proc/meminfo.
 */
#include "../model/model_json.h"
#include "../../util/xalloc.h"
#include "watch_text.h"
#include "../../version.h"
#include "../observe/truth.h"
#include "../../util/units.h"
#include "../../util/banned.h"

void report_watch_header(enum watch_format fmt, struct strbuf *out)
{
	if (fmt == WATCH_CSV)
		strbuf_addf(
		    out, "time,name,r_s,w_s,rmbps,wmbps,r_await_ms,w_await_ms,"
			 "aqu_sz,util_pct,f_s,d_s,rrqm_s,wrqm_s,rareq_kib,"
			 "wareq_kib,read_bytes,write_bytes,flushes,discards,"
			 "dirty_bytes,writeback_bytes\n");
	else if (fmt == WATCH_TEXT)
		strbuf_addf(
		    out,
		    "%-8s  %-8s %9s %9s %8s %8s %8s %8s %7s %6s %7s %7s "
		    "%10s %10s\n",
		    "time", "device", "r/s", "w/s", "rMB/s", "wMB/s", "r_await",
		    "w_await", "aqu-sz", "%util", "f/s", "d/s", "Dirty",
		    "Writeback");
}

void report_watch_line(enum watch_format fmt, const char *when,
		       const char *name, const struct disk_delta *d,
		       const struct sampler_point *p, struct strbuf *out)
{
	int mem = p && (p->have & SAMPLER_HAVE_MEM);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	if (fmt == WATCH_JSON) {
		struct watch_doc o;

		watch_doc_init(&o);
		o.schema = xstrdup(IOTRIAL_SCHEMA);
		o.time = xstrdup(when);
		o.name = xstrdup(name);
		o.delta = xcalloc(1, sizeof(*o.delta));
		disk_delta_to_doc(d, o.delta);
		o.dirty_bytes = mem ? p->dirty_bytes : 0;
		o.has_dirty_bytes = mem ? MODEL_SET : MODEL_NULL;
		o.writeback_bytes = mem ? p->writeback_bytes : 0;
		o.has_writeback_bytes = mem ? MODEL_SET : MODEL_NULL;
		watch_doc_encode(&o, MODEL_ENCODE_PLAIN, out);
		strbuf_addch(out, '\n');
		watch_doc_release(&o);
	} else if (fmt == WATCH_CSV) {
		strbuf_addf(
		    out,
		    "%s,%s,%.2f,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.2f,"
		    "%.2f,%.2f,%.2f,%.2f,%.2f,%llu,%llu,%llu,%llu,",
		    when, name, d->r_s, d->w_s, d->rmbps, d->wmbps,
		    d->r_await_ms, d->w_await_ms, d->aqu_sz, d->util_pct,
		    d->f_s, d->d_s, d->rrqm_s, d->wrqm_s, d->rareq_kib,
		    d->wareq_kib, (unsigned long long)d->read_bytes,
		    (unsigned long long)d->write_bytes,
		    (unsigned long long)d->flushes,
		    (unsigned long long)d->discards);
		if (mem)
			strbuf_addf(out, "%llu,%llu\n",
				    (unsigned long long)p->dirty_bytes,
				    (unsigned long long)p->writeback_bytes);
		else
			strbuf_addf(out, ",\n");
	} else {
		if (mem) {
			units_fmt_bytes(&a, p->dirty_bytes);
			units_fmt_bytes(&b, p->writeback_bytes);
		}
		strbuf_addf(
		    out,
		    "%-8s  %-8s %9.1f %9.1f %8.2f %8.2f %8.2f %8.2f %7.2f "
		    "%6.1f %7.1f %7.1f %10s %10s\n",
		    when, name, d->r_s, d->w_s, d->rmbps, d->wmbps,
		    d->r_await_ms, d->w_await_ms, d->aqu_sz, d->util_pct,
		    d->f_s, d->d_s,
		    mem ? a.buf
		    : p ? "?"
			: "",
		    mem ? b.buf
		    : p ? "?"
			: "");
	}
	strbuf_release(&a);
	strbuf_release(&b);
}
