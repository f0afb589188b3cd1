/*
 * The original of a journaled knob change, for people: what recovery
 * says it restored and what `iotrial revert --list` shows. An original
 * is a plain value, or for knobs whose write drags others along a
 * snapshot of several "name=value" settings, of which people want the
 * first and a count.
 */
#include <string.h>
#include "knob_journal.h"
#include "../../util/banned.h"

/* "'mq-deadline'", or for a snapshot its first value and how many more. */
void knob_show_orig(const char *name, const char *orig, struct strbuf *out)
{
	const char *sp = strchr(orig, ' '), *eq = strchr(orig, '=');
	size_t more = 0, n = strlen(name);
	const char *p;

	if (!eq || (sp && eq > sp)) {
		strbuf_addstr(out, orig);
		return;
	}
	for (p = orig; (p = strchr(p, ' ')); p++)
		more++;
	if (!strncmp(orig, name, n) && orig[n] == '=')
		strbuf_addf(out, "%.*s",
			    (int)((sp ? sp : orig + strlen(orig)) - (eq + 1)),
			    eq + 1);
	else
		strbuf_addf(out, "%.*s",
			    (int)((sp ? sp : orig + strlen(orig)) - orig),
			    orig);
	if (more)
		strbuf_addf(out, " (and %zu dependent setting%s)", more,
			    more == 1 ? "" : "s");
}
