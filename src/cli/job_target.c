/*
 * Where a job file's run puts its files (job_target.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "job_target.h"
#include "../util/error.h"
#include "../util/banned.h"

static const char *tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

/* Is path the same block device as spec (a path too)? */
static int same_device(const struct stat *st, const char *spec)
{
	struct stat o;

	return spec && !stat(spec, &o) && S_ISBLK(o.st_mode) &&
	       o.st_rdev == st->st_rdev;
}

int job_cli_target(const struct fiojob_run *r, const char *cli_target,
		   struct strbuf *spec, struct strbuf *err)
{
	const char *fn = r->filename;
	struct stat st;

	strbuf_reset(spec);
	if (fn && fn[0] == '/' && !stat(fn, &st) && S_ISBLK(st.st_mode)) {
		if (!same_device(&st, cli_target))
			return err_set(err, -EINVAL,
				       "%s:%u: [%s] has filename=%s, a block "
				       "device; iotrial writes to a device "
				       "only when -t names it (-t %s), and "
				       "else runs in a directory given by -t",
				       r->file, r->line, r->section, fn, fn);
		strbuf_addstr(spec, cli_target);
		return 0;
	}
	if (cli_target)
		strbuf_addstr(spec, cli_target);
	else if (r->directory && *r->directory)
		strbuf_addstr(spec, r->directory);
	else if (fn && fn[0] == '/')
		strbuf_add(spec, fn, (size_t)(strrchr(fn, '/') - fn) ?: 1);
	else
		strbuf_addstr(spec, tmp_dir());
	return 0;
}
