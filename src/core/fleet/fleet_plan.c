/*
 * The playbook of a fleet run (fleet.h). Ansible does the remote part:
 * SSH, the inventory, privilege escalation, parallelism. What the
 * playbook must get right is that every host ends with its settings
 * restored and with a file saying what happened to it: a placeholder
 * error file is written before anything touches the host (so an
 * unreachable host is still listed), replaced by the real error when a
 * task fails, removed once the experiment is fetched; `iotrial revert`
 * runs in the block's "always" part, after a failure too, once the
 * compare has started (before that nothing of ours changed the host,
 * and the iotrial there may not even run). The host writes its JSON in
 * a scratch directory of its own (ansible's tempfile), not at a fixed
 * name in /tmp where another user could plant a link.
 *
 * Strings from the command line go into the YAML as double-quoted
 * scalars that JSON and YAML read alike, every character YAML would not
 * take raw escaped; arguments that Jinja would template, or that are
 * not UTF-8, are refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fleet.h"
#include "../../util/error.h"
#include "../../util/text.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Is arg one that Jinja would expand? */
static bool templated(const char *arg)
{
	return strstr(arg, "{{") || strstr(arg, "{%") || strstr(arg, "{#");
}

/*
 * Must code point cp be escaped in a YAML double-quoted scalar? Control
 * characters (C0, DEL, C1: YAML allows none of them raw), the line
 * breaks YAML 1.1 knows beside \n (NEL, U+2028, U+2029, which it would
 * fold), and the two non-characters it refuses.
 */
static bool yaml_escape_cp(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
	       cp == 0x2029 || cp == 0xfffe || cp == 0xffff;
}

/*
 * Append s, well-formed UTF-8 (utf8_ok()), as a double-quoted scalar
 * that reads back as s in both JSON and YAML: '"' and '\\' escaped,
 * and every character yaml_escape_cp() names as \uXXXX.
 */
static void add_quoted(struct strbuf *out, const char *s)
{
	unsigned cp;
	size_t n;

	strbuf_addch(out, '"');
	for (; (n = text_utf8_char(s, &cp)); s += n) {
		if (cp == '"' || cp == '\\')
			strbuf_addf(out, "\\%c", (char)cp);
		else if (yaml_escape_cp(cp))
			strbuf_addf(out, "\\u%04x", cp);
		else
			strbuf_add(out, s, n);
	}
	strbuf_addch(out, '"');
}

/* Is s well-formed UTF-8 (which a playbook, YAML, must be)? */
static bool utf8_ok(const char *s)
{
	unsigned cp;
	size_t n;

	while ((n = text_utf8_char(s, &cp)))
		s += n;
	return !*s;
}

/*
 * The user's string s as an error message may quote it: its control
 * characters and bad bytes as '?', into out.
 */
static const char *printable(const char *s, struct strbuf *out)
{
	char *copy = xstrdup(s);

	text_make_printable(copy);
	strbuf_reset(out);
	strbuf_addstr(out, copy);
	free(copy);
	return out->buf;
}

/*
 * Check the strings of p that go into the playbook: no Jinja delimiter
 * (Ansible would expand it), nothing that is not UTF-8. 0, or -EINVAL
 * with err set.
 */
static int check_strings(const struct fleet_plan *p, struct strbuf *err)
{
	static const char *const names[3] = {"host pattern", "--binary",
					     "the version of --binary"};
	const char *what[3] = {p->hosts, p->binary, p->version};
	struct strbuf q = STRBUF_INIT;
	int i, ret = 0;

	for (i = 0; i < p->argc && !ret; i++)
		if (templated(p->argv[i]))
			ret = err_set(err, -EINVAL,
				      "argument '%s' holds '{{', '{%%' or "
				      "'{#', which Ansible would expand",
				      printable(p->argv[i], &q));
		else if (!utf8_ok(p->argv[i]))
			ret = err_set(err, -EINVAL,
				      "argument '%s' is not UTF-8, which a "
				      "playbook must be",
				      printable(p->argv[i], &q));
	/* the pattern, the --binary path and the version it reported are
	 * templated as the arguments are (the copy's src is a lookup on
	 * the controller) */
	for (i = 0; i < 3 && !ret; i++)
		if (what[i] && templated(what[i]))
			ret = err_set(err, -EINVAL,
				      "%s '%s' holds '{{', '{%%' or '{#', "
				      "which Ansible would expand",
				      names[i], printable(what[i], &q));
		else if (what[i] && !utf8_ok(what[i]))
			ret = err_set(err, -EINVAL,
				      "%s '%s' is not UTF-8, which a playbook "
				      "must be",
				      names[i], printable(what[i], &q));
	strbuf_release(&q);
	return ret;
}

/* Is a one of the compare's target options? */
static bool is_target_opt(const char *a)
{
	return !strcmp(a, "-t") || !strcmp(a, "--target");
}

/*
 * The compare's argv as YAML list items, without its target (into
 * *out_target; the host's iotrial_target overrides it), --json and
 * --quiet (the playbook adds its own).
 */
static void add_argv(struct strbuf *out, const struct fleet_plan *p,
		     const char **out_target)
{
	int i;

	*out_target = NULL;
	for (i = 0; i < p->argc; i++) {
		const char *a = p->argv[i];

		if (is_target_opt(a) && i + 1 < p->argc) {
			*out_target = p->argv[++i];
			continue;
		}
		if (!strncmp(a, "--target=", 9)) {
			*out_target = a + 9;
			continue;
		}
		if (!strncmp(a, "-t", 2) && a[2]) {
			*out_target = a + 2;
			continue;
		}
		if (!strcmp(a, "--json") || !strncmp(a, "--json=", 7) ||
		    !strcmp(a, "--quiet"))
			continue;
		strbuf_addstr(out, "      - ");
		add_quoted(out, a);
		strbuf_addch(out, '\n');
	}
}

/*
 * A task that writes the host's file HOST.suffix (error: why it failed;
 * revert: what came of its revert) on the controller.
 */
static void add_file_task(struct strbuf *out, const char *indent,
			  const char *name, const char *suffix,
			  const char *content)
{
	strbuf_addf(out,
		    "%s- name: %s\n"
		    "%s  delegate_to: localhost\n"
		    "%s  become: false\n"
		    "%s  ansible.builtin.copy:\n"
		    "%s    dest: \"{{ fleet_dir }}/{{ inventory_hostname "
		    "}}.%s\"\n"
		    "%s    mode: \"0644\"\n"
		    "%s    content: \"{{ %s | to_json }}\\n\"\n",
		    indent, name, indent, indent, indent, indent, suffix,
		    indent, indent, content);
}

/* The host's error file, HOST.error. */
static void add_error_task(struct strbuf *out, const char *indent,
			   const char *name, const char *content)
{
	add_file_task(out, indent, name, "error", content);
}

/*
 * What went wrong in result R of a task, as one Jinja expression: the
 * signal that killed the command or its exit status, its stderr, and
 * Ansible's own message (the connection error of an unreachable host)
 * unless it only repeats "non-zero return code".
 */
#define FLEET_WHY(R)                                                           \
	"(([(('killed by signal ' ~ (0 - (" R ".rc | int))) if (" R            \
	".rc | default(0) | int) < 0 else (('exit status ' ~ " R ".rc) if (" R \
	".rc | default(0) | int) > 0 else '')), (" R ".stderr | "              \
	"default('') | trim), ((" R ".msg | default('') | trim) if (" R        \
	".msg | default('')) != 'non-zero return code' else '')] | select | "  \
	"join('; ')) or 'failed')"

/*
 * The revert file's text when the play ends before the revert runs (it
 * goes between single quotes in Jinja inside a YAML double-quoted
 * string: no quotes of either kind in it).
 */
#define FLEET_REVERT_NOT_RUN                                                   \
	"the play ended for the host after its experiment started, before "    \
	"iotrial revert could run there"

/*
 * The version check: the host's iotrial against the controller's, or,
 * with --binary, the copy against what that binary said on the
 * controller (p->version), or only that it is an iotrial when it could
 * not be run there (p->version NULL: built for another machine).
 */
static void add_version_check(struct strbuf *out, const struct fleet_plan *p)
{
	strbuf_addstr(out, "        - name: same iotrial version as the "
			   "controller\n"
			   "          ansible.builtin.assert:\n");
	if (p->binary && !p->version)
		strbuf_addstr(out,
			      "            that: (fleet_ver.stdout.split() "
			      "+ [''])[0] == 'iotrial'\n"
			      "            fail_msg: \"the copy of --binary "
			      "does not run as iotrial on the host: '{{ "
			      "fleet_ver.stdout }}'\"\n");
	else if (p->binary)
		strbuf_addstr(out,
			      "            that: (fleet_ver.stdout.split() "
			      "+ ['', ''])[1] == fleet_version\n"
			      "            fail_msg: \"the copy of --binary "
			      "runs '{{ fleet_ver.stdout }}' on the host, "
			      "the binary said iotrial {{ fleet_version }} "
			      "on the controller\"\n");
	else
		strbuf_addstr(out,
			      "            that: (fleet_ver.stdout.split() "
			      "+ ['', ''])[1] == fleet_version\n"
			      "            fail_msg: \"the host runs '{{ "
			      "fleet_ver.stdout }}', the fleet iotrial {{ "
			      "fleet_version }}; install it or give 'fleet "
			      "plan --binary PATH'\"\n");
	strbuf_addstr(out, "            quiet: true\n");
}

int fleet_plan_playbook(const struct fleet_plan *p, struct strbuf *out,
			struct strbuf *err)
{
	const char *target, *cmd;
	struct strbuf args = STRBUF_INIT;

	/* observe: each host a block of the live switchback's verdicts */
	if (p->argc < 2 ||
	    (strcmp(p->argv[0], "compare") && strcmp(p->argv[0], "observe")))
		return err_set(err, -EINVAL,
			       "a fleet runs 'compare WORKLOAD --vary ...' or "
			       "'observe --vary ...'; give it after '--'");
	if (check_strings(p, err))
		return -EINVAL;
	add_argv(&args, p, &target);
	/* the tasks are named after what runs: compare or observe */
	cmd = p->argv[0];

	strbuf_addf(out,
		    "# iotrial fleet: one %s per host, its "
		    "experiment fetched to fleet/HOST.json,\n",
		    cmd);
	strbuf_addstr(out, "# `iotrial revert` at the end on every host. "
			   "Written by 'iotrial fleet plan';\n"
			   "# merge the results with 'iotrial fleet merge "
			   "DIR'.\n");
	strbuf_addstr(out, "- name: iotrial fleet\n  hosts: ");
	add_quoted(out, p->hosts ? p->hosts : "all");
	strbuf_addstr(out, "\n  gather_facts: false\n  any_errors_fatal: "
			   "false\n");
	if (p->become)
		strbuf_addstr(out, "  become: true\n");
	strbuf_addstr(out, "  environment: \"{{ iotrial_environment | "
			   "default({}) }}\"\n  vars:\n");
	strbuf_addstr(out, "    fleet_dir: \"{{ playbook_dir }}/fleet\"\n"
			   "    fleet_version: ");
	add_quoted(out, p->version ? p->version : "");
	/* the host's scratch directory, made by the first task */
	strbuf_addstr(out, "\n    fleet_json: \"{{ fleet_tmpdir.path "
			   "}}/experiment.json\"\n");
	if (p->binary)
		strbuf_addstr(out, "    fleet_bin: \"{{ fleet_tmpdir.path "
				   "}}/iotrial\"\n");
	else
		strbuf_addstr(out, "    fleet_bin: \"{{ iotrial_bin | "
				   "default('iotrial') }}\"\n");
	strbuf_addstr(out, "    fleet_default_target: ");
	add_quoted(out, target ? target : "");
	strbuf_addstr(out, "\n    fleet_target: \"{{ iotrial_target | "
			   "default(fleet_default_target) }}\"");
	strbuf_addstr(out, "\n    fleet_args:\n");
	strbuf_add(out, args.buf, args.len);
	strbuf_addstr(out, "  tasks:\n    - name: results directory\n"
			   "      delegate_to: localhost\n"
			   "      become: false\n      run_once: true\n"
			   "      ansible.builtin.file:\n"
			   "        path: \"{{ fleet_dir }}\"\n"
			   "        state: directory\n"
			   "        mode: \"0755\"\n");
	strbuf_addstr(out, "    - name: forget an earlier result\n"
			   "      delegate_to: localhost\n"
			   "      become: false\n"
			   "      ansible.builtin.file:\n"
			   "        path: \"{{ fleet_dir }}/{{ "
			   "inventory_hostname }}.{{ item }}\"\n"
			   "        state: absent\n"
			   "      loop: [json, revert]\n");
	add_error_task(out, "    ",
		       "no result yet (kept if the host is "
		       "unreachable)",
		       "{'host': inventory_hostname, 'error': 'no result: the "
		       "host was unreachable or the play ended before it was "
		       "done; see the output of ansible-playbook'}");
	strbuf_addstr(out, "    - name: the experiment\n      block:\n");
	/* the first contact: an unreachable host is not dropped from the
	 * play but fails here, with Ansible's connection error */
	strbuf_addstr(out, "        - name: kernel\n"
			   "          ansible.builtin.command: uname -sr\n"
			   "          register: fleet_uname\n"
			   "          changed_when: false\n"
			   "          ignore_unreachable: true\n"
			   "          failed_when: fleet_uname.rc | default(1) "
			   "!= 0 or not (fleet_uname.stdout | default('')) "
			   ".startswith('Linux ')\n"
			   "        - name: connect\n"
			   "          ansible.builtin.fail:\n"
			   "            msg: \"the host is unreachable: {{ "
			   "fleet_uname.msg | default('') | trim }}\"\n"
			   "          when: fleet_uname.unreachable | "
			   "default(false)\n");
	strbuf_addstr(out, "        - name: scratch directory\n"
			   "          ansible.builtin.tempfile:\n"
			   "            state: directory\n"
			   "            prefix: iotrial-fleet.\n"
			   "            path: \"{{ iotrial_tmp | default(omit) "
			   "}}\"\n"
			   "          register: fleet_tmpdir\n");
	if (p->binary) {
		strbuf_addstr(out, "        - name: copy iotrial\n"
				   "          ansible.builtin.copy:\n"
				   "            src: ");
		add_quoted(out, p->binary);
		strbuf_addstr(out, "\n            dest: \"{{ fleet_bin }}\"\n"
				   "            mode: \"0755\"\n");
	}
	strbuf_addstr(out,
		      "        - name: iotrial version\n"
		      "          ansible.builtin.command:\n"
		      "            argv: [\"{{ fleet_bin }}\", \"--version\"]\n"
		      "          register: fleet_ver\n"
		      "          changed_when: false\n");
	add_version_check(out, p);
	/* from here on the host may have changed: revert at the end */
	add_file_task(out, "        ",
		      "until iotrial revert ran, the host may hold a change",
		      "revert",
		      "{'host': inventory_hostname, 'revert': 'not run', "
		      "'error': '" FLEET_REVERT_NOT_RUN "'}");
	strbuf_addf(out,
		    "        - name: %s starts\n"
		    "          ansible.builtin.set_fact:\n"
		    "            fleet_started: true\n",
		    cmd);
	/* a connection that drops mid-compare fails the compare with its
	 * cause, and the revert below still gets its chance */
	strbuf_addf(out, "        - name: %s\n", cmd);
	strbuf_addstr(out, "          ansible.builtin.command:\n"
			   "            argv: \"{{ [fleet_bin] + fleet_args + "
			   "['--json=' + fleet_json, '--quiet'] + "
			   "(['--target=' + fleet_target] if fleet_target "
			   "else []) }}\"\n"
			   "          register: fleet_compare\n"
			   "          ignore_unreachable: true\n");
	strbuf_addf(out,
		    "        - name: %s\n"
		    "          ansible.builtin.fail:\n"
		    "            msg: \"the connection to the host was "
		    "lost during the %s: {{ fleet_compare.msg | "
		    "default('') | trim }}\"\n",
		    cmd, cmd);
	strbuf_addstr(out, "          when: fleet_compare.unreachable | "
			   "default(false)\n");
	strbuf_addstr(out, "        - name: fetch the experiment\n"
			   "          ansible.builtin.fetch:\n"
			   "            src: \"{{ fleet_json }}\"\n"
			   "            dest: \"{{ fleet_dir }}/{{ "
			   "inventory_hostname }}.json\"\n"
			   "            flat: true\n"
			   "            fail_on_missing: true\n");
	strbuf_addstr(out, "        - name: result in\n"
			   "          delegate_to: localhost\n"
			   "          become: false\n"
			   "          ansible.builtin.file:\n"
			   "            path: \"{{ fleet_dir }}/{{ "
			   "inventory_hostname }}.error\"\n"
			   "            state: absent\n");
	strbuf_addstr(out, "      rescue:\n");
	add_error_task(
	    out, "        ", "record the failure",
	    "{'host': inventory_hostname, 'task': "
	    "ansible_failed_task.name, 'rc': ansible_failed_result.rc "
	    "| default(none), 'error': " FLEET_WHY(
		"ansible_failed_result") "}");
	strbuf_addstr(out,
		      "      always:\n"
		      "        - name: iotrial revert\n"
		      "          ansible.builtin.command:\n"
		      "            argv: [\"{{ fleet_bin }}\", \"revert\"]\n"
		      "          register: fleet_revert\n"
		      "          failed_when: false\n"
		      "          ignore_unreachable: true\n"
		      "          when: fleet_started | default(false)\n"
		      "        - name: remove the scratch directory\n"
		      "          ansible.builtin.file:\n"
		      "            path: \"{{ fleet_tmpdir.path }}\"\n"
		      "            state: absent\n"
		      "          ignore_unreachable: true\n"
		      "          when: fleet_tmpdir.path is defined\n");
	/* its own file: a failed revert does not hide the compare's error */
	add_file_task(
	    out, "        ", "record the revert", "revert",
	    "{'host': inventory_hostname, 'revert': ('not run' if "
	    "(fleet_revert.unreachable | default(false)) else ('ok' if "
	    "(fleet_revert.rc | default(1)) == 0 else 'failed')), 'rc': "
	    "fleet_revert.rc | default(none), 'error': ('' if "
	    "(fleet_revert.rc | default(1)) == 0 else ('" FLEET_REVERT_NOT_RUN
	    ": ' ~ " FLEET_WHY(
		"fleet_revert") ") if (fleet_revert.unreachable "
				"| default(false)) else ('iotrial revert "
				"failed: ' ~ " FLEET_WHY(
				    "fleet_revert") ")), 'output': "
						    "fleet_revert.stdout | "
						    "default('') "
						    "| trim}");
	/* the last task's "when" belongs to it: append it there */
	strbuf_addstr(out, "          when: fleet_started | default(false)\n");
	(void)p->forks; /* the CLI passes it to ansible-playbook */
	strbuf_release(&args);
	return 0;
}
