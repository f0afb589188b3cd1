/*
 * No flag days: the behaviour a script pinned, and the registry of
 * deprecations (docs/COMPATIBILITY.md).
 *
 * A script says which release's behaviour it expects (--compat=VERSION,
 * IOTRIAL_COMPAT) or names one behaviour of a deprecation explicitly
 * (--behaviour=NAME): the old one to keep it, the new one to adopt it
 * early. Either way it has prepared, so it is never warned about that
 * deprecation. The mechanism exists before anything changes: today every
 * version up to this binary's selects the current behaviour, and a
 * version newer than this binary is refused, since it cannot know what
 * that release does.
 *
 * Each registry entry names the old behaviour, the release that
 * deprecated it, the switch that keeps it and the switch that enables
 * the new one. Whether a warning may be printed is a pure function of
 * the entry, this release and what the script chose (compat_warns()),
 * so the rule of the procedure (no warning before the release it
 * allows) is tested, not remembered.
 */
#ifndef IOTRIAL_COMPAT_H
#define IOTRIAL_COMPAT_H

#include <stdbool.h>
#include "../../util/strbuf.h"

/* A release number, MAJOR.MINOR[.PATCH]. */
struct compat_version {
	unsigned major, minor, patch;
};

/* The behaviours that have an old way, indexes into the registry. */
enum compat_id {
	/* --fail-on-regression: does a slower arm that iotrial flagged
	 * count? */
	COMPAT_REGRESSION_FLAGGED,
	/* diff of experiments that are not like for like: a verdict? */
	COMPAT_DIFF_UNLIKE,
	/* log --json: a bare array, or an object with "schema"? */
	COMPAT_LOG_ARRAY,
	COMPAT_NR,
};

/* One deprecation. */
struct compat_entry {
	const char *old_name; /* --behaviour value that keeps the old one */
	const char *new_name; /* --behaviour value that enables the new */
	const char *old_text; /* what the old behaviour does, one line */
	const char *new_text; /* what the new one does */
	const char *deprecated_in; /* the release that deprecated the old */
	/* the first release whose default is the new behaviour; NULL when it
	 * changed before the first release (only the switch selects the
	 * old one then, no --compat version does) */
	const char *new_default_in;
	/* the first release that may warn about it (the procedure's second
	 * step); NULL while none is scheduled */
	const char *warn_from;
	const char *removed_in; /* when the old one may go; NULL: not set */
};

/* What a script chose for one entry. */
enum compat_choice {
	COMPAT_DEFAULT, /* nothing named */
	COMPAT_OLD,	/* the old behaviour named */
	COMPAT_NEW,	/* the new behaviour named */
};

/* The choices of one invocation. */
struct compat {
	struct compat_version current; /* this binary's release */
	struct compat_version pinned;  /* --compat; = current when unset */
	bool is_pinned;		       /* --compat or IOTRIAL_COMPAT given */
	enum compat_choice choice[COMPAT_NR];
};

/* The registry, COMPAT_NR entries indexed by enum compat_id. */
extern const struct compat_entry compat_registry[COMPAT_NR];

/*
 * Parse "0.1" or "0.1.0" into out. Returns 0, or -EINVAL with err
 * naming the text when it is not MAJOR.MINOR[.PATCH].
 */
int compat_version_parse(const char *s, struct compat_version *out,
			 struct strbuf *err);
/* <0, 0, >0 as a is before, the same as, or after b. */
int compat_version_cmp(const struct compat_version *a,
		       const struct compat_version *b);

/* Start c for this binary's release current (IOTRIAL_VERSION). Returns
 * 0, or -EINVAL when current cannot be parsed. */
int compat_init(struct compat *c, const char *current, struct strbuf *err);

/*
 * --compat=VERSION: select the behaviour of that release. A release
 * newer than this binary is -EINVAL with err naming both; one before
 * the first release (0.1) too, since there was none. Every other value
 * is accepted and, today, selects the current behaviour.
 */
int compat_pin(struct compat *c, const char *version, struct strbuf *err);

/*
 * --behaviour=NAME: NAME is an old_name or new_name of the registry.
 * Returns 0, or -EINVAL with err listing the names.
 */
int compat_choose(struct compat *c, const char *name, struct strbuf *err);

/* Is the old behaviour of id in effect: named, or pinned to a release
 * before the new one became the default? */
bool compat_old(const struct compat *c, enum compat_id id);

/*
 * May a warning about entry id be printed in this release? Only when
 * the entry has a warn_from at or before the current release, the old
 * behaviour is in effect, and the script named neither behaviour nor
 * pinned a version (naming either silences it ahead of time). When it
 * may, out (may be NULL) gets the warning's text.
 */
bool compat_warns(const struct compat *c, enum compat_id id,
		  struct strbuf *out);

/* compat_warns() for any entry e (the registry's or a test's), with the
 * script's choice for it. */
bool compat_entry_warns(const struct compat_entry *e, const struct compat *c,
			enum compat_choice choice, struct strbuf *out);

/* The registry for people (`iotrial help compat`), appended to out. */
void compat_describe(const struct compat *c, struct strbuf *out);

#endif
