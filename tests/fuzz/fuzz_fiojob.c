/*
 * libFuzzer target for workload/fiojob and fiojob_map: the input is a
 * job file. It is read (includes refused: no file system here, ${VAR}
 * answered by a fixed lookup), then mapped strictly and leniently. What
 * must hold: no crash, no leak, an error always comes with a message,
 * and every mapped run has a workload, parameters of the form
 * "name=value" and a group that never goes backwards.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/workload/fiojob.h"
#include "core/workload/fiojob_map.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* ${A} is "4k", ${B} is "", anything else is unset. */
static const char *fuzz_env(const char *name, void *ctx)
{
	(void)ctx;
	if (!strcmp(name, "A"))
		return "4k";
	if (!strcmp(name, "B"))
		return "";
	return NULL;
}

static void map_once(const struct fiojob *j, int lenient, uint64_t time_ns)
{
	const char *const params[] = {"size=16M"};
	struct fiojob_overrides ov = {NULL, params, time_ns ? 1 : 0, time_ns,
				      lenient};
	struct strbuf err = STRBUF_INIT, warn = STRBUF_INIT;
	struct fiojob_plan plan;
	unsigned i, k;
	int ret = fiojob_map(j, &ov, &plan, &warn, &err);

	check(!ret || err.len > 0);
	for (i = 0; !ret && i < plan.nr; i++) {
		uint64_t ios = 0;

		check(plan.runs[i].workload != NULL);
		check(!i || plan.runs[i].group >= plan.runs[i - 1].group);
		for (k = 0; k < plan.runs[i].nr_params; k++)
			check(strchr(plan.runs[i].params[k], '=') != NULL);
		strbuf_reset(&err);
		if (fiojob_run_resolve(&plan.runs[i], (int)(i & 1), 1ull << 30,
				       &ios, &err))
			check(err.len > 0);
	}
	fiojob_plan_release(&plan);
	strbuf_release(&err);
	strbuf_release(&warn);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT;
	struct fiojob j;
	int ret;

	fiojob_init(&j);
	j.getenv = fuzz_env;
	j.no_include = 1;
	ret = fiojob_parse_buf(&j, "fuzz.fio", (const char *)data, size, &err);
	check(!ret || err.len > 0);
	if (!ret) {
		map_once(&j, 0, 0);
		map_once(&j, 1, 1000000000ull);
	}
	fiojob_release(&j);
	strbuf_release(&err);
	return 0;
}
