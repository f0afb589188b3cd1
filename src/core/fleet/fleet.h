/*
 * Fleets: the same experiment on many hosts, run through Ansible, merged
 * into one verdict. iotrial grows no remote agent: admins already reach
 * their hosts with an inventory, privilege escalation and parallelism.
 * fleet_plan_playbook() writes the playbook that runs one compare per
 * host and fetches its experiment JSON back; fleet_merge() turns those
 * files into one fleet experiment.
 *
 * The fleet experiment is an ordinary experiment object (experiment.h)
 * in which each host that delivered a result is a block: one run per
 * arm and host, "block" the host's index, "host" its name. The unit is
 * the host's own ratio of each arm to the baseline (the paired estimate
 * of its runs; the ratio of its medians when it has none), computed
 * again from the runs in its file, never taken from the file's
 * verdicts (fleet_check.c): the
 * baseline's run holds the host's baseline median and an arm's run that
 * median times the host's ratio, so the paired analysis of
 * experiment_analyze_built() works on exactly the per-host log ratios:
 * the Wilcoxon signed-rank test across hosts, the Hodges-Lehmann
 * estimate of the typical ratio with its signed-rank interval, Holm
 * across arms. Four hosts at least give a verdict, six can be
 * significant at 5%.
 *
 * On top of that each verdict gets "hosts" (how many hosts' own verdicts,
 * as their runs give them, said faster, slower, equivalent,
 * inconclusive, no verdict) and
 * "agreement": "all faster", "all slower", "all equivalent", "no
 * contradiction" or "mixed". When some hosts are faster and others
 * slower the verdict is "mixed" (the pooled one is kept as
 * "pooled_verdict"): an effect that helps half the fleet and hurts the
 * other half is not averaged into "equivalent". The object's "fleet"
 * member lists every host, failed ones with their error; a host whose
 * `iotrial revert` did not run or failed has "revert" ("not run",
 * "failed") and "revert_error", is failed (keeping the error of the task
 * that failed first, if one did) and is named in "warnings" and in
 * "revert_not_done", so the admin knows it may still hold a change:
 *
 *   "fleet": {"hosts": [{"host": "h1", "status": "ok", "block": 0,
 *                        "source": "fleet/h1.json", "id": "3f9a1c2e",
 *                        "kernel": "6.1.0-18-amd64",
 *                        "devices": "loop:none", "differs": ["kernel"],
 *                        "consistent": true,
 *                        "verdicts": [{"arm": 1, "label":..,
 *                                      "ratio":.., "ci_low":..,
 *                                      "ci_high":.., "p_adjusted":..,
 *                                      "verdict": "faster"}]},
 *                       {"host": "h2", "status": "failed",
 *                        "task": "iotrial version",
 *                        "error": "..."}],
 *             "nr_hosts": 2, "nr_ok": 1, "nr_failed": 1,
 *             "revert_not_done": ["h2"],
 *             "reference": {"kernel":.., "devices":..}}
 *
 * A host whose file states a verdict its runs do not give has
 * "consistent": false, the file's verdict as "stated" in that entry of
 * "verdicts", and a warning naming both.
 *
 * "devices" is the target's device stack as "driver/model:scheduler"
 * per device; a host whose kernel or devices differ from what most hosts
 * have is flagged in "differs" and in "warnings".
 */
#ifndef IOTRIAL_FLEET_H
#define IOTRIAL_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include "../model/experiment_doc.h"
#include "../store/store.h"
#include "../../util/strbuf.h"

/* One host's result as read: an experiment, or why there is none. */
struct fleet_host {
	char *name;		    /* inventory name, from the file name */
	char *source;		    /* the file it came from */
	struct experiment_doc *exp; /* its experiment, decoded (owned), or
				       NULL */
	char *task;		    /* the task that failed, or NULL */
	char *error;		    /* why the host failed, or NULL */
	char *revert;		    /* its revert: "ok", "failed", "not run";
				       NULL: none was due (or no record) */
	char *revert_error;	    /* why it failed or did not run, or NULL */
};

/* The hosts of a fleet run. */
struct fleet_hosts {
	struct fleet_host *hosts;
	size_t nr, alloc;
};

/*
 * Read one result file into h: HOST.json (an experiment object),
 * HOST.error (a JSON object {"host", "task", "rc", "error"} the
 * playbook writes when a host fails, or a placeholder left when it
 * never got to the end) or HOST.revert ({"host", "revert", "rc",
 * "error", "output"}: what came of the host's `iotrial revert`). A file
 * that cannot be read or parsed makes that host failed with the reason;
 * a host named twice keeps its error over its result. Returns 0, or
 * -EINVAL with err set for a name that is none of these.
 */
int fleet_hosts_read_file(struct fleet_hosts *h, const char *path,
			  struct strbuf *err);

/*
 * Read every HOST.json and HOST.error of dir, or of dir/fleet when that
 * exists (the directory of the playbook). Returns 0, -ENOENT with err
 * set when there is none, or another -errno.
 */
int fleet_hosts_read_dir(struct fleet_hosts *h, const char *dir,
			 struct strbuf *err);

/* Add a host by hand: exp (taken over: h frees it, also when it keeps
 * the host's error instead) or error. */
void fleet_hosts_add(struct fleet_hosts *h, const char *name,
		     const char *source, struct experiment_doc *exp,
		     const char *task, const char *error);
/* Say what came of host name's revert (fleet_host.revert), why. */
void fleet_hosts_set_revert(struct fleet_hosts *h, const char *name,
			    const char *revert, const char *why);

void fleet_hosts_release(struct fleet_hosts *h);

/*
 * The fleet experiment of h (see the top of this file), analysed, with
 * hosts sorted by name. The reference is the first good host whose
 * factors and arm settings most good hosts share; hosts whose
 * experiment does not fit it (another workload, metric, set of arms,
 * factors or settings) are failed with the difference named, and so
 * are hosts whose revert did not run or failed. out is initialised
 * here (release it even after an error). Returns 0 with out filled and
 * *out_partial true when some host failed, or -EINVAL with err set when
 * no host has a result.
 */
int fleet_merge(struct fleet_hosts *h, struct experiment_doc *out,
		bool *out_partial, struct strbuf *err);

/*
 * fleet_merge(), then the fleet experiment kept in the results store at
 * db (NULL: the default) unless db_skip: its id into out_id ("" when
 * not kept). Returns 0, or -errno with err set when the merge or the
 * store failed (out then holds the merged experiment, or nothing).
 */
int fleet_merge_keep(struct fleet_hosts *h, const char *db, bool db_skip,
		     struct experiment_doc *out, bool *out_partial,
		     char out_id[STORE_ID_LEN + 1], struct strbuf *err);

/* What fleet_plan_playbook() needs. */
struct fleet_plan {
	const char *const *argv; /* the compare: "compare", WORKLOAD, ... */
	int argc;
	const char *hosts;   /* the play's host pattern (--limit); NULL:
				"all" */
	int forks;	     /* parallel hosts; 0: Ansible's default */
	const char *binary;  /* copy this iotrial to the hosts, or NULL */
	const char *version; /* the version hosts must run: the
				controller's, or with binary what it
				says; NULL: binary did not run here */
	bool become;	     /* run iotrial with privilege escalation */
};

/*
 * The playbook text of p into out. Each host: a placeholder error file
 * first (kept when the host is unreachable), the kernel (Linux)
 * checked, a private scratch directory made on the host (under
 * iotrial_tmp, default the host's temporary directory), iotrial's
 * version checked (after --binary is copied there), the compare run
 * with --json into the scratch directory on the host's target (host
 * variable iotrial_target, else the compare's -t), its JSON fetched to
 * fleet/HOST.json beside the playbook; on failure the error written to
 * fleet/HOST.error (the task, its signal or exit status, its stderr,
 * Ansible's connection error). Once the compare has started,
 * `iotrial revert` runs at the end whatever happened, also after the
 * connection dropped, and fleet/HOST.revert says what came of it
 * ("ok", "failed", or "not run": written before the compare starts, it
 * stays when the play ends for the host before the revert), and the
 * scratch directory goes. Host variables: iotrial_bin
 * (default "iotrial"), iotrial_target, iotrial_environment (a dict of
 * environment variables), iotrial_tmp. Returns 0, or -EINVAL with err
 * set (an argument Ansible would template, no workload).
 */
int fleet_plan_playbook(const struct fleet_plan *p, struct strbuf *out,
			struct strbuf *err);

/*
 * The hosts `ansible-playbook --list-hosts` printed in text, into out
 * (one name per line, replacing what out held); returns how many.
 */
size_t fleet_parse_list_hosts(const char *text, struct strbuf *out);

#endif
