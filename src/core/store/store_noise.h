/*
 * The noise model of this machine in the results store: for each kind
 * of comparison (experiment/noise.h makes the key: workload, metric,
 * target, run length, duet), how much the per-block log-ratio of its
 * experiments spread and how long a block took. compare reads it before
 * its first run to say what --precision will cost here, and adds each
 * experiment it stores.
 *
 * One table, made on the first write (as the series tables are: a store
 * made before it is migrated then, its schema version stays 1, and a
 * store without it simply has no model yet):
 *
 *   noise(experiment, created, key, blocks, log_ratio_sd, block_s)
 */
#ifndef IOTRIAL_STORE_NOISE_H
#define IOTRIAL_STORE_NOISE_H

#include "store.h"

/* One experiment's noise. */
struct noise_row {
	unsigned blocks;     /* complete blocks */
	double log_ratio_sd; /* sd of the per-block log-ratios (the widest
				over the arms) */
	double block_s;	     /* seconds a block took */
};

/* What the store knows of a key: the newest rows pooled. */
struct noise_model {
	unsigned experiments; /* rows pooled; 0: nothing known */
	unsigned blocks;      /* their blocks together */
	double log_ratio_sd;  /* pooled: sqrt(sum (n-1) sd^2 / sum (n-1)) */
	double block_s;	      /* the blocks' mean length */
};

/* The most rows pooled: the newest, as the machine changes. */
#define STORE_NOISE_POOL 10

/*
 * Add experiment exp_id's row under key (tables made first when the
 * store has none). 0 or -errno with err set.
 */
int store_noise_add(struct store *s, const char *exp_id, const char *key,
		    const struct noise_row *row, struct strbuf *err);

/*
 * The newest STORE_NOISE_POOL rows of key pooled into out (experiments
 * 0 when there are none, or no table). 0 or -errno with err set.
 */
int store_noise_get(struct store *s, const char *key, struct noise_model *out,
		    struct strbuf *err);

#endif
