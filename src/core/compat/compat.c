/*
 * The deprecation registry and the rules of note-000's procedure; see
 * compat.h. The entries are behaviours that changed before the
 * first release without the procedure: they get it now, late, so a
 * script that relied on the old way can still ask for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compat.h"
#include "../../util/error.h"
#include "../../util/banned.h"

/* The first release; there is no behaviour before it to pin. */
static const struct compat_version first_release = {0, 1, 0};

const struct compat_entry compat_registry[COMPAT_NR] = {
    [COMPAT_REGRESSION_FLAGGED] =
	{
	    .old_name = "regression-counts-flagged",
	    .new_name = "regression-skips-flagged",
	    .old_text = "--fail-on-regression counts every slower arm, "
			"flagged or not",
	    .new_text = "--fail-on-regression counts a flagged slower arm "
			"only with --strict",
	    .deprecated_in = "0.1",
	    .new_default_in = NULL,
	    .warn_from = NULL,
	    .removed_in = NULL,
	},
    [COMPAT_DIFF_UNLIKE] =
	{
	    .old_name = "diff-verdict-unlike",
	    .new_name = "diff-refuse-unlike",
	    .old_text = "diff gives a verdict on experiments that are not "
			"like for like",
	    .new_text = "diff lists what differs and exits 2 (--force gives "
			"the verdict)",
	    .deprecated_in = "0.1",
	    .new_default_in = NULL,
	    .warn_from = NULL,
	    .removed_in = NULL,
	},
    [COMPAT_LOG_ARRAY] =
	{
	    .old_name = "log-json-array",
	    .new_name = "log-json-object",
	    .old_text = "log --json prints a bare array of experiments",
	    .new_text = "log --json prints {\"schema\", \"experiments\": "
			"[...]}",
	    .deprecated_in = "0.1",
	    .new_default_in = NULL,
	    .warn_from = NULL,
	    .removed_in = NULL,
	},
};

int compat_version_parse(const char *s, struct compat_version *out,
			 struct strbuf *err)
{
	unsigned long part[3] = {0, 0, 0};
	const char *p = s;
	int i;

	for (i = 0; i < 3; i++) {
		char *end;

		if (*p < '0' || *p > '9')
			break;
		part[i] = strtoul(p, &end, 10);
		if (part[i] > 9999)
			break;
		p = end;
		if (*p != '.' || i == 2)
			break;
		p++;
	}
	if (i < 1 || *p || p == s || p[-1] == '.')
		return err_set(err, -EINVAL,
			       "invalid release '%s': expected MAJOR.MINOR "
			       "or MAJOR.MINOR.PATCH, such as 0.1",
			       s);
	out->major = (unsigned)part[0];
	out->minor = (unsigned)part[1];
	out->patch = (unsigned)part[2];
	return 0;
}

int compat_version_cmp(const struct compat_version *a,
		       const struct compat_version *b)
{
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	if (a->patch != b->patch)
		return a->patch < b->patch ? -1 : 1;
	return 0;
}

int compat_init(struct compat *c, const char *current, struct strbuf *err)
{
	int i, ret;

	ret = compat_version_parse(current, &c->current, err);
	c->pinned = c->current;
	c->is_pinned = false;
	for (i = 0; i < COMPAT_NR; i++)
		c->choice[i] = COMPAT_DEFAULT;
	return ret;
}

int compat_pin(struct compat *c, const char *version, struct strbuf *err)
{
	struct compat_version v;
	int ret = compat_version_parse(version, &v, err);

	if (ret)
		return ret;
	if (compat_version_cmp(&v, &c->current) > 0)
		return err_set(err, -EINVAL,
			       "release %u.%u.%u is newer than this iotrial "
			       "(%u.%u.%u), which cannot know its behaviour; "
			       "upgrade iotrial or give a release up to "
			       "%u.%u.%u",
			       v.major, v.minor, v.patch, c->current.major,
			       c->current.minor, c->current.patch,
			       c->current.major, c->current.minor,
			       c->current.patch);
	if (compat_version_cmp(&v, &first_release) < 0)
		return err_set(err, -EINVAL,
			       "there is no iotrial release before 0.1; the "
			       "old behaviours of changes made before it are "
			       "named with --behaviour ('iotrial help "
			       "compat')");
	c->pinned = v;
	c->is_pinned = true;
	return 0;
}

int compat_choose(struct compat *c, const char *name, struct strbuf *err)
{
	int i;

	for (i = 0; i < COMPAT_NR; i++) {
		if (!strcmp(name, compat_registry[i].old_name)) {
			c->choice[i] = COMPAT_OLD;
			return 0;
		}
		if (!strcmp(name, compat_registry[i].new_name)) {
			c->choice[i] = COMPAT_NEW;
			return 0;
		}
	}
	err_set(err, -EINVAL, "unknown behaviour '%s'; known:", name);
	for (i = 0; i < COMPAT_NR; i++)
		strbuf_addf(err, "%s %s, %s", i ? "," : "",
			    compat_registry[i].old_name,
			    compat_registry[i].new_name);
	return -EINVAL;
}

/* Is e's old behaviour in effect under c, with choice for it? */
static bool entry_old(const struct compat_entry *e, const struct compat *c,
		      enum compat_choice choice)
{
	struct compat_version nd;

	if (choice != COMPAT_DEFAULT)
		return choice == COMPAT_OLD;
	if (!e->new_default_in ||
	    compat_version_parse(e->new_default_in, &nd, NULL))
		return false; /* changed before the first release */
	/* pinned before the release whose default is the new one, or a
	 * default that has not changed yet */
	return compat_version_cmp(c->is_pinned ? &c->pinned : &c->current,
				  &nd) < 0;
}

bool compat_old(const struct compat *c, enum compat_id id)
{
	return entry_old(&compat_registry[id], c, c->choice[id]);
}

bool compat_entry_warns(const struct compat_entry *e, const struct compat *c,
			enum compat_choice choice, struct strbuf *out)
{
	struct compat_version wf;

	if (!e->warn_from || compat_version_parse(e->warn_from, &wf, NULL))
		return false;
	if (compat_version_cmp(&c->current, &wf) < 0)
		return false; /* the procedure allows no warning yet */
	if (choice != COMPAT_DEFAULT || c->is_pinned)
		return false; /* prepared: silenced ahead of time */
	if (!entry_old(e, c, choice))
		return false;
	if (out)
		strbuf_addf(out,
			    "%s: deprecated since %s and to change; "
			    "--behaviour=%s keeps it, --behaviour=%s adopts "
			    "the new one now (%s)",
			    e->old_text, e->deprecated_in, e->old_name,
			    e->new_name, e->new_text);
	return true;
}

bool compat_warns(const struct compat *c, enum compat_id id, struct strbuf *out)
{
	return compat_entry_warns(&compat_registry[id], c, c->choice[id], out);
}

void compat_describe(const struct compat *c, struct strbuf *out)
{
	int i;

	strbuf_addf(out,
		    "This is iotrial %u.%u.%u. --compat=VERSION (or "
		    "IOTRIAL_COMPAT=VERSION) selects\nthe behaviour of a "
		    "release, 0.1 up to this one; today every such value "
		    "means\nthe current behaviour. --behaviour=NAME (or "
		    "IOTRIAL_BEHAVIOUR=NAME,NAME)\nnames one behaviour of a "
		    "deprecation: the old one keeps it, the new one\nadopts "
		    "it early; naming either silences its warning before "
		    "any is printed.\n",
		    c->current.major, c->current.minor, c->current.patch);
	if (c->is_pinned)
		strbuf_addf(out, "Pinned now: %u.%u.%u.\n", c->pinned.major,
			    c->pinned.minor, c->pinned.patch);
	strbuf_addstr(out, "\nDeprecations:\n");
	for (i = 0; i < COMPAT_NR; i++) {
		const struct compat_entry *e = &compat_registry[i];

		strbuf_addf(out,
			    "\n  old: %s\n  new: %s\n"
			    "  deprecated in %s; new default %s%s;\n"
			    "  warnings %s%s; old behaviour removed %s%s\n"
			    "  keep the old: --behaviour=%s\n"
			    "  take the new: --behaviour=%s\n"
			    "  in effect now: %s\n",
			    e->old_text, e->new_text, e->deprecated_in,
			    e->new_default_in ? "from " : "",
			    e->new_default_in ? e->new_default_in
					      : "before the first release",
			    e->warn_from ? "from " : "",
			    e->warn_from ? e->warn_from : "not scheduled",
			    e->removed_in ? "in " : "",
			    e->removed_in ? e->removed_in : "not scheduled",
			    e->old_name, e->new_name,
			    compat_old(c, (enum compat_id)i) ? "old" : "new");
	}
}
