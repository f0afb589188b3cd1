/*
 * Tests for core/report/report_csv.c: RFC 4180 quoting of one field,
 * and an experiment as CSV: a header row, one row per run in run order
 * with the same number of fields, CRLF line ends, the hostile label one
 * quoted field with its quotes doubled.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/report/report_formats.h"
#include "report_doc_helper.h"
#include "report_fixture.h"
#include "util/banned.h"

/* e as CSV. */
static int csv_of(struct json_object *e, struct strbuf *out, struct strbuf *err)
{
	struct experiment_doc doc;
	int ret;

	doc_of(e, &doc);
	ret = report_experiment_csv(&doc, out, err);
	experiment_doc_release(&doc);
	return ret;
}

static void field(const char *in, const char *want)
{
	struct strbuf out = STRBUF_INIT;

	report_csv_field(&out, in);
	assert_string_equal(out.buf, want);
	strbuf_release(&out);
}

static void test_field(void **state)
{
	(void)state;
	field("", "");
	field("plain", "plain");
	field("a,b", "\"a,b\"");
	field("say \"hi\"", "\"say \"\"hi\"\"\"");
	field("two\nlines", "\"two\nlines\"");
	field("cr\r", "\"cr\r\"");
	field("<b>|*", "<b>|*");
	/* formulas are kept as text (OWASP), numbers stay numbers */
	field("=HYPERLINK(\"http://x\",\"y\")",
	      "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
	field("+1+2", "\"'+1+2\"");
	field("-2+3", "\"'-2+3\"");
	field("@SUM(A1)", "\"'@SUM(A1)\"");
	field("\tx", "\"'\tx\"");
	field("\rx", "\"'\rx\"");
	field("-1.5", "-1.5");
	field("+2e3", "+2e3");
	field("-", "\"'-\"");
	field("a=b", "a=b");
}

/* The fields of one CSV record at *p (moves *p past its CRLF). */
static int count_fields(const char **p)
{
	const char *s = *p;
	int n = 1, quoted = 0;

	for (; *s; s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (!quoted && *s == ',')
			n++;
		else if (!quoted && *s == '\r' && s[1] == '\n')
			break;
	}
	*p = *s ? s + 2 : s;
	return n;
}

static void test_experiment(void **state)
{
	struct json_object *e = fixture_experiment();
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const char *p;
	int header, rows = 0;

	(void)state;
	assert_non_null(e);
	assert_int_equal(csv_of(e, &out, &err), 0);
	assert_true(strncmp(out.buf,
			    "run,block,arm,label,bs,label,metric_name,metric,"
			    "wall_s,user_s,sys_s,read_p50_ns,read_p90_ns,"
			    "read_p99_ns,read_p999_ns,read_max_ns,device,tps,"
			    "mb_read_s,mb_written_s,mb_read,mb_written\r\n",
			    strlen("run,block")) == 0);
	assert_non_null(strstr(out.buf, "read_p999_ns,read_max_ns,device,tps,"
					"mb_read_s,mb_written_s,mb_read,"
					"mb_written\r\n"));
	/* run order, arm factors, metric, CPU, latency and device values */
	assert_non_null(strstr(out.buf, "\r\n1,0,0,bs=4k label=a,4k,a,iops,"
					"950,61.5,0.25,1.5,1000,5000,90000,"
					"2000000,9000000,vdb,301,18.6,0.1,"
					"4269,4108\r\n"));
	assert_non_null(strstr(out.buf, "\r\n4,1,0,"));
	/* the hostile label: one field, quotes doubled */
	assert_non_null(strstr(out.buf, ",\"bs=8k label=x\"\"<img src=x "
					"onerror=alert(1)>|*_`,y\","));
	p = out.buf;
	header = count_fields(&p);
	while (*p) {
		assert_int_equal(count_fields(&p), header);
		rows++;
	}
	assert_int_equal(rows, 4);
	json_object_put(e);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_not_experiment(void **state)
{
	struct json_object *e = json_tokener_parse("{\"workload\": \"run\"}");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	assert_int_equal(csv_of(e, &out, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "not an iotrial experiment"));
	json_object_put(e);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* A file workload: its directions were not timed (count 0), so they get
 * no columns; its operations get theirs, empty where a run lacks one. */
static void test_file_ops(void **state)
{
	struct json_object *e = json_tokener_parse(
	    "{\"workload\": \"crashdump\", \"metric\": {\"name\": \"d\"}, "
	    "\"baseline\": 0, \"arms\": [{\"arm\": 0, \"label\": \"a\"}], "
	    "\"runs\": [{\"arm\": 0, \"block\": 0, \"metric\": 10, \"run\": "
	    "{\"latency_ns\": {\"read\": {\"count\": 0, \"p50\": 0}}, "
	    "\"file_ops\": {\"write_dump\": {\"count\": 3, \"errors\": 0, "
	    "\"mean_us\": 20, \"p50_us\": 10, \"p99_us\": 40, \"max_us\": "
	    "50}}}}, {\"arm\": 0, \"block\": 1, \"metric\": 11, \"run\": "
	    "{}}]}");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	assert_int_equal(csv_of(e, &out, &err), 0);
	assert_null(strstr(out.buf, "read_p50_ns"));
	assert_non_null(
	    strstr(out.buf, ",sys_s,op_write_dump_count,op_write_dump_mean_us,"
			    "op_write_dump_p50_us,op_write_dump_p99_us,"
			    "op_write_dump_max_us,op_write_dump_errors,"
			    "device,"));
	assert_non_null(strstr(out.buf, ",3,20,10,40,50,0,"));
	assert_non_null(strstr(out.buf, "\r\n2,1,0,a,d,11,,,,,,,,,,,,,,,\r\n"));
	json_object_put(e);
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_field),
	    cmocka_unit_test(test_experiment),
	    cmocka_unit_test(test_not_experiment),
	    cmocka_unit_test(test_file_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
