/*
 * The SQLite results store (store.h). Two rules shape this file.
 *
 * First, never damage a file that is not ours. `--db` is typed by hand,
 * so it will one day point at a log file or another program's database.
 * Before any statement that writes, the file's first bytes must be
 * SQLite's magic, and the database must carry our application_id (or be
 * completely empty), with a schema version we know. Anything else is
 * refused with a sentence that says what the file is.
 *
 * Second, a killed process must leave a consistent store. WAL mode and
 * one transaction per saved experiment give that for free; we only have
 * to never split an experiment across transactions.
 *
 * All SQL lives in static strings with bound parameters; nothing a user
 * typed is ever pasted into SQL text.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <sqlite3.h>
#include "store.h"
#include "store-int.h"
#include "../../util/error.h"
#include "../../util/userfile.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* How long a writer waits for another process's transaction. */
#define STORE_BUSY_TIMEOUT_MS 10000

/*
 * The schema, version 1. The application_id below is
 * STORE_APPLICATION_ID (0x696f7472) in decimal; test_store checks that
 * they agree.
 */
static const char sql_schema[] =
    "CREATE TABLE IF NOT EXISTS experiments ("
    " id TEXT PRIMARY KEY NOT NULL,"
    " created TEXT NOT NULL,"
    " workload TEXT NOT NULL,"
    " target TEXT NOT NULL,"
    " metric TEXT NOT NULL,"
    " arms TEXT NOT NULL,"
    " host TEXT NOT NULL,"
    " kernel TEXT NOT NULL,"
    " verdicts TEXT NOT NULL,"
    " json TEXT NOT NULL,"
    " origin TEXT NOT NULL DEFAULT 'local');"
    "CREATE INDEX IF NOT EXISTS experiments_created"
    " ON experiments(created);"
    "CREATE INDEX IF NOT EXISTS experiments_workload"
    " ON experiments(workload);"
    "CREATE TABLE IF NOT EXISTS runs ("
    " experiment TEXT NOT NULL"
    "  REFERENCES experiments(id) ON DELETE CASCADE,"
    " arm INTEGER NOT NULL,"
    " block INTEGER,"
    " seq INTEGER NOT NULL,"
    " metric REAL NOT NULL,"
    " json TEXT);"
    "CREATE INDEX IF NOT EXISTS runs_experiment ON runs(experiment, arm);"
    "PRAGMA application_id = 1768911986;"
    "PRAGMA user_version = 1;";

static const char sql_app_id[] = "PRAGMA application_id";
static const char sql_user_version[] = "PRAGMA user_version";
static const char sql_first_object[] =
    "SELECT type, name FROM sqlite_master ORDER BY rowid LIMIT 1";
static const char sql_our_tables[] =
    "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
    " AND name IN ('experiments', 'runs')";
static const char sql_begin[] = STORE_SQL_BEGIN;
static const char sql_commit[] = STORE_SQL_COMMIT;
static const char sql_rollback[] = STORE_SQL_ROLLBACK;
static const char sql_wal[] = "PRAGMA journal_mode = WAL";
static const char sql_settings[] = "PRAGMA foreign_keys = ON;"
				   "PRAGMA synchronous = NORMAL";
static const char sql_has_origin[] =
    "SELECT count(*) FROM pragma_table_info('experiments')"
    " WHERE name = 'origin'";
static const char sql_add_origin[] =
    "ALTER TABLE experiments ADD COLUMN origin TEXT NOT NULL"
    " DEFAULT 'local'";
/* Map a SQLite result code to the -errno our callers expect. */
static int sqlite_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EINVAL;
	default:
		return -EIO;
	}
}

/*
 * SQLite's message for rc on db (may be NULL), and the system's reason
 * when it has one: "disk I/O error" alone does not say that the disk is
 * full. *code gets the -errno to return.
 */
static void db_reason(sqlite3 *db, int rc, struct strbuf *out, int *code)
{
	int sys = db ? sqlite3_system_errno(db) : 0;

	*code = sqlite_errno(rc);
	strbuf_addstr(out, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	if (sys > 0 && (rc & 0xff) != SQLITE_BUSY &&
	    (rc & 0xff) != SQLITE_LOCKED) {
		strbuf_addf(out, " (%s)", strerror(sys));
		if (sys == ENOSPC || sys == EDQUOT)
			*code = -ENOSPC;
	}
}

int store_db_fail(struct store *s, int rc, const char *what, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	int code;

	db_reason(s->db, rc, &why, &code);
	err_set(err, code, "cannot %s in '%s': %s", what, s->path, why.buf);
	strbuf_release(&why);
	return code;
}

int store_prepare(struct store *s, const char *sql, sqlite3_stmt **out,
		  struct strbuf *err)
{
	int rc = sqlite3_prepare_v2(s->db, sql, -1, out, NULL);

	if (rc != SQLITE_OK)
		return store_db_fail(s, rc, "read the store", err);
	return 0;
}

int store_query_int(struct store *s, const char *sql, long long *out,
		    struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc, ret;

	ret = store_prepare(s, sql, &st, err);
	if (ret)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	else
		ret = store_db_fail(s, rc, "read the store", err);
	sqlite3_finalize(st);
	return ret;
}

const char *store_col_str(sqlite3_stmt *st, int col)
{
	const unsigned char *v = sqlite3_column_text(st, col);

	return v ? (const char *)v : "";
}

int store_default_path(struct strbuf *out, struct strbuf *err)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	strbuf_reset(out);
	if (xdg && xdg[0] == '/') {
		strbuf_addf(out, "%s/iotrial/results.db", xdg);
		return 0;
	}
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(getuid());

		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || home[0] != '/')
		return err_set(err, -EINVAL,
			       "cannot find the results store: neither "
			       "XDG_DATA_HOME nor HOME is set; give --db PATH");
	strbuf_addf(out, "%s/.local/share/iotrial/results.db", home);
	return 0;
}

/*
 * mkdir -p of the directory part of path. *made_len gets the length of
 * the shortest directory it created (0: none), for undo_create().
 * Returns 0 or -errno.
 */
static int make_parents(const char *path, size_t *made_len, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	char *slash;
	size_t i;
	int ret = 0;

	*made_len = 0;

	strbuf_addstr(&dir, path);
	slash = strrchr(dir.buf, '/');
	if (!slash || slash == dir.buf)
		goto out;
	strbuf_setlen(&dir, (size_t)(slash - dir.buf));
	for (i = 1; i <= dir.len && !ret; i++) {
		if (i < dir.len && dir.buf[i] != '/')
			continue;
		dir.buf[i] = '\0';
		if (!mkdir(dir.buf, 0755)) {
			if (!*made_len)
				*made_len = i;
		} else if (errno != EEXIST) {
			ret = err_set(err, -errno,
				      "cannot create directory '%s' for the "
				      "results store: %s",
				      dir.buf, strerror(errno));
		}
		if (i < dir.len)
			dir.buf[i] = '/';
	}
out:
	strbuf_release(&dir);
	return ret;
}

/*
 * Look at path before SQLite does. *out_exists is set when there is a
 * file with content to protect. Returns -EINVAL for a directory or a
 * file that does not start with SQLite's magic string.
 */
static int check_file(const char *path, bool *out_exists, struct strbuf *err)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat stbuf;
	ssize_t n;
	int fd;

	*out_exists = false;
	if (stat(path, &stbuf)) {
		/* a link to nothing: a store made through it would land
		 * where the link says, not where --db does */
		if (errno == ENOENT && !lstat(path, &stbuf) &&
		    S_ISLNK(stbuf.st_mode))
			return err_set(err, -EINVAL,
				       "'%s' is a symbolic link to nothing; "
				       "iotrial makes no results store "
				       "through it: give the path itself",
				       path);
		if (errno == ENOENT)
			return 0;
		return err_set(err, -errno,
			       "cannot use '%s' as the results store: %s", path,
			       strerror(errno));
	}
	if (S_ISDIR(stbuf.st_mode))
		return err_set(err, -EINVAL,
			       "'%s' is a directory, not a results store; give "
			       "a file path such as '%s/results.db'",
			       path, path);
	/* a FIFO or a device: opening it would wait, reading never end */
	if (!S_ISREG(stbuf.st_mode))
		return err_set(err, -EINVAL,
			       "'%s' is %s, not a results store; give a file "
			       "path",
			       path, userfile_kind(stbuf.st_mode));
	if (stbuf.st_size == 0)
		return 0; /* an empty file: SQLite makes it a new database */
	*out_exists = true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "cannot read '%s': %s", path,
			       strerror(errno));
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n != (ssize_t)sizeof(head) || memcmp(head, magic, sizeof(head)))
		return err_set(err, -EINVAL,
			       "'%s' is not an iotrial results store (not an "
			       "SQLite database); iotrial left it untouched; "
			       "give another --db",
			       path);
	return 0;
}

/*
 * Is the open database ours? Sets *out_fresh when it is empty and may be
 * made ours. Refuses (-EINVAL) other programs' databases and newer
 * schemas. Reads only.
 */
static int check_ours(struct store *s, bool *out_fresh, struct strbuf *err)
{
	long long app_id, version, tables;
	sqlite3_stmt *st;
	int ret, rc;

	*out_fresh = false;
	ret = store_query_int(s, sql_app_id, &app_id, err);
	if (!ret)
		ret = store_query_int(s, sql_user_version, &version, err);
	if (ret == -EINVAL)
		return err_set(err, -EINVAL,
			       "'%s' is a damaged SQLite database, not a "
			       "usable results store; iotrial left it "
			       "untouched; give another --db",
			       s->path);
	if (ret)
		return ret;
	if (app_id == STORE_APPLICATION_ID) {
		if (version > STORE_SCHEMA_VERSION)
			return err_set(err, -EINVAL,
				       "'%s' was written by a newer iotrial "
				       "(store schema %lld; this one reads up "
				       "to %d); upgrade iotrial or give "
				       "another --db",
				       s->path, version, STORE_SCHEMA_VERSION);
		ret = store_query_int(s, sql_our_tables, &tables, err);
		if (ret)
			return ret;
		if (version < 1 || tables < 2)
			*out_fresh = true; /* killed while being created */
		return 0;
	}
	if (app_id != 0)
		return err_set(err, -EINVAL,
			       "'%s' is another program's SQLite database "
			       "(application_id 0x%08llx, iotrial's is "
			       "0x%08x); iotrial left it untouched; give "
			       "another --db",
			       s->path, (unsigned long long)app_id & 0xffffffff,
			       STORE_APPLICATION_ID);
	ret = store_prepare(s, sql_first_object, &st, err);
	if (ret)
		return ret;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		ret = err_set(err, -EINVAL,
			      "'%s' is an SQLite database but not an iotrial "
			      "results store (it has %s '%s'); iotrial left "
			      "it untouched; give another --db",
			      s->path, store_col_str(st, 0),
			      store_col_str(st, 1));
	else if (rc == SQLITE_DONE)
		*out_fresh = true;
	else
		ret = store_db_fail(s, rc, "read the store", err);
	sqlite3_finalize(st);
	return ret;
}

int store_exec(struct store *s, const char *sql, const char *what,
	       struct strbuf *err)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : store_db_fail(s, rc, what, err);
}

/*
 * Create our tables in an empty database, in one transaction, checking
 * again under the write lock: another process may have been faster.
 */
static int init_schema(struct store *s, struct strbuf *err)
{
	bool fresh;
	int ret;

	ret = store_exec(s, sql_begin, "start a transaction", err);
	if (ret)
		return ret;
	ret = check_ours(s, &fresh, err);
	if (!ret && fresh)
		ret =
		    store_exec(s, sql_schema, "create the store's tables", err);
	if (!ret)
		ret =
		    store_exec(s, sql_commit, "create the store's tables", err);
	if (ret)
		sqlite3_exec(s->db, sql_rollback, NULL, NULL, NULL);
	return ret;
}

/*
 * Give a store made before origins were kept its origin column (every
 * experiment in it counts as local), under the write lock, checking
 * again there. A store that cannot be written (opened by a reader
 * without the right) is used without it: s->has_origin stays 0 and
 * loading falls back to the objects' own member. Returns 0 or -errno.
 */
static int ensure_origin(struct store *s, struct strbuf *err)
{
	long long n;
	int ret, rc;

	ret = store_query_int(s, sql_has_origin, &n, err);
	if (ret || n) {
		s->has_origin = !ret;
		return ret;
	}
	if (sqlite3_db_readonly(s->db, "main") == 1)
		return 0;
	rc = sqlite3_exec(s->db, sql_begin, NULL, NULL, NULL);
	if ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN)
		return 0;
	if (rc != SQLITE_OK)
		return store_db_fail(s, rc, "start a transaction", err);
	ret = store_query_int(s, sql_has_origin, &n, err);
	if (!ret && !n) {
		rc = sqlite3_exec(s->db, sql_add_origin, NULL, NULL, NULL);
		if ((rc & 0xff) == SQLITE_READONLY) {
			sqlite3_exec(s->db, sql_rollback, NULL, NULL, NULL);
			return 0;
		}
		if (rc != SQLITE_OK)
			ret =
			    store_db_fail(s, rc, "add the origin column", err);
	}
	if (!ret)
		ret = store_exec(s, sql_commit, "add the origin column", err);
	if (ret) {
		sqlite3_exec(s->db, sql_rollback, NULL, NULL, NULL);
		return ret;
	}
	s->has_origin = 1;
	return 0;
}

/*
 * Claim path for a new store: create it empty, refusing to follow a link
 * or to take a file someone else made meanwhile. Returns 1 when we made
 * it, 0 when it was there already, or -errno.
 */
static int create_file(const char *path, struct strbuf *err)
{
	int fd = open(
	    path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno == EEXIST)
		return 0;
	return err_set(err, -errno, "cannot create the results store '%s': %s",
		       path, strerror(errno));
}

/*
 * A store we began to create failed: remove the file when we made it
 * (with SQLite's files next to it) and the directories we made for it
 * (made_len from make_parents()), so that a full disk or a refused write
 * leaves nothing behind.
 */
static void undo_create(const char *path, int made_file, size_t made_len)
{
	static const char *const sfx[] = {"-wal", "-shm", "-journal"};
	struct strbuf p = STRBUF_INIT;
	char *slash;
	size_t i;

	if (made_file) {
		unlink(path);
		for (i = 0; i < ARRAY_SIZE(sfx); i++) {
			strbuf_setf(&p, "%s%s", path, sfx[i]);
			unlink(p.buf);
		}
	}
	strbuf_setf(&p, "%s", path);
	while (made_len && (slash = strrchr(p.buf, '/')) &&
	       (size_t)(slash - p.buf) >= made_len) {
		strbuf_setlen(&p, (size_t)(slash - p.buf));
		if (rmdir(p.buf))
			break;
	}
	strbuf_release(&p);
}

/*
 * Can the store at path be written here? SQLite writes beside it (its
 * -wal and -shm files), so its directory must be writable too. 0, or
 * -EROFS (a read-only mount) or -EACCES and the like.
 */
static int place_writable(const char *path)
{
	struct strbuf dir = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	struct statvfs vfs;
	int ret = 0;

	if (!statvfs(path, &vfs) && (vfs.f_flag & ST_RDONLY))
		return -EROFS;
	if (access(path, W_OK))
		return -errno;
	if (!slash)
		strbuf_addch(&dir, '.');
	else
		strbuf_add(&dir, path,
			   slash == path ? 1 : (size_t)(slash - path));
	if (access(dir.buf, W_OK | X_OK))
		ret = -errno;
	strbuf_release(&dir);
	return ret;
}

/*
 * Open the store at path read-only, for a reader where nothing can be
 * written (a read-only mount, a directory of another user): as an
 * immutable file, since SQLite cannot make the -shm file a WAL store
 * needs to be read otherwise, unless a write-ahead log is there with
 * transactions in it (then it reads that, as a plain read-only open).
 */
static int open_read_only(struct store *s, const char *path)
{
	struct strbuf uri = STRBUF_INIT, wal = STRBUF_INIT;
	struct stat st;
	const char *p;
	int rc;

	strbuf_addstr(&uri, "file:");
	for (p = path; *p; p++) /* the URI's own characters, escaped */
		if (*p == '%' || *p == '?' || *p == '#' ||
		    (unsigned char)*p < 0x20)
			strbuf_addf(&uri, "%%%02X", (unsigned char)*p);
		else
			strbuf_addch(&uri, *p);
	strbuf_addf(&wal, "%s-wal", path);
	strbuf_addstr(&uri, !stat(wal.buf, &st) && st.st_size > 0
				? "?mode=ro"
				: "?immutable=1");
	rc = sqlite3_open_v2(uri.buf, &s->db,
			     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	strbuf_release(&uri);
	strbuf_release(&wal);
	return rc;
}

int store_open(struct store *s, const char *path, struct strbuf *err)
{
	return store_open_flags(s, path, 0, err);
}

int store_open_flags(struct store *s, const char *path, unsigned flags,
		     struct strbuf *err)
{
	struct strbuf def = STRBUF_INIT, why = STRBUF_INIT;
	bool exists, fresh;
	int ret, rc, oflags = SQLITE_OPEN_READWRITE, created = 0, rw = 0;
	size_t made_len = 0;

	memset(s, 0, sizeof(*s));
	if (!path) {
		ret = store_default_path(&def, err);
		if (ret)
			goto out;
		path = def.buf;
	}
	if (!*path) {
		ret = err_set(err, -EINVAL,
			      "the results store path is empty; give --db "
			      "PATH");
		goto out;
	}
	s->path = xstrdup(path);
	ret = check_file(path, &exists, err);
	if (ret)
		goto out;
	if (!access(path, F_OK))
		rw = place_writable(path);
	/* a reader makes nothing, not even in an empty file */
	if (!exists && (flags & STORE_NO_CREATE)) {
		ret = err_set(err, -ENOENT,
			      access(path, F_OK)
				  ? "there is no results store at '%s' yet; "
				    "'iotrial run', 'iotrial compare' and "
				    "'iotrial import' create it"
				  : "'%s' is an empty file, not a results "
				    "store yet; 'iotrial run', 'iotrial "
				    "compare' and 'iotrial import' make it one",
			      path);
		goto out;
	}
	if (exists && rw && !(flags & STORE_NO_CREATE)) {
		ret =
		    err_set(err, rw, "cannot write the results store '%s': %s",
			    path, strerror(-rw));
		goto out;
	}
	if (!exists) {
		ret = make_parents(path, &made_len, err);
		if (!ret) {
			created = create_file(path, err);
			ret = created < 0 ? created : 0;
		}
		if (ret)
			goto out;
		oflags |= SQLITE_OPEN_CREATE;
	}
	/* a reader where nothing can be written: the store as it is */
	if (exists && rw)
		rc = open_read_only(s, path);
	else
		rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
	if (rc != SQLITE_OK) {
		db_reason(s->db, rc, &why, &ret);
		err_set(err, ret, "cannot open the results store '%s': %s",
			path, why.buf);
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	ret = check_ours(s, &fresh, err);
	if (!ret && fresh && exists && rw)
		ret = err_set(err, -ENOENT,
			      "there is no results store at '%s' yet (an "
			      "empty database)",
			      path);
	else if (!ret && fresh)
		ret = init_schema(s, err);
	if (!ret)
		ret = ensure_origin(s, err);
	if (ret)
		goto out;
	/* not "wal" on filesystems without shared memory: still safe */
	if (!(exists && rw))
		ret =
		    store_exec(s, sql_wal, "switch the store to WAL mode", err);
	if (!ret)
		ret = store_exec(s, sql_settings, "configure the store", err);
out:
	if (ret) {
		store_close(s);
		undo_create(path, created > 0, made_len);
	}
	strbuf_release(&def);
	strbuf_release(&why);
	return ret;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->db)
		sqlite3_close_v2(s->db);
	s->db = NULL;
	free(s->path);
	s->path = NULL;
}
