/*
 * The round trip of every run and experiment document in a directory
 * (job files' runs, series' reports, plans, dry runs, knobs, journals,
 * logs, diffs, info and watch's lines too), for test_model_json's
 * --dir mode (make model-roundtrip): each is decoded, encoded again and
 * compared with its text byte for byte, and decoded once more refusing
 * unknown members (so that every member iotrial writes is proven to
 * have a field). Since decode keeps a number's text and a missing
 * member, a document of iotrial's own writers must need neither (but
 * where rt_kept_ok() says why): so a row that prints a number otherwise
 * than its writer, or calls a member always written that a writer
 * leaves out, fails too. Prints each document that fails and a line per
 * kind. The documents are what IOTRIAL_JSON_LOG_DIR kept while the
 * suite ran (build/test-logs/json), or any directory of them.
 */
#ifndef IOTRIAL_MODEL_ROUNDTRIP_H
#define IOTRIAL_MODEL_ROUNDTRIP_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "core/model/model-int.h"
#include "core/model/model_json.h"
#include "util/strbuf.h"

/* One kind's figures. */
struct rt_kind {
	char name[48];
	unsigned docs, same, typed;
	unsigned orders, numbers, absent; /* documents where decode kept
					     an order, a number's text, a
					     missing member */
};

/* The kind of a document: "run", "job_file", "series",
 * "experiment/SHAPE", or NULL for one of another kind. */
static const char *rt_kind_of(const char *text, char *buf, size_t size)
{
	struct json_object *o = json_tokener_parse(text), *v;
	const char *type = "", *kind = "", *mode = "", *origin = "";
	const char *ret = NULL;

	if (!json_object_is_type(o, json_type_object))
		goto out;
	if (json_object_object_get_ex(o, "type", &v))
		type = json_object_get_string(v);
	if (json_object_object_get_ex(o, "kind", &v))
		kind = json_object_get_string(v);
	if (json_object_object_get_ex(o, "runs_mode", &v))
		mode = json_object_get_string(v);
	if (json_object_object_get_ex(o, "origin", &v))
		origin = json_object_get_string(v);
	if (!strcmp(type, "job_file")) {
		ret = "job_file";
	} else if (!*type && !strcmp(kind, "series")) {
		ret = "series";
	} else if (!*type &&
		   (!strcmp(kind, "set-plan") || !strcmp(kind, "apply-plan"))) {
		ret = "plan";
	} else if (!*type &&
		   (!strcmp(kind, "dry-run") || !strcmp(kind, "journal"))) {
		ret = !strcmp(kind, "journal") ? "journal" : "dry-run";
	} else if (!*type && !*kind &&
		   json_object_object_get_ex(o, "unavailable_knobs", NULL)) {
		ret = "knobs";
	} else if (!*type && !*kind &&
		   json_object_object_get_ex(o, "experiments", NULL)) {
		ret = "log";
	} else if (!*type && !*kind &&
		   json_object_object_get_ex(o, "like_for_like", NULL)) {
		ret = "diff";
	} else if (!*type && !*kind &&
		   json_object_object_get_ex(o, "kernel_release", NULL) &&
		   !json_object_object_get_ex(o, "workload", NULL)) {
		ret = "info";
	} else if (!*type && !*kind &&
		   json_object_object_get_ex(o, "time", NULL) &&
		   json_object_object_get_ex(o, "name", NULL)) {
		ret = "watch";
	} else if (!strcmp(type, "experiment")) {
		if (!strcmp(kind, "observe"))
			mode = "observe";
		else if (!strcmp(mode, "fixed") || !strcmp(mode, "auto"))
			mode = "compare";
		snprintf(buf, size, "experiment/%s%s%s", mode,
			 *origin ? ", stored " : "", origin);
		for (ret = buf; *buf; buf++) /* a hostile file's bytes */
			if ((unsigned char)*buf < ' ' || *buf == 0x7f)
				*buf = '?';
	} else if (!*type && json_object_object_get_ex(o, "workload", NULL) &&
		   json_object_object_get_ex(o, "latency_ns", NULL)) {
		ret = "run";
	}
out:
	json_object_put(o);
	return ret;
}

/* Add the path of every number whose text decode kept, and of every
 * member it found missing, under obj (d's struct at path), to out. */
static void rt_kept_paths(const struct model_desc *d, const void *obj,
			  const char *path, struct strbuf *out)
{
	const struct model_kept *k = model_kept_get(d, obj);
	struct strbuf p = STRBUF_INIT;
	size_t i, j, n;

	for (i = 0; k && i < k->nr_nums; i++)
		strbuf_addf(out, "%s%s%s[%u] (number \"%s\"); ", path,
			    *path ? "." : "", d->rows[k->nums[i].row].key,
			    k->nums[i].idx, k->nums[i].text);
	for (i = 0; k && i < k->nr_absent; i++)
		strbuf_addf(out, "%s%s%s (missing); ", path, *path ? "." : "",
			    d->rows[k->absent[i]].key);
	for (i = 0; i < d->nr_rows; i++) {
		const struct model_row *row = &d->rows[i];
		const void *q = MODEL_CAT(obj, row->off);
		const char *arr;

		strbuf_reset(&p);
		strbuf_addf(&p, "%s%s%s", path, *path ? "." : "", row->key);
		if (row->kind == MK_FLAT && *(void *const *)q)
			rt_kept_paths(row->sub, *(void *const *)q, path, out);
		else if (row->kind == MK_PTR && *(void *const *)q)
			rt_kept_paths(row->sub, *(void *const *)q, p.buf, out);
		if ((row->kind != MK_ARR || row->elem != MK_OBJ) &&
		    row->kind != MK_MAP)
			continue;
		arr = *(const char *const *)q;
		n = *(const size_t *)MODEL_CAT(obj, row->nr);
		for (j = 0; arr && j < n; j++) {
			size_t at = p.len;

			strbuf_addf(&p, "[%zu]", j);
			rt_kept_paths(row->sub, arr + j * row->sub->size, p.buf,
				      out);
			strbuf_setlen(&p, at);
		}
	}
	strbuf_release(&p);
}

/*
 * Is what decode kept of a document of kind what its writers explain?
 * iotrial's own writers print every number as its row does and leave
 * out no member their table always writes, but for two: an import
 * (numbers and members from the files imported) and observe's windows'
 * runs, whose device rows live_json.c prints unrounded, with byte
 * counts as 1234.0, and which have none of a run's other members. The
 * experiment a diff holds is one too: diff_build() makes it from two
 * stored ones, in their order and without runs_mode.
 */
static bool rt_kept_ok(const char *kind, const char *paths)
{
	const char *p = paths, *end;

	if (strstr(kind, "import") || !strcmp(kind, "diff"))
		return true;
	for (; *p; p = end + 2) {
		end = strstr(p, "; ");
		if (!end)
			break;
		if (!strstr(kind, "observe") || strncmp(p, "runs[", 5) ||
		    !strstr(p, "].run") || strstr(p, "].run") > end)
			return false;
		if (!strstr(p, "(missing)") &&
		    (!strstr(p, ".devices[") || strstr(p, ".devices[") > end))
			return false;
	}
	return true;
}

/* The table of a kind of document that has no entry points of its own
 * here (the rest of rt_kind_of()'s), or NULL. */
static const struct model_desc *rt_desc(const char *kind)
{
	static const struct {
		const char *kind;
		const struct model_desc *d;
	} t[] = {
	    {"plan", &model_plan_desc},	  {"dry-run", &model_dry_run_desc},
	    {"knobs", &model_knobs_desc}, {"journal", &model_journal_desc},
	    {"log", &model_log_desc},	  {"diff", &model_diff_desc},
	    {"info", &model_info_desc},	  {"watch", &model_watch_desc},
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(kind, t[i].kind))
			return t[i].d;
	return NULL;
}

/* Decode and encode text as a document of kind; 0 when it comes back
 * byte for byte, with *typed set when no member was unknown. */
static int rt_one(const char *kind, const char *text, size_t len, int *typed,
		  struct model_counts *kc, struct strbuf *why)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf kept = STRBUF_INIT;
	struct experiment_doc e;
	struct run_doc r;
	struct job_doc j;
	struct series_doc s;
	const struct model_desc *gd = rt_desc(kind);
	int ret, pass;
	size_t i;

	*typed = 0;
	for (pass = 0; pass < 2; pass++) {
		unsigned flags = pass ? MODEL_DECODE_KNOWN : 0;

		strbuf_reset(&out);
		strbuf_reset(&err);
		if (!strcmp(kind, "run")) {
			ret = run_doc_decode(text, len, &r, flags, &err);
			if (!ret)
				run_doc_encode(&r, 0, &out);
			if (!ret && !pass) {
				model_kept_count(&model_run_desc, &r, kc);
				rt_kept_paths(&model_run_desc, &r, "", &kept);
			}
			run_doc_release(&r);
		} else if (!strcmp(kind, "series")) {
			ret = series_doc_decode(text, len, &s, flags, &err);
			if (!ret)
				series_doc_encode(&s, 0, &out);
			if (!ret && !pass) {
				model_kept_count(&model_series_desc, &s, kc);
				rt_kept_paths(&model_series_desc, &s, "",
					      &kept);
			}
			series_doc_release(&s);
		} else if (gd) {
			void *g = calloc(1, gd->size);

			ret = model_decode_text(gd, g, text, len, flags, &err);
			if (!ret && gd == &model_watch_desc) {
				/* a line of JSON lines */
				model_encode_obj(gd, g, MODEL_ENCODE_PLAIN,
						 &out);
				strbuf_addch(&out, '\n');
			} else if (!ret) {
				model_encode_obj(gd, g,
						 gd == &model_knobs_desc
						     ? MODEL_ENCODE_TIGHT
						     : 0,
						 &out);
			}
			if (!ret && !pass) {
				model_kept_count(gd, g, kc);
				rt_kept_paths(gd, g, "", &kept);
			}
			model_release_obj(gd, g);
			free(g);
		} else if (!strcmp(kind, "job_file")) {
			ret = job_doc_decode(text, len, &j, flags, &err);
			if (!ret)
				job_doc_encode(&j, 0, &out);
			if (!ret && !pass) {
				model_kept_count(&model_job_desc, &j, kc);
				rt_kept_paths(&model_job_desc, &j, "", &kept);
			}
			job_doc_release(&j);
		} else {
			ret = experiment_doc_decode(text, len, &e, flags, &err);
			if (!ret)
				experiment_doc_encode(&e, 0, &out);
			if (!ret && !pass) {
				model_kept_count(&model_experiment_desc, &e,
						 kc);
				rt_kept_paths(&model_experiment_desc, &e, "",
					      &kept);
			}
			experiment_doc_release(&e);
		}
		if (pass) {
			*typed = !ret;
			if (ret)
				strbuf_addf(why, "not all typed: %s", err.buf);
			ret = 0;
			break;
		}
		if (ret) {
			strbuf_addf(why, "decode: %s", err.buf);
			break;
		}
		if (!rt_kept_ok(kind, kept.buf)) {
			strbuf_addf(why,
				    "came back, but its writer's printing "
				    "is not the table's: %.300s",
				    kept.buf);
			ret = -1;
			break;
		}
		if (out.len == len && !memcmp(out.buf, text, len))
			continue;
		for (i = 0; i < len && i < out.len && text[i] == out.buf[i];
		     i++)
			;
		strbuf_addf(why,
			    "differs at byte %zu: '%.60s' came back as "
			    "'%.60s'",
			    i, text + (i > 20 ? i - 20 : 0),
			    out.buf + (i > 20 ? i - 20 : 0));
		ret = -1;
		break;
	}
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&kept);
	return ret;
}

/* The round trip of every document in dir; 0 when all came back. */
static int rt_dir(const char *dir)
{
	struct rt_kind kinds[32];
	size_t nr_kinds = 0, k, i, n;
	struct dirent **names;
	unsigned bad = 0, other = 0, docs = 0, same = 0, typed_all = 0;
	int nr = scandir(dir, &names, NULL, alphasort);

	if (nr < 0) {
		perror(dir);
		return 2;
	}
	for (i = 0; i < (size_t)nr; i++) {
		struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
		struct strbuf why = STRBUF_INIT;
		char buf[48];
		struct model_counts kc = {0};
		const char *kind;
		int typed = 0;

		if (names[i]->d_name[0] == '.')
			goto next;
		strbuf_addf(&path, "%s/%s", dir, names[i]->d_name);
		n = strlen(names[i]->d_name);
		if (n < 5 || strcmp(names[i]->d_name + n - 5, ".json") ||
		    (n > 9 && !strcmp(names[i]->d_name + n - 9, ".old.json")) ||
		    strbuf_read_file(&text, path.buf, 0) ||
		    !(kind = rt_kind_of(text.buf, buf, sizeof(buf)))) {
			other++;
			goto next;
		}
		for (k = 0; k < nr_kinds && strcmp(kinds[k].name, kind); k++)
			;
		if (k == nr_kinds && nr_kinds < 32) {
			memset(&kinds[k], 0, sizeof(kinds[k]));
			snprintf(kinds[k].name, sizeof(kinds[k].name), "%s",
				 kind);
			nr_kinds++;
		}
		docs++;
		if (k < 32)
			kinds[k].docs++;
		if (rt_one(kind, text.buf, text.len, &typed, &kc, &why)) {
			bad++;
			printf("fails: %s (%s): %s\n", path.buf, kind, why.buf);
		} else {
			same++;
			if (k < 32)
				kinds[k].same++;
			if (!typed)
				printf("byte-identical, %s: %s\n", why.buf,
				       path.buf);
		}
		if (typed) {
			typed_all++;
			if (k < 32)
				kinds[k].typed++;
		}
		if (k < 32) {
			kinds[k].orders += kc.orders > 0;
			kinds[k].numbers += kc.numbers > 0;
			kinds[k].absent += kc.absent > 0;
		}
	next:
		strbuf_release(&path);
		strbuf_release(&text);
		strbuf_release(&why);
		free(names[i]);
	}
	free(names);
	printf("%-36s %5s %5s %5s   %s\n", "kind", "docs", "same", "typed",
	       "kept: order, number texts, missing members (documents)");
	for (k = 0; k < nr_kinds; k++)
		printf("%-36s %5u %5u %5u   %u, %u, %u\n", kinds[k].name,
		       kinds[k].docs, kinds[k].same, kinds[k].typed,
		       kinds[k].orders, kinds[k].numbers, kinds[k].absent);
	printf("%u documents (runs, experiments, job files, series, plans, "
	       "dry runs, knobs, journals, logs, diffs, infos, watch lines) in "
	       "%s: "
	       "%u byte-identical as the writers print (%u failed), %u "
	       "fully typed; %u other "
	       "files\n",
	       docs, dir, same, bad, typed_all, other);
	return bad ? 1 : 0;
}

/* The JSON type and printing of a member (or element) of kind k. */
static const char *rt_type(unsigned k, int dec, char *buf, size_t size)
{
	switch (k) {
	case MK_STR:
		return "string";
	case MK_BOOL:
		return "true/false";
	case MK_INT:
	case MK_UINT:
		return "integer";
	case MK_DBL:
		return "number, 17 digits";
	case MK_RND:
		snprintf(buf, size, "number, %d places", dec);
		return buf;
	case MK_VAL:
		return "string, number or true/false";
	case MK_RAW:
		return "any JSON, kept as text";
	case MK_ARR:
		return "array";
	default:
		return "object";
	}
}

/* Every member of d's struct under path, one line each: its path, its
 * JSON type and printing, when it is there. */
static void rt_members(const struct model_desc *d, const char *path)
{
	struct strbuf p = STRBUF_INIT;
	char buf[32];
	size_t i;

	for (i = 0; i < d->nr_rows; i++) {
		const struct model_row *row = &d->rows[i];
		const char *when = (row->flags & MF_REQ)   ? "required"
				   : (row->flags & MF_OPT) ? "when there is one"
							   : "always";

		if (row->kind == MK_FLAT) {
			printf("%s: (a group, all or none)\n", path);
			rt_members(row->sub, path);
			continue;
		}
		strbuf_reset(&p);
		strbuf_addf(&p, "%s%s%s", path, *path ? "." : "", row->key);
		printf("%-58s %-28s %s%s\n", p.buf,
		       rt_type(row->kind, row->dec, buf, sizeof(buf)), when,
		       (row->flags & MF_NULL) ? ", may be null" : "");
		if (row->kind == MK_ARR) {
			strbuf_addstr(&p, "[]");
			if (row->elem != MK_OBJ)
				printf("%-58s %-28s %s\n", p.buf,
				       rt_type(row->elem, row->dec, buf,
					       sizeof(buf)),
				       (row->flags & MF_NULL) ? "may be null"
							      : "");
			else
				rt_members(row->sub, p.buf);
		} else if (row->kind == MK_MAP) {
			strbuf_addstr(&p, ".NAME");
			if (row->sub->flags & MD_SCALAR)
				printf("%-58s %-28s any name\n", p.buf,
				       rt_type(row->sub->rows[0].kind, 0, buf,
					       sizeof(buf)));
			else
				rt_members(row->sub, p.buf);
		} else if (row->sub) {
			rt_members(row->sub, p.buf);
		}
	}
	strbuf_release(&p);
}

#endif
