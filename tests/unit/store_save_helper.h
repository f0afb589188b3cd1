/*
 * What the tests that fill a results store share: saving an experiment
 * object with the columns `log` lists rendered as the commands render
 * them (log_columns_of()), since the store renders no text itself.
 *
 * Included by test_store.c, test_store_series.c and test_series_report.c
 * (each test is one program built from one file).
 */
#ifndef IOTRIAL_TEST_STORE_SAVE_HELPER_H
#define IOTRIAL_TEST_STORE_SAVE_HELPER_H

#include "core/report/log_text.h"
#include "core/store/store.h"

/* store_save_experiment() of e with log_columns_of(e). */
static inline int save_exp(struct store *s, struct json_object *e, char *id,
			   struct strbuf *err)
{
	struct log_columns cols;
	int ret;

	log_columns_of(e, &cols);
	ret = store_save_experiment(s, e, &cols, id, err);
	log_columns_release(&cols);
	return ret;
}

#endif
