/*
 * iotrial knobs: every tunable that applies to a target, with its current
 * value, unit, allowed values, scope and notes. Read-only, so it works
 * without root; the same listing as JSON with --json.
 */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include "cli.h"
#include "knobargs.h"
#include "../util/error.h"
#include "../util/banned.h"

/* One knob for text output. */
static void print_knob(const struct knob *k, const char *value,
		       const struct knob_desc *d)
{
	const char *p, *nl;

	if (strcmp(d->shown.buf, value))
		printf("%-28s %s\n", k->name, d->shown.buf);
	else if (d->unit.len)
		printf("%-28s %s%s%s\n", k->name, value,
		       strcmp(d->unit.buf, "%") ? " " : "", d->unit.buf);
	else
		printf("%-28s %s\n", k->name, value);
	printf("    scope: %s", knob_scope_name(k->scope));
	if (k->scope != KNOB_SCOPE_SYSTEM)
		printf(" '%s'", k->object);
	printf(", %s\n", k->path);
	if (d->allowed.len)
		printf("    allowed: %s\n", d->allowed.buf);
	if (d->legacy.len)
		printf("    legacy names: %s\n", d->legacy.buf);
	for (p = d->notes.buf; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		if (nl > p)
			printf("    note: %.*s\n", (int)(nl - p), p);
	}
}

/* Split text at spaces (or newlines) into a JSON array of strings. */
static struct json_object *split(const char *text, char sep)
{
	struct json_object *a = json_object_new_array();
	const char *p = text, *e;

	while (*p) {
		e = strchr(p, sep);
		if (!e)
			e = p + strlen(p);
		if (e > p)
			json_object_array_add(
			    a, json_object_new_string_len(p, (int)(e - p)));
		p = *e ? e + 1 : e;
	}
	return a;
}

/* One knob as a JSON object. */
static struct json_object *knob_json(const struct knob *k, const char *value,
				     const struct knob_desc *d)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "name", json_object_new_string(k->name));
	json_object_object_add(o, "value", json_object_new_string(value));
	json_object_object_add(o, "shown",
			       json_object_new_string(d->shown.buf));
	json_object_object_add(o, "unit", json_object_new_string(d->unit.buf));
	json_object_object_add(o, "allowed",
			       json_object_new_string(d->allowed.buf));
	json_object_object_add(
	    o, "scope", json_object_new_string(knob_scope_name(k->scope)));
	json_object_object_add(o, "object", json_object_new_string(k->object));
	json_object_object_add(o, "path", json_object_new_string(k->path));
	json_object_object_add(o, "legacy_names", split(d->legacy.buf, ' '));
	json_object_object_add(o, "notes", split(d->notes.buf, '\n'));
	return o;
}

static const char *const knobs_usage[] = {
    "iotrial knobs [-t TARGET | --device DEV] [--json]",
    NULL,
};

static const char knobs_epilogue[] =
    "Lists the kernel I/O tunables for a target: device knobs (the "
    "scheduler,\nread-ahead, queue limits) need -t or --device, 'atime' a "
    "mounted file\nsystem; vm.* apply to the whole system. Read-only: works "
    "without root.\nChange them with 'iotrial set' or 'iotrial run "
    "--set'.\n";

/* Parse options; 1 for --help, -1 after an error. */
static int parse(int argc, const char **argv, const char **target,
		 const char **device, int *json)
{
	struct option opts[] = {
	    OPT_STRING('t', "target", target, "TARGET",
		       "a directory (its disk and mount) or a block device"),
	    OPT_STRING(0, "device", device, "DEV",
		       "a block device, as /dev/sdb or sdb"),
	    OPT_BOOL(0, "json", json, "print the list as JSON"),
	    OPT_END(),
	};
	int n = parse_options(argc, argv, "knobs", opts, knobs_usage,
			      knobs_epilogue, 0);

	if (n == PARSE_OPT_HELP)
		return 1;
	if (n < 0)
		return -1;
	if (n > 0) {
		error("unknown argument '%s' for 'knobs'; see 'iotrial knobs "
		      "--help'",
		      argv[0]);
		return -1;
	}
	return 0;
}

int cmd_knobs(int argc, const char **argv)
{
	const char *target = NULL, *device = NULL;
	struct knob_list names = {0};
	struct json_object *root = NULL, *arr = NULL, *un;
	struct strbuf err = STRBUF_INIT, value = STRBUF_INIT;
	struct knob_ctx ctx;
	struct target t;
	int json = 0, code, r;
	size_t i;

	r = parse(argc, argv, &target, &device, &json);
	if (r) {
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	}
	knob_ctx_init(&ctx);
	code = knob_cli_context(target, device, &ctx, &t);
	if (code)
		goto out;
	knob_names(&ctx, &names);
	if (json) {
		root = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(root, "schema",
				       json_object_new_string("iotrial/1"));
		json_object_object_add(
		    root, "device",
		    ctx.disk ? json_object_new_string(ctx.disk) : NULL);
		json_object_object_add(
		    root, "mount",
		    ctx.mountpoint ? json_object_new_string(ctx.mountpoint)
				   : NULL);
	} else if (ctx.disk || ctx.mountpoint) {
		printf("knobs of");
		if (ctx.disk)
			printf(" device '%s'", ctx.disk);
		if (ctx.mountpoint)
			printf("%s mount '%s'", ctx.disk ? " and" : "",
			       ctx.mountpoint);
		printf("\n\n");
	}
	for (i = 0; i < names.nr; i++) {
		struct knob k;
		struct knob_desc d;

		knob_desc_init(&d);
		strbuf_reset(&value);
		if (knob_resolve(&ctx, names.v[i], &k, NULL, &err) ||
		    knob_describe(&k, &value, &d, &err)) {
			warning("%s", err.buf);
			knob_desc_release(&d);
			if (k.ops)
				knob_release(&k);
			continue;
		}
		if (json)
			json_object_array_add(arr,
					      knob_json(&k, value.buf, &d));
		else
			print_knob(&k, value.buf, &d);
		knob_release(&k);
		knob_desc_release(&d);
	}
	if (json) {
		json_object_object_add(root, "knobs", arr);
		un = json_object_new_object();
		if (!ctx.disk)
			json_object_object_add(
			    un, "device",
			    json_object_new_string(ctx.why_no_disk
							   ? ctx.why_no_disk
							   : "no device was "
							     "given"));
		if (!ctx.mountpoint)
			json_object_object_add(
			    un, "mount",
			    json_object_new_string(ctx.why_no_mount));
		json_object_object_add(root, "unavailable", un);
		printf("%s\n", json_object_to_json_string_ext(
				   root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(root);
	} else {
		if (!ctx.disk)
			printf("\ndevice knobs (scheduler, read_ahead_kb, "
			       "nr_requests, ...): %s; give --device DEV or "
			       "-t TARGET\n",
			       ctx.why_no_disk ? ctx.why_no_disk
					       : "no device was given");
		if (!ctx.mountpoint)
			printf("%satime: %s; give -t DIR\n",
			       ctx.disk ? "\n" : "", ctx.why_no_mount);
		printf("\nany other tunable: sysfs:PATH or sysctl:NAME "
		       "(e.g. sysctl:vm.swappiness)\n");
	}
out:
	knob_list_release(&names);
	knob_ctx_release(&ctx);
	target_release(&t);
	strbuf_release(&err);
	strbuf_release(&value);
	return code;
}
