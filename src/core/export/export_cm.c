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

/* The fields of the fstab line of change c: source, mount point (as
 * fstab writes it), fstype and the new options. 1 when fstab has the
 * line, 2 when it has none and these are of the line to add
 * (export_fstab_new_line()), 0 when neither is known. */
static int mount_fields(const struct export_src *src,
			const struct knob_change *c, struct strbuf *source,
			struct strbuf *mp, struct strbuf *fstype,
			struct strbuf *opts)
{
	struct strbuf text = STRBUF_INIT, old = STRBUF_INIT, nw = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT;
	const char *p, *f[4] = {0};
	size_t n[4] = {0};
	unsigned no;
	int i, ret = 0;

	if (!src->fstab)
		goto out;
	if (!export_fstab_edit(src->fstab, c->k.object, c->canon.buf, &text,
			       &old, &nw, &no, &err))
		ret = 1;
	else if (export_fstab_new_line(src, c, &nw))
		ret = 2;
	else
		goto out;
	for (p = nw.buf, i = 0; *p && i < 4; i++) {
		while (*p == ' ' || *p == '\t')
			p++;
		f[i] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		n[i] = (size_t)(p - f[i]);
	}
	if (i < 4 || !n[3]) {
		ret = 0;
		goto out;
	}
	strbuf_add(source, f[0], n[0]);
	strbuf_add(mp, f[1], n[1]);
	strbuf_add(fstype, f[2], n[2]);
	strbuf_add(opts, f[3], n[3]);
out:
	strbuf_release(&text);
	strbuf_release(&old);
	strbuf_release(&nw);
	strbuf_release(&err);
	return ret;
}

/* Would tuned expand s? It runs ${f:exec:...} and other ${...}. */
static int tuned_expands(const char *s)
{
	return strstr(s, "${") != NULL;
}

/* Would Ansible's Jinja2 template s (in a task, a variable, a file's
 * content)? */
static int jinja_expands(const char *s)
{
	return strstr(s, "{{") || strstr(s, "{%") || strstr(s, "{#");
}

/*
 * Tuned expands ${...} in a profile's values, and ${f:exec:PROGRAM}
 * runs a program: a profile with a string from an experiment that
 * holds '${' is refused (an imported or edited one could hold anything).
 */
int export_render_tuned(const struct export_src *src, struct strbuf *out,
			struct strbuf *err)
{
	const struct knob_plan *p = src->plan;
	struct strbuf disk = STRBUF_INIT, sysctl = STRBUF_INIT;
	struct strbuf sysfs = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf skipped = STRBUF_INIT;
	const char *disk_name = NULL;
	size_t i;
	int ret;

	if (export_find_string(src, tuned_expands, &name)) {
		ret = err_set(err, -EINVAL,
			      "%s holds '${', which tuned would expand (and "
			      "${f:exec:...} runs a program); no tuned "
			      "profile is written",
			      name.buf);
		strbuf_release(&name);
		return ret;
	}
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];
		struct knob_persist ps;

		strbuf_reset(&name);
		knob_persist(&c->k, &ps);
		if (ps.tuned_disk &&
		    (!disk_name || !strcmp(disk_name, c->k.object))) {
			disk_name = c->k.object;
			strbuf_addf(&disk, "%s=%s\n", ps.tuned_disk,
				    c->canon.buf);
		} else if (ps.sysctl.len) {
			strbuf_add(&name, ps.sysctl.buf, ps.sysctl.len);
			strbuf_addf(&sysctl, "%s=%s\n", name.buf, c->canon.buf);
		} else if (!ps.mount_option) {
			strbuf_addf(&sysfs, "%s=%s\n", c->k.path, c->canon.buf);
		} else {
			strbuf_addf(&skipped,
				    "# %s=%s on '%s': tuned sets no mount "
				    "options; keep it with 'iotrial export "
				    "--format fstab'\n",
				    c->k.name, c->canon.buf, c->k.object);
		}
		knob_persist_release(&ps);
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

/* Append s as a YAML single-quoted scalar. The caller has refused
 * Jinja2's markers; !unsafe before it keeps a value from being templated
 * even so. */
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
	struct strbuf opts = STRBUF_INIT, e = STRBUF_INIT, mp = STRBUF_INIT;
	const char *q, *nl;
	size_t i;
	int udev = 0, have;

	if (export_find_string(src, jinja_expands, &name)) {
		have = err_set(err, -EINVAL,
			       "%s holds '{{', '{%%' or '{#', which Ansible "
			       "would run as a Jinja2 template (on the "
			       "controller, even with --check); no playbook "
			       "is written",
			       name.buf);
		strbuf_release(&name);
		return have;
	}
	for (i = 0; i < p->nr; i++) {
		const struct knob_change *c = &p->v[i];
		const char *attr = export_udev_attr(&c->k);

		strbuf_reset(&name);
		if (attr) {
			udev = 1;
			strbuf_addstr(&vars, "    ");
			ansible_var(&vars, attr);
			strbuf_addstr(&vars, ": !unsafe ");
			yaml_quote(&vars, c->canon.buf);
			strbuf_addch(&vars, '\n');
		} else if (export_sysctl_name(&c->k, &name)) {
			strbuf_addstr(&tasks, "    - name: ");
			strbuf_addf(&e, "%s = %s", name.buf, c->canon.buf);
			yaml_quote(&tasks, e.buf);
			strbuf_reset(&e);
			strbuf_addstr(&tasks, "\n      ansible.posix.sysctl:\n"
					      "        name: ");
			yaml_quote(&tasks, name.buf);
			strbuf_addstr(&tasks, "\n        value: !unsafe ");
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
		strbuf_reset(&e);
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
	have = mc ? mount_fields(src, mc, &source, &mp, &fstype, &opts) : 0;
	if (have == 2)
		export_no_fstab_line(src, mc, "    # ", 1, &tasks);
	if (have) {
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
			    "mount and what mounts it is not known; add a line "
			    "for it to fstab\n\n",
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
	strbuf_release(&mp);
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

/* Append the environment => [...] line of an exec: NAME=VALUE each. */
static void pp_env(struct strbuf *out, const char *const *kv, size_t nr)
{
	struct strbuf one = STRBUF_INIT;
	size_t i;

	strbuf_addstr(out, "    environment => [");
	for (i = 0; i + 1 < nr; i += 2) {
		strbuf_reset(&one);
		strbuf_addf(&one, "%s=%s", kv[i], kv[i + 1]);
		strbuf_addstr(out, i ? ", " : "");
		pp_quote(out, one.buf);
	}
	strbuf_addstr(out, "],\n");
	strbuf_release(&one);
}

/* The fstab edit of mount change c with core Puppet's exec (the mount
 * type is not in core Puppet since 6: it is the puppetlabs-mount_core
 * module). how is 1 to change the line, 2 to add it. */
static void pp_mount(struct strbuf *out, const struct knob_change *c, int how,
		     const char *source, const char *mp, const char *fstype,
		     const char *opts)
{
	const char *env[] = {"IOTRIAL_MP",   mp,  "IOTRIAL_OPTS", opts,
			     "IOTRIAL_LINE", NULL};
	struct strbuf line = STRBUF_INIT;

	strbuf_addf(&line, "%s\t%s\t%s\t%s\t0\t%d", source, mp, fstype, opts,
		    strcmp(c->k.object, "/") ? 2 : 1);
	env[5] = line.buf;
	strbuf_addstr(out, "  # core Puppet has no mount type (it is in the "
			   "puppetlabs-mount_core module),\n"
			   "  # so an exec keeps the fstab line and another "
			   "remounts; with that module,\n  # mount { ");
	pp_quote(out, c->k.object);
	strbuf_addstr(out, ": ensure => mounted, device => ");
	pp_quote(out, source);
	strbuf_addstr(out, ",\n  #   fstype => ");
	pp_quote(out, fstype);
	strbuf_addstr(out, ", options => ");
	pp_quote(out, opts);
	strbuf_addstr(out, ", remounts => true } does the same\n"
			   "  exec { 'iotrial-fstab':\n    command     => ");
	if (how == 1)
		pp_quote(out, "awk 'BEGIN { OFS = \"\\t\" } $1 !~ /^#/ && "
			      "$2 == ENVIRON[\"IOTRIAL_MP\"] && NF >= 3 "
			      "{ $4 = ENVIRON[\"IOTRIAL_OPTS\"] } { print }' "
			      "/etc/fstab > /etc/fstab.iotrial && cat "
			      "/etc/fstab.iotrial > /etc/fstab && rm -f "
			      "/etc/fstab.iotrial");
	else
		pp_quote(out, "printf '%s\\n' \"$IOTRIAL_LINE\" >> /etc/fstab");
	strbuf_addstr(out, ",\n    unless      => ");
	pp_quote(out, how == 1 ? "awk '$1 !~ /^#/ && $2 == "
				 "ENVIRON[\"IOTRIAL_MP\"] && $4 == "
				 "ENVIRON[\"IOTRIAL_OPTS\"] { found = 1 } "
				 "END { exit !found }' /etc/fstab"
			       : "awk '$1 !~ /^#/ && $2 == "
				 "ENVIRON[\"IOTRIAL_MP\"] { found = 1 } "
				 "END { exit !found }' /etc/fstab");
	strbuf_addstr(out, ",\n");
	pp_env(out, env, how == 1 ? 4 : 6);
	strbuf_addstr(out,
		      "    path        => ['/usr/sbin', '/usr/bin', "
		      "'/sbin', '/bin'],\n"
		      "    provider    => shell,\n"
		      "    notify      => Exec['iotrial-remount'],\n  }\n\n");
	env[0] = "IOTRIAL_MOUNT";
	env[1] = c->k.object;
	env[2] = "IOTRIAL_ATIME";
	env[3] = c->canon.buf;
	strbuf_addstr(out, "  exec { 'iotrial-remount':\n    command     => ");
	pp_quote(out, "mount -o \"remount,$IOTRIAL_ATIME\" \"$IOTRIAL_MOUNT\"");
	strbuf_addstr(out, ",\n");
	pp_env(out, env, 4);
	strbuf_addstr(out, "    path        => ['/usr/sbin', '/usr/bin', "
			   "'/sbin', '/bin'],\n"
			   "    provider    => shell,\n"
			   "    refreshonly => true,\n  }\n\n");
	strbuf_release(&line);
}

/*
 * The manifest compiles with core Puppet alone (Debian's puppet 7 has no
 * mount_core module): files, execs, and the fstab line through an exec.
 * Every string from the experiment is single-quoted (no interpolation),
 * and the commands take the mount's values from their environment.
 */
int export_render_puppet(const struct export_src *src, struct strbuf *out,
			 struct strbuf *err)
{
	const struct knob_change *mc = export_mount_change(src);
	struct strbuf text = STRBUF_INIT, e = STRBUF_INIT, mp = STRBUF_INIT;
	struct strbuf source = STRBUF_INIT, fstype = STRBUF_INIT;
	struct strbuf opts = STRBUF_INIT, body = STRBUF_INIT;
	const char *cls = "iotrial_settings";
	int have;

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
	have = mc ? mount_fields(src, mc, &source, &mp, &fstype, &opts) : 0;
	if (have == 2)
		export_no_fstab_line(src, mc, "  # ", 1, &body);
	if (have) {
		pp_mount(&body, mc, have, source.buf, mp.buf, fstype.buf,
			 opts.buf);
	} else if (mc) {
		strbuf_addf(&body,
			    "  # %s=%s on '%s': %s has no line for that "
			    "mount and what mounts it is not known; add a line "
			    "for it to fstab\n\n",
			    mc->k.name, mc->canon.buf, mc->k.object,
			    src->fstab_path ? src->fstab_path : "fstab");
	}
	export_header(src, "# ", out);
	strbuf_addstr(out, "# a Puppet manifest for core Puppet (no modules): "
			   "'puppet apply' it, or put\n# the class in a "
			   "module and drop the include line\n");
	strbuf_addf(out, "class %s {\n", cls);
	if (body.len > 1)
		strbuf_setlen(&body, body.len - 1);
	strbuf_add(out, body.buf, body.len);
	strbuf_addf(out, "}\n\ninclude %s\n", cls);
	strbuf_release(&text);
	strbuf_release(&e);
	strbuf_release(&mp);
	strbuf_release(&source);
	strbuf_release(&fstype);
	strbuf_release(&opts);
	strbuf_release(&body);
	return 0;
}

const struct export_format export_format_tuned = {
    .name = "tuned",
    .summary = "a tuned profile (-o DIR makes DIR/tuned.conf)",
    .render = export_render_tuned,
    .install_path = "etc/tuned/iotrial/tuned.conf",
    .mode = 0644,
};

const struct export_format export_format_ansible = {
    .name = "ansible",
    .summary = "a playbook: ansible.posix.sysctl, ansible.posix.mount, a\n"
	       "templated udev rule and a handler that reloads udev",
    .render = export_render_ansible,
    .checker = "ansible-playbook --syntax-check",
    .mode = 0644,
};

const struct export_format export_format_puppet = {
    .name = "puppet",
    .summary = "a manifest: file resources notifying an exec, a mount",
    .render = export_render_puppet,
    .checker = "puppet parser validate",
    .mode = 0644,
};
