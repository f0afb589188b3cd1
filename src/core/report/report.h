/*
 * Rendering experiments for people. Reports read only the experiment
 * document (never live structures), so `compare`, `show` and `report`
 * print the same thing from the same data: the page (page.h), its
 * sections written through a format's emitter (emit.h).
 */
#ifndef IOTRIAL_REPORT_H
#define IOTRIAL_REPORT_H

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

#endif
