/*
 * Exports for the tools that keep a machine's configuration (export.h):
 * a tuned profile, an Ansible playbook, a Puppet manifest. Each installs
 * the same sysctl.d file and udev rule that export.c renders and sets the
 * mount's atime option, so a setting reads the same whichever tool rolls
 * it out; each also applies it at once (tuned when the profile is
 * chosen, Ansible and Puppet through a handler or a refreshed exec).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "export.h"
#include "../../util/error.h"
#include "../../util/banned.h"

/* The fields of the fstab line of change c, when there is one: source,
 * fstype and the new options; 0 when fstab has no line for it. */
static int mount_fields(const struct export_src *src,
			const struct knob_change *c, struct strbuf *source,
			struct strbuf *fstype, struct strbuf *opts)
{
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT, nw = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *p, *f[4] = {0};
	size_t n[4] = {0};
	unsigned no;
	int i, ret = 0;

	if (!src->fstab ||
	    export_fstab_edit(src->fstab, c->k.object, c->canon.buf, &text,
			      &old, &nw, &no, &err))
		goto out;
	for (p = nw.buf, i = 0; *p && i < 4; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		f[i] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		n[i] = (size_t)(p - f[i]);
	}
	if (i < 4 || !n[3])
		goto out;
	strbuf_add(source, f[0], n[0]);
	strbuf_add(fstype, f[2], n[2]);
	strbuf_add(opts, f[3], n[3]);
	ret = 1;
out:
	strbuf_release(&text);
	strbuf_release(&old);
	strbuf_release(&nw);
	strbuf_release(&err);
	return ret;
}

int export_render_tuned(const struct export_src *src, struct strbuf *out,
			struct strbuf *err)
{
	const struct knob_plan *p = src->plan;
	struct strbuf disk = STRBUF_INIT, sysctl = STRBUF_INIT;
	struct strbuf sysfs = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf skipped = STRBUF_INIT;
	const char *disk_name = NULL;
	size_t i;

	(void)err;
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];

		strbuf_reset(&name);
		if (c->k.scope == KNOB_SCOPE_DEVICE &&
		    (!strcmp(c->k.name, "scheduler") ||
		     !strcmp(c->k.name, "read_ahead_kb")) &&
		    (!disk_name || !strcmp(disk_name, c->k.object))) {
			disk_name = c->k.object;
			strbuf_addf(&disk, "%s=%s\n",
				    !strcmp(c->k.name, "scheduler")
					? "elevator"
					: "readahead",
				    c->canon.buf);
		} else if (export_sysctl_name(&c->k, &name)) {
			strbuf_addf(&sysctl, "%s=%s\n", name.buf, c->canon.buf);
		} else if (c->k.scope != KNOB_SCOPE_MOUNT) {
			strbuf_addf(&sysfs, "%s=%s\n", c->k.path, c->canon.buf);
		} else {
			strbuf_addf(&skipped,
				    "# %s=%s on '%s': tuned sets no mount "
				    "options; keep it with 'iotrial export "
				    "--format fstab'\n",
				    c->k.name, c->canon.buf, c->k.object);
		}
	}
	export_header(src, "# ", out);
	strbuf_addstr(out, "# a tuned profile: /etc/tuned/iotrial/tuned.conf; "
			   "'tuned-adm profile iotrial' applies it\n");
	strbuf_add(out, skipped.buf, skipped.len);
	strbuf_addstr(out, "\n[main]\n");
	if (src->id)
		strbuf_addf(out, "summary=iotrial experiment %s: %s\n", src->id,
			    src->label ? src->label : "");
	else
		strbuf_addstr(out, "summary=iotrial settings\n");
	if (src->tuned_include)
		strbuf_addf(out, "include=%s\n", src->tuned_include);
	else
		strbuf_addstr(out, "# no active tuned profile was found, so "
				   "none is included\n");
	if (disk.len)
		strbuf_addf(out, "\n[disk]\ndevices=%s\n%s", disk_name,
			    disk.buf);
	if (sysctl.len)
		strbuf_addf(out, "\n[sysctl]\n%s", sysctl.buf);
	if (sysfs.len)
		strbuf_addf(out, "\n[sysfs]\n%s", sysfs.buf);
	strbuf_release(&disk);
	strbuf_release(&sysctl);
	strbuf_release(&sysfs);
	strbuf_release(&name);
	strbuf_release(&skipped);
	return 0;
}

/* Append s as a YAML single-quoted scalar. */
static void yaml_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addch(out, '\'');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

/* The Ansible variable of a udev attribute: "iotrial_queue_scheduler". */
static void ansible_var(struct strbuf *out, const char *attr)
{
	strbuf_addstr(out, "iotrial_");
	for (; *attr; attr++)
		strbuf_addch(out, (*attr >= 'a' && *attr <= 'z') ||
					  (*attr >= '0' && *attr <= '9')
				      ? *attr
				      : '_');
}

int export_render_ansible(const struct export_src *src, struct strbuf *out,
			  struct strbuf *err)
{
	const struct knob_plan *p = src->plan;
	const struct knob_change *mc = export_mount_change(src);
	struct strbuf rules = STRBUF_INIT, vars = STRBUF_INIT;
	struct strbuf name = STRBUF_INIT, tasks = STRBUF_INIT;
	struct strbuf source = STRBUF_INIT, fstype = STRBUF_INIT;
	struct strbuf opts = STRBUF_INIT, e = STRBUF_INIT;
	const char *q, *nl;
	size_t i;
	int udev = 0;

	(void)err;
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];
		const char *attr = export_udev_attr(&c->k);

		strbuf_reset(&name);
		if (attr) {
			udev = 1;
			strbuf_addstr(&vars, "    ");
			ansible_var(&vars, attr);
			strbuf_addstr(&vars, ": ");
			yaml_quote(&vars, c->canon.buf);
			strbuf_addch(&vars, '\n');
		} else if (export_sysctl_name(&c->k, &name)) {
			strbuf_addf(&tasks,
				    "    - name: %s = %s\n"
				    "      ansible.posix.sysctl:\n"
				    "        name: %s\n        value: ",
				    name.buf, c->canon.buf, name.buf);
			yaml_quote(&tasks, c->canon.buf);
			strbuf_addstr(&tasks, "\n        sysctl_file: "
					      "/etc/sysctl.d/60-iotrial.conf\n"
					      "        state: present\n"
					      "        reload: true\n\n");
		} else if (c->k.scope == KNOB_SCOPE_SYSTEM) {
			strbuf_addf(&tasks,
				    "    # %s=%s is neither a sysctl nor a "
				    "disk's queue attribute: the shell export "
				    "sets it\n\n",
				    c->k.name, c->canon.buf);
		}
	}
	/* the rule, with each value a variable of the play */
	if (udev && export_render_udev(src, &rules, &e)) {
		strbuf_addf(&tasks, "    # no udev rule: %s\n\n", e.buf);
		udev = 0;
	}
	if (udev) {
		strbuf_addstr(&tasks,
			      "    - name: udev rule for the disk's "
			      "queue settings\n"
			      "      ansible.builtin.copy:\n"
			      "        dest: "
			      "/etc/udev/rules.d/60-iotrial.rules\n"
			      "        owner: root\n        group: root\n"
			      "        mode: '0644'\n"
			      "        content: |\n");
		for (q = rules.buf; *q; q = *nl ? nl + 1 : nl) {
			const char *a;

			nl = strchrnul(q, '\n');
			strbuf_addstr(&tasks, "          ");
			if (*q == '#') {
				strbuf_add(&tasks, q, (size_t)(nl - q));
				strbuf_addch(&tasks, '\n');
				continue;
			}
			/* ATTR{x}="v" -> ATTR{x}="{{ iotrial_x }}" */
			while ((a = strstr(q, "ATTR{")) && a < nl) {
				const char *close = strchr(a, '}');

				strbuf_add(&tasks, q, (size_t)(close + 1 - q));
				strbuf_addstr(&tasks, "=\"{{ ");
				strbuf_reset(&name);
				strbuf_add(&name, a + 5,
					   (size_t)(close - a - 5));
				ansible_var(&tasks, name.buf);
				strbuf_addstr(&tasks, " }}\"");
				q = strchr(close + 3, '"') + 1;
			}
			strbuf_add(&tasks, q, (size_t)(nl - q));
			strbuf_addch(&tasks, '\n');
		}
		strbuf_addstr(&tasks, "      notify: iotrial udev\n\n");
	}
	if (mc && mount_fields(src, mc, &source, &fstype, &opts)) {
		strbuf_reset(&name);
		strbuf_addf(&name, "mount %s with %s", mc->k.object,
			    mc->canon.buf);
		strbuf_addstr(&tasks, "    - name: ");
		yaml_quote(&tasks, name.buf);
		strbuf_addstr(&tasks, "\n      ansible.posix.mount:\n"
				      "        path: ");
		yaml_quote(&tasks, mc->k.object);
		strbuf_addstr(&tasks, "\n        src: ");
		yaml_quote(&tasks, source.buf);
		strbuf_addstr(&tasks, "\n        fstype: ");
		yaml_quote(&tasks, fstype.buf);
		strbuf_addstr(&tasks, "\n        opts: ");
		yaml_quote(&tasks, opts.buf);
		strbuf_addstr(&tasks, "\n        state: mounted\n\n");
	} else if (mc) {
		strbuf_addf(&tasks,
			    "    # %s=%s on '%s': %s has no line for that "
			    "mount, so there is no line to change\n\n",
			    mc->k.name, mc->canon.buf, mc->k.object,
			    src->fstab_path ? src->fstab_path : "fstab");
	}
	strbuf_addstr(out, "---\n");
	export_header(src, "# ", out);
	strbuf_addstr(out, "# an Ansible playbook: 'ansible-playbook -i HOSTS "
			   "this.yml' (--check shows what it would change)\n"
			   "- name: iotrial settings");
	if (src->id)
		strbuf_addf(out, " of experiment %s", src->id);
	strbuf_addstr(out, "\n  hosts: all\n  become: true\n");
	if (vars.len)
		strbuf_addf(out, "  vars:\n%s", vars.buf);
	strbuf_addstr(out, "  tasks:\n");
	while (tasks.len && tasks.buf[tasks.len - 1] == '\n' && tasks.len > 1 &&
	       tasks.buf[tasks.len - 2] == '\n')
		strbuf_setlen(&tasks, tasks.len - 1);
	strbuf_add(out, tasks.buf, tasks.len);
	if (udev)
		strbuf_addstr(out,
			      "  handlers:\n"
			      "    - name: reload udev rules\n"
			      "      ansible.builtin.command: udevadm control "
			      "--reload\n"
			      "      changed_when: true\n"
			      "      listen: iotrial udev\n"
			      "    - name: trigger udev for block devices\n"
			      "      ansible.builtin.command: udevadm trigger "
			      "--action=change --subsystem-match=block\n"
			      "      changed_when: true\n"
			      "      listen: iotrial udev\n");
	strbuf_release(&rules);
	strbuf_release(&vars);
	strbuf_release(&name);
	strbuf_release(&tasks);
	strbuf_release(&source);
	strbuf_release(&fstype);
	strbuf_release(&opts);
	strbuf_release(&e);
	return 0;
}

/* Append s as a Puppet single-quoted string. */
static void pp_quote(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

/* A file resource with content text that notifies exec. */
static void pp_file(struct strbuf *out, const char *path, const char *text,
		    const char *exec)
{
	strbuf_addf(out,
		    "  file { '%s':\n"
		    "    ensure  => file,\n"
		    "    owner   => 'root',\n"
		    "    group   => 'root',\n"
		    "    mode    => '0644',\n"
		    "    content => ",
		    path);
	pp_quote(out, text);
	strbuf_addf(out, ",\n    notify  => Exec['%s'],\n  }\n\n", exec);
}

/* An exec run when a file it is notified by changes. */
static void pp_exec(struct strbuf *out, const char *name, const char *cmd)
{
	strbuf_addf(out, "  exec { '%s':\n    command     => ", name);
	pp_quote(out, cmd);
	strbuf_addstr(out, ",\n    path        => ['/usr/sbin', '/usr/bin', "
			   "'/sbin', '/bin'],\n"
			   "    provider    => shell,\n"
			   "    refreshonly => true,\n  }\n\n");
}

int export_render_puppet(const struct export_src *src, struct strbuf *out,
			 struct strbuf *err)
{
	const struct knob_change *mc = export_mount_change(src);
	struct strbuf text = STRBUF_INIT, e = STRBUF_INIT;
	struct strbuf source = STRBUF_INIT, fstype = STRBUF_INIT;
	struct strbuf opts = STRBUF_INIT, body = STRBUF_INIT;
	const char *cls = "iotrial_settings";

	(void)err;
	if (!export_render_sysctl(src, &text, &e)) {
		pp_file(&body, "/etc/sysctl.d/60-iotrial.conf", text.buf,
			"iotrial-sysctl");
		pp_exec(&body, "iotrial-sysctl",
			"sysctl -p /etc/sysctl.d/60-iotrial.conf");
	}
	strbuf_reset(&text);
	if (!export_render_udev(src, &text, &e)) {
		pp_file(&body, "/etc/udev/rules.d/60-iotrial.rules", text.buf,
			"iotrial-udev");
		pp_exec(&body, "iotrial-udev",
			"udevadm control --reload && udevadm trigger "
			"--action=change --subsystem-match=block");
	}
	if (mc && mount_fields(src, mc, &source, &fstype, &opts)) {
		strbuf_addstr(&body, "  mount { ");
		pp_quote(&body, mc->k.object);
		strbuf_addstr(&body, ":\n    ensure   => mounted,\n"
				     "    device   => ");
		pp_quote(&body, source.buf);
		strbuf_addstr(&body, ",\n    fstype   => ");
		pp_quote(&body, fstype.buf);
		strbuf_addstr(&body, ",\n    options  => ");
		pp_quote(&body, opts.buf);
		strbuf_addstr(&body, ",\n    remounts => true,\n  }\n\n");
	} else if (mc) {
		strbuf_addf(&body,
			    "  # %s=%s on '%s': %s has no line for that "
			    "mount, so there is no line to change\n\n",
			    mc->k.name, mc->canon.buf, mc->k.object,
			    src->fstab_path ? src->fstab_path : "fstab");
	}
	export_header(src, "# ", out);
	strbuf_addstr(out, "# a Puppet manifest: 'puppet apply' it, or put the "
			   "class in a module and\n# drop the include line\n");
	strbuf_addf(out, "class %s {\n", cls);
	if (body.len > 1)
		strbuf_setlen(&body, body.len - 1);
	strbuf_add(out, body.buf, body.len);
	strbuf_addf(out, "}\n\ninclude %s\n", cls);
	strbuf_release(&text);
	strbuf_release(&e);
	strbuf_release(&source);
	strbuf_release(&fstype);
	strbuf_release(&opts);
	strbuf_release(&body);
	return 0;
}
