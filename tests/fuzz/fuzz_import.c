/*
 * libFuzzer target for core/import: the readers of iotrial/1 run objects,
 * experiment objects and fio --output-format=json reports. The input is
 * not NUL-terminated, so AddressSanitizer sees any read past its end.
 * Its length picks the --metric (none, iops, mbps). What every caller
 * assumes is checked: an accepted run has a positive finite metric, a
 * name, a workload and a target string; an error is one line naming the
 * source; accepted runs build an experiment that the analysis takes;
 * and whole experiments are analysed as `import` does, without a crash.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/experiment/experiment.h"
#include "core/experiment/import.h"
#include "core/experiment/analyze_doc.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* An accepted run: two copies as two arms, built and analysed. */
static void build_and_analyse(const struct import_run *r)
{
	struct import_run runs[2] = {*r, *r};
	struct import_arm arms[2] = {
	    {"a", &runs[0], 1},
	    {"b", &runs[1], 1},
	};
	struct analysis_opts o = {0};
	struct strbuf err = STRBUF_INIT;
	struct experiment_doc exp;

	o.alpha = 0.05;
	o.margin = 0.02;
	o.conf = 0.95;
	check(import_build_experiment(arms, 2, NULL, &exp, &err) == 0);
	check(exp.nr_runs == 2);
	check(experiment_analyze_full(&exp, &o, &err) == 0);
	experiment_doc_release(&exp);
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const metrics[] = {NULL, "iops", "mbps"};
	struct strbuf err = STRBUF_INIT;
	struct import_run r;
	char *buf = malloc(size ? size : 1);
	size_t i;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ret = import_parse(buf, size, "fuzz.json", metrics[size % 3], &r, &err);
	if (ret) {
		check(ret == -EINVAL);
		check(!r.doc.run && !r.doc.exp && !r.doc.fio && !r.source);
		check(strstr(err.buf, "fuzz.json") != NULL ||
		      strstr(err.buf, "metric") != NULL);
		for (i = 0; i < err.len; i++)
			check(err.buf[i] != '\n');
	} else if (r.kind == IMPORT_EXPERIMENT) {
		struct analysis_opts o = {0};

		/* import re-analyses whole experiments as they come */
		o.alpha = 0.05;
		o.margin = 0.02;
		o.conf = 0.95;
		o.paired = true;
		ret = experiment_analyze_full(r.doc.exp, &o, &err);
		check(ret == 0 || ret == -EINVAL);
	} else {
		check((r.doc.run || r.doc.fio) && r.metric && *r.metric);
		check(r.workload && r.target);
		check(isfinite(r.value) && r.value > 0);
		if (size % 3)
			check(!strcmp(r.metric, metrics[size % 3]));
		build_and_analyse(&r);
	}
	import_run_release(&r);
	strbuf_release(&err);
	free(buf);
	return 0;
}
