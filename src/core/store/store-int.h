/*
 * Shared by store.c (opening), store_save.c (saving), store_read.c
 * (lookup, listing) and store_series.c (a series' tables):
 * SQLite error reporting and statement helpers. Not for other modules;
 * they use store.h.
 */
#ifndef IOTRIAL_STORE_INT_H
#define IOTRIAL_STORE_INT_H

#include <sqlite3.h>
#include "store.h"

/*
 * Fill err with "cannot WHAT in 'PATH': SQLite's message" and return the
 * -errno that matches SQLite result code rc (-EBUSY, -ENOSPC, -EACCES,
 * -ENOMEM, -EINVAL for a damaged file, else -EIO).
 */
int store_db_fail(struct store *s, int rc, const char *what,
		  struct strbuf *err);

/* Prepare a static statement into *out; 0 or -errno with err set. */
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **out,
		  struct strbuf *err);

/* Column col of the current row as a string; "" for NULL. Valid until
 * the next step or finalize. */
const char *store_col_str(sqlite3_stmt *st, int col);

/* Run a one-row integer query (a PRAGMA, a count) into *out; 0 or
 * -errno with err set. */
int store_query_int(struct store *s, const char *sql, long long *out,
		    struct strbuf *err);

/* Run a static statement without results; 0 or -errno with err set. */
int store_exec(struct store *s, const char *sql, const char *what,
	       struct strbuf *err);

/* The statements of a transaction (store_exec()). */
#define STORE_SQL_BEGIN	   "BEGIN IMMEDIATE"
#define STORE_SQL_COMMIT   "COMMIT"
#define STORE_SQL_ROLLBACK "ROLLBACK"

#endif
