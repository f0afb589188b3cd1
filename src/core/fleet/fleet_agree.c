/*
 * What the hosts' experiments must agree on before they are merged
 * (fleet.h): the same factors, the same arms setting the same values.
 * A fleet experiment says what was set on every host, and is exported
 * and applied fleet-wide, so no host's file may decide that alone: a
 * host that ran something else is refused with the difference named.
 * Also the environment of the merged object, which describes the fleet
 * and the controller that merged it, not one of the hosts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "fleet.h"
#include "fleet-int.h"
#include "../model/model_json.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../version.h"
#include "../../util/banned.h"

/* s, or "" for none. */
static const char *str(const char *s)
{
	return s ? s : "";
}

/* The values of factor f, "a,b,c", into out. */
static void factor_values(const struct exp_factor *f, struct strbuf *out)
{
	size_t i;

	for (i = 0; i < f->nr_values; i++)
		strbuf_addf(out, "%s%s", i ? "," : "", str(f->values[i]));
}

/* A factor as a phrase for the difference: "'name' (kind) = a,b". */
static void factor_phrase(const struct exp_factor *f, struct strbuf *out)
{
	if (!f) {
		strbuf_addstr(out, "none");
		return;
	}
	strbuf_addf(out, "'%s' (%s) = ", str(f->name), str(f->kind));
	factor_values(f, out);
	if (f->canonical && *f->canonical)
		strbuf_addf(out, " (knob '%s')", f->canonical);
}

/* Are the strings a and b (NULL: not there) the same, or both not
 * there? */
static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/*
 * Do factors x and y vary the same thing over the same values? What
 * defines a factor is its name, kind, values and, for a knob, the knob
 * they resolved to; where it was set ("object", "scope": each host's
 * own disk) may differ from host to host.
 */
static int same_factor(const struct exp_factor *x, const struct exp_factor *y)
{
	size_t i;

	if (!x || !y || !same_str(x->name, y->name) ||
	    !same_str(x->kind, y->kind) ||
	    !same_str(x->canonical, y->canonical) ||
	    x->nr_values != y->nr_values)
		return 0;
	for (i = 0; i < x->nr_values; i++)
		if (!same_str(x->values[i], y->values[i]))
			return 0;
	return 1;
}

/*
 * Do exp's factors match ref's, one by one? 0, or -EINVAL with why
 * naming the first that differs: one host's result must not decide
 * what the fleet experiment says was set everywhere.
 */
int fleet_same_factors(const struct experiment_doc *exp,
		       const struct experiment_doc *ref, struct strbuf *why)
{
	size_t ne = exp->has_factors == MODEL_SET ? exp->nr_factors : 0;
	size_t nr = ref->has_factors == MODEL_SET ? ref->nr_factors : 0;
	size_t i, n = ne > nr ? ne : nr;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		const struct exp_factor *x = i < ne ? &exp->factors[i] : NULL;
		const struct exp_factor *y = i < nr ? &ref->factors[i] : NULL;

		if (same_factor(x, y))
			continue;
		factor_phrase(x, &a);
		factor_phrase(y, &b);
		ret = err_set(why, -EINVAL,
			      "its factors are not the fleet's: factor %zu is "
			      "%s on the host, %s in the fleet",
			      i + 1, a.buf, b.buf);
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return ret;
}

/* The value of name in the nr pairs p, or NULL. */
static const char *pair_value(const struct model_pair *p, size_t nr,
			      const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(str(p[i].name), name))
			return str(p[i].value);
	return NULL;
}

/* Do the nr_a pairs a hold what the nr_b pairs b hold, in any order? */
static bool same_pairs(const struct model_pair *a, size_t nr_a,
		       const struct model_pair *b, size_t nr_b)
{
	size_t i;

	if (nr_a != nr_b)
		return false;
	for (i = 0; i < nr_a; i++) {
		const char *o = pair_value(b, nr_b, str(a[i].name));

		if (!o || strcmp(o, str(a[i].value)))
			return false;
	}
	return true;
}

/*
 * Does what arm a asks or sets (asked: its "asked", else its
 * "settings") hold what the same member of arm r does? 0, or -EINVAL
 * with why naming the first setting that differs.
 */
static int same_member(const struct exp_arm *a, const struct exp_arm *r,
		       bool asked, const char *label, struct strbuf *why)
{
	const struct model_pair *pa = asked ? a->asked : a->settings;
	const struct model_pair *pr =
	    r ? (asked ? r->asked : r->settings) : NULL;
	size_t na = asked ? a->nr_asked : a->nr_settings;
	size_t nr = r ? (asked ? r->nr_asked : r->nr_settings) : 0;
	bool sa = (asked ? a->has_asked : a->has_settings) == MODEL_SET;
	bool sr = r && (asked ? r->has_asked : r->has_settings) == MODEL_SET;
	const char *verb = asked ? "asked" : "sets";
	size_t i;

	if ((!sa && !sr) || (sa && sr && same_pairs(pa, na, pr, nr)))
		return 0;
	for (i = 0; sr && i < nr; i++) {
		const char *k = str(pr[i].name);
		const char *o = sa ? pair_value(pa, na, k) : NULL;

		if (o && !strcmp(o, str(pr[i].value)))
			continue;
		return err_set(why, -EINVAL,
			       "its arm '%s' %s %s '%s' on the host, "
			       "'%s' in the fleet",
			       label, verb, k, o ? o : "none",
			       str(pr[i].value));
	}
	for (i = 0; sa && i < na; i++) {
		if (sr && pair_value(pr, nr, str(pa[i].name)))
			continue;
		return err_set(why, -EINVAL,
			       "its arm '%s' %s %s '%s' on the host, "
			       "which the fleet does not",
			       label, verb, str(pa[i].name), str(pa[i].value));
	}
	return 0;
}

/* Do the arms of exp set what ref's arms of the same labels set? */
int fleet_same_settings(const struct experiment_doc *exp,
			const struct experiment_doc *ref,
			const char *const *labels, size_t nr_arms,
			struct strbuf *why)
{
	size_t k;

	for (k = 0; k < nr_arms; k++) {
		const struct exp_arm *a = fleet_arm_by_label(exp, labels[k]);
		const struct exp_arm *r = fleet_arm_by_label(ref, labels[k]);

		if (!a)
			return err_set(why, -EINVAL, "it has no arm '%s'",
				       labels[k]);
		if (same_member(a, r, false, labels[k], why) ||
		    same_member(a, r, true, labels[k], why))
			return -EINVAL;
	}
	return 0;
}

/* Did exp run what ref ran: the same factors, arms and settings? */
bool fleet_same_plan(const struct experiment_doc *exp,
		     const struct experiment_doc *ref, struct strbuf *why)
{
	const char **labels = NULL;
	size_t n = fleet_arm_labels(ref, &labels);
	bool same = exp->nr_arms == n && !fleet_same_factors(exp, ref, why) &&
		    !fleet_same_settings(exp, ref, labels, n, why);

	free(labels);
	return same;
}

/* The arm of exp labelled label, to change (fleet_arm_by_label()). */
static struct exp_arm *arm_to_set(struct experiment_doc *exp, const char *label)
{
	return (struct exp_arm *)fleet_arm_by_label(exp, label);
}

void fleet_copy_design(struct experiment_doc *out,
		       const struct experiment_doc *ref,
		       const char *const *labels, size_t nr_arms)
{
	struct experiment_doc c;
	size_t k;

	experiment_doc_copy(&c, ref);
	if (c.has_factors == MODEL_SET) {
		experiment_doc_order_last(out, "factors");
		out->factors = c.factors;
		out->nr_factors = c.nr_factors;
		out->has_factors = MODEL_SET;
		c.factors = NULL;
		c.nr_factors = 0;
		c.has_factors = MODEL_ABSENT;
	}
	for (k = 0; k < nr_arms && k < out->nr_arms; k++) {
		struct exp_arm *a = &out->arms[k];
		struct exp_arm *from = arm_to_set(&c, labels[k]);

		if (from && from->has_settings == MODEL_SET) {
			a->settings = from->settings;
			a->nr_settings = from->nr_settings;
			a->has_settings = MODEL_SET;
			from->settings = NULL;
			from->nr_settings = 0;
		}
		if (from && from->has_asked == MODEL_SET) {
			a->asked = from->asked;
			a->nr_asked = from->nr_asked;
			a->has_asked = MODEL_SET;
			from->asked = NULL;
			from->nr_asked = 0;
		}
	}
	if (ref->has_alpha == MODEL_SET)
		experiment_doc_copy_number(out, ref, "alpha");
	if (ref->has_equivalence == MODEL_SET)
		experiment_doc_copy_number(out, ref, "equivalence");
	experiment_doc_release(&c);
}

/* Member key of env (NULL: none), "" when it has none. */
static const char *env_value(const struct env_doc *env, int key)
{
	if (!env)
		return "";
	switch (key) {
	case 0:
		return str(env->kernel_release);
	case 1:
		return str(env->machine);
	default:
		return str(env->iotrial_version);
	}
}

/*
 * Member key (0: kernel_release, 1: machine, 2: iotrial_version) of
 * the nr environments envs as one value: what they all say, or
 * "several: a, b" (each value once, in host order).
 */
static char *common_value(const struct env_doc *const *envs, size_t nr, int key)
{
	struct strbuf out = STRBUF_INIT;
	size_t i, j;
	bool same = true;

	for (i = 1; i < nr; i++)
		same &=
		    !strcmp(env_value(envs[i], key), env_value(envs[0], key));
	if (same) {
		strbuf_addstr(&out, nr ? env_value(envs[0], key) : "");
		return strbuf_detach(&out, NULL);
	}
	strbuf_addstr(&out, "several: ");
	for (i = 0; i < nr; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(env_value(envs[i], key),
				    env_value(envs[j], key)))
				break;
		if (j == i)
			strbuf_addf(&out, "%s%s", i ? ", " : "",
				    *env_value(envs[i], key)
					? env_value(envs[i], key)
					: "?");
	}
	return strbuf_detach(&out, NULL);
}

void fleet_env(const char *const *names, const struct env_doc *const *envs,
	       size_t nr, struct env_doc *out)
{
	static const char *const order[] = {"hostname",	   "kernel_release",
					    "machine",	   "iotrial_version",
					    "fleet_hosts", "controller"};
	struct env_controller *ctl = xcalloc(1, sizeof(*ctl));
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	size_t i;

	env_doc_init(out);
	/* the order the fleet's environment has always been printed in */
	for (i = 0; i < sizeof(order) / sizeof(*order); i++)
		env_doc_order_last(out, order[i]);
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	ctl->hostname = xstrdup(u.nodename);
	ctl->kernel_release = xstrdup(u.release);
	ctl->machine = xstrdup(u.machine);
	ctl->iotrial_version = xstrdup(IOTRIAL_VERSION);
	strbuf_addf(&sb, "fleet of %zu host%s: ", nr, nr == 1 ? "" : "s");
	out->fleet_hosts = xcalloc(nr + 1, sizeof(*out->fleet_hosts));
	out->has_fleet_hosts = MODEL_SET;
	for (i = 0; i < nr; i++) {
		out->fleet_hosts[out->nr_fleet_hosts++] = xstrdup(names[i]);
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
	}
	strbuf_addf(&sb, " (merged on %s)", *u.nodename ? u.nodename : "?");
	out->hostname = strbuf_detach(&sb, NULL);
	out->kernel_release = common_value(envs, nr, 0);
	out->machine = common_value(envs, nr, 1);
	out->iotrial_version = common_value(envs, nr, 2);
	out->controller = ctl;
}
