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
#include "../report/expjson.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../version.h"
#include "../../util/banned.h"

/* The values of factor object f, "a,b,c", into out. */
static void factor_values(struct json_object *f, struct strbuf *out)
{
	struct json_object *vals =
	    expjson_get_type(f, "values", json_type_array);
	size_t i, n = vals ? json_object_array_length(vals) : 0;

	for (i = 0; i < n; i++)
		strbuf_addf(
		    out, "%s%s", i ? "," : "",
		    json_object_get_string(json_object_array_get_idx(vals, i)));
}

/* A factor as a phrase for the difference: "'name' (kind) = a,b". */
static void factor_phrase(struct json_object *f, struct strbuf *out)
{
	if (!f) {
		strbuf_addstr(out, "none");
		return;
	}
	strbuf_addf(out, "'%s' (%s) = ", expjson_str(f, "name"),
		    expjson_str(f, "kind"));
	factor_values(f, out);
	if (*expjson_str(f, "canonical"))
		strbuf_addf(out, " (knob '%s')", expjson_str(f, "canonical"));
}

/*
 * Do factors x and y vary the same thing over the same values? What
 * defines a factor is its name, kind, values and, for a knob, the knob
 * they resolved to; where it was set ("object", "scope": each host's
 * own disk) may differ from host to host.
 */
static int same_factor(struct json_object *x, struct json_object *y)
{
	static const char *const keys[] = {"name", "kind", "values",
					   "canonical"};
	size_t i;

	if (!x || !y)
		return 0;
	for (i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		struct json_object *a = expjson_get(x, keys[i]);
		struct json_object *b = expjson_get(y, keys[i]);

		if ((a || b) && !(a && b && json_object_equal(a, b)))
			return 0;
	}
	return 1;
}

/*
 * Do exp's factors match ref's, one by one? 0, or -EINVAL with why
 * naming the first that differs: one host's result must not decide
 * what the fleet experiment says was set everywhere.
 */
int fleet_same_factors(struct json_object *exp, struct json_object *ref,
		       struct strbuf *why)
{
	struct json_object *fe =
	    expjson_get_type(exp, "factors", json_type_array);
	struct json_object *fr =
	    expjson_get_type(ref, "factors", json_type_array);
	size_t ne = fe ? json_object_array_length(fe) : 0;
	size_t nr = fr ? json_object_array_length(fr) : 0;
	size_t i, n = ne > nr ? ne : nr;
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int ret = 0;

	for (i = 0; i < n && !ret; i++) {
		struct json_object *x =
		    i < ne ? json_object_array_get_idx(fe, i) : NULL;
		struct json_object *y =
		    i < nr ? json_object_array_get_idx(fr, i) : NULL;

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

/*
 * Does member key ("settings", "asked") of arm a hold what the same
 * member of arm r does? 0, or -EINVAL with why naming the first
 * setting that differs.
 */
static int same_member(struct json_object *a, struct json_object *r,
		       const char *key, const char *label, struct strbuf *why)
{
	struct json_object *sa = expjson_get_type(a, key, json_type_object);
	struct json_object *sr = expjson_get_type(r, key, json_type_object);

	if ((!sa && !sr) || (sa && sr && json_object_equal(sa, sr)))
		return 0;
	if (sr) {
		json_object_object_foreach(sr, k, v)
		{
			struct json_object *o = expjson_get(sa, k);

			if (o && json_object_equal(o, v))
				continue;
			return err_set(
			    why, -EINVAL,
			    "its arm '%s' %s %s '%s' on the host, "
			    "'%s' in the fleet",
			    label, strcmp(key, "asked") ? "sets" : "asked", k,
			    o ? json_object_get_string(o) : "none",
			    json_object_get_string(v));
		}
	}
	if (sa) {
		json_object_object_foreach(sa, k, v)
		{
			if (expjson_get(sr, k))
				continue;
			return err_set(why, -EINVAL,
				       "its arm '%s' %s %s '%s' on the host, "
				       "which the fleet does not",
				       label,
				       strcmp(key, "asked") ? "sets" : "asked",
				       k, json_object_get_string(v));
		}
	}
	return 0;
}

/* Do the arms of exp set what ref's arms of the same labels set? */
int fleet_same_settings(struct json_object *exp, struct json_object *ref,
			const char *const *labels, size_t nr_arms,
			struct strbuf *why)
{
	size_t k;

	for (k = 0; k < nr_arms; k++) {
		struct json_object *a =
		    fleet_arm_by_label(exp, labels[k], NULL);
		struct json_object *r =
		    fleet_arm_by_label(ref, labels[k], NULL);

		if (!a)
			return err_set(why, -EINVAL, "it has no arm '%s'",
				       labels[k]);
		if (same_member(a, r, "settings", labels[k], why) ||
		    same_member(a, r, "asked", labels[k], why))
			return -EINVAL;
	}
	return 0;
}

/* Did exp run what ref ran: the same factors, arms and settings? */
bool fleet_same_plan(struct json_object *exp, struct json_object *ref,
		     struct strbuf *why)
{
	const char **labels = NULL;
	size_t n = fleet_arm_labels(ref, &labels);
	struct json_object *a = expjson_get_type(exp, "arms", json_type_array);
	bool same = a && json_object_array_length(a) == n &&
		    !fleet_same_factors(exp, ref, why) &&
		    !fleet_same_settings(exp, ref, labels, n, why);

	free(labels);
	return same;
}

/*
 * Member key of the nr environments envs as one value: what they all
 * say, or "several: a, b" (each value once, in host order).
 */
static void common_value(struct json_object *const *envs, size_t nr,
			 const char *key, struct strbuf *out)
{
	size_t i, j;
	bool same = true;

	for (i = 1; i < nr; i++)
		same &= !strcmp(expjson_str(envs[i], key),
				expjson_str(envs[0], key));
	if (same) {
		strbuf_addstr(out, nr ? expjson_str(envs[0], key) : "");
		return;
	}
	strbuf_addstr(out, "several: ");
	for (i = 0; i < nr; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(expjson_str(envs[i], key),
				    expjson_str(envs[j], key)))
				break;
		if (j == i)
			strbuf_addf(out, "%s%s", i ? ", " : "",
				    *expjson_str(envs[i], key)
					? expjson_str(envs[i], key)
					: "?");
	}
}

struct json_object *fleet_env(const char *const *names,
			      struct json_object *const *envs, size_t nr)
{
	static const char *const keys[] = {"kernel_release", "machine",
					   "iotrial_version"};
	struct json_object *env = json_object_new_object();
	struct json_object *ctl = json_object_new_object();
	struct json_object *list = json_object_new_array();
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	size_t i;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	json_object_object_add(ctl, "hostname",
			       json_object_new_string(u.nodename));
	json_object_object_add(ctl, "kernel_release",
			       json_object_new_string(u.release));
	json_object_object_add(ctl, "machine",
			       json_object_new_string(u.machine));
	json_object_object_add(ctl, "iotrial_version",
			       json_object_new_string(IOTRIAL_VERSION));
	strbuf_addf(&sb, "fleet of %zu host%s: ", nr, nr == 1 ? "" : "s");
	for (i = 0; i < nr; i++) {
		json_object_array_add(list, json_object_new_string(names[i]));
		strbuf_addf(&sb, "%s%s", i ? ", " : "", names[i]);
	}
	strbuf_addf(&sb, " (merged on %s)", *u.nodename ? u.nodename : "?");
	json_object_object_add(env, "hostname", json_object_new_string(sb.buf));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		strbuf_reset(&sb);
		common_value(envs, nr, keys[i], &sb);
		json_object_object_add(env, keys[i],
				       json_object_new_string(sb.buf));
	}
	json_object_object_add(env, "fleet_hosts", list);
	json_object_object_add(env, "controller", ctl);
	strbuf_release(&sb);
	return env;
}
