/*
 * File size distributions for file workloads: how big each new file is.
 * Written as text in a workload parameter, so one grammar serves the
 * command line, experiments and the store:
 *
 *   4k                                    every file 4 KiB
 *   uniform:4k-64k                        uniform between the two, inclusive
 *   lognormal:mean=16k,sd=8k,min=1k,max=1M
 *                                         log-normal with that arithmetic
 *                                         mean and standard deviation,
 *                                         clamped to [min, max]
 *   4k:60,64k:30,1M:10                    a list of sizes with weights
 *
 * Sizes use units_parse_size() ("4k" is 4096 bytes).
 */
#ifndef IOTRIAL_SIZEDIST_H
#define IOTRIAL_SIZEDIST_H

#include <stdint.h>
#include "../../util/rng.h"
#include "../../util/strbuf.h"

/* The valid forms, for usage errors and help. */
#define SIZEDIST_FORMS                                                         \
	"a size ('4k'), 'uniform:MIN-MAX', "                                   \
	"'lognormal:mean=SIZE[,sd=SIZE][,min=SIZE][,max=SIZE]' or a "          \
	"weighted list 'SIZE:WEIGHT,...' ('4k:60,64k:30,1M:10')"

/* The largest file size a distribution may produce. */
#define SIZEDIST_MAX_BYTES (1ull << 30)
/* The most entries in a weighted list. */
#define SIZEDIST_MAX_ENTRIES 64

enum sizedist_kind {
	SIZEDIST_LIST,	    /* fixed size: a list of one */
	SIZEDIST_UNIFORM,   /* min_bytes..max_bytes */
	SIZEDIST_LOGNORMAL, /* exp(N(mu, sigma)), clamped */
};

struct sizedist_entry {
	uint64_t bytes;
	uint64_t weight; /* > 0 */
};

struct sizedist {
	enum sizedist_kind kind;
	uint64_t min_bytes, max_bytes; /* every sample is in [min, max] */
	double mu, sigma;	       /* LOGNORMAL: of the underlying normal */
	double mean_bytes;	       /* expected size (before clamping for
					  LOGNORMAL: the mean asked for) */
	struct sizedist_entry entries[SIZEDIST_MAX_ENTRIES]; /* LIST */
	unsigned nr_entries;
	uint64_t total_weight; /* LIST: sum of the weights */
};

/*
 * Parse text into d. 0, or -EINVAL/-ERANGE with err naming the input,
 * what is wrong (a negative or zero size, min above max, an unknown
 * distribution name, a bad weight) and the valid forms (SIZEDIST_FORMS).
 * d is left alone on error.
 */
int sizedist_parse(const char *text, struct sizedist *d, struct strbuf *err);

/* One size from d, in [d->min_bytes, d->max_bytes]. */
uint64_t sizedist_sample(const struct sizedist *d, struct rng *rng);

#endif
