/*
 * The series tables of the results store; see store_series.h. They are
 * made on the first write of a series (the migration of a store made
 * before series), so opening a store never changes it for them, and a
 * reader of a store without them sees no series.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sqlite3.h>
#include "store_series.h"
#include "store-int.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static const char sql_tables[] =
    "CREATE TABLE IF NOT EXISTS series ("
    " name TEXT PRIMARY KEY NOT NULL,"
    " created TEXT NOT NULL,"
    " argv TEXT NOT NULL,"
    " plan TEXT);"
    "CREATE TABLE IF NOT EXISTS series_runs ("
    " series TEXT NOT NULL REFERENCES series(name) ON DELETE CASCADE,"
    " grp INTEGER NOT NULL,"
    " iteration INTEGER NOT NULL,"
    " experiment TEXT NOT NULL"
    "  REFERENCES experiments(id) ON DELETE CASCADE,"
    " boot_id TEXT NOT NULL,"
    " kernel TEXT NOT NULL,"
    " build TEXT NOT NULL,"
    " tag TEXT NOT NULL,"
    " context TEXT,"
    " created TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS series_runs_series"
    " ON series_runs(series, grp, iteration);";
static const char sql_has_tables[] =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
    " AND name IN ('series', 'series_runs')";
static const char sql_define[] =
    "INSERT INTO series (name, created, argv) VALUES (?1, ?2, ?3)";
static const char sql_get[] = "SELECT argv, plan FROM series WHERE name = ?1";
static const char sql_set_plan[] =
    "UPDATE series SET plan = ?2 WHERE name = ?1";
static const char sql_next[] =
    "SELECT coalesce(max(grp), 0) + 1 FROM series_runs WHERE series = ?1";
static const char sql_add[] =
    "INSERT INTO series_runs (series, grp, iteration, experiment, boot_id,"
    " kernel, build, tag, context, created)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
static const char sql_rows[] =
    "SELECT grp, iteration, experiment, boot_id, kernel, build, tag,"
    " context, created FROM series_runs WHERE series = ?1"
    " ORDER BY grp, iteration";
static const char sql_names[] = "SELECT name FROM series ORDER BY created";

/* Now as "YYYY-MM-DDTHH:MM:SSZ" into buf. */
static void now_utc(char buf[32])
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Does the store have the series tables? */
static int has_tables(struct store *s, int *out, struct strbuf *err)
{
	long long n = 0;
	int ret = store_query_int(s, sql_has_tables, &n, err);

	*out = !ret && n == 2;
	return ret;
}

/* Make the series tables when missing: the migration. */
static int ensure_tables(struct store *s, struct strbuf *err)
{
	int have = 0, ret, rc;

	ret = has_tables(s, &have, err);
	if (ret || have)
		return ret;
	rc = sqlite3_exec(s->db, sql_tables, NULL, NULL, NULL);
	return rc == SQLITE_OK
		   ? 0
		   : store_db_fail(s, rc, "add the series tables", err);
}

/* Bind text values 1..n (NULL binds NULL). */
static int bind_texts(sqlite3_stmt *st, const char *const *v, int n)
{
	int i, rc = SQLITE_OK;

	for (i = 0; i < n && rc == SQLITE_OK; i++)
		rc = v[i] ? sqlite3_bind_text(st, i + 1, v[i], -1,
					      SQLITE_TRANSIENT)
			  : sqlite3_bind_null(st, i + 1);
	return rc;
}

/* Step a prepared write to its end; 0 or -errno. */
static int step_done(struct store *s, sqlite3_stmt *st, const char *what,
		     struct strbuf *err)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_db_fail(s, rc, what, err);
}

int store_series_define(struct store *s, const char *name, const char *argv,
			struct strbuf *err)
{
	char created[32];
	const char *v[3];
	sqlite3_stmt *st;
	int ret, rc;

	rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return store_db_fail(s, rc, "start a transaction", err);
	ret = ensure_tables(s, err);
	if (!ret)
		ret = store_series_get(s, name, NULL, NULL, err);
	if (!ret) {
		ret = err_set(err, -EEXIST,
			      "series '%s' is defined already; 'iotrial "
			      "series %s run' runs it",
			      name, name);
		goto out;
	}
	if (ret != -ENOENT)
		goto out;
	now_utc(created);
	v[0] = name;
	v[1] = created;
	v[2] = argv;
	ret = store_prepare(s, sql_define, &st, err);
	if (!ret) {
		rc = bind_texts(st, v, 3);
		if (rc != SQLITE_OK) {
			sqlite3_finalize(st);
			ret = store_db_fail(s, rc, "define the series", err);
		} else {
			ret = step_done(s, st, "define the series", err);
		}
	}
	if (!ret) {
		rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
		if (rc != SQLITE_OK)
			ret = store_db_fail(s, rc, "define the series", err);
	}
out:
	if (ret)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return ret;
}

int store_series_get(struct store *s, const char *name, char **out_argv,
		     char **out_plan, struct strbuf *err)
{
	sqlite3_stmt *st;
	int have = 0, ret, rc;

	ret = has_tables(s, &have, err);
	if (ret)
		return ret;
	if (!have)
		return err_set(err, -ENOENT,
			       "no series '%s' in '%s' (it has no series "
			       "yet); 'iotrial series %s --define -- "
			       "WORKLOAD ...' makes one",
			       name, s->path, name);
	ret = store_prepare(s, sql_get, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (out_argv)
			*out_argv = xstrdup(store_col_str(st, 0));
		if (out_plan)
			*out_plan = sqlite3_column_type(st, 1) == SQLITE_NULL
					? NULL
					: xstrdup(store_col_str(st, 1));
	} else if (rc == SQLITE_DONE) {
		ret = err_set(err, -ENOENT,
			      "no series '%s' in '%s'; 'iotrial series %s "
			      "--define -- WORKLOAD ...' makes one",
			      name, s->path, name);
	} else {
		ret = store_db_fail(s, rc, "read the series", err);
	}
	sqlite3_finalize(st);
	return ret;
}

int store_series_set_plan(struct store *s, const char *name, const char *plan,
			  struct strbuf *err)
{
	const char *v[2] = {name, plan};
	sqlite3_stmt *st;
	int ret = store_prepare(s, sql_set_plan, &st, err);

	if (ret)
		return ret;
	bind_texts(st, v, 2);
	return step_done(s, st, "save the series' plan", err);
}

int store_series_next_group(struct store *s, const char *name, int *out_grp,
			    struct strbuf *err)
{
	sqlite3_stmt *st;
	int ret, rc;

	ret = store_prepare(s, sql_next, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out_grp = sqlite3_column_int(st, 0);
	else
		ret = store_db_fail(s, rc, "read the series", err);
	sqlite3_finalize(st);
	return ret;
}

int store_series_add(struct store *s, const char *name, int grp, int iteration,
		     const char *exp_id, const struct series_tags *tags,
		     struct strbuf *err)
{
	char created[32];
	sqlite3_stmt *st;
	int ret;

	ret = store_prepare(s, sql_add, &st, err);
	if (ret)
		return ret;
	now_utc(created);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, grp);
	sqlite3_bind_int(st, 3, iteration);
	{
		const char *v[] = {exp_id,	tags->boot_id, tags->kernel,
				   tags->build, tags->tag,     tags->context,
				   created};
		int i;

		for (i = 0; i < 7; i++)
			if (v[i])
				sqlite3_bind_text(st, 4 + i, v[i], -1,
						  SQLITE_TRANSIENT);
			else if (i == 5)
				sqlite3_bind_null(st, 4 + i);
			else
				sqlite3_bind_text(st, 4 + i, "", -1,
						  SQLITE_STATIC);
	}
	return step_done(s, st, "record the series' iteration", err);
}

int store_series_rows(struct store *s, const char *name,
		      struct series_row **out, size_t *out_nr,
		      struct strbuf *err)
{
	struct series_row *rows = NULL;
	size_t nr = 0, alloc = 0;
	sqlite3_stmt *st;
	int have = 0, ret, rc;

	*out = NULL;
	*out_nr = 0;
	ret = has_tables(s, &have, err);
	if (ret || !have)
		return ret;
	ret = store_prepare(s, sql_rows, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct series_row *r;

		ALLOC_GROW(rows, nr + 1, alloc);
		r = &rows[nr++];
		r->grp = sqlite3_column_int(st, 0);
		r->iteration = sqlite3_column_int(st, 1);
		r->experiment = xstrdup(store_col_str(st, 2));
		r->boot_id = xstrdup(store_col_str(st, 3));
		r->kernel = xstrdup(store_col_str(st, 4));
		r->build = xstrdup(store_col_str(st, 5));
		r->tag = xstrdup(store_col_str(st, 6));
		r->context = xstrdup(store_col_str(st, 7));
		r->created = xstrdup(store_col_str(st, 8));
		/* the store is not trusted: what is printed is printable */
		text_make_printable(r->boot_id);
		text_make_printable(r->kernel);
		text_make_printable(r->build);
		text_make_printable(r->tag);
	}
	if (rc != SQLITE_DONE)
		ret = store_db_fail(s, rc, "read the series", err);
	sqlite3_finalize(st);
	if (ret) {
		store_series_rows_free(rows, nr);
		return ret;
	}
	*out = rows;
	*out_nr = nr;
	return 0;
}

void store_series_rows_free(struct series_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(rows[i].experiment);
		free(rows[i].boot_id);
		free(rows[i].kernel);
		free(rows[i].build);
		free(rows[i].tag);
		free(rows[i].context);
		free(rows[i].created);
	}
	free(rows);
}

int store_series_names(struct store *s, char ***out, struct strbuf *err)
{
	char **names = NULL;
	size_t nr = 0, alloc = 0;
	sqlite3_stmt *st;
	int have = 0, ret, rc;

	ret = has_tables(s, &have, err);
	if (ret)
		return ret;
	if (have) {
		ret = store_prepare(s, sql_names, &st, err);
		if (ret)
			return ret;
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			ALLOC_GROW(names, nr + 1, alloc);
			names[nr++] = xstrdup(store_col_str(st, 0));
		}
		if (rc != SQLITE_DONE)
			ret = store_db_fail(s, rc, "read the series", err);
		sqlite3_finalize(st);
	}
	ALLOC_GROW(names, nr + 1, alloc);
	names[nr] = NULL;
	*out = names;
	return ret;
}
