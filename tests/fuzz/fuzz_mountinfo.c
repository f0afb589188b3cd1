/*
 * libFuzzer target for the mount table reader. The input is not
 * NUL-terminated. Every line is either kept or counted as bad; every
 * kept entry has all its strings; and each lookup answers with a mount
 * that really matches what was asked, without looping on tables whose
 * parent ids form cycles.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/targets/mountinfo.h"
#include "util/strbuf.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* Is mount point mnt path itself or a parent directory of it? */
static int covers(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	return n && !strncmp(path, mnt, n) &&
	       (!path[n] || path[n] == '/' || mnt[n - 1] == '/');
}

/* Look path up and check the answer. */
static void lookup(const struct mountinfo *mi, const char *path)
{
	const struct mountinfo_entry *e = mountinfo_find_path(mi, path);

	if (e) {
		check(e >= mi->entries && e < mi->entries + mi->nr);
		check(covers(e->mnt, path));
	}
	e = mountinfo_find_mountpoint(mi, path);
	if (e)
		check(!strcmp(e->mnt, path));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct strbuf sb = STRBUF_INIT;
	struct mountinfo mi;
	size_t i, lines = 0;

	for (i = 0; i < size; i++)
		if (buf[i] == '\n' && i && buf[i - 1] != '\n')
			lines++;
	if (size && buf[size - 1] != '\n')
		lines++;
	check(!mountinfo_parse(&mi, buf, size));
	check(mi.nr + mi.nr_bad == lines);
	for (i = 0; i < mi.nr; i++) {
		const struct mountinfo_entry *e = &mi.entries[i], *d;

		check(e->root && *e->root && e->mnt && *e->mnt && e->mnt_opts &&
		      e->optional && e->fstype && *e->fstype && e->source &&
		      e->super_opts);
		d = mountinfo_find_dev(&mi, e->major, e->minor,
				       i % 2 ? MOUNTINFO_LAST
					     : MOUNTINFO_FIRST);
		check(d && d->major == e->major && d->minor == e->minor);
		lookup(&mi, e->mnt);
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s/x", e->mnt);
		lookup(&mi, sb.buf);
	}
	lookup(&mi, "/");
	lookup(&mi, "/a/b");
	check(mountinfo_has_opt("rw,noatime", "noatime"));
	if (mi.nr)
		mountinfo_has_opt(mi.entries[0].mnt_opts, mi.entries[0].fstype);
	mountinfo_release(&mi);
	strbuf_release(&sb);
	return 0;
}
