/*
 * iotrial series: listing, the order of boots, and the systemd unit
 * that runs the next planned group at boot. The unit is written where
 * systemctl enable would put it (etc/systemd/system under --root, or
 * /, and a link in multi-user.target.wants); nothing here asks systemd
 * to do anything, so a --root install (an image, a test) touches
 * nothing of the running system.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "../core/model/model_json.h"
#include "series-int.h"
#include "../core/series/series_plan.h"
#include "../core/store/store_series.h"
#include "../util/error.h"
#include "../util/outfile.h"
#include "../util/strbuf.h"
#include "../util/rng.h"
#include "../util/xalloc.h"
#include "../util/banned.h"

#define UNIT_DIR  "etc/systemd/system"
#define WANTS_DIR UNIT_DIR "/multi-user.target.wants"

int series_list(struct series_args *a)
{
	struct strbuf err = STRBUF_INIT;
	char **names = NULL;
	struct store s;
	size_t i;
	int ret;

	ret = series_open_store(&s, a->db, 0);
	if (ret)
		return ret;
	ret = store_series_names(&s, &names, &err);
	store_close(&s);
	if (ret) {
		ret = series_store_failed(ret, &err);
	} else if (!names[0]) {
		printf("no series yet; 'iotrial series NAME --define -- "
		       "WORKLOAD ...' makes one\n");
	}
	for (i = 0; names && names[i]; i++) {
		printf("%s\n", names[i]);
		free(names[i]);
	}
	free(names);
	strbuf_release(&err);
	return ret;
}

int series_plan(struct series_args *a)
{
	struct strbuf err = STRBUF_INIT, list = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT;
	struct series_plan_doc plan;
	const char **values = NULL;
	size_t nv = 0, i;
	struct store s;
	char *p;
	int ret, grp;

	series_plan_doc_init(&plan);
	if (!a->values) {
		error("plan needs the values to alternate: --values A,B "
		      "(the --tag of each boot)");
		return EXIT_USAGE;
	}
	strbuf_addstr(&list, a->values);
	values = xcalloc(list.len + 1, sizeof(*values));
	for (p = list.buf;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		values[nv++] = p;
		if (!comma)
			break;
		p = comma + 1;
	}
	ret = series_open_store(&s, a->db, 1);
	if (ret)
		goto out_free;
	ret = store_series_get(&s, a->name, NULL, NULL, &err);
	if (!ret)
		ret = store_series_next_group(&s, a->name, &grp, &err);
	if (!ret)
		ret = series_plan_make(values, nv, (unsigned)a->boots,
				       a->seed_given ? a->seed
						     : rng_seed_from_env(),
				       grp, &plan, &err);
	if (!ret) {
		series_plan_doc_encode(
		    &plan, MODEL_ENCODE_PLAIN | MODEL_ENCODE_ESCAPE_SLASH,
		    &text);
		ret = store_series_set_plan(&s, a->name, text.buf, &err);
	}
	if (ret) {
		ret = series_store_failed(ret, &err);
		goto out;
	}
	printf("series %s: boot in this order, one group each ('iotrial "
	       "series %s run --planned'\nafter each boot, or 'at-boot "
	       "--install' to have it run at boot):\n\n",
	       a->name, a->name);
	for (i = 0; i < plan.nr_order; i++)
		printf("  group %zu: %s\n", (size_t)grp + i, plan.order[i]);
	printf("\n%u boots of each value, each block of %zu in a random "
	       "order: drift over the\ndays of the series falls on every "
	       "value alike\n",
	       (unsigned)a->boots, nv);
out:
	store_close(&s);
out_free:
	series_plan_doc_release(&plan);
	strbuf_release(&text);
	free(values);
	strbuf_release(&err);
	strbuf_release(&list);
	return ret;
}

/*
 * mkdir -p of root/rel, root included (as systemctl --root makes what
 * it needs under a root that is still empty, or not there yet); 0 or -1
 * after printing the error.
 */
static int make_dirs(const char *root, const char *rel)
{
	struct strbuf path = STRBUF_INIT;
	const char *p;
	int ret = 0;

	strbuf_addf(&path, "%s/%s", root, rel);
	for (p = path.buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		/* each component in turn: "/a", "/a/b", ... */
		if (p[-1] != '/') {
			char c = *p;

			path.buf[p - path.buf] = '\0';
			if (mkdir(path.buf, 0755) && errno != EEXIST) {
				error("cannot make '%s': %s", path.buf,
				      strerror(errno));
				ret = -1;
			}
			path.buf[p - path.buf] = c;
			if (ret)
				break;
		}
		if (!*p)
			break;
	}
	strbuf_release(&path);
	return ret;
}

/* Write data to path, replacing a regular file there whole; a link,
 * a device or a FIFO there is refused (util/outfile.h). 0 or -1 after
 * the error. */
static int write_file(const char *path, const char *data)
{
	struct strbuf err = STRBUF_INIT;
	int ret =
	    outfile_write(path, data, strlen(data), OUTFILE_REPLACE, &err);

	if (ret)
		error("%s", err.buf);
	strbuf_release(&err);
	return ret ? -1 : 0;
}

/* The root the unit goes under; "/" needs root. */
static const char *unit_root(const struct series_args *a)
{
	return a->root ? a->root : "";
}

int series_remove_unit(const struct series_args *a)
{
	struct strbuf unit = STRBUF_INIT, path = STRBUF_INIT;
	int ret = EXIT_OK, removed = 0, k;

	series_unit_name(a->name, &unit);
	for (k = 0; k < 2; k++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/%s", unit_root(a),
			    k ? UNIT_DIR : WANTS_DIR, unit.buf);
		if (!unlink(path.buf)) {
			removed++;
		} else if (errno != ENOENT) {
			error("cannot remove '%s': %s", path.buf,
			      strerror(errno));
			ret = EXIT_RUNTIME;
		}
	}
	if (ret == EXIT_OK)
		printf(removed ? "removed %s/%s/%s: no boot runs series %s "
				 "any more\n"
			       : "no unit %s/%s/%s to remove (series %s)\n",
		       unit_root(a), UNIT_DIR, unit.buf, a->name);
	strbuf_release(&unit);
	strbuf_release(&path);
	return ret;
}

/* at-boot --install: the unit, and its link as systemctl enable makes. */
static int install_unit(const struct series_args *a)
{
	struct strbuf err = STRBUF_INIT, db = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf unit = STRBUF_INIT, path = STRBUF_INIT,
		      link = STRBUF_INIT;
	char exe[PATH_MAX], dbreal[PATH_MAX], *tag = NULL, *plan = NULL;
	struct store s;
	ssize_t n;
	int ret, grp, last;

	if (!a->root && geteuid() != 0) {
		error("at-boot --install writes /etc/systemd/system: run it "
		      "as root, or give --root DIR");
		return EXIT_RUNTIME;
	}
	ret = series_open_store(&s, a->db, 0);
	if (ret)
		return ret;
	ret = store_series_get(&s, a->name, NULL, &plan, &err);
	if (!ret)
		ret = store_series_next_group(&s, a->name, &grp, &err);
	store_close(&s);
	if (ret) {
		ret = series_store_failed(ret, &err);
		goto out;
	}
	if (!plan || series_plan_next(plan, grp, &tag, &last)) {
		error("series '%s' has no planned boot left; 'iotrial series "
		      "%s plan --values A,B' makes a plan first",
		      a->name, a->name);
		ret = EXIT_USAGE;
		goto out;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || series_store_path(a->db, &db) ||
	    !realpath(db.buf, dbreal)) {
		error("cannot tell the paths of this iotrial and its store");
		ret = EXIT_RUNTIME;
		goto out;
	}
	exe[n] = '\0';
	series_unit_name(a->name, &unit);
	if (series_unit_text(a->name, exe, dbreal, &text, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (make_dirs(a->root ? a->root : "", WANTS_DIR)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	strbuf_addf(&path, "%s/%s/%s", unit_root(a), UNIT_DIR, unit.buf);
	strbuf_addf(&link, "%s/%s/%s", unit_root(a), WANTS_DIR, unit.buf);
	if (write_file(path.buf, text.buf)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	unlink(link.buf);
	strbuf_reset(&err);
	strbuf_addf(&err, "/%s/%s", UNIT_DIR, unit.buf);
	if (symlink(err.buf, link.buf)) {
		error("cannot link '%s': %s", link.buf, strerror(errno));
		ret = EXIT_RUNTIME;
		goto out;
	}
	printf("wrote %s and enabled it (%s):\nthe next boot runs group %d "
	       "(tag %s) of series %s; the plan's last group removes it\n"
	       "check it with 'systemd-analyze verify %s'\n",
	       path.buf, link.buf, grp, tag, a->name, path.buf);
out:
	free(tag);
	free(plan);
	strbuf_release(&err);
	strbuf_release(&db);
	strbuf_release(&text);
	strbuf_release(&unit);
	strbuf_release(&path);
	strbuf_release(&link);
	return ret;
}

int series_at_boot(struct series_args *a)
{
	if (a->install == a->remove) {
		error("at-boot needs --install or --remove");
		return EXIT_USAGE;
	}
	if (a->root && a->root[0] != '/') {
		error("--root '%s' must be an absolute path", a->root);
		return EXIT_USAGE;
	}
	if (a->remove) {
		if (!a->root && geteuid() != 0) {
			error("at-boot --remove changes /etc/systemd/system: "
			      "run it as root, or give --root DIR");
			return EXIT_RUNTIME;
		}
		return series_remove_unit(a);
	}
	return install_unit(a);
}
