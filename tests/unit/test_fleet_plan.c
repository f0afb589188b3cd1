/*
 * Tests for core/fleet/'s playbook side: the hosts ansible-playbook
 * --list-hosts prints; the playbook refuses what Ansible would
 * template, keeps the connection's error, checks a --binary copy
 * against itself, and writes every string YAML-safe.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/fleet/fleet.h"
#include "util/banned.h"

static void test_list_hosts(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	assert_int_equal(
	    fleet_parse_list_hosts("\nplaybook: p.yml\n\n  play #1 (all): "
				   "iotrial fleet\tTAGS: []\n    pattern: "
				   "['all']\n    hosts (2):\n      h1\n"
				   "      web-2.example\n",
				   &out),
	    2);
	assert_string_equal(out.buf, "h1\nweb-2.example\n");
	assert_int_equal(fleet_parse_list_hosts("\nplaybook: p.yml\n\n  play "
						"#1 (all): x\tTAGS: []\n    "
						"pattern: ['all']\n    hosts "
						"(0):\n",
						&out),
			 0);
	strbuf_release(&out);
}

static void test_plan_refusals(void **state)
{
	const char *templ[] = {"compare", "seqread", "--label", "{{ x }}"};
	const char *notcmp[] = {"run", "seqread"};
	const char *ok[] = {"compare",		"seqread",   "-t",
			    "/srv/a b",		"--json=/x", "--vary",
			    "read_ahead_kb=1,2"};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct fleet_plan p = {.version = "0.1.0"};

	(void)state;
	p.argv = templ;
	p.argc = 4;
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "Ansible would expand"));
	p.argv = notcmp;
	p.argc = 2;
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), -EINVAL);
	p.argv = ok;
	p.argc = 7;
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), 0);
	/* the target is the hosts' default, our --json is replaced */
	assert_non_null(strstr(out.buf, "fleet_default_target: \"/srv/a b\""));
	assert_null(strstr(out.buf, "--json=/x"));
	assert_non_null(strstr(out.buf, "always:"));
	assert_non_null(strstr(out.buf, "\"revert\""));
	/* the connection's own error is kept, and what the revert did */
	assert_non_null(strstr(out.buf, "ignore_unreachable: true"));
	assert_non_null(strstr(out.buf, ".revert\""));
	assert_non_null(strstr(out.buf, "killed by signal"));
	assert_non_null(strstr(out.buf, "install it or give"));
	/* --binary: the copy is checked against what it said here */
	strbuf_reset(&out);
	p.binary = "/srv/iotrial";
	p.version = "0.2.0";
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), 0);
	assert_null(strstr(out.buf, "give 'fleet plan --binary"));
	assert_non_null(strstr(out.buf, "fleet_version: \"0.2.0\""));
	strbuf_reset(&out);
	p.version = NULL;
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), 0);
	assert_non_null(strstr(out.buf, "== 'iotrial'"));
	assert_non_null(strstr(out.buf, "- name: compare\n"));
	strbuf_release(&out);
	strbuf_release(&err);
}

/*
 * Strings go into the playbook as scalars YAML reads back as they were:
 * what YAML takes no raw (DEL, C1 controls, U+2028, which YAML 1.1
 * folds as a line break) is escaped; an argument that is not UTF-8 is
 * refused, quoted printably, and so is a --binary path or version with
 * a template (fuzz_fleetplan found all three).
 */
static void test_plan_yaml_strings(void **state)
{
	const char *args[] = {"compare", "seqread", "--label",
			      "a\x7f"
			      "b\xc2\x85"
			      "c\xe2\x80\xa8"
			      "d\"e\\f\ng"};
	const char *bad[] = {"compare", "seqread", "--label",
			     "a\xff"
			     "b\x1b[31m"};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct fleet_plan p = {.version = "0.1.0", .argv = args, .argc = 4};

	(void)state;
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), 0);
	assert_non_null(strstr(out.buf,
			       "      - \"a\\u007fb\\u0085c\\u2028d\\\"e"
			       "\\\\f\\u000ag\"\n"));
	assert_null(strchr(out.buf, 0x7f));
	strbuf_reset(&out);
	p.argv = bad;
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), -EINVAL);
	assert_string_equal(err.buf, "argument 'a?b?[31m' is not UTF-8, which "
				     "a playbook must be");
	/* --binary is the copy's src, a lookup on the controller: a
	 * template there would run there (fuzz_fleetplan found it) */
	p.argv = args;
	p.binary = "/tmp/{{ lookup('pipe', 'id') }}";
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "--binary '/tmp/{{ lookup"));
	p.binary = "/srv/iotrial";
	p.version = "0.1.0 {{ x }}";
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "the version of --binary"));
	strbuf_release(&out);
	strbuf_release(&err);
}

/* An observe fleet's tasks are named observe, not compare. */
static void test_plan_observe_names(void **state)
{
	const char *obs[] = {"observe", "--vary", "label=a,b"};
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct fleet_plan p = {.version = "0.1.0", .argv = obs, .argc = 3};

	(void)state;
	assert_int_equal(fleet_plan_playbook(&p, &out, &err), 0);
	assert_non_null(strstr(out.buf, "- name: observe starts\n"));
	assert_non_null(strstr(out.buf, "- name: observe\n"));
	assert_non_null(strstr(out.buf, "one observe per host"));
	assert_non_null(strstr(out.buf, "lost during the observe"));
	assert_null(strstr(out.buf, "name: compare"));
	assert_null(strstr(out.buf, "compare started"));
	strbuf_release(&out);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_list_hosts),
	    cmocka_unit_test(test_plan_refusals),
	    cmocka_unit_test(test_plan_observe_names),
	    cmocka_unit_test(test_plan_yaml_strings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
