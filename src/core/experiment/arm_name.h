/*
 * Naming an arm. Every command that takes an arm (export --arm, apply
 * --arm, compare --baseline, diff --arm) reads the name here, so that a
 * spelling that works for one works for all. An arm is named by:
 *
 *   - "#N": the N-th arm, counting from 1 in the order the tables and
 *     --dry-run list them;
 *   - its label as printed ("scheduler=mq-deadline (asked: deadline)"),
 *     or without its "(asked: ...)" notes;
 *   - its settings, factor by factor in the label's order, each value
 *     as it was asked or as it was set, each knob under the name it was
 *     asked by or its own ("scheduler=deadline", "scheduler=mq-deadline",
 *     "vm.dirty_ratio=90" for "bdflush.nfract_sync=90"); with one
 *     factor, the value alone;
 *   - a value that means what the arm set, when the caller can tell
 *     (arm_find()'s same hook: "deadline" for mq-deadline on a disk
 *     that offers it);
 *   - a bare number N: the N-th arm, unless it also names another arm,
 *     which is refused as ambiguous with how to give each.
 */
#ifndef IOTRIAL_ARM_NAME_H
#define IOTRIAL_ARM_NAME_H

#include <stddef.h>
#include "../../util/strbuf.h"

/* One factor's setting in an arm, in the spellings it has. */
struct arm_spelling {
	const char *name;     /* the factor as asked: "scheduler",
				 "bdflush.nfract_sync" */
	const char *set_name; /* the knob's own name when name is an older
				 one ("vm.dirty_ratio"), or NULL */
	const char *asked;    /* the value as asked: "deadline" */
	const char *set;      /* the value as set ("mq-deadline"), or NULL:
				 as asked */
};

/* One arm as arm_find() reads it. Nothing is owned. */
struct arm_names {
	const char *label;	      /* as printed */
	const struct arm_spelling *s; /* its factors' settings */
	size_t nr;		      /* of them */
};

/*
 * Do values a and b of factor mean the same (4096s and 2048 of
 * read_ahead_kb, deadline and mq-deadline of a scheduler the disk
 * offers)? 1 or 0. ctx is arm_find()'s same_ctx.
 */
typedef int (*arm_same_fn)(void *ctx, const char *factor, const char *a,
			   const char *b);

/*
 * The index of the arm of arms[nr] that want names (above), into *idx.
 * same may be NULL (spellings only). 0; -ENOENT when none is named
 * (err untouched: the caller lists the arms as its command says them);
 * -EINVAL with err set when want names two arms.
 */
int arm_find(const struct arm_names *arms, size_t nr, const char *want,
	     arm_same_fn same, void *same_ctx, size_t *idx, struct strbuf *err);

#endif
