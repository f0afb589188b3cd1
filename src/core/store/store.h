/*
 * The results store: every experiment iotrial runs or imports is kept in
 * one SQLite file, so `log`, `show` and `diff` can answer questions about
 * it later ("was it faster before the kernel upgrade?").
 *
 * The file is ours only if it says so: PRAGMA application_id holds
 * STORE_APPLICATION_ID and PRAGMA user_version the schema version. A file
 * that is not SQLite, is another program's database, or was written by a
 * newer iotrial is refused before anything is written to it. The store
 * runs in WAL mode, and every save is one transaction, so a process
 * killed at any moment leaves a consistent database behind.
 *
 * The whole experiment (model/experiment_doc.h) is kept as JSON text; a few
 * of its members are copied into indexed columns for listing and lookup,
 * and each run gets a row of its own. The "origin" column (one of
 * model/experiment_doc.h's EXP_ORIGIN_*) was added after schema 1 was
 * first written: opening a store without it adds it, every experiment
 * it held counting as local, and the schema version stays 1, so an
 * older iotrial still reads it.
 */
#ifndef IOTRIAL_STORE_H
#define IOTRIAL_STORE_H

#include <stddef.h>
#include "../model/experiment_doc.h"
#include "../report/log_text.h"
#include "../../util/strbuf.h"

/* "iotr" in ASCII: marks a SQLite file as an iotrial results store. */
#define STORE_APPLICATION_ID 0x696f7472
/* The schema this code writes; files with a higher version are refused. */
#define STORE_SCHEMA_VERSION 1
/* Experiment ids are this many lowercase hex digits. */
#define STORE_ID_LEN 8

struct sqlite3;

/* An open store. */
struct store {
	struct sqlite3 *db; /* NULL when closed */
	char *path;	    /* the file, as opened */
	int has_origin;	    /* the experiments table has its origin column
			       (a store made before it, opened read-only,
			       may lack it) */
};

/*
 * The default store path: $XDG_DATA_HOME/iotrial/results.db, or
 * ~/.local/share/iotrial/results.db when XDG_DATA_HOME is unset, empty
 * or relative (the XDG rule). Replaces out's contents. Returns 0, or
 * -EINVAL with err set when neither variable nor a home directory is
 * known.
 */
int store_default_path(struct strbuf *out, struct strbuf *err);

/*
 * Open the store at path (NULL: store_default_path()), creating it and
 * its parent directories when missing. Returns 0, or -errno with err set:
 * -EINVAL when the file exists but is not an iotrial store (not SQLite,
 * another program's database) or has a newer schema; the file is then
 * left exactly as it was. Other codes are I/O failures. On failure s is
 * closed (store_close() is still allowed).
 */
int store_open(struct store *s, const char *path, struct strbuf *err);

/* store_open() flags. */
enum store_open_flags {
	STORE_NO_CREATE = 1 << 0, /* a missing store is -ENOENT, not made */
};

/*
 * store_open() with flags: commands that only read pass STORE_NO_CREATE
 * so that looking does not leave an empty store behind; they get -ENOENT
 * with err set when there is none yet (and -ENOENT means only that).
 */
int store_open_flags(struct store *s, const char *path, unsigned flags,
		     struct strbuf *err);

/* Close the store and free its contents. NULL or closed is fine. */
void store_close(struct store *s);

/*
 * Save experiment exp in one transaction, with cols (log_columns_of_doc()
 * of exp, or a test's own) as the text `log` lists. Its id is
 * kept when it is STORE_ID_LEN lowercase hex digits and not taken yet;
 * otherwise a new random id is assigned. exp's id (and created when
 * missing or empty) are set to what was stored, and its origin to one
 * of EXP_ORIGIN_* (report_origin()), which goes to the column too; a
 * member exp did not have is printed after those it has. When the save
 * fails they are put back as they were. The row keeps exp encoded plain
 * ('/' as it is), each run's row its "run" plain with '/' escaped.
 * out_id gets the id. Returns 0 or -errno with err set.
 */
int store_save_doc(struct store *s, struct experiment_doc *exp,
		   const struct log_columns *cols,
		   char out_id[STORE_ID_LEN + 1], struct strbuf *err);

/*
 * store_save_doc() in the store at db (NULL: store_default_path()),
 * opened (and made when missing) for it and closed after, with exp's
 * own log columns (log_columns_of_doc()): how the commands that measure
 * or bring in an experiment keep it. Returns 0 with out_id set, or
 * -errno with err set (out_id then "").
 */
int store_save_doc_at(const char *db, struct experiment_doc *exp,
		      char out_id[STORE_ID_LEN + 1], struct strbuf *err);

/*
 * Load the experiment whose id is id or starts with it into out
 * (initialised here; release it, also after an error), decoded from the
 * stored text with every string made printable (util/text.h), whoever
 * wrote the store; its origin is the store's column (one of
 * EXP_ORIGIN_*). Returns 0, -ENOENT with err naming the nearest ids
 * when none matches, -EINVAL when the prefix is empty or matches
 * several (err lists them), or another -errno for an I/O failure or a
 * damaged record (-EIO: its text is no experiment document).
 */
int store_load_doc(struct store *s, const char *id, struct experiment_doc *out,
		   struct strbuf *err);

/*
 * The newest limit experiments (0: all), newest first, as `iotrial log`
 * lists them (report/log_text.h renders them). *out_list is an array the caller
 * frees with store_summaries_free(). Returns 0 or -errno with err set.
 */
int store_list(struct store *s, size_t limit, struct exp_summary **out_list,
	       size_t *out_nr, struct strbuf *err);
void store_summaries_free(struct exp_summary *list, size_t nr);

#endif
