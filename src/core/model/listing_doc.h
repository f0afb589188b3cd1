/*
 * The listings as documents: `knobs --json` (knobs_doc; report/
 * knob_text.c writes it; docs/schema/knobs.schema.json), `revert --list
 * --json` (journal_doc; report/journal_text.c; journal.schema.json) and
 * `log --json` (log_doc; report/log_text.c; log.schema.json).
 */
#ifndef IOTRIAL_LISTING_DOC_H
#define IOTRIAL_LISTING_DOC_H

#include "model.h"

/* One knob ("knobs[]"). */
struct knob_doc {
	char *name;
	char *value; /* as the kernel reads it */
	char *shown; /* as people read it */
	char *unit;
	char *allowed; /* the values it takes */
	char *scope;
	char *object; /* its device, mount or "system" */
	char *path;   /* the file behind it */
	char **legacy_names;
	size_t nr_legacy_names;
	char **notes;
	size_t nr_notes;
	struct model_kept *keep;
};

/* Why a place has no knobs ("unavailable"); NULL: it has. */
struct knobs_unavailable {
	char *device;
	char *mount;
	struct model_kept *keep;
};

/* `knobs --json`. */
struct knobs_doc {
	char *schema; /* "iotrial/1" */
	char *device; /* or NULL */
	char *mount;  /* or NULL */
	struct knob_doc *knobs;
	size_t nr_knobs;
	struct knobs_unavailable *unavailable;
	char **unavailable_knobs; /* what another target would offer */
	size_t nr_unavailable_knobs;
	struct model_kept *keep;
};

/* Who made a journaled change ("records[].owner"). */
struct journal_owner_doc {
	char *command; /* or NULL */
	int64_t pid;
	char *time;  /* UTC */
	char *state; /* "kept", "running", "gone", "before-reboot" */
	struct model_kept *keep;
};

/* A change still to undo ("records[]"); a knob's or another kind's
 * members, each there or absent by the kind, and null when the journal
 * line lacks it. */
struct journal_record_doc {
	uint64_t seq;
	char *kind;
	char *knob;
	uint8_t has_knob;
	char *scope;
	uint8_t has_scope;
	char *object;
	uint8_t has_object;
	char *original;
	uint8_t has_original;
	char *wrote;
	uint8_t has_wrote;
	char *what;
	uint8_t has_what;
	char *path;
	uint8_t has_path;
	bool kept;
	struct journal_owner_doc *owner; /* NULL: null */
	char *text;			 /* as `revert --list` says it */
	struct model_kept *keep;
};

/* `revert --list --json`. */
struct journal_doc {
	char *schema; /* "iotrial/1" */
	char *kind;   /* "journal" */
	char *journal;
	uint64_t live;
	struct journal_record_doc *records;
	size_t nr_records;
	struct model_kept *keep;
};

/* A stored experiment ("experiments[]"). */
struct log_entry_doc {
	char *id;
	char *created;
	char *workload;
	char *target;
	char *metric;
	char *arms;
	char *host;
	char *kernel;
	char *result;
	char *origin;
	struct model_kept *keep;
};

/* `log --json`. */
struct log_doc {
	char *schema; /* "iotrial/1" */
	struct log_entry_doc *experiments;
	size_t nr_experiments;
	struct model_kept *keep;
};

/* Lifecycle, as run_doc.h's. */
void knobs_doc_init(struct knobs_doc *doc);
void knobs_doc_release(struct knobs_doc *doc);
void journal_doc_init(struct journal_doc *doc);
void journal_doc_release(struct journal_doc *doc);
void log_doc_init(struct log_doc *doc);
void log_doc_release(struct log_doc *doc);

#endif
