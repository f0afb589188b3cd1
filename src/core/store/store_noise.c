/*
 * The noise table of the results store; see store_noise.h. Like the
 * series tables it is made on its first write, so opening a store never
 * changes it.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <sqlite3.h>
#include "store_noise.h"
#include "store-int.h"
#include "../../util/error.h"
#include "../../util/banned.h"

static const char sql_table[] =
    "CREATE TABLE IF NOT EXISTS noise ("
    " experiment TEXT NOT NULL"
    "  REFERENCES experiments(id) ON DELETE CASCADE,"
    " created TEXT NOT NULL,"
    " key TEXT NOT NULL,"
    " run_ms INTEGER NOT NULL,"
    " blocks INTEGER NOT NULL,"
    " log_ratio_sd REAL NOT NULL,"
    " block_s REAL NOT NULL);"
    "CREATE INDEX IF NOT EXISTS noise_key ON noise(key, run_ms, created);";
static const char sql_has_table[] =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
    " AND name = 'noise'";
static const char sql_add[] =
    "INSERT INTO noise (experiment, created, key, run_ms, blocks,"
    " log_ratio_sd, block_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
static const char sql_get[] =
    "SELECT blocks, log_ratio_sd, block_s FROM noise WHERE key = ?1"
    " AND run_ms = ?3 ORDER BY created DESC, rowid DESC LIMIT ?2";
static const char sql_lengths[] =
    "SELECT DISTINCT run_ms FROM noise WHERE key = ?1 AND run_ms > 0"
    " ORDER BY run_ms LIMIT ?2";

int store_noise_add(struct store *s, const char *exp_id, const char *key,
		    const struct noise_row *row, struct strbuf *err)
{
	char created[32];
	time_t t = time(NULL);
	struct tm tm;
	sqlite3_stmt *st;
	int ret, rc;

	if (!row->blocks || !isfinite(row->log_ratio_sd) ||
	    !isfinite(row->block_s))
		return 0; /* nothing to learn from */
	rc = sqlite3_exec(s->db, sql_table, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return store_db_fail(s, rc, "add the noise table", err);
	gmtime_r(&t, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ret = store_prepare(s, sql_add, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, exp_id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, created, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, (sqlite3_int64)llround(row->run_s * 1000));
	sqlite3_bind_int(st, 5, (int)row->blocks);
	sqlite3_bind_double(st, 6, row->log_ratio_sd);
	sqlite3_bind_double(st, 7, row->block_s);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0
				 : store_db_fail(s, rc, "save the noise", err);
}

int store_noise_get(struct store *s, const char *key, double run_s,
		    struct noise_model *out, struct strbuf *err)
{
	double ss = 0, df = 0, secs = 0;
	long long have = 0;
	sqlite3_stmt *st;
	int ret, rc;

	memset(out, 0, sizeof(*out));
	out->run_s = run_s;
	ret = store_query_int(s, sql_has_table, &have, err);
	if (ret || !have)
		return ret;
	ret = store_prepare(s, sql_get, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, STORE_NOISE_POOL);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)llround(run_s * 1000));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int n = sqlite3_column_int(st, 0);
		double sd = sqlite3_column_double(st, 1);

		if (n < 2 || !isfinite(sd))
			continue;
		out->experiments++;
		out->blocks += (unsigned)n;
		ss += (n - 1) * sd * sd;
		df += n - 1;
		secs += n * sqlite3_column_double(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_fail(s, rc, "read the noise", err);
	if (df > 0) {
		out->log_ratio_sd = sqrt(ss / df);
		out->block_s = secs / out->blocks;
	}
	return 0;
}

int store_noise_lengths(struct store *s, const char *key,
			struct noise_model *out, unsigned *nr,
			struct strbuf *err)
{
	double ms[STORE_NOISE_LENGTHS];
	long long have = 0;
	unsigned n = 0, i;
	sqlite3_stmt *st;
	int ret, rc;

	*nr = 0;
	ret = store_query_int(s, sql_has_table, &have, err);
	if (ret || !have)
		return ret;
	ret = store_prepare(s, sql_lengths, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 2, STORE_NOISE_LENGTHS);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < STORE_NOISE_LENGTHS)
		ms[n++] = (double)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return store_db_fail(s, rc, "read the noise", err);
	for (i = 0; i < n && !ret; i++) {
		ret = store_noise_get(s, key, ms[i] / 1000, &out[*nr], err);
		if (!ret && out[*nr].experiments)
			(*nr)++;
	}
	return ret;
}
