/*
 * Reading a fleet run's result files (fleet.h): fleet/HOST.json is the
 * experiment a host's compare wrote, fleet/HOST.error what the playbook
 * wrote when that host failed, or the placeholder it leaves before
 * anything runs there, so that a host that was unreachable is listed
 * too. The files come back from the hosts, so they are read like any
 * input: bounded, parsed with care, made printable.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fleet.h"
#include "../experiment/import.h"
#include "../model/model_json.h"
#include "../../util/error.h"
#include "../../util/userfile.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Error files are a sentence or two; anything larger is not ours. */
#define FLEET_ERROR_MAX_BYTES (1u << 20)

/* The host named name in h, or NULL. */
static struct fleet_host *find_host(struct fleet_hosts *h, const char *name)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		if (!strcmp(h->hosts[i].name, name))
			return &h->hosts[i];
	return NULL;
}

void fleet_hosts_add(struct fleet_hosts *h, const char *name,
		     const char *source, struct experiment_doc *exp,
		     const char *task, const char *error)
{
	struct fleet_host *host = find_host(h, name);

	if (!host) {
		ALLOC_GROW(h->hosts, h->nr + 1, h->alloc);
		host = &h->hosts[h->nr++];
		memset(host, 0, sizeof(*host));
		host->name = xstrdup(name);
	}
	if (error) {
		/* a failure outweighs a result: a host whose revert failed
		 * has both, and its knobs may not be back */
		free(host->error);
		free(host->task);
		free(host->source);
		host->error = xstrdup(error);
		host->task = task && *task ? xstrdup(task) : NULL;
		host->source = xstrdup(source);
		experiment_doc_free(exp);
		return;
	}
	if (host->error || !exp) {
		experiment_doc_free(exp);
		return;
	}
	experiment_doc_free(host->exp);
	free(host->source);
	host->exp = exp;
	host->source = xstrdup(source);
}

void fleet_hosts_set_revert(struct fleet_hosts *h, const char *name,
			    const char *revert, const char *why)
{
	struct fleet_host *host = find_host(h, name);

	if (!host) {
		fleet_hosts_add(h, name, NULL, NULL, NULL, NULL);
		host = find_host(h, name);
	}
	free(host->revert);
	free(host->revert_error);
	host->revert = xstrdup(revert);
	host->revert_error = why && *why ? xstrdup(why) : NULL;
}

void fleet_hosts_release(struct fleet_hosts *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nr; i++) {
		free(h->hosts[i].name);
		free(h->hosts[i].source);
		experiment_doc_free(h->hosts[i].exp);
		free(h->hosts[i].task);
		free(h->hosts[i].error);
		free(h->hosts[i].revert);
		free(h->hosts[i].revert_error);
	}
	free(h->hosts);
	memset(h, 0, sizeof(*h));
}

/* Does s end with suffix? */
static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* The host name of path: its file name without the suffix. */
static char *host_of(const char *path, const char *suffix)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return xstrndup(base, strlen(base) - strlen(suffix));
}

/*
 * Decode text as the playbook's record of a host into rec (initialised
 * here; release it even after an error): strictly, its strings made
 * printable, since it came back from the host. 0 or -EINVAL.
 */
static int decode_record(const struct strbuf *text,
			 struct fleet_record_doc *rec)
{
	struct strbuf err = STRBUF_INIT;
	int ret = fleet_record_doc_decode(text->buf, text->len, rec,
					  MODEL_DECODE_PRINTABLE, &err);

	strbuf_release(&err);
	return ret;
}

/* HOST.error: the playbook's record of why the host failed. */
static void read_error_file(struct fleet_hosts *h, const char *path,
			    const char *name)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	struct fleet_record_doc rec;
	bool is_record = false;
	int r;

	fleet_record_doc_init(&rec);
	/* on failure why says so: a FIFO is refused, not waited on */
	r = userfile_read(path, FLEET_ERROR_MAX_BYTES, &sb, &why);
	if (!r) {
		is_record = !decode_record(&sb, &rec);
		if (!is_record) {
			/* plain text is the error itself */
			strbuf_trim(&sb);
			strbuf_addstr(&why, sb.len ? sb.buf : "failed");
		} else {
			strbuf_addstr(&why, rec.error && *rec.error ? rec.error
								    : "failed");
		}
	}
	fleet_hosts_add(h, name, path, NULL,
			is_record && rec.task ? rec.task : NULL, why.buf);
	fleet_record_doc_release(&rec);
	strbuf_release(&sb);
	strbuf_release(&why);
}

/*
 * HOST.revert: what came of the host's revert. Anything but a readable
 * "ok" counts as not done: the host may still hold a change.
 */
static void read_revert_file(struct fleet_hosts *h, const char *path,
			     const char *name)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	struct fleet_record_doc rec;
	const char *revert = "failed", *said;
	int r;

	fleet_record_doc_init(&rec);
	r = strbuf_read_file(&sb, path, FLEET_ERROR_MAX_BYTES);
	if (r < 0) {
		strbuf_addf(&why, "cannot read '%s': %s", path, strerror(-r));
	} else if (decode_record(&sb, &rec)) {
		strbuf_addf(&why,
			    "'%s' is not the playbook's record "
			    "of the revert",
			    path);
	} else {
		said = rec.revert ? rec.revert : "";
		if (!strcmp(said, "ok"))
			revert = "ok";
		else if (!strcmp(said, "not run"))
			revert = "not run";
		strbuf_addstr(&why, rec.error ? rec.error : "");
		if (strcmp(revert, "ok") && !why.len)
			strbuf_addstr(&why, "iotrial revert did not "
					    "say it was done");
	}
	fleet_hosts_set_revert(h, name, revert, why.buf);
	fleet_record_doc_release(&rec);
	strbuf_release(&sb);
	strbuf_release(&why);
}

int fleet_hosts_read_file(struct fleet_hosts *h, const char *path,
			  struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct import_run r = {0};
	char *name;

	if (ends_with(path, ".error")) {
		name = host_of(path, ".error");
		read_error_file(h, path, name);
		free(name);
		return 0;
	}
	if (ends_with(path, ".revert")) {
		name = host_of(path, ".revert");
		read_revert_file(h, path, name);
		free(name);
		return 0;
	}
	if (!ends_with(path, ".json"))
		return err_set(err, -EINVAL,
			       "'%s' is no fleet result: a fleet result is "
			       "HOST.json, HOST.error or HOST.revert",
			       path);
	name = host_of(path, ".json");
	if (import_read_file(path, NULL, &r, &why)) {
		fleet_hosts_add(h, name, path, NULL, NULL, why.buf);
	} else if (r.kind != IMPORT_EXPERIMENT) {
		strbuf_setf(&why,
			    "'%s' is a single run, not the experiment of a "
			    "compare",
			    path);
		fleet_hosts_add(h, name, path, NULL, NULL, why.buf);
	} else {
		fleet_hosts_add(h, name, path, r.doc.exp, NULL, NULL);
		r.doc.exp = NULL;
	}
	import_run_release(&r);
	strbuf_release(&why);
	free(name);
	return 0;
}

/* qsort: file names in order, so hosts come in a stable order. */
static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fleet_hosts_read_dir(struct fleet_hosts *h, const char *dir,
			 struct strbuf *err)
{
	struct strbuf d = STRBUF_INIT, path = STRBUF_INIT;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	struct dirent *de;
	struct stat st;
	DIR *dp;
	int ret = 0;

	strbuf_addf(&d, "%s/fleet", dir);
	if (stat(d.buf, &st) || !S_ISDIR(st.st_mode))
		strbuf_setf(&d, "%s", dir);
	dp = opendir(d.buf);
	if (!dp) {
		ret = err_set(err, -errno, "cannot read directory '%s': %s",
			      d.buf, strerror(errno));
		goto out;
	}
	while ((de = readdir(dp)))
		if (ends_with(de->d_name, ".json") ||
		    ends_with(de->d_name, ".error") ||
		    ends_with(de->d_name, ".revert")) {
			ALLOC_GROW(names, nr + 1, alloc);
			names[nr++] = xstrdup(de->d_name);
		}
	closedir(dp);
	if (!nr) {
		ret = err_set(err, -ENOENT,
			      "no fleet results in '%s': no HOST.json or "
			      "HOST.error files",
			      d.buf);
		goto out;
	}
	qsort(names, nr, sizeof(*names), cmp_names);
	for (i = 0; i < nr && !ret; i++) {
		strbuf_setf(&path, "%s/%s", d.buf, names[i]);
		ret = fleet_hosts_read_file(h, path.buf, err);
	}
out:
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	strbuf_release(&d);
	strbuf_release(&path);
	return ret;
}

size_t fleet_parse_list_hosts(const char *text, struct strbuf *out)
{
	const char *line = text, *nl;
	size_t nr = 0;
	bool in_hosts = false;

	strbuf_reset(out);
	/* "  play #1 (all): NAME\tTAGS: []\n    pattern: ['all']\n
	 *     hosts (2):\n      h1\n      h2\n" */
	for (; line && *line; line = nl ? nl + 1 : NULL) {
		const char *p = line, *end;

		nl = strchr(line, '\n');
		end = nl ? nl : line + strlen(line);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			continue;
		if (!strncmp(p, "hosts (", 7)) {
			in_hosts = true;
			continue;
		}
		if (!in_hosts || p == line)
			continue;
		if (!strncmp(p, "play #", 6) || !strncmp(p, "pattern:", 8) ||
		    !strncmp(p, "playbook:", 9)) {
			in_hosts = false;
			continue;
		}
		strbuf_add(out, p, (size_t)(end - p));
		strbuf_addch(out, '\n');
		nr++;
	}
	return nr;
}
