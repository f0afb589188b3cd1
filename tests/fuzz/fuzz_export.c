/*
 * libFuzzer target for core/export/export_pick.c and the export
 * renderers (export.c, export_cm.c): a fuzzed imported experiment is
 * read as `import` reads it and as a document as `export` reads it,
 * export_pick() chooses an arm, and its
 * "KNOB=VALUE" assignments become a plan whose values are taken as they
 * are, unchecked (a renderer must be safe whatever a plan holds). Every
 * format is rendered, and what each generates is checked: no control
 * character but line ends and tabs; in a playbook no Jinja2 marker but
 * iotrial's own "{{ iotrial_... }}"; in a tuned profile no "${"; the
 * arm's label only in comment lines; in the shell script nothing but
 * iotrial's own expansions outside single quotes. The real checkers
 * (sh -n, shellcheck, a YAML parser, puppet, findmnt) run in
 * tests/cli/export_checkers.sh.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/experiment/experiment.h"
#include "core/experiment/import.h"
/* The model's run parts still share five names with result.h's: read
 * under other names here, where none of them is used, until the model
 * names them apart. */
#define run_limits     run_limits_doc
#define run_exec       run_exec_doc
#define run_verify_hdr run_verify_hdr_doc
#define run_verify     run_verify_doc
#define run_regime     run_regime_doc
#include "core/export/export.h"
#include "core/export/export_formats.h"
#include "core/model/model_json.h"
#undef run_limits
#undef run_exec
#undef run_verify_hdr
#undef run_verify
#undef run_regime
#include "util/xalloc.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* The family knob_resolve() would give a knob of this name. */
static const struct knob_ops *family_of(const char *name)
{
	if (!strcmp(name, "scheduler") || !strncmp(name, "iosched.", 8))
		return &knob_sched_ops;
	if (!strcmp(name, "read_ahead_kb"))
		return &knob_readahead_ops;
	if (!strcmp(name, "atime"))
		return &knob_atime_ops;
	if (!strncmp(name, "vm.", 3))
		return &knob_vmdirty_ops;
	if (!strncmp(name, "sysctl:", 7) || !strncmp(name, "sysfs:", 6))
		return &knob_raw_ops;
	return &knob_queue_ops;
}

/* Append the change name=value to p, placed as the knob would be. */
static void add_change(struct knob_plan *p, const char *name, size_t nlen,
		       const char *value)
{
	static const char *const dev[] = {"scheduler", "read_ahead_kb",
					  "nr_requests"};
	struct knob_change *c;
	char *n = xstrndup(name, nlen);
	size_t i;

	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	c = &p->v[p->nr++];
	memset(c, 0, sizeof(*c));
	c->k.name = n;
	c->k.ops = family_of(n);
	c->k.root = xstrdup("");
	c->k.scope = KNOB_SCOPE_SYSTEM;
	for (i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		if (!strcmp(n, dev[i]))
			c->k.scope = KNOB_SCOPE_DEVICE;
	if (!strcmp(n, "atime"))
		c->k.scope = KNOB_SCOPE_MOUNT;
	strbuf_init(&c->canon, 0);
	strbuf_init(&c->note, 0);
	strbuf_init(&c->side, 0);
	strbuf_init(&c->before, 0);
	strbuf_init(&c->after, 0);
	strbuf_init(&c->how, 0);
	strbuf_addstr(&c->canon, value);
	if (c->k.scope == KNOB_SCOPE_DEVICE) {
		c->k.object = xstrdup("sdb");
		strbuf_addf(&c->how, "/sys/block/sdb/queue/%s", n);
	} else if (c->k.scope == KNOB_SCOPE_MOUNT) {
		c->k.object = xstrdup("/srv");
		strbuf_addstr(&c->how, "/srv");
	} else {
		c->k.object = xstrdup("system");
		if (!strncmp(n, "sysfs:", 6))
			strbuf_addstr(&c->how, n + 6);
		else
			strbuf_addf(&c->how, "/proc/sys/%s",
				    !strncmp(n, "sysctl:", 7) ? n + 7 : n);
	}
	c->k.path = strbuf_detach(&c->how, NULL);
	strbuf_init(&c->how, 0);
}

/* Does line (len bytes) hold s? */
static int line_has(const char *line, size_t len, const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; n && i + n <= len; i++)
		if (!memcmp(line + i, s, n))
			return 1;
	return 0;
}

/* How many lines of out that are not comments (nor tuned's summary,
 * nor the start of a Puppet file resource's content, whose lines are
 * comments) hold label. */
static size_t outside_comments(const char *out, const char *label)
{
	const char *p, *nl;
	size_t n = 0;

	for (p = out; *p; p = *nl ? nl + 1 : nl) {
		const char *q = p;

		nl = strchrnul(p, '\n');
		while (q < nl && (*q == ' ' || *q == '\t'))
			q++;
		if (*q == '#' || !strncmp(q, "summary=", 8) ||
		    !strncmp(q, "content => '#", 13))
			continue;
		n += line_has(p, (size_t)(nl - p), label);
	}
	return n;
}

/*
 * The label only in comments: rendered again without it, format f has
 * as many lines outside comments that hold its text (the label may be a
 * piece of a path, "queue/add_"), so none came from the label.
 */
static void label_in_comments(const struct export_format *f,
			      const struct export_src *src, const char *out)
{
	struct strbuf again = STRBUF_INIT, err = STRBUF_INIT;
	struct export_src bare = *src;

	if (!src->label || !*src->label)
		return;
	bare.label = NULL;
	bare.why = NULL;
	check(export_render(f, &bare, &again, &err) == 0);
	check(outside_comments(out, src->label) ==
	      outside_comments(again.buf, src->label));
	strbuf_release(&again);
	strbuf_release(&err);
}

/* A playbook: nothing Jinja2 templates but "{{ iotrial_x }}". */
static void no_jinja(const char *out)
{
	const char *p;

	for (p = out; (p = strchr(p, '{')); p++) {
		if (p[1] == '%' || p[1] == '#')
			check(0);
		if (p[1] != '{')
			continue;
		check(!strncmp(p, "{{ iotrial_", 11));
		p += 11;
		while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		       *p == '_')
			p++;
		check(!strncmp(p, " }}", 3));
	}
}

/* A shell script: outside single quotes and comments, only iotrial's
 * own expansions. */
static void shell_quoted(const char *out)
{
	static const char *const own[] = {
	    "$(cat ", "$(sysctl -n ", "$(findmnt ", "$m", "$o", "$d", "$want"};
	const char *p, *nl;
	size_t i;

	for (p = out; *p; p = *nl ? nl + 1 : nl) {
		const char *q;
		int quoted = 0;

		nl = strchrnul(p, '\n');
		if (*p == '#')
			continue;
		for (q = p; q < nl; q++) {
			if (*q == '\'') {
				quoted = !quoted;
				continue;
			}
			if (quoted)
				continue;
			if (*q == '\\' && q + 1 < nl) {
				q++; /* '\'' is a quote outside quotes */
				continue;
			}
			check(*q != '`');
			if (*q != '$')
				continue;
			for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
				if (!strncmp(q, own[i], strlen(own[i])))
					break;
			check(i < sizeof(own) / sizeof(own[0]));
		}
		check(!quoted); /* a quote never spans lines */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct export_pick pick;
	struct export_disk_id id = {"ID_SERIAL", "QEMU_HARDDISK_1"};
	struct knob_plan plan;
	struct export_src src;
	struct analysis_opts o = {0};
	struct import_run r;
	struct experiment_doc doc;
	char *buf = malloc(size ? size : 1);
	size_t i;
	int f, ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	memset(&pick, 0, sizeof(pick));
	experiment_doc_init(&doc);
	ret = import_parse(buf, size, "fuzz.json", NULL, &r, &err);
	free(buf);
	if (ret || r.kind != IMPORT_EXPERIMENT)
		goto out_run;
	experiment_doc_release(&doc);
	experiment_doc_copy(&doc, r.doc.exp);
	/* import analyses an experiment again as it comes */
	o.alpha = 0.05;
	o.margin = 0.02;
	o.conf = 0.95;
	o.paired = true;
	strbuf_reset(&err);
	if (experiment_analyze_built(&doc, &o, &err))
		goto out_run;
	strbuf_reset(&err);
	ret = export_pick(&doc, NULL, NULL, NULL, &pick, &err);
	if (ret) {
		/* no winner: the arm --arm would name, by number */
		char arm[24];

		check(ret == -ENOENT || ret == -EINVAL);
		export_pick_release(&pick);
		memset(&pick, 0, sizeof(pick));
		strbuf_reset(&err);
		/* the last arm (the seeds' winners), or its number + 1;
		 * arms count from 1 */
		snprintf(arm, sizeof(arm), "%zu",
			 doc.nr_arms ? doc.nr_arms + !(size % 8) : 0);
		ret = export_pick(&doc, arm, NULL, NULL, &pick, &err);
	}
	if (ret) {
		check(ret == -ENOENT || ret == -EINVAL);
		check(err.len > 0);
		goto out_run;
	}
	knob_plan_init(&plan, NULL);
	for (i = 0; i < pick.nr_assign; i++) {
		const char *a = pick.assign[i], *eq = strchr(a, '=');

		check(eq != NULL);
		add_change(&plan, a, (size_t)(eq - a), eq + 1);
	}
	memset(&src, 0, sizeof(src));
	src.plan = &plan;
	src.id = pick.id;
	src.label = pick.label;
	src.why = pick.why;
	src.date = pick.created;
	src.disk = "sdb";
	src.disk_id = &id;
	src.fstab = size % 2 ? "/dev/sdb1 /srv ext4 defaults 0 2\n"
			     : "/dev/sda1 / ext4 defaults 0 1\n";
	src.fstab_path = "/etc/fstab";
	src.mount_source = "/dev/sdb1";
	src.mount_fstype = "ext4";
	for (f = 0; export_formats[f]; f++) {
		strbuf_reset(&out);
		strbuf_reset(&err);
		ret = export_render(export_formats[f], &src, &out, &err);
		if (ret) {
			check(ret == -ENOENT || ret == -EINVAL);
			check(err.len > 0 && !strchr(err.buf, '\n'));
			continue;
		}
		for (i = 0; i < out.len; i++)
			check((unsigned char)out.buf[i] >= 0x20 ||
			      out.buf[i] == '\n' || out.buf[i] == '\t');
		label_in_comments(export_formats[f], &src, out.buf);
		if (export_formats[f] == &export_format_ansible)
			no_jinja(out.buf);
		if (export_formats[f] == &export_format_tuned)
			check(!strstr(out.buf, "${"));
		if (export_formats[f] == &export_format_shell)
			shell_quoted(out.buf);
	}
	knob_plan_release(&plan);
out_run:
	export_pick_release(&pick);
	experiment_doc_release(&doc);
	import_run_release(&r);
	strbuf_release(&err);
	strbuf_release(&out);
	return 0;
}
