/*
 * What the tests that fill a results store share: an experiment
 * document from its JSON text, and saving it with the columns `log`
 * lists rendered as the commands render them (log_columns_of_doc()),
 * since the store renders no text itself.
 *
 * Included by test_store.c, test_store_series.c and test_series_report.c
 * (each test is one program built from one file), after cmocka.h.
 */
#ifndef IOTRIAL_TEST_STORE_SAVE_HELPER_H
#define IOTRIAL_TEST_STORE_SAVE_HELPER_H

#include <string.h>
#include "core/model/model_json.h"
#include "core/report/log_text.h"
#include "core/store/store.h"
#include "util/xalloc.h"

/* The experiment document of text, new (experiment_doc_free() it); the
 * test fails when text is no experiment. */
static inline struct experiment_doc *exp_of_text(const char *text)
{
	struct experiment_doc *e = xcalloc(1, sizeof(*e));
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(experiment_doc_decode(text, strlen(text), e, 0, &err),
			 0);
	strbuf_release(&err);
	return e;
}

/* store_save_doc() of e with log_columns_of_doc(e). */
static inline int save_doc(struct store *s, struct experiment_doc *e, char *id,
			   struct strbuf *err)
{
	struct log_columns cols;
	int ret;

	log_columns_of_doc(e, &cols);
	ret = store_save_doc(s, e, &cols, id, err);
	log_columns_release(&cols);
	return ret;
}

/* save_doc() of the experiment of text, which is then freed. */
static inline int save_text(struct store *s, const char *text, char *id,
			    struct strbuf *err)
{
	struct experiment_doc *e = exp_of_text(text);
	int ret = save_doc(s, e, id, err);

	experiment_doc_free(e);
	return ret;
}

#endif
