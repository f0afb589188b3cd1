/*
 * The codec's tables (private to src/core/model/). Each document struct
 * has a struct model_desc: its size, where its keep member is, and one
 * struct model_row per JSON member, in the order iotrial's writers
 * print them. model_json.c walks these tables to decode, encode,
 * compare and free every document, so a member is described once: its
 * key, its type, where it lives, whether it may be absent or null, and
 * how its number is printed.
 */
#ifndef IOTRIAL_MODEL_INT_H
#define IOTRIAL_MODEL_INT_H

#include <stddef.h>
#include <stdint.h>
#include "model.h"
#include "../../util/strbuf.h"

/* What a member (or an array's element) is, and how it is printed. */
enum model_kind {
	MK_STR = 1, /* char *, a JSON string */
	MK_BOOL,    /* bool */
	MK_INT,	    /* int64_t, printed as an integer */
	MK_UINT,    /* uint64_t, printed as an integer */
	MK_DBL,	    /* double, printed as json-c prints a double: 17
		       significant digits, ".0" on a whole number */
	MK_RND,	    /* double, rounded to dec places where printed, the
		       trailing zeros cut (12.5, not 12.500000000000002); NaN and
		       infinities print as null */
	MK_VAL,	    /* struct model_value, any scalar */
	MK_RAW,	    /* char *, any JSON kept as text (not iotrial's own) */
	MK_OBJ,	    /* a struct embedded in its parent (sub) */
	MK_PTR,	    /* a pointer to a struct (sub), NULL when absent */
	MK_ARR,	    /* an array: pointer + size_t count (elem, sub) */
	MK_MAP,	    /* an object of any keys: an array of entries (sub) */
	MK_FLAT,    /* a pointer to a struct (sub) whose members sit in the
		       parent's object: a group written together or not at
		       all (a device's numbers, an arm's summary); NULL when
		       none of them is there */
};

/* A group's member in a kept order: FLAT_CODE(row, its row in sub). */
#define MODEL_FLAT_BIT	       0x80000000u
#define MODEL_FLAT_CODE(ri, j) (MODEL_FLAT_BIT | ((uint32_t)(ri) << 16) | (j))

/* Row flags. */
#define MF_NULL (1u << 0) /* the member (ARR: each element) may be null */
#define MF_OPT                                                                 \
	(1u << 1) /* written only when there: a NULL string or                 \
		     part, a NaN number, or has_NAME absent */
#define MF_FIO                                                                 \
	(1u << 2)	     /* MK_PTR: a fio report here goes to alt as       \
				text (a run imported from fio) */
#define MF_NONZERO (1u << 3) /* MK_UINT element: UINT64_MAX is null */
#define MF_REQ                                                                 \
	(1u << 4) /* every such document has it: missing is an                 \
		     error */

/* One JSON member of a struct. */
struct model_row {
	const char *key;	      /* the member's name */
	unsigned char kind;	      /* enum model_kind */
	unsigned char elem;	      /* MK_ARR: the elements' kind */
	unsigned char flags;	      /* MF_* */
	signed char dec;	      /* MK_RND: decimal places */
	size_t off;		      /* the value in the struct */
	ptrdiff_t has;		      /* its uint8_t has_ byte, or -1 */
	ptrdiff_t nr;		      /* MK_ARR, MK_MAP: size_t count, or -1 */
	ptrdiff_t alt;		      /* MF_FIO: the char * for the text */
	const struct model_desc *sub; /* MK_OBJ, MK_PTR, object elements,
					 map entries */
};

/* Describe flags. */
#define MD_SCALAR (1u << 0) /* a map entry whose value is rows[0] */

/* One JSON object's struct. */
struct model_desc {
	const char *name;	      /* the struct, for messages of tests */
	size_t size;		      /* sizeof the struct */
	ptrdiff_t keep;		      /* its struct model_kept *, or -1 */
	ptrdiff_t key;		      /* map entries: char * of the key */
	unsigned flags;		      /* MD_* */
	const struct model_row *rows; /* nr_rows of them */
	size_t nr_rows;
	/* after decode: 0, or -EINVAL with err set (path: the member) */
	int (*check)(const void *obj, const char *path, struct strbuf *err);
};

/* Rows, by struct S: a member with no presence byte; with has_FIELD;
 * an array or a map (nr_FIELD) with and without has_FIELD. */
#define M(S, KEY, KIND, FIELD, FLAGS)                                          \
	{                                                                      \
		.key = KEY, .kind = KIND, .flags = FLAGS,                      \
		.off = offsetof(S, FIELD), .has = -1, .nr = -1, .alt = -1      \
	}
#define MH(S, KEY, KIND, FIELD, FLAGS)                                         \
	{                                                                      \
		.key = KEY, .kind = KIND, .flags = (FLAGS) | MF_OPT,           \
		.off = offsetof(S, FIELD), .has = offsetof(S, has_##FIELD),    \
		.nr = -1, .alt = -1                                            \
	}
#define MR(S, KEY, FIELD, DEC, FLAGS)                                          \
	{                                                                      \
		.key = KEY, .kind = MK_RND, .flags = FLAGS, .dec = DEC,        \
		.off = offsetof(S, FIELD), .has = -1, .nr = -1, .alt = -1      \
	}
#define MRH(S, KEY, FIELD, DEC, FLAGS)                                         \
	{                                                                      \
		.key = KEY, .kind = MK_RND, .flags = (FLAGS) | MF_OPT,         \
		.dec = DEC, .off = offsetof(S, FIELD),                         \
		.has = offsetof(S, has_##FIELD), .nr = -1, .alt = -1           \
	}
#define MO(S, KEY, KIND, FIELD, FLAGS, SUB)                                    \
	{                                                                      \
		.key = KEY, .kind = KIND, .flags = FLAGS,                      \
		.off = offsetof(S, FIELD), .has = -1, .nr = -1, .alt = -1,     \
		.sub = SUB                                                     \
	}
#define MOH(S, KEY, KIND, FIELD, FLAGS, SUB)                                   \
	{                                                                      \
		.key = KEY, .kind = KIND, .flags = (FLAGS) | MF_OPT,           \
		.off = offsetof(S, FIELD), .has = offsetof(S, has_##FIELD),    \
		.nr = -1, .alt = -1, .sub = SUB                                \
	}
#define MA(S, KEY, ELEM, FIELD, FLAGS, SUB)                                    \
	{                                                                      \
		.key = KEY, .kind = MK_ARR, .elem = ELEM, .flags = FLAGS,      \
		.off = offsetof(S, FIELD), .has = -1,                          \
		.nr = offsetof(S, nr_##FIELD), .alt = -1, .sub = SUB           \
	}
#define MAH(S, KEY, ELEM, FIELD, FLAGS, SUB)                                   \
	{                                                                      \
		.key = KEY, .kind = MK_ARR, .elem = ELEM,                      \
		.flags = (FLAGS) | MF_OPT, .off = offsetof(S, FIELD),          \
		.has = offsetof(S, has_##FIELD),                               \
		.nr = offsetof(S, nr_##FIELD), .alt = -1, .sub = SUB           \
	}
#define MRA(S, KEY, FIELD, DEC, FLAGS)                                         \
	{                                                                      \
		.key = KEY, .kind = MK_ARR, .elem = MK_RND, .dec = DEC,        \
		.flags = (FLAGS) | MF_OPT, .off = offsetof(S, FIELD),          \
		.has = offsetof(S, has_##FIELD),                               \
		.nr = offsetof(S, nr_##FIELD), .alt = -1                       \
	}
#define MM(S, KEY, FIELD, FLAGS, SUB)                                          \
	{                                                                      \
		.key = KEY, .kind = MK_MAP, .flags = FLAGS,                    \
		.off = offsetof(S, FIELD), .has = -1,                          \
		.nr = offsetof(S, nr_##FIELD), .alt = -1, .sub = SUB           \
	}
#define MMH(S, KEY, FIELD, FLAGS, SUB)                                         \
	{                                                                      \
		.key = KEY, .kind = MK_MAP, .flags = (FLAGS) | MF_OPT,         \
		.off = offsetof(S, FIELD), .has = offsetof(S, has_##FIELD),    \
		.nr = offsetof(S, nr_##FIELD), .alt = -1, .sub = SUB           \
	}

#define MF(S, FIELD, SUB)                                                      \
	{                                                                      \
		.key = "", .kind = MK_FLAT, .flags = MF_OPT,                   \
		.off = offsetof(S, FIELD), .has = -1, .nr = -1, .alt = -1,     \
		.sub = SUB                                                     \
	}

/* A struct model_desc named NAME for struct S with rows ROWS. */
#define MODEL_DESC(NAME, S, ROWS)                                              \
	const struct model_desc NAME = {                                       \
	    .name = #S,                                                        \
	    .size = sizeof(S),                                                 \
	    .keep = offsetof(S, keep),                                         \
	    .key = -1,                                                         \
	    .rows = ROWS,                                                      \
	    .nr_rows = sizeof(ROWS) / sizeof(ROWS[0]),                         \
	}

/* A document type T's init, release, decode and encode, by its
 * table DESC. */
#define MODEL_ENTRY_POINTS(T, DESC)                                            \
	void T##_init(struct T *doc)                                           \
	{                                                                      \
		memset(doc, 0, sizeof(*doc));                                  \
	}                                                                      \
	void T##_release(struct T *doc)                                        \
	{                                                                      \
		if (doc)                                                       \
			model_release_obj(&DESC, doc);                         \
	}                                                                      \
	int T##_decode(const char *text, size_t len, struct T *out,            \
		       unsigned flags, struct strbuf *err)                     \
	{                                                                      \
		return model_decode_text(&DESC, out, text, len, flags, err);   \
	}                                                                      \
	void T##_encode(const struct T *doc, unsigned flags,                   \
			struct strbuf *out)                                    \
	{                                                                      \
		model_encode_obj(&DESC, doc, flags, out);                      \
	}
/* A member decode did not know: its key and its value as JSON text. */
struct kept_member {
	char *key;
	char *json;
};

/* A number's text, used while member row (element idx) holds v. */
struct kept_num {
	uint32_t row, idx;
	double v;
	char *text;
};

/* What decode kept of one object (model.h). */
struct model_kept {
	uint32_t *order; /* the members in the document's order: a row
			    index, or nr_rows + an index in extra; NULL
			    when the order is the table's */
	size_t nr_order;
	struct kept_member *extra; /* members not in the table */
	size_t nr_extra, alloc_extra;
	struct kept_num *nums; /* numbers not printed as iotrial would */
	size_t nr_nums, alloc_nums;
	uint32_t *absent; /* rows the document lacks that the table writes
			     (model.h: members the writers always write) */
	size_t nr_absent;
};

/* The size of one element of an array of kind k (sub: objects). */
size_t model_elem_size(unsigned k, const struct model_desc *sub);

/* The member at byte offset off of a struct. */
#define MODEL_AT(base, off)  ((void *)((char *)(base) + (off)))
#define MODEL_CAT(base, off) ((const void *)((const char *)(base) + (off)))

/* obj's keep (d->keep), made on first use; NULL when d keeps nothing. */
struct model_kept *model_kept_of(const struct model_desc *d, void *obj);
const struct model_kept *model_kept_get(const struct model_desc *d,
					const void *obj);

/* Did decode find row ri missing (k->absent)? */
bool model_kept_absent(const struct model_kept *k, uint32_t ri);

/* Does the table write row's member of obj (its presence byte, or a
 * NULL string or part of an MF_OPT row)? */
bool model_written(const struct model_row *row, const void *obj);

/* A number of kind k at p, as a double. */
double model_num_at(unsigned k, const void *p);

/* The same bits, or both NaN. */
bool model_same_num(double a, double b);

/* The JSON of a number of kind k at p as iotrial's writers print it
 * (NULL: null). */
struct json_object *model_num_canon(unsigned k, int dec, unsigned flags,
				    const void *p);

/* The same, or its kept text (kp, row ri, element idx) while p holds
 * the value it was read as. */
struct json_object *model_num_json(unsigned k, int dec, unsigned flags,
				   const void *p, const struct model_kept *kp,
				   uint32_t ri, uint32_t idx);

/* The tables other tables point to (model_rows_*.c). */
extern const struct model_desc model_pair_desc, model_num_desc,
    model_count_desc, model_param_desc, model_env_desc, model_truth_device_desc,
    model_disk_delta_desc, model_truth_desc, model_run_desc, model_suspect_desc,
    model_window_desc, model_switchback_desc, model_abort_desc,
    model_fleet_desc, model_job_desc, model_experiment_desc, model_series_desc,
    model_plan_desc, model_dry_run_desc, model_knobs_desc, model_journal_desc,
    model_log_desc, model_diff_desc, model_info_desc, model_watch_desc,
    model_tune_desc, model_bisect_desc;

/* A document's "schema", where it names one, must be ours: 0, or
 * -EINVAL with err naming both (path: where). */
int model_check_schema(const char *schema, const char *path,
		       struct strbuf *err);

struct json_object;

/* Make every string of the tree o printable, member names too
 * (MODEL_DECODE_PRINTABLE); a renamed member moves to the end. */
void model_tree_printable(struct json_object *o);

/* The generic walk (model_json.c). */
int model_decode_text(const struct model_desc *d, void *out, const char *text,
		      size_t len, unsigned flags, struct strbuf *err);
void model_encode_obj(const struct model_desc *d, const void *obj,
		      unsigned flags, struct strbuf *out);
/* JSON text kept as it came (MK_RAW: a fio report), printed as encode
 * prints with flags. */
void model_encode_raw(const char *json, unsigned flags, struct strbuf *out);
int model_decode_tree(const struct model_desc *d, void *out,
		      struct json_object *tree, unsigned flags,
		      struct strbuf *err);
struct json_object *model_encode_tree(const struct model_desc *d,
				      const void *obj);
void model_release_obj(const struct model_desc *d, void *obj);
bool model_equal_obj(const struct model_desc *d, const void *a, const void *b);
void model_copy_obj(const struct model_desc *d, void *dst, const void *src);
/* The table of member key of the objects of table d (of its elements,
 * for an array of objects), or NULL. */
const struct model_desc *model_sub_desc(const struct model_desc *d,
					const char *key);
/* s, cut to fit size and made printable (util/text.h), in buf: a
 * document's string in a message. */
const char *model_printable(const char *s, char *buf, size_t size);

/* What decode kept in obj and everything below it. */
struct model_counts {
	size_t unknown; /* members not in a table */
	size_t orders;	/* objects whose member order was kept */
	size_t numbers; /* numbers whose text was kept */
	size_t absent;	/* members missing that the tables write */
};
void model_kept_count(const struct model_desc *d, const void *obj,
		      struct model_counts *c);

/* How many of the members decode met were kept as unknown, in obj and
 * everything below it. */
size_t model_unknown_count(const struct model_desc *d, const void *obj);

/* The text of v rounded to dec places as MK_RND prints it, into buf
 * (at least 64 bytes); false for NaN and infinities (null). */
bool model_round_text(double v, int dec, char *buf, size_t size);

#endif
