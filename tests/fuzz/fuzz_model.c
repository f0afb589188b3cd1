/*
 * libFuzzer target for core/model: the codec of run, experiment, job
 * file and series documents. The input is decoded as each of the four (it is
 * not NUL-terminated, so AddressSanitizer sees any read past its end). What
 * decodes must survive the round trip: encode it, decode that again,
 * and the two documents are equal (every member, the kept order, the
 * unknown members, the kept number texts); encoding the second gives
 * the same text; the plain form (the store's) decodes to the same
 * document too; a copy is equal. A refusal is one line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/model/model-int.h"
#include "core/model/model_json.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The round trip of one document kind, its functions as arguments. */
#define ROUND_TRIP(T, decode, encode, equal, copy, release)                    \
	do {                                                                   \
		struct T a, b, c;                                              \
		struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT;              \
		struct strbuf err = STRBUF_INIT;                               \
		unsigned plain;                                                \
                                                                               \
		if (decode(buf, size, &a, 0, &err)) {                          \
			check(err.len && !strchr(err.buf, '\n'));              \
			release(&a);                                           \
			strbuf_release(&err);                                  \
			break;                                                 \
		}                                                              \
		for (plain = 0; plain <= MODEL_ENCODE_PLAIN;                   \
		     plain += MODEL_ENCODE_PLAIN) {                            \
			strbuf_reset(&t1);                                     \
			strbuf_reset(&t2);                                     \
			encode(&a, plain, &t1);                                \
			check(decode(t1.buf, t1.len, &b, 0, &err) == 0);       \
			check(equal(&a, &b));                                  \
			encode(&b, plain, &t2);                                \
			check(t1.len == t2.len &&                              \
			      !memcmp(t1.buf, t2.buf, t1.len));                \
			release(&b);                                           \
		}                                                              \
		copy(&c, &a);                                                  \
		check(equal(&a, &c));                                          \
		release(&c);                                                   \
		release(&a);                                                   \
		strbuf_release(&t1);                                           \
		strbuf_release(&t2);                                           \
		strbuf_release(&err);                                          \
	} while (0)

/* The same through the tables of the documents without entry points
 * of their own for equal and copy (the listings, plans, diff, info,
 * watch). */
static void round_trip_desc(const struct model_desc *d, const char *buf,
			    size_t size)
{
	struct strbuf t1 = STRBUF_INIT, t2 = STRBUF_INIT, err = STRBUF_INIT;
	void *a = calloc(1, d->size), *b = calloc(1, d->size);
	void *c = calloc(1, d->size);
	unsigned plain;

	if (!a || !b || !c)
		goto out;
	if (model_decode_text(d, a, buf, size, 0, &err)) {
		check(err.len && !strchr(err.buf, '\n'));
		goto out;
	}
	for (plain = 0; plain <= MODEL_ENCODE_PLAIN;
	     plain += MODEL_ENCODE_PLAIN) {
		strbuf_reset(&t1);
		strbuf_reset(&t2);
		model_encode_obj(d, a, plain, &t1);
		check(model_decode_text(d, b, t1.buf, t1.len, 0, &err) == 0);
		check(model_equal_obj(d, a, b));
		model_encode_obj(d, b, plain, &t2);
		check(t1.len == t2.len && !memcmp(t1.buf, t2.buf, t1.len));
		model_release_obj(d, b);
	}
	model_copy_obj(d, c, a);
	check(model_equal_obj(d, a, c));
	model_release_obj(d, c);
out:
	if (a)
		model_release_obj(d, a);
	free(a);
	free(b);
	free(c);
	strbuf_release(&t1);
	strbuf_release(&t2);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ROUND_TRIP(run_doc, run_doc_decode, run_doc_encode, run_doc_equal,
		   run_doc_copy, run_doc_release);
	ROUND_TRIP(experiment_doc, experiment_doc_decode, experiment_doc_encode,
		   experiment_doc_equal, experiment_doc_copy,
		   experiment_doc_release);
	ROUND_TRIP(job_doc, job_doc_decode, job_doc_encode, job_doc_equal,
		   job_doc_copy, job_doc_release);
	ROUND_TRIP(series_doc, series_doc_decode, series_doc_encode,
		   series_doc_equal, series_doc_copy, series_doc_release);
	{
		static const struct model_desc *const other[] = {
		    &model_plan_desc,	 &model_dry_run_desc, &model_knobs_desc,
		    &model_journal_desc, &model_log_desc,     &model_diff_desc,
		    &model_info_desc,	 &model_watch_desc,
		};
		size_t i;

		for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
			round_trip_desc(other[i], buf, size);
	}
	free(buf);
	return 0;
}
