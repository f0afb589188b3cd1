/*
 * Rendering experiments for people. Reports read only the experiment
 * document (never live structures), so `compare`, `show` and `report`
 * print the same thing from the same data: the page (page.h), its
 * sections written through a format's emitter (emit.h).
 *
 * The calls taking a json_object are for the commands that still hold a
 * tree (report_tree.c): each decodes it (model/model_tree.h) and renders
 * the document, and goes when the producers have moved to the model.
 */
#ifndef IOTRIAL_REPORT_H
#define IOTRIAL_REPORT_H

#include <json-c/json.h>
#include "fmt.h"
#include "../../util/strbuf.h"

struct experiment_doc; /* model/experiment_doc.h */

/*
 * The verdict summary of an experiment, one line as `log` lists it:
 * "2 arms: scheduler=mq-deadline faster 1.08x", or for one arm "5 runs,
 * median 12.3k iops". Appends to out.
 */
void report_doc_verdict_summary(const struct experiment_doc *doc,
				struct strbuf *out);

/* The labels of doc's arms, ", "-separated, appended to out. */
void report_doc_arm_labels(const struct experiment_doc *doc,
			   struct strbuf *out);

/*
 * The verdict part of the text page (page.h's REPORT_PAGE_VERDICTS): a
 * benchstat-like table (arm, median with its CI, CV, ratio to the
 * baseline with its CI, p (Holm-adjusted) and the verdict), the effects
 * of each factor, the scaling tables, the other metrics, the warnings;
 * a single run is its run's summary instead, the text `run` printed
 * (run_text.h). What `compare`, `import`, `fleet merge` and `observe`
 * print. Returns 0, or -EINVAL with err set when exp is not an
 * experiment.
 */
int report_experiment_text(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err);

/* The answer of a tune or a bisection (the tune section), what
 * `iotrial tune` and `bisect` print after their runs; nothing for
 * another kind. 0, or -EINVAL with err set when exp is not an
 * experiment. */
int report_tune_text(struct json_object *exp, struct strbuf *out,
		     struct strbuf *err);

/* The live section of an observe experiment (switchback, or what was
 * measured before a stop); nothing for another kind. */
void report_live_text(struct json_object *exp, struct strbuf *out);

/* exp in format, as `report --format` renders it (report_formats.h's
 * report_render()); report_experiment_html() is its HTML. 0, or
 * -EINVAL with err set. */
int report_render_tree(struct json_object *exp, const char *format,
		       struct strbuf *out, struct strbuf *err);
int report_experiment_html(struct json_object *exp, struct strbuf *out,
			   struct strbuf *err);

#endif
