/*
 * The model: iotrial's documents as C types. A run and an experiment
 * are published JSON (the iotrial/1 schema, docs/schema/,
 * docs/COMPATIBILITY.md); inside the program they are these structs,
 * with typed members, so a misspelled member is a compile error and not
 * a 0 read from a missing key. The one codec between the two is
 * model_json.h; nothing else in iotrial needs to know what JSON looks
 * like.
 *
 * This header holds what every document type shares: presence, a JSON
 * scalar of any type, and what decode kept to write a document back as
 * it came (struct model_kept, opaque). The documents are run_doc.h
 * (with env_doc.h and truth_doc.h), experiment_doc.h (with live_doc.h
 * and fleet_doc.h) and job_doc.h.
 *
 * Conventions of every document struct:
 * - strings are owned (char *, NUL-terminated, freed by release);
 * - an array is a pointer and a count, nr_NAME, of owned elements;
 * - a part (a JSON object) is a pointer, NULL when it is not there;
 * - a string or a part is NULL, a measurement (double) NaN, when the
 *   document does not have it or has null;
 * - a member iotrial's writers write only sometimes, or write as null,
 *   and whose type has no NULL or NaN of its own (a count, a true/false,
 *   an array) has a presence byte beside it, has_NAME (enum model_has);
 * - a member the writers always write has none: a document without it
 *   (an import, a file from elsewhere, an older iotrial's) reads as
 *   0, NULL or NaN there, and decode remembers that it was missing, so
 *   that encode leaves it out again;
 * - keep is decode's: the member order, the members this iotrial does
 *   not know, the members missing as said above and the text of numbers
 *   not printed as iotrial prints them. A struct a producer fills leaves
 *   it NULL; release frees it.
 */
#ifndef IOTRIAL_MODEL_H
#define IOTRIAL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Is an optional member there, and does it hold a value or null? */
enum model_has {
	MODEL_ABSENT = 0, /* not in the document */
	MODEL_SET = 1,	  /* there, with a value */
	MODEL_NULL = 2,	  /* there, as null */
};

/* Decode flags (model_json.h). */
#define MODEL_DECODE_KNOWN                                                     \
	(1u << 0) /* refuse members this iotrial does                          \
		     not know */

#define MODEL_DECODE_PRINTABLE                                                 \
	(1u << 1) /* make every string, member names too, printable            \
		     (util/text.h): a document from elsewhere */

/* Encode flags (model_json.h). */
#define MODEL_ENCODE_PLAIN (1u << 0) /* one line, no spaces */
#define MODEL_ENCODE_ESCAPE_SLASH                                              \
	(1u << 1) /* "/" as "\/" (the store's                                  \
		     runs table) */
#define MODEL_ENCODE_TIGHT                                                     \
	(1u << 2) /* pretty without a space after ':'                          \
		     (knobs --json) */

/* What decode kept of one JSON object beyond its typed members. */
struct model_kept;

/* The type a struct model_value holds. */
enum model_value_type {
	MODEL_V_NULL = 0,
	MODEL_V_STR,
	MODEL_V_BOOL,
	MODEL_V_INT,	/* i: an integer that fits int64_t */
	MODEL_V_UINT,	/* u: an integer above INT64_MAX */
	MODEL_V_DOUBLE, /* d: a number with a fraction or an exponent */
};

/*
 * A JSON scalar whose type the document chooses: a workload
 * parameter's value (a string, an on/off, a count) or a seed.
 */
struct model_value {
	enum model_value_type type;
	char *s;    /* MODEL_V_STR, owned */
	bool b;	    /* MODEL_V_BOOL */
	int64_t i;  /* MODEL_V_INT */
	uint64_t u; /* MODEL_V_UINT */
	double d;   /* MODEL_V_DOUBLE */
};

/* A name and a string: a knob's value, an arm's setting of a factor. */
struct model_pair {
	char *name;  /* the member's key */
	char *value; /* its value */
};

/* A name and a number: a run's value of a metric, an arm's median. */
struct model_num {
	char *name;   /* the member's key */
	double value; /* its value, in the metric's unit */
	struct model_kept *keep;
};

/* A name and a count: how many hosts gave a verdict. */
struct model_count {
	char *name;    /* the member's key */
	int64_t value; /* its value */
};

/* A name and a value of any scalar type: a workload parameter. */
struct model_param {
	char *name;		  /* the parameter */
	struct model_value value; /* as the document typed it */
	struct model_kept *keep;
};

/* Free what v holds; v is left MODEL_V_NULL. NULL is fine. */
void model_value_release(struct model_value *v);

/* Set v to a copy of the string s (NULL: null). */
void model_value_set_str(struct model_value *v, const char *s);

/* Release what decode kept (the keep member of every document struct);
 * *keep is left NULL. */
void model_kept_free(struct model_kept **keep);

#endif
