/*
 * Where a job file's run puts its files (job_target.c): shared by the job
 * runner (job.c) and the files its sections share (job_share.c).
 */
#ifndef IOTRIAL_CLI_JOB_TARGET_H
#define IOTRIAL_CLI_JOB_TARGET_H

#include "../core/workload/fiojob_map.h"
#include "../util/strbuf.h"

/*
 * Where run r's files go, into spec: -t when given (a filename= then
 * lands inside it), else directory=, else the directory of an absolute
 * filename=, else $TMPDIR or /tmp. A filename= that is a block device
 * is refused unless -t names that device. 0 or -EINVAL with err set.
 */
int job_cli_target(const struct fiojob_run *r, const char *cli_target,
		   struct strbuf *spec, struct strbuf *err);

#endif
