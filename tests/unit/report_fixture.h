/*
 * A small stored experiment for the report tests: two arms of a numeric
 * factor "bs" and a free-text factor "label" whose value is hostile
 * (quotes, a comma, HTML, Markdown and table syntax), two blocks of runs
 * with CPU, latency, device and sampler series, one verdict and a
 * warning that carries HTML. Every renderer must keep those strings
 * inert in its format.
 */
#ifndef REPORT_FIXTURE_H
#define REPORT_FIXTURE_H

#include <json-c/json.h>

/* The hostile value, as the experiment holds it. */
#define FIXTURE_HOSTILE "x\"<img src=x onerror=alert(1)>|*_`,y"

/* One run of arm arm in block block with metric m. */
#define FIXTURE_RUN(arm, block, m)                                             \
	"{\"arm\": " #arm ", \"block\": " #block ", \"metric\": " #m           \
	", \"run\": {\"seconds\": 61.5, \"cpu\": {\"user_s\": 0.25, "          \
	"\"sys_s\": 1.5}, \"latency_ns\": {\"read\": {\"count\": 9, \"p50\": " \
	"1000, "                                                               \
	"\"p90\": 5000, \"p99\": 90000, \"p999\": 2000000, \"max\": 9e6}}, "   \
	"\"devices\": [{\"name\": \"vdb\", \"r_s\": 300.5, \"w_s\": 0.5, "     \
	"\"rmbps\": 18.6, \"wmbps\": 0.1, \"read_bytes\": 4269000000, "        \
	"\"write_bytes\": 4108000000}], \"truth\": {\"device\": \"vdb\", "     \
	"\"series\": {\"t_s\": [0, 0.5, 1.0], \"dirty_bytes\": [0, 1048576, "  \
	"2097152], \"writeback_bytes\": [0, 0, 524288], \"devices\": "         \
	"[{\"name\": \"vdb\", \"rmbps\": [10, 20], \"wmbps\": [0, 1]}]}}}}"

static const char fixture_json[] =
    "{\"schema\": \"iotrial/1\", \"type\": \"experiment\", \"id\": "
    "\"3f9a1c2e\", \"created\": \"2026-11-29T22:58:00Z\", \"workload\": "
    "\"randread\", \"target\": \"/srv\", \"seed\": \"7\", \"metric\": "
    "{\"name\": \"iops\", \"higher_is_better\": true, \"unit\": \"IO/s\"}, "
    "\"factors\": [{\"name\": \"bs\", \"kind\": \"param\", \"values\": "
    "[\"4k\", \"8k\"]}, {\"name\": \"label\", \"kind\": \"param\", "
    "\"values\": [\"a\"]}], \"baseline\": 0, \"arms\": [{\"arm\": 0, "
    "\"label\": \"bs=4k label=a\", \"settings\": {\"bs\": \"4k\", "
    "\"label\": \"a\"}, \"n\": 2, \"median\": 1000, \"ci_low\": 950, "
    "\"ci_high\": 1050, \"cv\": 0.05}, {\"arm\": 1, \"label\": \"bs=8k "
    "label="
    "x\\\"<img src=x onerror=alert(1)>|*_`,y"
    "\", \"settings\": "
    "{\"bs\": \"8k\", \"label\": \"x\\\"<img src=x onerror=alert(1)>|*_`,y"
    "\"}, \"n\": 2, \"median\": 1200, \"ci_low\": 1150, \"ci_high\": "
    "1250, \"cv\": 0.04}], \"runs\": [" FIXTURE_RUN(0, 0, 950) ", " FIXTURE_RUN(
	1, 0,
	1150) ", " FIXTURE_RUN(1, 1,
			       1250) ", " FIXTURE_RUN(0, 1,
						      1050) "], \"verdicts\": "
							    "[{\"arm\": 1, "
							    "\"label\": "
							    "\"bs=8k\", "
							    "\"ratio\": 1.2, "
							    "\"ci_low\": 1.1, "
							    "\"ci_high\": 1.3, "
							    "\"p_adjusted\": "
							    "0.004, \"test\": "
							    "\"wilcoxon-signed-"
							    "rank\", "
							    "\"verdict\": "
							    "\"faster\", "
							    "\"suspect\": "
							    "[]}], \"blocks\": "
							    "2, "
							    "\"stopped\": "
							    "\"runs done\", "
							    "\"equivalence\": "
							    "0.02, \"alpha\": "
							    "0.05, "
							    "\"warnings\": "
							    "[\"<script>alert("
							    "2)</script> & a "
							    "warning\"], "
							    "\"env\": "
							    "{\"hostname\": "
							    "\"host<1>\", "
							    "\"kernel_"
							    "release\": "
							    "\"6.1.0\", "
							    "\"machine\": "
							    "\"x86_64\", "
							    "\"iotrial_"
							    "version\": "
							    "\"0.1.0\"}}";

/* The fixture parsed; the caller puts it. */
static inline struct json_object *fixture_experiment(void)
{
	return json_tokener_parse(fixture_json);
}

#endif
