/*
 * Abort rules (abort.h): parsed once before anything changes, checked
 * after each window.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "abort.h"
#include "window.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

int lw_abort_parse(struct lw_abort *r, const char *text, struct strbuf *err)
{
	const char *op = strpbrk(text, "<>"), *unit = NULL;
	char *end;
	bool is_ms;

	memset(r, 0, sizeof(*r));
	if (!op || op == text)
		return err_set(err, -EINVAL,
			       "cannot read --abort-if '%s': give "
			       "METRIC>LIMIT or METRIC<LIMIT (w_await>50ms, "
			       "metric<0.8x baseline)",
			       text);
	r->metric = xstrndup(text, (size_t)(op - text));
	if (!strcmp(r->metric, "p99") || !strcmp(r->metric, "p95"))
		return err_set(err, -EINVAL,
			       "--abort-if '%s': observe measures the device's "
			       "mean time per request, not percentiles; use "
			       "'await', 'r_await' or 'w_await'",
			       text);
	if (!lw_metric_known(r->metric, NULL, &unit))
		return err_set(err, -EINVAL,
			       "--abort-if '%s': unknown metric '%s' (metric, "
			       "mbps, iops, r_await, w_await, await, aqu_sz, "
			       "util, dirty, writeback)",
			       text, r->metric);
	r->above = *op == '>';
	r->limit = strtod(op + 1, &end);
	if (end == op + 1 || !isfinite(r->limit) || r->limit < 0)
		return err_set(err, -EINVAL,
			       "--abort-if '%s': '%s' is no limit", text,
			       op + 1);
	while (*end == ' ')
		end++;
	is_ms = !strcmp(unit, "ms");
	if (*end == 'x' && (!end[1] || !strcmp(end + 1, " baseline") ||
			    !strcmp(end + 1, "baseline"))) {
		r->relative = true;
	} else if (is_ms && !strcmp(end, "us")) {
		r->limit /= 1000;
	} else if (is_ms && !strcmp(end, "s")) {
		r->limit *= 1000;
	} else if (*end && !(is_ms && !strcmp(end, "ms")) &&
		   !(!strcmp(unit, "%") && !strcmp(end, "%"))) {
		return err_set(err, -EINVAL,
			       "--abort-if '%s': unit '%s' does not fit '%s' "
			       "(%s)",
			       text, end, r->metric, *unit ? unit : "a number");
	}
	r->text = xstrdup(text);
	return 0;
}

void lw_abort_release(struct lw_abort *r)
{
	if (!r)
		return;
	free(r->text);
	free(r->metric);
	memset(r, 0, sizeof(*r));
}

bool lw_abort_fires(const struct lw_abort *r, double value, double base,
		    struct strbuf *why)
{
	const char *unit = "";
	double limit = r->limit;

	if (!isfinite(value))
		return false;
	if (r->relative) {
		if (!isfinite(base))
			return false;
		limit *= base;
	}
	if (r->above ? !(value > limit) : !(value < limit))
		return false;
	lw_metric_known(r->metric, NULL, &unit);
	strbuf_addf(why, "%s %.4g%s%s %c %.4g%s%s", r->metric, value,
		    *unit ? " " : "", unit, r->above ? '>' : '<', limit,
		    *unit ? " " : "", unit);
	if (r->relative)
		strbuf_addf(why, " (%gx the baseline's %.4g)", r->limit, base);
	return true;
}
