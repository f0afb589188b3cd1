/*
 * Naming an arm (arm_name.h): the label, the settings as asked or as
 * set, a value meaning the same, or the arm's number, read alike by
 * every command that takes an arm.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "arm_name.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* How arm_find() looks, strongest first. */
enum arm_by {
	BY_LABEL,   /* the label, with or without its notes */
	BY_SETTING, /* the settings as asked or set, or the value alone */
	BY_MEANING, /* a value the same hook says is the arm's */
	BY_NR_WAYS,
};

/* Is label name, once its " (asked: ...)" notes are left out? */
static int label_is(const char *label, const char *name)
{
	struct strbuf s = STRBUF_INIT;
	const char *p = label, *a, *close;
	int ret;

	if (!strcmp(label, name))
		return 1;
	while ((a = strstr(p, " (asked: ")) && (close = strchr(a, ')'))) {
		strbuf_add(&s, p, (size_t)(a - p));
		p = close + 1;
	}
	strbuf_addstr(&s, p);
	ret = !strcmp(s.buf, name);
	strbuf_release(&s);
	return ret;
}

/* The lookup's state: what it names and how. */
struct look {
	const char *want;
	enum arm_by by;
	arm_same_fn same;
	void *same_ctx;
};

/* Do the len bytes at text spell s's value (BY_SETTING: as asked or as
 * set; BY_MEANING: what the same hook says means it)? */
static int value_is(const struct look *l, const struct arm_spelling *s,
		    const char *text, size_t len)
{
	const char *set = s->set ? s->set : s->asked;
	char *t;
	int ok;

	if (l->by == BY_SETTING)
		return (strlen(s->asked) == len &&
			!memcmp(s->asked, text, len)) ||
		       (strlen(set) == len && !memcmp(set, text, len));
	if (!l->same)
		return 0;
	t = xstrndup(text, len);
	ok = l->same(l->same_ctx, s->name, t, set);
	free(t);
	return ok;
}

/* The length of "NAME=" at p for s's name or set_name, or 0. */
static size_t name_at(const struct arm_spelling *s, const char *p)
{
	const char *n[2] = {s->name, s->set_name};
	size_t i, len;

	for (i = 0; i < 2; i++) {
		if (!n[i])
			continue;
		len = strlen(n[i]);
		if (!strncmp(p, n[i], len) && p[len] == '=')
			return len + 1;
	}
	return 0;
}

/*
 * Does p spell the settings s[0..nr), "NAME=VALUE" each, separated by
 * one space? A value ends where the next factor's " NAME=" starts (each
 * such place is tried: a value may hold one) or, for the last, at the
 * end.
 */
static int settings_at(const struct look *l, const struct arm_spelling *s,
		       size_t nr, const char *p)
{
	const char *v, *end;
	size_t n;

	if (!nr)
		return !*p;
	n = name_at(&s[0], p);
	if (!n)
		return 0;
	v = p + n;
	if (nr == 1)
		return value_is(l, &s[0], v, strlen(v));
	for (end = strchr(v, ' '); end; end = strchr(end + 1, ' '))
		if (name_at(&s[1], end + 1) &&
		    value_is(l, &s[0], v, (size_t)(end - v)) &&
		    settings_at(l, s + 1, nr - 1, end + 1))
			return 1;
	return 0;
}

/* Does l->want name arm a the way l->by says? */
static int names(const struct look *l, const struct arm_names *a)
{
	if (l->by == BY_LABEL)
		return a->label && label_is(a->label, l->want);
	if (a->nr == 1 && value_is(l, &a->s[0], l->want, strlen(l->want)))
		return 1;
	return settings_at(l, a->s, a->nr, l->want);
}

/* The number "N" (digits only, no sign) names, 1.. ; 0 when none. */
static size_t arm_number(const char *name)
{
	size_t k = 0;

	if (!*name || strspn(name, "0123456789") != strlen(name) ||
	    strlen(name) > 6)
		return 0;
	for (; *name; name++)
		k = k * 10 + (size_t)(*name - '0');
	return k;
}

/* The label of arm i, for messages. */
static const char *label_of(const struct arm_names *arms, size_t i)
{
	return arms[i].label ? arms[i].label : "";
}

int arm_find(const struct arm_names *arms, size_t nr, const char *want,
	     arm_same_fn same, void *same_ctx, size_t *idx, struct strbuf *err)
{
	struct look l = {want, BY_LABEL, same, same_ctx};
	size_t i, hit = 0, n = 0, k;

	if (want[0] == '#') {
		k = arm_number(want + 1);
		if (k < 1 || k > nr)
			return -ENOENT;
		*idx = k - 1;
		return 0;
	}
	for (; l.by < BY_NR_WAYS && !n; l.by++) {
		for (i = 0; i < nr; i++) {
			if (!names(&l, &arms[i]))
				continue;
			if (n++ && l.by != BY_LABEL)
				return err_set(
				    err, -EINVAL,
				    "'%s' names two arms, %zu ('%s') and %zu "
				    "('%s'); give '#%zu' or '#%zu'",
				    want, hit + 1, label_of(arms, hit), i + 1,
				    label_of(arms, i), hit + 1, i + 1);
			if (n == 1)
				hit = i;
		}
		if (n)
			break;
	}
	k = arm_number(want);
	if (n && k >= 1 && k <= nr && hit != k - 1) {
		if (l.by == BY_LABEL)
			return err_set(err, -EINVAL,
				       "'%s' is both the label of arm %zu and "
				       "the number of arm %zu ('%s'); give "
				       "'#%zu' for arm %zu, or '#%zu' for the "
				       "arm labelled '%s'",
				       want, hit + 1, k, label_of(arms, k - 1),
				       k, k, hit + 1, want);
		return err_set(err, -EINVAL,
			       "'%s' is both a setting of arm %zu ('%s') and "
			       "the number of arm %zu ('%s'); give '#%zu' for "
			       "arm %zu, or '#%zu' for arm %zu",
			       want, hit + 1, label_of(arms, hit), k,
			       label_of(arms, k - 1), k, k, hit + 1, hit + 1);
	}
	if (n) {
		*idx = hit;
		return 0;
	}
	if (k >= 1 && k <= nr) {
		*idx = k - 1;
		return 0;
	}
	return -ENOENT;
}
