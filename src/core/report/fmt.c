/*
 * The formatting pieces of report/ (fmt.h).
 */
#include <math.h>
#include <string.h>
#include "fmt.h"
#include "../../util/units.h"
#include "../../util/banned.h"

void report_fmt_metric(struct strbuf *out, double v)
{
	if (!isfinite(v))
		strbuf_addstr(out, "-");
	/* the unit is chosen after rounding to 3 digits: 999999 is 1M,
	 * not "1e+03k" */
	else if (v >= 999.5e6)
		strbuf_addf(out, v >= 999.5e9 ? "%.0fG" : "%.3gG", v / 1e9);
	else if (v >= 999.5e3)
		strbuf_addf(out, "%.3gM", v / 1e6);
	else if (v >= 1e4)
		strbuf_addf(out, "%.3gk", v / 1e3);
	else if (v >= 100)
		strbuf_addf(out, "%.0f", v);
	else
		strbuf_addf(out, "%.3g", v);
}

void report_fmt_value(struct strbuf *out, double v)
{
	double a = fabs(v);
	int decimals = 3;

	if (!isfinite(v)) {
		strbuf_addstr(out, "-");
		return;
	}
	/* four significant digits, as %.4g would give, without its
	 * exponent */
	if (a >= 999.95)
		decimals = 0;
	else if (a >= 99.995)
		decimals = 1;
	else if (a >= 9.9995)
		decimals = 2;
	else if (a > 0)
		while (decimals < 12 && a * pow(10, decimals) < 999.95)
			decimals++;
	strbuf_addf(out, "%.*f", decimals, v);
	/* "0.5000" is "0.5": the zeros %g would not print */
	if (decimals && strchr(out->buf, '.')) {
		while (out->len && out->buf[out->len - 1] == '0')
			strbuf_setlen(out, out->len - 1);
		if (out->len && out->buf[out->len - 1] == '.')
			strbuf_setlen(out, out->len - 1);
	}
}

void report_fmt_in_unit(struct strbuf *out, double v, const char *unit)
{
	if (!isfinite(v))
		strbuf_addstr(out, "-");
	else if (!strcmp(unit, "ns"))
		units_fmt_ns(out, v);
	else if (!strcmp(unit, "s"))
		strbuf_addf(out, "%.2f", v); /* the header says (s) */
	else
		report_fmt_metric(out, v);
}

void report_pad(struct strbuf *out, size_t from, size_t width)
{
	while (out->len - from < width)
		strbuf_addch(out, ' ');
	strbuf_addch(out, ' ');
}

void report_md_escape(struct strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '<')
			strbuf_addstr(out, "&lt;");
		else if (*s == '>')
			strbuf_addstr(out, "&gt;");
		else if (*s == '&')
			strbuf_addstr(out, "&amp;");
		else if (*s == '\n' || *s == '\r' || *s == '\t')
			strbuf_addch(out, ' ');
		else if (strchr("\\`*_[]|~", *s)) {
			strbuf_addch(out, '\\');
			strbuf_addch(out, *s);
		} else
			strbuf_addch(out, *s);
	}
}
