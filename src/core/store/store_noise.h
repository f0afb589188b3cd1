/*
 * The noise model of this machine in the results store: for each kind
 * of comparison (experiment/noise.h makes the key: workload, metric,
 * target, duet, parameters) and run length, how much the per-block
 * log-ratio of its experiments spread and how long a block took. compare reads
 * it before its first run to say what --precision will cost here, and adds each
 * experiment it stores.
 *
 * One table, made on the first write (as the series tables are: a store
 * made before it is migrated then, its schema version stays 1, and a
 * store without it simply has no model yet):
 *
 *   noise(experiment, created, key, run_ms, blocks, log_ratio_sd,
 *         block_s)                   run_ms: the run length, 0 for --ios
 */
#ifndef IOTRIAL_STORE_NOISE_H
#define IOTRIAL_STORE_NOISE_H

#include "store.h"

/* One experiment's noise. */
struct noise_row {
	double run_s;	     /* its runs' length (--time), 0 for --ios */
	unsigned blocks;     /* complete blocks */
	double log_ratio_sd; /* sd of the per-block log-ratios (the widest
				over the arms) */
	double block_s;	     /* seconds a block took */
};

/* What the store knows of a key at one run length: the newest rows
 * pooled. */
struct noise_model {
	double run_s;	      /* the run length */
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
 * The newest STORE_NOISE_POOL rows of key at run length run_s pooled
 * into out (experiments 0 when there are none, or no table). 0 or
 * -errno with err set.
 */
int store_noise_get(struct store *s, const char *key, double run_s,
		    struct noise_model *out, struct strbuf *err);

/* The most run lengths store_noise_lengths() gives. */
#define STORE_NOISE_LENGTHS 8

/*
 * The models of key at each run length it was measured at (the
 * shortest STORE_NOISE_LENGTHS, --ios left out) into out, their count
 * into *nr. 0 or -errno with err set.
 */
int store_noise_lengths(struct store *s, const char *key,
			struct noise_model *out, unsigned *nr,
			struct strbuf *err);

#endif
