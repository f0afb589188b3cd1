/*
 * The results store as `iotrial series` opens it (series-int.h), for
 * both of its files (series.c, series_boot.c).
 */
#include <errno.h>
#include "cli.h"
#include "series-int.h"
#include "../core/store/store.h"
#include "../util/error.h"
#include "../util/banned.h"

int series_open_store(struct store *s, const char *db, int write)
{
	struct strbuf err = STRBUF_INIT;
	int ret = store_open_flags(s, db, write ? 0 : STORE_NO_CREATE, &err);

	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret ? (ret == -EINVAL || ret == -ENOENT ? EXIT_USAGE
						       : EXIT_RUNTIME)
		   : 0;
}

int series_store_failed(int ret, struct strbuf *err)
{
	error("%s", err->buf);
	return ret == -EINVAL || ret == -ENOENT || ret == -EEXIST
		   ? EXIT_USAGE
		   : EXIT_RUNTIME;
}

int series_store_path(const char *db, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	int ret = 0;

	if (db) {
		strbuf_addstr(out, db);
	} else if (store_default_path(out, &err)) {
		error("%s", err.buf);
		ret = -1;
	}
	strbuf_release(&err);
	return ret;
}
