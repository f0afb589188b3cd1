/*
 * The reading side of the results store (store.h): finding an experiment
 * by its id or a prefix of it, and listing them for `log`. A wrong id is
 * the common case here, a typo or a half-remembered prefix, so the
 * answer to an unknown one names the nearest ids that do exist.
 *
 * A store is a file anyone with write access to it may have edited, so
 * what is read from it is made printable here (util/text.h), whoever
 * wrote it: a label with a line break or an escape sequence reaches no
 * terminal and no generated file (a shell export's comment) raw.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include "store.h"
#include "store-int.h"
#include "../model/model_json.h"
#include "../model/experiment_doc.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Ids listed at most in an "unknown" or "ambiguous" message. */
#define STORE_NEAREST 3

static const char sql_by_prefix[] =
    "SELECT id, workload, created FROM experiments"
    " WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id LIMIT 6";
static const char sql_all_ids[] =
    "SELECT id, workload, created FROM experiments"
    " ORDER BY created DESC, rowid DESC";
static const char sql_load[] = "SELECT json FROM experiments WHERE id = ?1";
static const char sql_load_origin[] =
    "SELECT json, origin FROM experiments WHERE id = ?1";
/* The JSON comes along only for an experiment stored with verdicts but
 * before they had reasons to be suspect, for `log` to render its summary
 * again (log_text.h). */
static const char sql_list[] =
    "SELECT id, created, workload, target, metric, arms, host, kernel,"
    " verdicts, CASE WHEN instr(json, '\"verdicts\":[{') > 0"
    " AND instr(json, '\"suspect\":') = 0 THEN json END"
    " FROM experiments ORDER BY created DESC, rowid DESC LIMIT ?1";
static const char sql_list_origin[] =
    "SELECT id, created, workload, target, metric, arms, host, kernel,"
    " verdicts, CASE WHEN instr(json, '\"verdicts\":[{') > 0"
    " AND instr(json, '\"suspect\":') = 0 THEN json END, origin"
    " FROM experiments ORDER BY created DESC, rowid DESC LIMIT ?1";

/* One candidate id with what helps a user recognise it. */
struct id_hint {
	char id[STORE_ID_LEN + 1];
	char what[96]; /* "randread, 2026-11-29" */
	size_t distance;
};

/* Copy the row (id, workload, created) into h. */
static void hint_from_row(sqlite3_stmt *st, struct id_hint *h)
{
	snprintf(h->id, sizeof(h->id), "%s", store_col_str(st, 0));
	snprintf(h->what, sizeof(h->what), "%s, %.10s", store_col_str(st, 1),
		 store_col_str(st, 2));
	text_make_printable(h->id);
	text_make_printable(h->what);
}

/* Append "id (what), ..." for hints[nr]. */
static void add_hints(struct strbuf *out, const struct id_hint *h, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		strbuf_addf(out, "%s%s (%s)", i ? ", " : "", h[i].id,
			    h[i].what);
}

/* The unknown-id message, naming the STORE_NEAREST nearest ids. */
static int unknown_id(struct store *s, const char *id, struct strbuf *err)
{
	struct id_hint best[STORE_NEAREST], h;
	struct strbuf msg = STRBUF_INIT;
	size_t nr = 0, i;
	sqlite3_stmt *st;
	int rc, ret;

	ret = store_prepare(s, sql_all_ids, &st, err);
	if (ret)
		return ret;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		hint_from_row(st, &h);
		/* a short id is a prefix: compare it with as much of each */
		if (strlen(id) < STORE_ID_LEN)
			h.id[strlen(id)] = '\0';
		h.distance = edit_distance(id, h.id);
		hint_from_row(st, &h);
		/* keep the nearest, in order; ties keep the first seen */
		for (i = nr; i > 0 && best[i - 1].distance > h.distance; i--)
			if (i < STORE_NEAREST)
				best[i] = best[i - 1];
		if (i < STORE_NEAREST) {
			best[i] = h;
			if (nr < STORE_NEAREST)
				nr++;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_fail(s, rc, "read the store", err);
	strbuf_addf(&msg, "no experiment '%s' in '%s'", id, s->path);
	if (nr) {
		strbuf_addstr(&msg, "; nearest: ");
		add_hints(&msg, best, nr);
		strbuf_addstr(&msg, "; 'iotrial log' lists them all");
	} else {
		strbuf_addstr(&msg, ": the store is empty; 'iotrial compare' "
				    "and 'iotrial import' add experiments");
	}
	ret = err_set(err, -ENOENT, "%s", msg.buf);
	strbuf_release(&msg);
	return ret;
}

/* The EXP_ORIGIN_* string of an origin's text (report_origin()): none
 * is local, one not ours imported. */
static const char *origin_of(const char *v)
{
	if (!v || !strcmp(v, EXP_ORIGIN_LOCAL))
		return EXP_ORIGIN_LOCAL;
	if (!strcmp(v, EXP_ORIGIN_FLEET))
		return EXP_ORIGIN_FLEET;
	return EXP_ORIGIN_IMPORTED;
}

/* Decode a stored experiment's text into out, made printable. */
static int decode_stored(struct store *s, const char *id, const char *text,
			 struct experiment_doc *out, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int ret;

	ret = experiment_doc_decode(text, strlen(text), out,
				    MODEL_DECODE_PRINTABLE, &why);
	if (ret) {
		text_make_printable(why.buf);
		ret = err_set(err, -EIO,
			      "experiment '%s' in '%s' is damaged (%s)", id,
			      s->path, why.buf);
	}
	strbuf_release(&why);
	return ret;
}

/* The column says where exp came from, whatever the document says;
 * without the column, the document's own origin (none: local). A
 * member it lacked goes last. */
static void set_origin(struct experiment_doc *exp, const char *origin)
{
	origin = origin_of(origin);
	if (!exp->origin)
		experiment_doc_order_last(exp, "origin");
	free(exp->origin);
	exp->origin = xstrdup(origin);
}

int store_load_doc(struct store *s, const char *id, struct experiment_doc *out,
		   struct strbuf *err)
{
	struct id_hint found[6];
	struct strbuf msg = STRBUF_INIT;
	sqlite3_stmt *st;
	size_t nr = 0;
	int rc, ret;

	experiment_doc_init(out);
	if (!s || !s->db)
		return err_set(err, -EINVAL, "the results store is not open");
	if (!id || !*id)
		return err_set(err, -EINVAL,
			       "an empty experiment id; give one that "
			       "'iotrial log' lists");
	ret = store_prepare(s, sql_by_prefix, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && nr < 6)
		hint_from_row(st, &found[nr++]);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_db_fail(s, rc, "read the store", err);
	if (!nr)
		return unknown_id(s, id, err);
	if (nr > 1) {
		add_hints(&msg, found, nr < 5 ? nr : 5);
		ret = err_set(err, -EINVAL,
			      "experiment id '%s' is ambiguous in '%s': %s%s; "
			      "give more of the id",
			      id, s->path, msg.buf, nr > 5 ? ", ..." : "");
		strbuf_release(&msg);
		return ret;
	}
	ret = store_prepare(s, s->has_origin ? sql_load_origin : sql_load, &st,
			    err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, found[0].id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		ret = decode_stored(s, found[0].id, store_col_str(st, 0), out,
				    err);
	if (rc == SQLITE_ROW && !ret)
		set_origin(out,
			   s->has_origin ? store_col_str(st, 1) : out->origin);
	else if (rc == SQLITE_DONE) /* deleted since: say what is there */
		ret = unknown_id(s, id, err);
	else if (rc != SQLITE_ROW)
		ret = store_db_fail(s, rc, "read the store", err);
	sqlite3_finalize(st);
	return ret;
}

/* Make every string of e printable (see the top of this file). */
static void make_printable(struct exp_summary *e)
{
	char *const f[] = {e->id,     e->created, e->workload,
			   e->target, e->metric,  e->arms,
			   e->host,   e->kernel,  e->verdicts};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		text_make_printable(f[i]);
}

int store_list(struct store *s, size_t limit, struct exp_summary **out_list,
	       size_t *out_nr, struct strbuf *err)
{
	struct exp_summary *list = NULL;
	size_t nr = 0, alloc = 0;
	sqlite3_stmt *st;
	int rc, ret;

	*out_list = NULL;
	*out_nr = 0;
	if (!s || !s->db)
		return err_set(err, -EINVAL, "the results store is not open");
	ret = store_prepare(s, s->has_origin ? sql_list_origin : sql_list, &st,
			    err);
	if (ret)
		return ret;
	sqlite3_bind_int64(st, 1,
			   limit && limit < LLONG_MAX ? (long long)limit : -1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct exp_summary *e;

		ALLOC_GROW(list, nr + 1, alloc);
		e = &list[nr++];
		/* a hand-edited id is cut to the length of ours */
		e->id = xstrndup(store_col_str(st, 0), STORE_ID_LEN);
		e->created = xstrdup(store_col_str(st, 1));
		e->workload = xstrdup(store_col_str(st, 2));
		e->target = xstrdup(store_col_str(st, 3));
		e->metric = xstrdup(store_col_str(st, 4));
		e->arms = xstrdup(store_col_str(st, 5));
		e->host = xstrdup(store_col_str(st, 6));
		e->kernel = xstrdup(store_col_str(st, 7));
		e->verdicts = xstrdup(store_col_str(st, 8));
		e->origin = s->has_origin ? origin_of(store_col_str(st, 10))
					  : EXP_ORIGIN_LOCAL;
		/* for log_text.c to render its verdicts again */
		e->json = sqlite3_column_type(st, 9) != SQLITE_NULL
			      ? xstrdup(store_col_str(st, 9))
			      : NULL;
		make_printable(e);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_summaries_free(list, nr);
		return store_db_fail(s, rc, "list the store", err);
	}
	*out_list = list;
	*out_nr = nr;
	return 0;
}

void store_summaries_free(struct exp_summary *list, size_t nr)
{
	size_t i;

	for (i = 0; list && i < nr; i++) {
		free(list[i].id);
		free(list[i].created);
		free(list[i].workload);
		free(list[i].target);
		free(list[i].metric);
		free(list[i].arms);
		free(list[i].host);
		free(list[i].kernel);
		free(list[i].verdicts);
		free(list[i].json);
	}
	free(list);
}
