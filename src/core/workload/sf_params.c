/*
 * smallfiles' parameters: their table, and reading the text ones (the
 * operation mix, the lifetime, the fsync policy, the size distribution)
 * into the workload's state, which validate and prepare share.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "smallfiles-int.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

#define DEFAULT_MIX "create:20,write:20,read:30,stat:15,rename:5,delete:10"

static const char *const sf_verify_choices[] = {"off", "crc32c", NULL};

#define SF(member) PARAM_AT(struct sf_params, member)

const struct param_spec sf_rows[] = {
    {"clients", PARAM_UINT, "4", 1, 1024, NULL,
     "threads, each in its own directory", SF(clients)},
    {"sizes", PARAM_STRING, "lognormal:mean=16k,sd=16k,min=512,max=1M", 0, 0,
     NULL,
     "file sizes: SIZE, uniform:MIN-MAX, "
     "lognormal:mean=SIZE[,sd=SIZE][,min=SIZE][,max=SIZE], or "
     "SIZE:WEIGHT,...",
     SF(sizes), .arg = "DIST"},
    {"mix", PARAM_STRING, DEFAULT_MIX, 0, 0, NULL,
     "weights of the operations create, write (rewrite a file), read (a "
     "whole file), stat, rename and delete (of the oldest file) in the "
     "mix",
     SF(mix), .arg = "OP:WEIGHT,..."},
    {"lifetime", PARAM_STRING, "0", 0, 0, NULL,
     "how long a file lives before it is deleted: a duration (100ms) or "
     "a number of the client's operations (50ops); 0: until the mix "
     "deletes it",
     SF(lifetime), .arg = "DURATION|Nops"},
    {"fsync", PARAM_STRING, "never", 0, 0, NULL,
     "never, close (every file written, before close) or N (the file of "
     "every Nth create or write)",
     SF(fsync), .arg = "never|close|N"},
    {"dirs", PARAM_UINT, "4", 1, 4096, NULL, "directories per client",
     SF(dirs)},
    {"files", PARAM_UINT, "1000", 1, 1000000, NULL,
     "most live files per client; a create beyond deletes the oldest",
     SF(files)},
    {"loadfile", PARAM_STRING, "", 0, 0, NULL,
     "replay this dbench load file (client.txt) instead of the mix",
     SF(loadfile), .arg = "FILE"},
    {"label", PARAM_STRING, "", 0, 0, NULL,
     "free text carried into results (A/A experiments)"},
    {"verify", PARAM_CHOICE, "off", 0, 0, sf_verify_choices,
     "a header and crc32c in every 4k block written, checked on reads "
     "and read back after the run",
     SF(verify)},
    {NULL},
};

/* "create:20,read:30,..." into weights; why on error. */
static int parse_mix(const char *text, unsigned *mix, unsigned *total,
		     struct strbuf *why)
{
	char *copy = xstrdup(text), *item, *next;
	int ret = 0;
	unsigned k;

	memset(mix, 0, SF_KINDS * sizeof(*mix));
	*total = 0;
	for (item = copy; item && !ret; item = next) {
		char *colon = strchr(item, ':');
		char *end;
		unsigned long v;

		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		if (colon)
			*colon = '\0';
		for (k = 0; k < SF_KINDS; k++)
			if (!strcmp(item, sf_kind_names[k]))
				break;
		if (k == SF_KINDS) {
			const char *near = suggest_nearest(
			    item, (const char *const *)sf_kind_names, SF_KINDS);

			strbuf_addf(why, "unknown operation '%s'", item);
			if (near)
				strbuf_addf(why, " (did you mean '%s'?)", near);
			ret = -EINVAL;
			break;
		}
		errno = 0;
		v = colon ? strtoul(colon + 1, &end, 10) : 0;
		if (!colon || !colon[1] || *end || errno || v > 1000000 ||
		    colon[1] == '-') {
			strbuf_addf(why,
				    "'%s' needs a weight from 0 to 1000000 "
				    "('%s:20')",
				    item, item);
			ret = -EINVAL;
			break;
		}
		mix[k] = (unsigned)v;
		*total += (unsigned)v;
	}
	if (!ret && !*total) {
		strbuf_addstr(why, "every weight is 0");
		ret = -EINVAL;
	}
	free(copy);
	return ret;
}

/* "0", "100ms", "2s", "50ops". */
static int parse_lifetime(const char *text, uint64_t *ns, uint64_t *ops,
			  struct strbuf *why)
{
	size_t n = strlen(text);

	*ns = *ops = 0;
	if (n > 3 && !strcmp(text + n - 3, "ops")) {
		char *num = xstrndup(text, n - 3);
		int ret = units_parse_count(num, ops, why);

		free(num);
		return ret;
	}
	return units_parse_duration(text, ns, why);
}

/* "never", "close", "N". */
static int parse_fsync(const char *text, enum sf_fsync *mode, uint64_t *every,
		       struct strbuf *why)
{
	*every = 0;
	if (!strcmp(text, "never") || !strcmp(text, "0")) {
		*mode = SF_FSYNC_NEVER;
		return 0;
	}
	if (!strcmp(text, "close")) {
		*mode = SF_FSYNC_CLOSE;
		return 0;
	}
	*mode = SF_FSYNC_EVERY;
	if (units_parse_count(text, every, why)) {
		strbuf_reset(why);
		strbuf_addstr(why, "expected never, close or a number N");
		return -EINVAL;
	}
	return 0;
}

/* Read every text parameter into st (validate and prepare share it). */
int sf_read_settings(struct workload *w, struct sf_state *st,
		     struct strbuf *err)
{
	const struct sf_params *p = w->params;
	struct strbuf why = STRBUF_INIT;
	int ret;

	st->nr_clients = (unsigned)p->clients;
	st->dirs = (unsigned)p->dirs;
	st->max_files = (unsigned)p->files;
	st->replay = *p->loadfile != '\0';
	ret = sizedist_parse(p->sizes, &st->sizes, err);
	if (ret)
		goto out;
	ret = parse_mix(p->mix, st->mix, &st->mix_total, &why);
	if (ret) {
		err_set(err, ret, "invalid mix '%s': %s; expected %s", p->mix,
			why.buf, DEFAULT_MIX);
		goto out;
	}
	ret = parse_lifetime(p->lifetime, &st->lifetime_ns, &st->lifetime_ops,
			     &why);
	if (ret) {
		err_set(err, ret,
			"invalid lifetime '%s': expected a duration (100ms, "
			"2s) or a number of operations (50ops)",
			p->lifetime);
		goto out;
	}
	ret = parse_fsync(p->fsync, &st->fsync_mode, &st->fsync_every, &why);
	if (ret)
		err_set(err, ret, "invalid fsync '%s': %s", p->fsync, why.buf);
out:
	strbuf_release(&why);
	return ret;
}
