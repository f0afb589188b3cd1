/*
 * The progress snapshot as a terminal line and as a JSON line
 * (progress.h). The JSON is written here with strbuf rather than a tree:
 * it is one flat object per update, written every second, and its
 * strings (an arm's label) are escaped as JSON requires and then made
 * safe for a terminal (text_json_safe()).
 */
#include <math.h>
#include <string.h>
#include "progress.h"
#include "fmt.h"
#include "../../version.h"
#include "../../util/text.h"
#include "../../util/banned.h"

void progress_snap_init(struct progress_snap *s, const char *command)
{
	memset(s, 0, sizeof(*s));
	s->command = command;
	s->event = "update";
	s->eta_s = -1;
	s->block = -2;
	s->halfwidth = -1;
	s->ios_per_s = -1;
	s->bytes_per_s = -1;
	s->lost = UINT64_MAX;
}

/* s as a JSON string, quotes included. */
static void json_str(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			strbuf_addf(out, "\\%c", c);
		else if (c < 0x20)
			strbuf_addf(out, "\\u%04x", c);
		else
			strbuf_addch(out, (char)c);
	}
	strbuf_addch(out, '"');
}

/* ,"key":"value" when value is not NULL. */
static void member_str(struct strbuf *out, const char *key, const char *v)
{
	if (!v)
		return;
	strbuf_addf(out, ",\"%s\":", key);
	json_str(out, v);
}

/* ,"key":number, or null when v is not finite or below zero and
 * null_if_negative. */
static void member_num(struct strbuf *out, const char *key, double v,
		       int null_if_negative)
{
	if (!isfinite(v) || (null_if_negative && v < 0))
		strbuf_addf(out, ",\"%s\":null", key);
	else
		strbuf_addf(out, ",\"%s\":%.6g", key, v);
}

static void member_u64(struct strbuf *out, const char *key, uint64_t v)
{
	strbuf_addf(out, ",\"%s\":%llu", key, (unsigned long long)v);
}

void progress_json_line(const struct progress_snap *s, struct strbuf *out)
{
	size_t from = out->len;

	strbuf_addf(out, "{\"schema\":\"%s\",\"type\":\"progress\"",
		    IOTRIAL_SCHEMA);
	member_str(out, "command", s->command);
	member_str(out, "event", s->event);
	member_str(out, "outcome", s->outcome);
	member_str(out, "phase", s->phase);
	member_num(out, "elapsed_s", s->elapsed_s, 1);
	member_num(out, "eta_s", s->eta_s, 1);
	member_str(out, "eta_by", s->eta_s >= 0 ? s->eta_by : NULL);
	if (s->eta_s >= 0)
		member_num(out, "total_s", s->elapsed_s + s->eta_s, 1);
	if (s->unit) {
		strbuf_addf(out, ",\"done\":%u,\"planned\":%u", s->done,
			    s->planned);
		member_str(out, "unit", s->unit);
	}
	if (s->block >= -1)
		strbuf_addf(out, ",\"block\":%ld", s->block);
	member_str(out, "arm", s->arm);
	if (s->halfwidth >= 0)
		member_num(out, "ci_halfwidth", s->halfwidth, 1);
	if (s->in_run) {
		member_num(out, "run_elapsed_s", s->run_elapsed_s, 1);
		if (s->have_ios) {
			member_u64(out, "ios", s->ios);
			member_u64(out, "bytes", s->bytes);
			member_num(out, "iops", s->ios_per_s, 1);
			member_num(
			    out, "mbps",
			    s->bytes_per_s < 0 ? -1 : s->bytes_per_s / 1e6, 1);
		}
	}
	if (s->have_events) {
		member_u64(out, "events", s->events);
		if (s->lost != UINT64_MAX)
			member_u64(out, "lost", s->lost);
	}
	strbuf_addstr(out, "}\n");
	text_json_safe(out, from);
}

void progress_fmt_duration(struct strbuf *out, double s)
{
	unsigned long t;

	if (!isfinite(s) || s < 0)
		s = 0;
	if (s < 10) {
		strbuf_addf(out, "%.1f s", s);
		return;
	}
	if (s < 100) {
		strbuf_addf(out, "%.0f s", s);
		return;
	}
	t = (unsigned long)(s + 0.5);
	if (t < 3600)
		strbuf_addf(out, "%lum%02lus", t / 60, t % 60);
	else
		strbuf_addf(out, "%luh%02lum", t / 3600, t / 60 % 60);
}

/* ", 1.23M I/Os, 102k IO/s, 400 MB/s" of the run going on. */
static void run_numbers(const struct progress_snap *s, struct strbuf *out)
{
	if (!s->have_ios)
		return;
	strbuf_addstr(out, ", ");
	report_fmt_metric(out, (double)s->ios);
	if (s->ios_wanted) {
		strbuf_addstr(out, " of ");
		report_fmt_metric(out, (double)s->ios_wanted);
	}
	strbuf_addstr(out, " I/Os");
	if (s->ios_per_s >= 0) {
		strbuf_addstr(out, ", ");
		report_fmt_metric(out, s->ios_per_s);
		strbuf_addstr(out, " IO/s");
	}
	if (s->bytes_per_s >= 0) {
		strbuf_addstr(out, ", ");
		report_fmt_metric(out, s->bytes_per_s / 1e6);
		strbuf_addstr(out, " MB/s");
	}
}

void progress_text_line(const struct progress_snap *s, struct strbuf *out)
{
	size_t from = out->len;

	if (s->unit && s->planned > 1) {
		/* a step of many: compare's runs, observe's windows */
		strbuf_addf(out, "[%u/%u] ", s->done + 1, s->planned);
		if (s->block == -1)
			strbuf_addstr(out, "warm-up");
		else if (s->block >= 0)
			strbuf_addf(out, "block %ld", s->block + 1);
		if (s->arm)
			strbuf_addf(out, "%s%s", s->block >= -1 ? ": " : "",
				    s->arm);
		if (s->halfwidth > 0 && s->halfwidth < 10)
			strbuf_addf(out, ", CI +-%.1f%%", 100 * s->halfwidth);
		if (s->in_run)
			run_numbers(s, out);
	} else {
		strbuf_addf(out, "%s: ", s->command);
		if (s->in_run) {
			progress_fmt_duration(out, s->run_elapsed_s);
			if (s->run_length_s > 0) {
				strbuf_addstr(out, " of ");
				progress_fmt_duration(out, s->run_length_s);
			}
			run_numbers(s, out);
		} else {
			strbuf_addstr(out,
				      s->phase && !strcmp(s->phase, "capture")
					  ? "recording"
					  : "preparing");
			strbuf_addstr(out, ", ");
			progress_fmt_duration(out, s->elapsed_s);
		}
		if (s->have_events)
			strbuf_addf(out, ", %llu events",
				    (unsigned long long)s->events);
	}
	if (s->eta_s >= 0) {
		strbuf_addstr(out, ", ETA ");
		progress_fmt_duration(out, s->eta_s);
	}
	/* an arm's label is the user's: nothing a terminal obeys */
	text_make_printable(out->buf + from);
	strbuf_setlen(out, strlen(out->buf));
}
