/*
 * Parsing and sampling file size distributions (see sizedist.h). The
 * parser works on a private copy of the text, one comma-separated item
 * at a time, and reports the first thing wrong together with the forms
 * that are valid, since a user who wrote nonsense usually needs to see
 * what sense looks like.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sizedist.h"
#include "../../util/error.h"
#include "../../util/units.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Parse one size in [1, SIZEDIST_MAX_BYTES]; why says what went wrong. */
static int parse_bytes(const char *s, const char *what, uint64_t *out,
		       struct strbuf *why)
{
	struct strbuf e = STRBUF_INIT;
	int ret;

	if (!*s) {
		strbuf_addf(why, "%s is empty", what);
		return -EINVAL;
	}
	if (*s == '-') {
		strbuf_addf(why, "%s '%s' is negative", what, s);
		return -ERANGE;
	}
	ret = units_parse_size(s, 0, out, NULL, &e);
	if (ret)
		strbuf_addf(why, "%s: %s", what, e.buf);
	else if (*out > SIZEDIST_MAX_BYTES) {
		strbuf_addf(why, "%s '%s' is larger than 1 GiB", what, s);
		ret = -ERANGE;
	}
	strbuf_release(&e);
	return ret;
}

/* "uniform:MIN-MAX" after the colon. */
static int parse_uniform(char *s, struct sizedist *d, struct strbuf *why)
{
	char *dash = strchr(s, '-');
	int ret;

	if (!dash || dash == s) {
		strbuf_addf(why, "uniform needs MIN-MAX, not '%s'", s);
		return -EINVAL;
	}
	*dash = '\0';
	ret = parse_bytes(s, "min", &d->min_bytes, why);
	if (!ret)
		ret = parse_bytes(dash + 1, "max", &d->max_bytes, why);
	if (ret)
		return ret;
	if (d->min_bytes > d->max_bytes) {
		strbuf_addf(why, "min %s is above max %s", s, dash + 1);
		return -ERANGE;
	}
	d->kind = SIZEDIST_UNIFORM;
	d->mean_bytes = ((double)d->min_bytes + (double)d->max_bytes) / 2;
	return 0;
}

/* "lognormal:mean=..,sd=..,min=..,max=.." after the colon. */
static int parse_lognormal(char *s, struct sizedist *d, struct strbuf *why)
{
	uint64_t mean = 0, sd = 0;
	int have_sd = 0, ret = 0;
	char *item, *next;
	double m, v;

	d->min_bytes = 1;
	d->max_bytes = 0;
	for (item = s; item && !ret; item = next) {
		char *eq = strchr(item, '=');

		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		if (!eq) {
			strbuf_addf(why, "expected KEY=SIZE, not '%s'", item);
			return -EINVAL;
		}
		*eq = '\0';
		if (!strcmp(item, "mean")) {
			ret = parse_bytes(eq + 1, "mean", &mean, why);
		} else if (!strcmp(item, "sd")) {
			ret = parse_bytes(eq + 1, "sd", &sd, why);
			have_sd = 1;
		} else if (!strcmp(item, "min")) {
			ret = parse_bytes(eq + 1, "min", &d->min_bytes, why);
		} else if (!strcmp(item, "max")) {
			ret = parse_bytes(eq + 1, "max", &d->max_bytes, why);
		} else {
			strbuf_addf(
			    why, "unknown key '%s' (mean, sd, min, max)", item);
			return -EINVAL;
		}
	}
	if (ret)
		return ret;
	if (!mean) {
		strbuf_addstr(why, "lognormal needs mean=SIZE");
		return -EINVAL;
	}
	if (!have_sd)
		sd = mean / 2 ? mean / 2 : 1;
	if (!d->max_bytes)
		d->max_bytes = mean * 16 < SIZEDIST_MAX_BYTES
				   ? mean * 16
				   : SIZEDIST_MAX_BYTES;
	if (d->min_bytes > d->max_bytes) {
		strbuf_addf(why, "min (%llu bytes) is above max (%llu bytes)",
			    (unsigned long long)d->min_bytes,
			    (unsigned long long)d->max_bytes);
		return -ERANGE;
	}
	/* from the arithmetic mean and sd to the normal's parameters */
	m = (double)mean;
	v = (double)sd * (double)sd;
	d->sigma = sqrt(log1p(v / (m * m)));
	d->mu = log(m) - d->sigma * d->sigma / 2;
	d->mean_bytes = m;
	d->kind = SIZEDIST_LOGNORMAL;
	return 0;
}

/* "SIZE[:WEIGHT],..." */
static int parse_list(char *s, struct sizedist *d, struct strbuf *why)
{
	char *item, *next;
	double sum = 0;
	int ret;

	d->min_bytes = UINT64_MAX;
	d->max_bytes = 0;
	for (item = s; item; item = next) {
		struct sizedist_entry *e;
		char *colon;

		next = strchr(item, ',');
		if (next)
			*next++ = '\0';
		if (d->nr_entries == SIZEDIST_MAX_ENTRIES) {
			strbuf_addf(why, "more than %d sizes in the list",
				    SIZEDIST_MAX_ENTRIES);
			return -ERANGE;
		}
		e = &d->entries[d->nr_entries];
		colon = strchr(item, ':');
		e->weight = 1;
		if (colon) {
			struct strbuf we = STRBUF_INIT;

			*colon = '\0';
			if (colon[1] == '-') {
				strbuf_addf(why, "weight '%s' is negative",
					    colon + 1);
				return -ERANGE;
			}
			ret = units_parse_count(colon + 1, &e->weight, &we);
			if (ret)
				strbuf_addf(why, "weight: %s", we.buf);
			strbuf_release(&we);
			if (ret)
				return ret;
			if (!e->weight || e->weight > 1000000) {
				strbuf_addf(why,
					    "weight '%s' is not from 1 to "
					    "1000000",
					    colon + 1);
				return -ERANGE;
			}
		}
		ret = parse_bytes(item, "size", &e->bytes, why);
		if (ret)
			return ret;
		d->total_weight += e->weight;
		sum += (double)e->bytes * (double)e->weight;
		if (e->bytes < d->min_bytes)
			d->min_bytes = e->bytes;
		if (e->bytes > d->max_bytes)
			d->max_bytes = e->bytes;
		d->nr_entries++;
	}
	d->kind = SIZEDIST_LIST;
	d->mean_bytes = sum / (double)d->total_weight;
	return 0;
}

int sizedist_parse(const char *text, struct sizedist *d, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	struct sizedist tmp;
	char *copy = xstrdup(text), *colon = strchr(copy, ':');
	int ret;

	memset(&tmp, 0, sizeof(tmp));
	if (colon && !strncmp(copy, "uniform:", 8)) {
		ret = parse_uniform(copy + 8, &tmp, &why);
	} else if (colon && !strncmp(copy, "lognormal:", 10)) {
		ret = parse_lognormal(copy + 10, &tmp, &why);
	} else if (colon && colon > copy &&
		   ((*copy >= 'a' && *copy <= 'z') ||
		    (*copy >= 'A' && *copy <= 'Z'))) {
		*colon = '\0';
		strbuf_addf(&why, "unknown distribution '%s'", copy);
		ret = -EINVAL;
	} else {
		ret = parse_list(copy, &tmp, &why);
	}
	if (ret)
		err_set(err, ret,
			"invalid size distribution '%s': %s; expected %s", text,
			why.buf, SIZEDIST_FORMS);
	else
		*d = tmp;
	strbuf_release(&why);
	free(copy);
	return ret;
}

/* A standard normal deviate (Box-Muller, one of the pair). */
static double std_normal(struct rng *rng)
{
	double u1 = 1.0 - rng_double(rng); /* (0, 1]: log is finite */
	double u2 = rng_double(rng);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

uint64_t sizedist_sample(const struct sizedist *d, struct rng *rng)
{
	uint64_t pick;
	double x;
	unsigned i;

	switch (d->kind) {
	case SIZEDIST_UNIFORM:
		return d->min_bytes +
		       rng_below(rng, d->max_bytes - d->min_bytes + 1);
	case SIZEDIST_LOGNORMAL:
		x = exp(d->mu + d->sigma * std_normal(rng));
		if (!(x >= (double)d->min_bytes))
			return d->min_bytes;
		if (x >= (double)d->max_bytes)
			return d->max_bytes;
		return (uint64_t)x;
	case SIZEDIST_LIST:
		if (d->nr_entries == 1)
			return d->entries[0].bytes;
		pick = rng_below(rng, d->total_weight);
		for (i = 0; i + 1 < d->nr_entries; i++) {
			if (pick < d->entries[i].weight)
				break;
			pick -= d->entries[i].weight;
		}
		return d->entries[i].bytes;
	}
	return d->min_bytes;
}
