/*
 * libFuzzer target for the fio iolog importer (core/trace/iolog.c): any
 * bytes either are refused with a sentence or give a trace whose files
 * are absolute paths without "." or ".." components (the replay maps
 * them beneath its work directory), whose events name listed files, and
 * which exports again without trouble: an export holds no control byte
 * but its line ends and imports again with the same reads, writes and
 * syncs (what no iolog line can name is left out, not written raw);
 * every name it opens it closes once, never more open at once than it
 * reports; below a root (--root) every name is under it, with as many
 * lines.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/trace/iolog.h"
#include "core/trace/trace.h"
#include "util/strbuf.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/*
 * Every name the export opens is closed once, after its lines, and no
 * more are open at once than it said (rep->max_open).
 */
static void check_opens(const struct strbuf *out,
			const struct iolog_report *rep)
{
	const char *p = strchr(out->buf, '\n');
	size_t open_now = 0, most = 0;

	while (p && p[1]) {
		const char *e = strchr(p + 1, '\n');
		size_t len = e ? (size_t)(e - p - 1) : strlen(p + 1);

		if (len > 5 && !memcmp(p + 1 + len - 5, " open", 5) &&
		    ++open_now > most)
			most = open_now;
		if (len > 6 && !memcmp(p + 1 + len - 6, " close", 6)) {
			check(open_now > 0);
			open_now--;
		}
		p = e;
	}
	check(open_now == 0 && most == rep->max_open);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct trace t = {0}, back = {0};
	struct iolog_report rep;
	char *buf = malloc(size ? size : 1);
	size_t i, n, io = 0, all;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ret = iolog_import(buf, size, &t, &err);
	if (ret) {
		check(ret < 0 && err.len > 0);
		goto out;
	}
	for (i = 0; i < t.nr_files; i++) {
		const char *p = t.files[i].path;

		check(p[0] == '/');
		check(!strstr(p, "/../") && !strstr(p, "/./") &&
		      !strstr(p, "//"));
		check(t.files[i].id == i + 1);
	}
	for (i = 0; i < t.nr_events; i++)
		check(t.events[i].file >= 1 && t.events[i].file <= t.nr_files);
	check(iolog_export(&t, NULL, &out, &rep, &err) == 0);
	n = rep.lines;
	check(!strncmp(out.buf, "fio version 3 iolog\n", 20));
	check_opens(&out, &rep);
	/* no control byte but the line ends, and fio's words are what
	 * was meant: the export imports again, with its I/O lines */
	for (i = 0; i < out.len; i++)
		check(out.buf[i] == '\n' ||
		      ((unsigned char)out.buf[i] >= ' ' &&
		       (unsigned char)out.buf[i] != 0x7f));
	check(iolog_import(out.buf, out.len, &back, &err) == 0);
	for (i = 0; i < back.nr_events; i++)
		io += back.events[i].op != TOP_OPEN &&
		      back.events[i].op != TOP_CLOSE;
	check(io == n);
	/* below a root: every name under it, as many lines and left out
	 * (a name too long or not UTF-8 may be nameable below it) */
	all = rep.lines + rep.un.nr_events;
	strbuf_reset(&out);
	check(iolog_export(&t, "/r", &out, &rep, &err) == 0);
	check(rep.lines + rep.un.nr_events == all);
	check_opens(&out, &rep);
	for (i = 0; i + 1 < out.len; i++)
		if (out.buf[i] == '\n') {
			const char *w = strchr(out.buf + i + 1, ' ');

			check(w && (!strncmp(w, " /r/", 4) ||
				    !strncmp(w, " /r ", 4)));
		}
out:
	trace_release(&t);
	trace_release(&back);
	strbuf_release(&err);
	strbuf_release(&out);
	free(buf);
	return 0;
}
