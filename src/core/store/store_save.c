/*
 * Saving an experiment in the results store (store.h): its id, one row
 * for the experiment with the columns `log` lists (its text as the
 * caller rendered it: log_columns_of()), one row per run, all
 * in one transaction, so that a killed process leaves the store as it
 * was or with the whole experiment. Opening and the schema are store.c's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <sqlite3.h>
#include "store.h"
#include "store-int.h"
#include "../report/expjson.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/banned.h"

static const char sql_id_taken[] = "SELECT 1 FROM experiments WHERE id = ?1";
static const char sql_insert_exp[] =
    "INSERT INTO experiments (id, created, workload, target, metric,"
    " arms, host, kernel, verdicts, json)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
static const char sql_insert_exp_origin[] =
    "INSERT INTO experiments (id, created, workload, target, metric,"
    " arms, host, kernel, verdicts, json, origin)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
static const char sql_insert_run[] =
    "INSERT INTO runs (experiment, arm, block, seq, metric, json)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/* Is id exactly STORE_ID_LEN lowercase hex digits? */
static bool valid_id(const char *id)
{
	size_t i;

	for (i = 0; i < STORE_ID_LEN; i++)
		if (!((id[i] >= '0' && id[i] <= '9') ||
		      (id[i] >= 'a' && id[i] <= 'f')))
			return false;
	return id[STORE_ID_LEN] == '\0';
}

/* Is id already in the store? 1, 0 or -errno. */
static int id_taken(struct store *s, const char *id, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc, ret;

	ret = store_prepare(s, sql_id_taken, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	ret = rc == SQLITE_ROW	  ? 1
	      : rc == SQLITE_DONE ? 0
				  : store_db_fail(s, rc, "read the store", err);
	sqlite3_finalize(st);
	return ret;
}

/* Pick the id to save under: exp's own when free, else a random one. */
static int choose_id(struct store *s, struct json_object *exp,
		     char out[STORE_ID_LEN + 1], struct strbuf *err)
{
	const char *want = expjson_str(exp, "id");
	struct rng r;
	int tries, ret;

	if (valid_id(want)) {
		ret = id_taken(s, want, err);
		if (ret <= 0) {
			if (!ret)
				memcpy(out, want, STORE_ID_LEN + 1);
			return ret;
		}
	}
	rng_seed(&r, rng_seed_from_env());
	for (tries = 0; tries < 100; tries++) {
		uint32_t v;

		if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
			v = (uint32_t)rng_next(&r);
		snprintf(out, STORE_ID_LEN + 1, "%08x", v);
		ret = id_taken(s, out, err);
		if (ret <= 0)
			return ret;
	}
	return err_set(err, -EEXIST, "cannot find a free experiment id in '%s'",
		       s->path);
}

/* Insert one row per run of exp under id. */
static int save_runs(struct store *s, const char *id, struct json_object *exp,
		     struct strbuf *err)
{
	struct json_object *runs =
	    expjson_get_type(exp, "runs", json_type_array);
	size_t i, n = json_object_array_length(runs);
	sqlite3_stmt *st;
	int ret, rc;

	ret = store_prepare(s, sql_insert_run, &st, err);
	if (ret)
		return ret;
	for (i = 0; i < n && !ret; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);
		struct json_object *block, *seq, *metric, *run;

		block = expjson_get_type(r, "block", json_type_int);
		seq = expjson_get_type(r, "seq", json_type_int);
		metric = expjson_get(r, "metric");
		run = expjson_get_type(r, "run", json_type_object);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2,
				 json_object_get_int(expjson_get_type(
				     r, "arm", json_type_int)));
		if (block && json_object_get_int(block) >= 0)
			sqlite3_bind_int(st, 3, json_object_get_int(block));
		else
			sqlite3_bind_null(st, 3);
		sqlite3_bind_int64(
		    st, 4, seq ? json_object_get_int64(seq) : (long long)i);
		sqlite3_bind_double(st, 5, json_object_get_double(metric));
		if (run)
			sqlite3_bind_text(st, 6,
					  json_object_to_json_string_ext(
					      run, JSON_C_TO_STRING_PLAIN),
					  -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(st, 6);
		rc = sqlite3_step(st);
		if (rc != SQLITE_DONE)
			ret = store_db_fail(s, rc, "save a run", err);
	}
	sqlite3_finalize(st);
	return ret;
}

/* Insert the experiment row; exp's "id" and "created" are set already. */
static int save_row(struct store *s, const char *id, struct json_object *exp,
		    const struct log_columns *cols, struct strbuf *err)
{
	struct json_object *env = expjson_env(exp);
	sqlite3_stmt *st;
	int ret, rc;

	ret = store_prepare(
	    s, s->has_origin ? sql_insert_exp_origin : sql_insert_exp, &st,
	    err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, expjson_str(exp, "created"), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, expjson_str(exp, "workload"), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 4, expjson_target(exp), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5,
			  expjson_str(expjson_get(exp, "metric"), "name"), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 6, cols->arms.buf, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, expjson_str(env, "hostname"), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 8, expjson_str(env, "kernel_release"), -1,
			  SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 9, cols->verdicts.buf, -1, SQLITE_STATIC);
	sqlite3_bind_text(
	    st, 10,
	    json_object_to_json_string_ext(
		exp, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
	    -1, SQLITE_TRANSIENT);
	if (s->has_origin)
		sqlite3_bind_text(st, 11, expjson_origin(exp), -1,
				  SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		ret = store_db_fail(s, rc, "save the experiment", err);
	sqlite3_finalize(st);
	return ret;
}

/* Now in UTC, ISO 8601: "2026-11-29T22:58:00Z". */
static void utc_now(char out[32])
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int store_save_experiment(struct store *s, struct json_object *exp,
			  const struct log_columns *cols,
			  char out_id[STORE_ID_LEN + 1], struct strbuf *err)
{
	struct json_object *old_id = NULL;
	char created[32];
	bool had_created, had_origin;
	int ret;

	if (!s || !s->db)
		return err_set(err, -EINVAL, "the results store is not open");
	if (!exp || !expjson_get_type(exp, "arms", json_type_array) ||
	    !expjson_get_type(exp, "runs", json_type_array))
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (it needs "
			       "'arms' and 'runs' arrays)");
	ret = store_exec(s, STORE_SQL_BEGIN, "start a transaction", err);
	if (ret)
		return ret;
	ret = choose_id(s, exp, out_id, err);
	if (ret)
		goto fail;
	if (json_object_object_get_ex(exp, "id", &old_id))
		json_object_get(old_id);
	json_object_object_add(exp, "id", json_object_new_string(out_id));
	had_created = *expjson_str(exp, "created") != '\0';
	if (!had_created) {
		utc_now(created);
		json_object_object_add(exp, "created",
				       json_object_new_string(created));
	}
	had_origin = expjson_get(exp, "origin") != NULL;
	/* the column and the member agree: "imported" for a value that is
	 * none of ours */
	expjson_set_origin(exp, expjson_origin(exp));
	ret = save_row(s, out_id, exp, cols, err);
	if (!ret)
		ret = save_runs(s, out_id, exp, err);
	if (!ret)
		ret =
		    store_exec(s, STORE_SQL_COMMIT, "save the experiment", err);
	if (!ret) {
		json_object_put(old_id);
		return 0;
	}
	/* put exp back the way the caller gave it */
	if (old_id)
		json_object_object_add(exp, "id", old_id);
	else
		json_object_object_del(exp, "id");
	if (!had_created)
		json_object_object_del(exp, "created");
	if (!had_origin)
		json_object_object_del(exp, "origin");
fail:
	sqlite3_exec(s->db, STORE_SQL_ROLLBACK, NULL, NULL, NULL);
	return ret;
}

int store_save(const char *db, struct json_object *exp,
	       const struct log_columns *cols, char out_id[STORE_ID_LEN + 1],
	       struct strbuf *err)
{
	struct store s;
	int ret = store_open(&s, db, err);

	if (!ret)
		ret = store_save_experiment(&s, exp, cols, out_id, err);
	store_close(&s);
	if (ret)
		out_id[0] = '\0';
	return ret;
}
