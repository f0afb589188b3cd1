/*
 * The codec: the one place iotrial turns its documents into JSON and
 * back (model.h says what the documents are). Encode prints what
 * iotrial's writers print, byte for byte; decode is strict and keeps
 * what it does not know.
 *
 * Decode's contract:
 * - The text is one JSON object, nothing after it but white space.
 * - "schema" must be "iotrial/1" where a document names one (every top
 *   level document must): a newer schema is refused with a message
 *   naming both, not read as if it were ours. --compat and --behaviour
 *   choose behaviours, not shapes: no behaviour changes how a run or an
 *   experiment is written, so there is nothing to pass here (the one
 *   old shape, --behaviour=log-json-array, is log's document, not one
 *   of these). When iotrial/2 exists, decode takes the version.
 * - A member of the wrong type is an error that names its path, e.g.
 *   "runs[3].run.latency_ns.read.p99: expected an integer", and nothing
 *   is returned. So is a missing member that every such document has.
 *   A number is an integer when the member is a count (a whole number
 *   printed with a fraction, 1234.0, is accepted); a string holding a
 *   NUL byte is refused.
 * - A member this iotrial does not know is kept, not refused and not
 *   dropped: iotrial/1 only ever gains keys (docs/COMPATIBILITY.md), so
 *   a document from a newer iotrial (an imported file, a fleet host's
 *   results, a store a newer iotrial wrote) holds members an older one
 *   has no field for. Refusing them would break the promise that
 *   iotrial/1 stays readable; dropping them would lose them at the next
 *   save. They are kept as JSON text, in their place, and encode writes
 *   them back. MODEL_DECODE_KNOWN refuses them instead (the tests use it
 *   to prove every member iotrial writes has a field).
 * - The member order and the text of a number iotrial would print
 *   differently (a hand-written 0.05, fio's numbers) are kept too, so
 *   encode(decode(doc)) is doc, byte for byte, for every document
 *   iotrial writes. A number's text is used only while the member still
 *   holds the value it was read as.
 *
 * Encode's contract: pretty (two spaces, one member per line, ending in
 * a newline: what the commands print) or plain (one line: what the
 * store keeps); members in the order iotrial's writers print them, a
 * decoded document's in its own order; numbers as the writers print
 * them: counts as integers, measurements with json-c's 17 significant
 * digits, the truth's numbers rounded (MK_RND in model-int.h).
 */
#ifndef IOTRIAL_MODEL_JSON_H
#define IOTRIAL_MODEL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include "command_doc.h"
#include "experiment_doc.h"
#include "job_doc.h"
#include "listing_doc.h"
#include "plan_doc.h"
#include "run_doc.h"
#include "series_doc.h"
#include "../../util/strbuf.h"

/*
 * Decode len bytes of text into out (initialised here; release it even
 * after an error). 0, or -EINVAL with err saying where and what.
 */
int run_doc_decode(const char *text, size_t len, struct run_doc *out,
		   unsigned flags, struct strbuf *err);
int experiment_doc_decode(const char *text, size_t len,
			  struct experiment_doc *out, unsigned flags,
			  struct strbuf *err);
int job_doc_decode(const char *text, size_t len, struct job_doc *out,
		   unsigned flags, struct strbuf *err);
int series_doc_decode(const char *text, size_t len, struct series_doc *out,
		      unsigned flags, struct strbuf *err);
int series_plan_doc_decode(const char *text, size_t len,
			   struct series_plan_doc *out, unsigned flags,
			   struct strbuf *err);

int plan_doc_decode(const char *text, size_t len, struct plan_doc *out,
		    unsigned flags, struct strbuf *err);
int dry_run_doc_decode(const char *text, size_t len, struct dry_run_doc *out,
		       unsigned flags, struct strbuf *err);

int knobs_doc_decode(const char *text, size_t len, struct knobs_doc *out,
		     unsigned flags, struct strbuf *err);
int journal_doc_decode(const char *text, size_t len, struct journal_doc *out,
		       unsigned flags, struct strbuf *err);
int log_doc_decode(const char *text, size_t len, struct log_doc *out,
		   unsigned flags, struct strbuf *err);
int diff_doc_decode(const char *text, size_t len, struct diff_doc *out,
		    unsigned flags, struct strbuf *err);
int info_doc_decode(const char *text, size_t len, struct info_doc *out,
		    unsigned flags, struct strbuf *err);
int watch_doc_decode(const char *text, size_t len, struct watch_doc *out,
		     unsigned flags, struct strbuf *err);
int fleet_record_doc_decode(const char *text, size_t len,
			    struct fleet_record_doc *out, unsigned flags,
			    struct strbuf *err);

/* Append doc as JSON to out. */
void run_doc_encode(const struct run_doc *doc, unsigned flags,
		    struct strbuf *out);
void experiment_doc_encode(const struct experiment_doc *doc, unsigned flags,
			   struct strbuf *out);
void job_doc_encode(const struct job_doc *doc, unsigned flags,
		    struct strbuf *out);
void series_doc_encode(const struct series_doc *doc, unsigned flags,
		       struct strbuf *out);
void series_ctx_doc_encode(const struct series_ctx_doc *doc, unsigned flags,
			   struct strbuf *out);
void series_plan_doc_encode(const struct series_plan_doc *doc, unsigned flags,
			    struct strbuf *out);

void plan_doc_encode(const struct plan_doc *doc, unsigned flags,
		     struct strbuf *out);
void dry_run_doc_encode(const struct dry_run_doc *doc, unsigned flags,
			struct strbuf *out);

void knobs_doc_encode(const struct knobs_doc *doc, unsigned flags,
		      struct strbuf *out);
void journal_doc_encode(const struct journal_doc *doc, unsigned flags,
			struct strbuf *out);
void log_doc_encode(const struct log_doc *doc, unsigned flags,
		    struct strbuf *out);
void diff_doc_encode(const struct diff_doc *doc, unsigned flags,
		     struct strbuf *out);
void info_doc_encode(const struct info_doc *doc, unsigned flags,
		     struct strbuf *out);
void watch_doc_encode(const struct watch_doc *doc, unsigned flags,
		      struct strbuf *out);
void fleet_record_doc_encode(const struct fleet_record_doc *doc, unsigned flags,
			     struct strbuf *out);
/*
 * Print member key of doc after the members doc holds now, not where
 * the table puts it: for a producer that adds a member to a document
 * it decoded and whose published order is its own (a fleet merge adds
 * the hosts' factors after the environment, each run's host last).
 * Call it before the member is set: one there already keeps its place.
 * 0, or -EINVAL when the document has no member key.
 */
int experiment_doc_order_last(struct experiment_doc *doc, const char *key);
int exp_run_order_last(struct exp_run *run, const char *key);
int env_doc_order_last(struct env_doc *env, const char *key);

/*
 * Print member key of doc after the members it holds now, also when it
 * holds key already (it moves): a stage that replaces a member and has
 * always put it last (the factorial analysis' effects, the scaling
 * rows). 0, or -EINVAL when the document has no member key.
 */
int experiment_doc_move_last(struct experiment_doc *doc, const char *key);

/*
 * Leave member key out of doc while it holds nothing (NULL, NaN, 0), as
 * decode leaves out a member the document lacked (model.h): for a
 * producer that never writes one the writers always write (a diff's
 * runs_mode). Setting it writes it again. 0, or -EINVAL when the
 * document has no member key.
 */
int experiment_doc_omit(struct experiment_doc *doc, const char *key);

/*
 * Copy the number key (and its presence) of src into dst, printed as
 * src prints it (its text, when decode kept one), after the members
 * dst holds now (experiment_doc_order_last()): a producer that takes a
 * setting from another document (a fleet merge, the reference host's
 * alpha). 0, or -EINVAL when key is no number of the table.
 */
int experiment_doc_copy_number(struct experiment_doc *dst,
			       const struct experiment_doc *src,
			       const char *key);

/* A deep copy of the nr marks src into *out (new, nr of them), what
 * decode kept too. */
void exp_suspects_copy(const struct exp_suspect *src, size_t nr,
		       struct exp_suspect **out);

/* Free the nr marks s (NULL is fine), what decode kept too. */
void exp_suspects_free(struct exp_suspect *s, size_t nr);

/* Free the nr effects e or interactions x (NULL is fine), what decode
 * kept too: an analysis that replaces them. */
void exp_effects_free(struct exp_effect *e, size_t nr);
void exp_interactions_free(struct exp_interaction *x, size_t nr);
/* Free the nr rows (NULL is fine), what decode kept too: for a stage of
 * the analysis that replaces a document's regimes or scaling rows. */
void exp_regimes_free(struct exp_regime *regimes, size_t nr);
void exp_scaling_free(struct exp_scaling_row *rows, size_t nr);

/*
 * The "run" of one entry of an experiment's runs, as encode prints it
 * with flags (its run object, or the fio report imported as it was),
 * appended to out: what the store keeps in a run's row. false, and
 * nothing appended, when the entry has none.
 */
bool exp_run_encode_run(const struct exp_run *r, unsigned flags,
			struct strbuf *out);

/* Did decode find member key missing from run (model.h: a member the
 * writers always write reads as 0 then)? false for one it never had a
 * document for (a producer's). */
bool exp_run_lacks(const struct exp_run *run, const char *key);

/* log's entries alone, as an array (--behaviour=log-json-array). */
void log_doc_encode_array(const struct log_doc *doc, struct strbuf *out);

/*
 * Are a and b the same document: every member, the order and the
 * unknown members decode kept? Numbers compare by value (NaN equals
 * NaN).
 */
bool run_doc_equal(const struct run_doc *a, const struct run_doc *b);
bool experiment_doc_equal(const struct experiment_doc *a,
			  const struct experiment_doc *b);
bool job_doc_equal(const struct job_doc *a, const struct job_doc *b);
bool series_doc_equal(const struct series_doc *a, const struct series_doc *b);

/* Members decode kept as unknown, in the whole document. */
size_t run_doc_unknown(const struct run_doc *doc);
size_t experiment_doc_unknown(const struct experiment_doc *doc);
size_t job_doc_unknown(const struct job_doc *doc);
size_t series_doc_unknown(const struct series_doc *doc);

#endif
