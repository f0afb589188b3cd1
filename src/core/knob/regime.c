/*
 * Whether a run reached the regime a knob controls: the dispatch to the
 * families' regime hooks and what they share. A knob can only change a
 * run that got where it acts (dirty memory up to the threshold, reads
 * that read-ahead sizes, a queue holding requests to order); a verdict
 * of "no difference" on a run that never got there says nothing about
 * the knob, and the user deserves to hear why.
 */
#include <string.h>
#include "knob.h"
#include "../../util/banned.h"

enum knob_regime knob_regime(const struct knob *k, const char *canon,
			     const struct knob_obs *o, struct strbuf *why)
{
	if (!k || !k->ops || !k->ops->regime || !o || !canon)
		return KNOB_REGIME_UNKNOWN;
	return k->ops->regime(k, canon, o, why);
}

const char *knob_regime_name(enum knob_regime r)
{
	switch (r) {
	case KNOB_REGIME_REACHED:
		return "reached";
	case KNOB_REGIME_NOT_REACHED:
		return "not_reached";
	case KNOB_REGIME_UNKNOWN:
		break;
	}
	return "unknown";
}

const struct knob_obs_dev *knob_obs_dev(const struct knob_obs *o,
					const char *name)
{
	unsigned i;

	if (!o || !o->nr_devs)
		return NULL;
	if (!name)
		return &o->devs[0];
	for (i = 0; i < o->nr_devs; i++)
		if (o->devs[i].name && !strcmp(o->devs[i].name, name))
			return &o->devs[i];
	return NULL;
}
