/*
 * Tests for export/export: which arm is exported (the best "faster"
 * verdict, --arm by label or number, refusals with what to do instead),
 * the udev identity read from a fake udev database, the fstab edit (one
 * field of one line changes, every other byte stays), and the renderers
 * read back by a parser: the sysctl.d file and the tuned profile through
 * util/ini, the udev rule's match and order.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "core/export/export.h"
#include "core/export/export_formats.h"
#include "core/model/experiment_doc.h"
#include "util/ini.h"
#include "util/xalloc.h"
#include "util/banned.h"

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

/* Append a resolved change to p, as knob_plan_build() would leave it. */
static void add_change(struct knob_plan *p, const char *name,
		       enum knob_scope scope, const char *object,
		       const char *path, const char *canon)
{
	struct knob_change *c;

	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	c = &p->v[p->nr++];
	memset(c, 0, sizeof(*c));
	c->k.name = xstrdup(name);
	c->k.ops = family_of(name);
	c->k.object = xstrdup(object);
	c->k.path = xstrdup(path);
	c->k.root = xstrdup("");
	c->k.scope = scope;
	strbuf_init(&c->canon, 0);
	strbuf_init(&c->note, 0);
	strbuf_init(&c->side, 0);
	strbuf_init(&c->before, 0);
	strbuf_init(&c->after, 0);
	strbuf_init(&c->how, 0);
	strbuf_addstr(&c->canon, canon);
}

/* A plan of every kind of knob on disk sdb and mount /srv. */
static void full_plan(struct knob_plan *p)
{
	knob_plan_init(p, NULL);
	add_change(p, "scheduler", KNOB_SCOPE_DEVICE, "sdb",
		   "/sys/block/sdb/queue/scheduler", "mq-deadline");
	add_change(p, "read_ahead_kb", KNOB_SCOPE_DEVICE, "sdb",
		   "/sys/block/sdb/queue/read_ahead_kb", "4096");
	add_change(p, "nr_requests", KNOB_SCOPE_DEVICE, "sdb",
		   "/sys/block/sdb/queue/nr_requests", "64");
	add_change(p, "atime", KNOB_SCOPE_MOUNT, "/srv", "/srv", "noatime");
	add_change(p, "vm.dirty_ratio", KNOB_SCOPE_SYSTEM, "system",
		   "/proc/sys/vm/dirty_ratio", "10");
	add_change(p, "sysctl:vm.swappiness", KNOB_SCOPE_SYSTEM, "system",
		   "/proc/sys/vm/swappiness", "5");
}

static void src_init(struct export_src *s, const struct knob_plan *p,
		     const struct export_disk_id *id)
{
	memset(s, 0, sizeof(*s));
	s->plan = p;
	s->id = "3f9a1c2e";
	s->label = "scheduler=mq-deadline";
	s->why = "faster than 'scheduler=none': 1.3x";
	s->date = "2026-11-29";
	s->disk = "sdb";
	s->disk_id = id;
}

/* ini_parse callback: "section/key=value\n" into a strbuf. */
static int collect(const char *section, const char *key, const char *value,
		   unsigned line, void *ctx)
{
	(void)line;
	strbuf_addf(ctx, "%s/%s=%s\n", section, key, value ? value : "(null)");
	return 0;
}

static void test_sysctl_read_back(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, kv = STRBUF_INIT;
	struct knob_plan p;
	struct export_src s;

	(void)state;
	full_plan(&p);
	src_init(&s, &p, NULL);
	assert_int_equal(export_render(&export_format_sysctl, &s, &out, &err),
			 0);
	assert_non_null(strstr(out.buf, "# iotrial experiment 3f9a1c2e "
					"(2026-11-29)"));
	assert_int_equal(ini_parse(out.buf, out.len, collect, &kv, &err), 0);
	assert_string_equal(kv.buf, "/vm.dirty_ratio=10\n/vm.swappiness=5\n");
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&kv);
	knob_plan_release(&p);
}

static void test_sysctl_nothing(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_plan p;
	struct export_src s;

	(void)state;
	knob_plan_init(&p, NULL);
	add_change(&p, "read_ahead_kb", KNOB_SCOPE_DEVICE, "sdb",
		   "/sys/block/sdb/queue/read_ahead_kb", "4096");
	src_init(&s, &p, NULL);
	assert_int_equal(export_render(&export_format_sysctl, &s, &out, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "--format udev"));
	assert_int_equal(out.len, 0);
	strbuf_release(&out);
	strbuf_release(&err);
	knob_plan_release(&p);
}

static void test_udev_by_wwn(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct export_disk_id id = {"ID_WWN", "0x5000c500a1b2c3d4"};
	struct knob_plan p;
	struct export_src s;
	const char *rule;

	(void)state;
	full_plan(&p);
	src_init(&s, &p, &id);
	assert_int_equal(export_render(&export_format_udev, &s, &out, &err), 0);
	rule = strstr(out.buf, "\nACTION");
	assert_non_null(rule);
	assert_string_equal(
	    rule + 1,
	    "ACTION==\"add|change\", SUBSYSTEM==\"block\", "
	    "ENV{DEVTYPE}==\"disk\", ENV{ID_WWN}==\"0x5000c500a1b2c3d4\", "
	    "ATTR{queue/scheduler}=\"mq-deadline\", "
	    "ATTR{queue/read_ahead_kb}=\"4096\", "
	    "ATTR{queue/nr_requests}=\"64\"\n");
	assert_null(strstr(out.buf, "KERNEL=="));
	strbuf_release(&out);
	strbuf_release(&err);
	knob_plan_release(&p);
}

static void test_udev_by_kernel_name(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct export_disk_id id = {NULL, NULL};
	struct knob_plan p;
	struct export_src s;

	(void)state;
	full_plan(&p);
	src_init(&s, &p, &id);
	assert_int_equal(export_render(&export_format_udev, &s, &out, &err), 0);
	assert_non_null(strstr(out.buf, "# 'sdb' has no ID_WWN or ID_SERIAL"));
	assert_non_null(strstr(out.buf, ", KERNEL==\"sdb\", ATTR{"));
	strbuf_release(&out);
	strbuf_release(&err);
	knob_plan_release(&p);
}

static void test_udev_refuses_quote(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_plan p;
	struct export_src s;

	(void)state;
	knob_plan_init(&p, NULL);
	add_change(&p, "sysfs:/sys/block/sdb/queue/x", KNOB_SCOPE_DEVICE, "sdb",
		   "/sys/block/sdb/queue/x", "a\"b");
	src_init(&s, &p, NULL);
	assert_int_equal(export_render(&export_format_udev, &s, &out, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "a udev rule cannot hold"));
	strbuf_release(&out);
	strbuf_release(&err);
	knob_plan_release(&p);
}

/* Write text to dir/rel, making the directories. */
static void put(const char *dir, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_disk_id_read(void **state)
{
	char dir[] = "/tmp/test_export.XXXXXX";
	struct export_disk_id id;
	char cmd[600];

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "sys/block/sdz/dev", "8:240\n");
	put(dir, "run/udev/data/b8:240",
	    "S:disk/by-id/wwn-0x5000c500a1b2c3d4\nE:ID_SERIAL=ST4000_Z1\n"
	    "E:ID_WWN=0x5000c500a1b2c3d4\nE:ID_WWN_WITH_EXTENSION=0x5\n");
	export_disk_id_read(dir, "sdz", &id);
	assert_string_equal(id.key, "ID_WWN");
	assert_string_equal(id.value, "0x5000c500a1b2c3d4");
	export_disk_id_release(&id);
	put(dir, "run/udev/data/b8:240", "E:ID_SERIAL=ST4000_Z1\n");
	export_disk_id_read(dir, "sdz", &id);
	assert_string_equal(id.key, "ID_SERIAL");
	assert_string_equal(id.value, "ST4000_Z1");
	export_disk_id_release(&id);
	put(dir, "run/udev/data/b8:240", "E:ID_PATH=pci-0000\n");
	export_disk_id_read(dir, "sdz", &id);
	assert_null(id.key);
	export_disk_id_read(dir, "nodisk", &id);
	assert_null(id.key);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_fstab_edit(void **state)
{
	const char *fstab =
	    "# /etc/fstab\n"
	    "UUID=1 /     ext4  errors=remount-ro 0 1\n"
	    "/dev/sdb1 /srv xfs defaults,relatime,lazytime 0 2\n"
	    "  # /srv commented out\n"
	    "/dev/sdc1\t/srv\txfs\tdefaults,atime\t0  2 # later wins\n"
	    "/dev/sdd1 /my\\040data ext4 defaults 0 2\n"
	    "/dev/sde1 /three ext4\n";
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT, nw = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT;
	unsigned no;

	(void)state;
	assert_int_equal(export_fstab_edit(fstab, "/srv", "noatime", &text,
					   &old, &nw, &no, &err),
			 0);
	assert_int_equal(no, 5);
	assert_string_equal(old.buf, "/dev/sdc1\t/srv\txfs\tdefaults,atime\t0  "
				     "2 # later wins");
	assert_string_equal(nw.buf, "/dev/sdc1\t/srv\txfs\tdefaults,noatime\t0"
				    "  2 # later wins");
	/* every other byte as it was */
	strbuf_addstr(&want, fstab);
	assert_int_equal(text.len, want.len + 2);
	assert_memory_equal(text.buf, fstab, 125);
	assert_string_equal(strstr(text.buf, "/dev/sdd1"),
			    strstr(fstab, "/dev/sdd1"));
	assert_int_equal(export_fstab_edit(fstab, "/my data",
					   "relatime,lazytime", &text, &old,
					   &nw, &no, &err),
			 0);
	assert_string_equal(nw.buf, "/dev/sdd1 /my\\040data ext4 "
				    "defaults,relatime,lazytime 0 2");
	assert_int_equal(export_fstab_edit(fstab, "/three", "noatime", &text,
					   &old, &nw, &no, &err),
			 0);
	assert_string_equal(nw.buf, "/dev/sde1 /three ext4\tnoatime");
	assert_int_equal(export_fstab_edit(fstab, "/none", "noatime", &text,
					   &old, &nw, &no, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "'/none'"));
	strbuf_release(&text);
	strbuf_release(&old);
	strbuf_release(&nw);
	strbuf_release(&err);
	strbuf_release(&want);
}

static void test_tuned_ini(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, kv = STRBUF_INIT;
	struct knob_plan p;
	struct export_src s;

	(void)state;
	full_plan(&p);
	src_init(&s, &p, NULL);
	s.tuned_include = "throughput-performance";
	assert_int_equal(export_render(&export_format_tuned, &s, &out, &err),
			 0);
	assert_int_equal(ini_parse(out.buf, out.len, collect, &kv, &err), 0);
	assert_string_equal(kv.buf,
			    "main/summary=iotrial experiment 3f9a1c2e: "
			    "scheduler=mq-deadline\n"
			    "main/include=throughput-performance\n"
			    "disk/devices=sdb\n"
			    "disk/elevator=mq-deadline\n"
			    "disk/readahead=4096\n"
			    "sysctl/vm.dirty_ratio=10\n"
			    "sysctl/vm.swappiness=5\n"
			    "sysfs//sys/block/sdb/queue/nr_requests=64\n");
	assert_non_null(strstr(out.buf, "--format fstab"));
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&kv);
	knob_plan_release(&p);
}

static void test_shell(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_plan p;
	struct export_src s;

	(void)state;
	full_plan(&p);
	src_init(&s, &p, NULL);
	assert_int_equal(export_render(&export_format_shell, &s, &out, &err),
			 0);
	assert_non_null(strstr(out.buf, "#!/bin/sh\n"));
	assert_non_null(strstr(out.buf, "\nset -eu\n"));
	/* every value, name and path is quoted; read-ahead goes through
	 * sysfs, which needs no device node */
	assert_non_null(strstr(
	    out.buf, "grep -qF '[mq-deadline]' "
		     "'/sys/block/sdb/queue/scheduler' || echo "
		     "'mq-deadline' > '/sys/block/sdb/queue/scheduler'"));
	assert_null(strstr(out.buf, "blockdev"));
	assert_non_null(strstr(out.buf,
			       "[ \"$(cat '/sys/block/sdb/queue/read_ahead_kb')"
			       "\" = '4096' ] || echo '4096' > "
			       "'/sys/block/sdb/queue/read_ahead_kb'"));
	assert_non_null(strstr(out.buf, "\nd='sdb'\n[ -d \"/sys/block/$d\" ]"));
	assert_non_null(strstr(out.buf, "\nm='/srv'\no='noatime'\n"));
	assert_non_null(strstr(out.buf, "case $opts in *,'noatime',*)"));
	assert_non_null(strstr(out.buf, "mount -o \"remount,$o\" \"$m\""));
	assert_non_null(strstr(out.buf, "[ \"$(sysctl -n 'vm.dirty_ratio')\" = "
					"'10' ] || sysctl -qw "
					"'vm.dirty_ratio=10'"));
	/* the scheduler comes before what it resets */
	assert_true(strstr(out.buf, "queue/scheduler") <
		    strstr(out.buf, "nr_requests"));
	strbuf_release(&out);
	strbuf_release(&err);
	knob_plan_release(&p);
}

/* Render src in format f; the return value, out and err kept. */
static int render(const struct export_format *f, const struct export_src *s,
		  struct strbuf *out, struct strbuf *err)
{
	strbuf_reset(out);
	strbuf_reset(err);
	return export_render(f, s, out, err);
}

/* What an imported experiment may hold never reaches a generated file
 * live: Jinja2 in a playbook, ${...} in a tuned profile, a line break
 * out of a comment. */
static void test_injection(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_plan p;
	struct export_src s;
	int f;

	(void)state;
	full_plan(&p);
	src_init(&s, &p, NULL);
	s.label = "fast {{ lookup(\"pipe\",\"touch x\") }}";
	assert_int_equal(render(&export_format_ansible, &s, &out, &err),
			 -EINVAL);
	assert_non_null(strstr(err.buf, "the arm label 'fast {{"));
	assert_non_null(strstr(err.buf, "Jinja2"));
	assert_int_equal(out.len, 0);
	s.label = "a {% if 1 %}";
	assert_int_equal(render(&export_format_ansible, &s, &out, &err),
			 -EINVAL);
	s.label = "a {# c #}";
	assert_int_equal(render(&export_format_ansible, &s, &out, &err),
			 -EINVAL);
	/* the other formats do not template: the label is a comment */
	assert_int_equal(render(&export_format_sysctl, &s, &out, &err), 0);
	s.label = "scheduler=mq-deadline";
	assert_int_equal(render(&export_format_ansible, &s, &out, &err), 0);
	assert_non_null(strstr(out.buf, "iotrial_queue_scheduler: !unsafe "
					"'mq-deadline'"));
	assert_non_null(strstr(out.buf, "value: !unsafe '10'"));
	assert_non_null(strstr(out.buf, "- name: 'vm.dirty_ratio = 10'"));

	s.why = "x ${f:exec:/bin/touch:x}";
	assert_int_equal(render(&export_format_tuned, &s, &out, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "the verdict 'x ${f:exec"));
	s.why = NULL;
	strbuf_reset(&p.v[4].canon);
	strbuf_addstr(&p.v[4].canon, "${f:exec:/bin/true}");
	assert_int_equal(render(&export_format_tuned, &s, &out, &err), -EINVAL);
	assert_non_null(strstr(err.buf, "the value of 'vm.dirty_ratio'"));
	strbuf_reset(&p.v[4].canon);
	strbuf_addstr(&p.v[4].canon, "10");

	s.label = "a\ntouch /tmp/x";
	for (f = 0; export_formats[f]; f++) {
		assert_int_equal(render(export_formats[f], &s, &out, &err),
				 -EINVAL);
		assert_non_null(strstr(err.buf, "the arm label 'a?touch"));
	}
	s.label = "a\033]0;title\007";
	assert_int_equal(render(&export_format_shell, &s, &out, &err), -EINVAL);
	strbuf_release(&out);
	strbuf_release(&err);
	knob_plan_release(&p);
}

/* No fstab line for the mount: the line to add, and what else to do. */
static void test_fstab_no_line(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_plan p;
	struct export_src s;

	(void)state;
	knob_plan_init(&p, NULL);
	add_change(&p, "atime", KNOB_SCOPE_MOUNT, "/srv/my data",
		   "/srv/my data", "noatime");
	src_init(&s, &p, NULL);
	s.fstab = "# fstab\n/dev/sda1 / ext4 defaults 0 1\n";
	s.fstab_path = "/etc/fstab";
	assert_int_equal(render(&export_format_fstab, &s, &out, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "add a line for it"));
	s.mount_source = "/dev/sdb1";
	s.mount_fstype = "ext4";
	assert_int_equal(render(&export_format_fstab, &s, &out, &err), 0);
	assert_non_null(strstr(out.buf, "# '/etc/fstab' has no line that "
					"mounts '/srv/my data'"));
	assert_non_null(strstr(out.buf, "systemd-escape --path"));
	assert_non_null(strstr(out.buf,
			       "--- /etc/fstab\n+++ /etc/fstab\n@@ -2,0 +3 @@\n"
			       "+/dev/sdb1\t/srv/my\\040data\text4\t"
			       "defaults,noatime\t0\t2\n"));
	/* puppet adds the line with core resources only */
	assert_int_equal(render(&export_format_puppet, &s, &out, &err), 0);
	assert_non_null(strstr(out.buf, "exec { 'iotrial-fstab':"));
	assert_non_null(strstr(out.buf, "'IOTRIAL_LINE=/dev/sdb1\t/srv/my"
					"\\\\040data\text4\tdefaults,noatime\t0"
					"\t2'"));
	assert_null(strstr(out.buf, "\n  mount {"));
	/* for '/', the kernel command line is the other way */
	free(p.v[0].k.object);
	p.v[0].k.object = xstrdup("/");
	s.fstab = "# fstab\n";
	assert_int_equal(render(&export_format_fstab, &s, &out, &err), 0);
	assert_non_null(strstr(out.buf, "rootflags=noatime"));
	assert_non_null(strstr(out.buf, "@@ -1,0 +2 @@\n+/dev/sdb1\t/\text4\t"
					"defaults,noatime\t0\t1\n"));
	strbuf_release(&out);
	strbuf_release(&err);
	knob_plan_release(&p);
}

/* Puppet: the fstab line is changed by an exec that core Puppet has. */
static void test_puppet_core(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct knob_plan p;
	struct export_src s;

	(void)state;
	full_plan(&p);
	src_init(&s, &p, NULL);
	s.fstab = "/dev/sdb1 /srv xfs defaults,relatime 0 2\n";
	assert_int_equal(render(&export_format_puppet, &s, &out, &err), 0);
	assert_null(strstr(out.buf, "\n  mount {"));
	assert_non_null(strstr(out.buf, "puppetlabs-mount_core"));
	assert_non_null(strstr(out.buf, "environment => ['IOTRIAL_MP=/srv', "
					"'IOTRIAL_OPTS=defaults,noatime'],"));
	assert_non_null(strstr(out.buf, "notify      => "
					"Exec['iotrial-remount'],"));
	assert_non_null(strstr(out.buf, "'IOTRIAL_ATIME=noatime'"));
	strbuf_release(&out);
	strbuf_release(&err);
	knob_plan_release(&p);
}

/* An experiment whose verdicts are given as "verdict:ratio", one per
 * arm after the baseline. Free with experiment_doc_free(). */
static struct experiment_doc *make_exp(int higher_is_better, int knob,
				       const char *const *verdicts, int nr)
{
	struct experiment_doc *e = xcalloc(1, sizeof(*e));
	struct exp_factor *f;
	const char *name = knob ? "read_ahead_kb" : "bs";
	int i;

	experiment_doc_init(e);
	e->schema = xstrdup("iotrial/1");
	e->type = xstrdup("experiment");
	e->id = xstrdup("abcd1234");
	e->created = xstrdup("2026-11-29T22:58:00Z");
	e->target = xstrdup("/srv");
	e->metric = xcalloc(1, sizeof(*e->metric));
	e->metric->name = xstrdup("iops");
	e->metric->higher_is_better = higher_is_better;
	e->factors = f = xcalloc(1, sizeof(*f));
	e->nr_factors = 1;
	e->has_factors = MODEL_SET;
	f->name = xstrdup(name);
	f->kind = xstrdup(knob ? "knob" : "param");
	f->values = xcalloc((size_t)nr + 1, sizeof(*f->values));
	e->arms = xcalloc((size_t)nr + 1, sizeof(*e->arms));
	e->verdicts = xcalloc((size_t)nr + 1, sizeof(*e->verdicts));
	e->has_verdicts = MODEL_SET;
	e->baseline = 0;
	e->has_baseline = MODEL_SET;
	for (i = 0; i <= nr; i++) {
		struct exp_arm *a = &e->arms[e->nr_arms++];
		char label[64], val[16];

		snprintf(val, sizeof(val), "%d", 128 << i);
		snprintf(label, sizeof(label), "%s=%s", name, val);
		f->values[f->nr_values++] = xstrdup(val);
		a->arm = i;
		a->label = xstrdup(label);
		a->settings = xcalloc(1, sizeof(*a->settings));
		a->settings[0].name = xstrdup(name);
		a->settings[0].value = xstrdup(val);
		a->nr_settings = 1;
		a->has_settings = MODEL_SET;
		if (i) {
			struct exp_verdict *v = &e->verdicts[e->nr_verdicts++];
			char word[32];
			double ratio;

			assert_int_equal(sscanf(verdicts[i - 1], "%31[^:]:%lf",
						word, &ratio),
					 2);
			v->arm = i;
			v->label = xstrdup(label);
			v->verdict = xstrdup(word);
			v->cmp = xcalloc(1, sizeof(*v->cmp));
			v->cmp->ratio = ratio;
			v->cmp->ci_low = v->cmp->ci_high = NAN;
			v->cmp->p = v->cmp->p_adjusted = NAN;
			v->has_suspect = MODEL_SET; /* clean */
		}
	}
	return e;
}

/* Set doc's origin to origin. */
static void set_origin(struct experiment_doc *e, const char *origin)
{
	free(e->origin);
	e->origin = xstrdup(origin);
}

static void test_pick(void **state)
{
	static const char *const three[] = {"faster:1.2", "faster:1.5",
					    "slower:0.8"};
	static const char *const lower[] = {"faster:0.9", "faster:0.7",
					    "equivalent:1.0"};
	static const char *const none[] = {"equivalent:1.0", "slower:0.8"};
	struct strbuf err = STRBUF_INIT;
	struct export_pick p;
	struct experiment_doc *e;

	(void)state;
	e = make_exp(1, 1, three, 3);
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), 0);
	assert_int_equal(p.arm, 2);
	assert_string_equal(p.label, "read_ahead_kb=512");
	assert_int_equal(p.nr_assign, 1);
	assert_string_equal(p.assign[0], "read_ahead_kb=512");
	assert_string_equal(p.created, "2026-11-29");
	assert_non_null(strstr(p.others, "'read_ahead_kb=256' (1.200x)"));
	export_pick_release(&p);
	/* numbers count from 1, in the order the tables list the arms */
	assert_int_equal(export_pick(e, "4", NULL, NULL, &p, &err), 0);
	assert_string_equal(p.label, "read_ahead_kb=1024");
	export_pick_release(&p);
	assert_int_equal(export_pick(e, "#3", NULL, NULL, &p, &err), 0);
	assert_string_equal(p.label, "read_ahead_kb=512");
	export_pick_release(&p);
	assert_int_equal(
	    export_pick(e, "read_ahead_kb=128", NULL, NULL, &p, &err), 0);
	assert_int_equal(p.arm, 0);
	export_pick_release(&p);
	free(e->arms[1].label);
	e->arms[1].label = xstrdup("read_ahead_kb=256 (asked: 512s)");
	assert_int_equal(
	    export_pick(e, "read_ahead_kb=256", NULL, NULL, &p, &err), 0);
	assert_int_equal(p.arm, 1);
	assert_string_equal(p.label, "read_ahead_kb=256 (asked: 512s)");
	export_pick_release(&p);
	assert_int_equal(export_pick(e, "bogus", NULL, NULL, &p, &err),
			 -ENOENT);
	assert_non_null(strstr(err.buf, "has no arm 'bogus'; its arms: "
					"'read_ahead_kb=128'"));
	export_pick_release(&p);
	experiment_doc_free(e);

	e = make_exp(0, 1, lower, 3);
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), 0);
	assert_int_equal(p.arm, 2); /* lower is better: 0.7 */
	export_pick_release(&p);
	experiment_doc_free(e);

	strbuf_reset(&err);
	e = make_exp(1, 1, none, 2);
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "no arm of experiment 'abcd1234' was "
					"faster"));
	assert_non_null(strstr(err.buf, "--arm LABEL"));
	export_pick_release(&p);
	experiment_doc_free(e);

	/* a tune: its recommendation, not the best ratio; none: refused */
	strbuf_reset(&err);
	e = make_exp(1, 1, three, 3);
	e->tune = xcalloc(1, sizeof(*e->tune));
	e->tune->recommended = xcalloc(1, sizeof(*e->tune->recommended));
	e->tune->recommended->arm = 1;
	e->tune->recommended->has_arm = 1;
	e->tune->recommended->changes =
	    xcalloc(1, sizeof(*e->tune->recommended->changes));
	e->tune->recommended->changes[0].name = xstrdup("read_ahead_kb");
	e->tune->recommended->nr_changes = 1;
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), 0);
	assert_int_equal(p.arm, 1);
	assert_string_equal(p.assign[0], "read_ahead_kb=256");
	export_pick_release(&p);
	e->tune->recommended->nr_changes = 0; /* keep the current settings */
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "recommends keeping the current "
					"settings"));
	export_pick_release(&p);
	e->tune->recommended->nr_changes = 1;
	assert_int_equal(export_pick(e, "4", NULL, NULL, &p, &err), 0);
	assert_string_equal(p.label, "read_ahead_kb=1024"); /* --arm wins */
	export_pick_release(&p);
	experiment_doc_free(e);

	strbuf_reset(&err);
	e = make_exp(1, 0, three, 3);
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), -ENOENT);
	assert_non_null(strstr(err.buf, "varied no knob (its factors: bs)"));
	assert_non_null(strstr(err.buf, "iotrial compare WORKLOAD --vary"));
	export_pick_release(&p);
	experiment_doc_free(e);
	strbuf_release(&err);
}

/*
 * An experiment from elsewhere: the pick says its origin and its
 * baseline's settings; a raw knob is refused unless allowed by name,
 * the registry's are not; a local experiment may set any.
 */
static void test_pick_origin(void **state)
{
	static const char *const one[] = {"faster:1.5"};
	static const char *const allow[] = {"sysctl:kernel.core_pattern"};
	struct strbuf err = STRBUF_INIT;
	struct export_pick p;
	struct knob_plan plan;
	struct experiment_doc *e;

	(void)state;
	e = make_exp(1, 1, one, 1);
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), 0);
	assert_string_equal(p.origin, "local");
	assert_string_equal(p.base_label, "read_ahead_kb=128");
	assert_int_equal(p.nr_base_assign, 1);
	assert_string_equal(p.base_assign[0], "read_ahead_kb=128");
	knob_plan_init(&plan, NULL);
	add_change(&plan, "read_ahead_kb", KNOB_SCOPE_DEVICE, "sdb",
		   "/sys/block/sdb/queue/read_ahead_kb", "256");
	plan.v[0].k.ops = &knob_readahead_ops;
	add_change(&plan, "sysctl:kernel.core_pattern", KNOB_SCOPE_SYSTEM,
		   "system", "/proc/sys/kernel/core_pattern", "|/tmp/evil %p");
	plan.v[1].k.ops = &knob_raw_ops;
	assert_int_equal(export_pick_check_knobs(&p, &plan, NULL, 0, &err), 0);
	export_pick_release(&p);

	set_origin(e, EXP_ORIGIN_IMPORTED);
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), 0);
	assert_string_equal(p.origin, "imported");
	strbuf_reset(&err);
	assert_int_equal(export_pick_check_knobs(&p, &plan, NULL, 0, &err),
			 -EPERM);
	assert_non_null(strstr(err.buf, "was imported, not measured here, "
					"and its arm sets "
					"'sysctl:kernel.core_pattern', a raw "
					"knob"));
	assert_non_null(
	    strstr(err.buf, "give --allow-knob 'sysctl:kernel.core_pattern'"));
	assert_null(strstr(err.buf, "read_ahead_kb"));
	assert_int_equal(export_pick_check_knobs(&p, &plan, allow, 1, &err), 0);
	export_pick_release(&p);
	set_origin(e, EXP_ORIGIN_FLEET);
	assert_int_equal(export_pick(e, NULL, NULL, NULL, &p, &err), 0);
	strbuf_reset(&err);
	assert_int_equal(export_pick_check_knobs(&p, &plan, NULL, 0, &err),
			 -EPERM);
	assert_non_null(strstr(err.buf, "merged from a fleet's hosts"));
	/* only the raw one is refused */
	assert_int_equal(export_pick_check_knobs(&p, &plan, allow, 1, &err), 0);
	export_pick_release(&p);
	knob_plan_release(&plan);
	experiment_doc_free(e);
	strbuf_release(&err);
}

static void test_formats(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	assert_ptr_equal(export_format_find("udev"), &export_format_udev);
	assert_ptr_equal(export_format_find("shell"), &export_format_shell);
	assert_null(export_format_find("xml"));
	assert_null(export_format_find(NULL));
	assert_string_equal(export_format_sysctl.install_path,
			    "etc/sysctl.d/60-iotrial.conf");
	assert_null(export_format_ansible.install_path);
	assert_int_equal(export_format_shell.mode, 0755);
	/* every row is complete and found by its name */
	for (i = 0; export_formats[i]; i++) {
		assert_ptr_equal(export_format_find(export_formats[i]->name),
				 export_formats[i]);
		/* --format's choices are the rows' names */
		assert_string_equal(export_format_choices[i],
				    export_formats[i]->name);
		assert_non_null(export_formats[i]->render);
		assert_non_null(export_formats[i]->summary);
		assert_true(export_formats[i]->mode != 0);
	}
	assert_null(export_format_choices[i]);
	assert_int_equal(i, 7);
	export_format_names(1, ", ", " or ", &sb);
	assert_string_equal(sb.buf, "sysctl, udev, fstab or tuned");
	strbuf_reset(&sb);
	export_format_names(0, "|", "|", &sb);
	assert_string_equal(sb.buf,
			    "sysctl|udev|fstab|tuned|ansible|puppet|shell");
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sysctl_read_back),
	    cmocka_unit_test(test_sysctl_nothing),
	    cmocka_unit_test(test_udev_by_wwn),
	    cmocka_unit_test(test_udev_by_kernel_name),
	    cmocka_unit_test(test_udev_refuses_quote),
	    cmocka_unit_test(test_disk_id_read),
	    cmocka_unit_test(test_fstab_edit),
	    cmocka_unit_test(test_tuned_ini),
	    cmocka_unit_test(test_shell),
	    cmocka_unit_test(test_injection),
	    cmocka_unit_test(test_fstab_no_line),
	    cmocka_unit_test(test_puppet_core),
	    cmocka_unit_test(test_pick),
	    cmocka_unit_test(test_pick_origin),
	    cmocka_unit_test(test_formats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
