/*
 * The environment a result was measured in: kernel, machine, memory, the
 * writeback sysctls, the target's device stack with its queue settings,
 * and our own version. Every run carries one (as "env"), so a result read
 * months later still says where it came from, and two results compared
 * across machines, kernels or settings are flagged instead of silently
 * trusted.
 */
#ifndef IOTRIAL_ENV_H
#define IOTRIAL_ENV_H

#include <stdint.h>
#include "../targets/devstack.h"
#include "../model/env_doc.h"
#include "../targets/target.h"
#include "../../util/strbuf.h"

/* One vm.* sysctl value. */
struct env_sysctl {
	const char *name; /* "dirty_ratio": static, under vm. */
	long long value;  /* -1 when it could not be read */
};

#define ENV_NR_VM 6

/* A snapshot. Strings are owned; NULL when not known. */
struct env {
	char *iotrial_version;
	char *kernel_release; /* uname -r */
	char *kernel_version; /* uname -v: build number and date */
	char *machine;	      /* uname -m */
	char *hostname;
	char *boot_id;			 /* changes on every boot */
	char *cpu_model;		 /* /proc/cpuinfo "model name" */
	unsigned nr_cpus;		 /* online */
	uint64_t mem_total_bytes;	 /* MemTotal */
	struct env_sysctl vm[ENV_NR_VM]; /* the vm.dirty_* family */
	int have_stack;
	struct devstack stack; /* the target's, when one was given */
};

/*
 * Take a snapshot; path (may be NULL: no stack) is resolved with
 * devstack_resolve_path. Missing machine facts are left unknown, not
 * errors. Returns 0, or -errno with err set when path cannot be examined
 * (the rest of e is still filled). Release e either way.
 */
int env_capture(struct env *e, const char *path, struct strbuf *err);

/* The same for a target opened by target_open(). */
int env_capture_target(struct env *e, const struct target *t,
		       struct strbuf *err);

/* Free the contents; e is left zeroed. NULL is fine. */
void env_release(struct env *e);

/* The snapshot as the "env" document of a run (out: initialised here;
 * env_doc_release() it). */
void env_to_doc(const struct env *e, struct env_doc *out);

/*
 * Compare two environments (a or b may be NULL: none recorded). Members
 * named in ignore (a NULL-terminated list, matched at any depth; NULL
 * ignores nothing) are skipped: pass the names of the factors an
 * experiment varies, such as "scheduler". "boot_id" is always skipped: a
 * reboot alone does not make results incomparable. Appends one line per
 * difference to out ("kernel_release: '6.1.0' vs '6.6.0'") and returns
 * how many there were; 0 means comparable.
 */
int env_doc_diff(const struct env_doc *a, const struct env_doc *b,
		 const char *const *ignore, struct strbuf *out);

#endif
