/*
 * The meta entries of a capture's starting state. See capture.h.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include "capture.h"
#include "trace.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* One knob of /proc/sys as a meta entry "knob.NAME" (skipped if absent). */
static int meta_knob(struct trace_writer *w, const char *name,
		     struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, val = STRBUF_INIT, key = STRBUF_INIT;
	const char *p;
	int ret = 0;

	strbuf_addstr(&path, "/proc/sys/");
	for (p = name; *p; p++)
		strbuf_addch(&path, *p == '.' ? '/' : *p);
	if (!strbuf_read_file(&val, path.buf, 4096)) {
		strbuf_trim(&val);
		strbuf_addf(&key, "knob.%s", name);
		ret = trace_writer_meta(w, key.buf, val.buf, err);
	}
	strbuf_release(&path);
	strbuf_release(&val);
	strbuf_release(&key);
	return ret;
}

int capture_write_meta(struct trace_writer *w, const char *layer,
		       struct strbuf *err)
{
	static const char *const knobs[] = {
	    "vm.dirty_ratio",
	    "vm.dirty_background_ratio",
	    "vm.dirty_bytes",
	    "vm.dirty_background_bytes",
	    "vm.dirty_expire_centisecs",
	    "vm.dirty_writeback_centisecs",
	    "vm.vfs_cache_pressure",
	};
	struct utsname u;
	struct timespec ts;
	struct tm tm;
	char when[64];
	size_t i;
	int ret = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ret = trace_writer_meta(w, "started", when, err);
	if (!ret && !uname(&u)) {
		ret = trace_writer_meta(w, "kernel", u.release, err);
		if (!ret)
			ret = trace_writer_meta(w, "arch", u.machine, err);
		if (!ret)
			ret = trace_writer_meta(w, "host", u.nodename, err);
	}
	if (!ret)
		ret = trace_writer_meta(w, "layer", layer, err);
	for (i = 0; !ret && i < ARRAY_SIZE(knobs); i++)
		ret = meta_knob(w, knobs[i], err);
	return ret;
}
