/*
 * libFuzzer target for loading an experiment from the results store: a
 * store edited by someone else holds any text in its rows. The input is
 * written, as it is, into the json column of an experiments row of a
 * temporary store (and, after a line "--runs--", each further line into
 * a runs row of it), then read back with store_load_doc() and listed
 * with store_list(), as show and log do. Either gives 0 and a document
 * whose JSON holds no raw control byte (every string made printable),
 * or a negative errno with a message; nothing else.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "core/model/model_json.h"
#include "core/store/store.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

static char dir[] = "/tmp/iotrial-fuzz-store.XXXXXX";
static char path[sizeof(dir) + 16];
static struct store store;

/* Remove the temporary store at exit. */
static void cleanup(void)
{
	store_close(&store);
	unlink(path);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct strbuf err = STRBUF_INIT;

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/results.db", dir);
	if (store_open(&store, path, &err))
		abort();
	atexit(cleanup);
	strbuf_release(&err);
	return 0;
}

/* Run one statement with up to two text values bound. */
static void exec(const char *sql, const char *a, int a_len, const char *b,
		 int b_len)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(store.db, sql, -1, &st, NULL) != SQLITE_OK)
		abort();
	if (a)
		sqlite3_bind_text(st, 1, a, a_len, SQLITE_TRANSIENT);
	if (b)
		sqlite3_bind_text(st, 2, b, b_len, SQLITE_TRANSIENT);
	sqlite3_step(st);
	sqlite3_finalize(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char id[] = "0123abcd";
	const char *text = (const char *)data, *end = text + size;
	const char *sep =
	    size >= 9 ? memmem(text, size, "\n--runs--\n", 10) : NULL;
	const char *exp_end = sep ? sep : end;
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc exp;
	struct strbuf json = STRBUF_INIT;
	size_t i;
	struct exp_summary *list = NULL;
	size_t nr = 0;
	int ret;

	exec("DELETE FROM runs", NULL, 0, NULL, 0);
	exec("DELETE FROM experiments", NULL, 0, NULL, 0);
	exec("INSERT INTO experiments (id, created, workload, target, "
	     "metric, arms, host, kernel, verdicts, json) VALUES (?1, "
	     "'2026-01-01T00:00:00Z', 'seqread', '/tmp', 'mbps', '2', 'h', "
	     "'6.1', '', ?2)",
	     id, -1, text, (int)(exp_end - text));
	if (sep) {
		const char *p = sep + 10;

		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *e = nl ? nl : end;

			exec("INSERT INTO runs (experiment, arm, block, seq, "
			     "metric, json) VALUES (?1, 0, 0, 0, 1.0, ?2)",
			     id, -1, p, (int)(e - p));
			p = nl ? nl + 1 : end;
		}
	}
	ret = store_load_doc(&store, "0123", &exp, &err);
	check(ret <= 0);
	if (!ret) {
		experiment_doc_encode(&exp, 0, &json);
		check(strlen(json.buf) == json.len);
		for (i = 0; i < json.len; i++)
			check((unsigned char)json.buf[i] >= 0x20 ||
			      json.buf[i] == '\n');
		check(exp.origin && !strcmp(exp.origin, "local"));
	} else {
		check(err.len > 0);
	}
	experiment_doc_release(&exp);
	strbuf_release(&json);
	strbuf_reset(&err);
	ret = store_list(&store, 0, &list, &nr, &err);
	check(ret <= 0);
	if (!ret)
		check(nr <= 1);
	store_summaries_free(list, nr);
	strbuf_release(&err);
	return 0;
}
