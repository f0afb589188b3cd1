/*
 * bisect's sets of settings from the command line or from a machine's
 * knobs --json or info --json (sets.h).
 */
#include <errno.h>
#include <string.h>
#include <json-c/json.h>
#include "sets.h"
#include "../../util/error.h"
#include "../../util/userfile.h"
#include "../../util/banned.h"

#define SET_FILE_MAX_BYTES (4u << 20)

/* "name=value" into out, when value is a string or a number. */
static void add_pair(struct knob_list *out, const char *name,
		     struct json_object *v)
{
	struct strbuf sb = STRBUF_INIT;

	if (!name || !v)
		return;
	if (json_object_is_type(v, json_type_string))
		strbuf_addf(&sb, "%s=%s", name, json_object_get_string(v));
	else if (json_object_is_type(v, json_type_int))
		strbuf_addf(&sb, "%s=%lld", name,
			    (long long)json_object_get_int64(v));
	if (sb.len)
		knob_list_add(out, sb.buf);
	strbuf_release(&sb);
}

/* knobs --json: every knob but the scheduler's own parameters. */
static void from_knobs(struct json_object *arr, struct knob_list *out)
{
	size_t i, n = json_object_array_length(arr);

	for (i = 0; i < n; i++) {
		struct json_object *k = json_object_array_get_idx(arr, i);
		struct json_object *name, *value;

		if (!json_object_object_get_ex(k, "name", &name) ||
		    !json_object_is_type(name, json_type_string) ||
		    !json_object_object_get_ex(k, "value", &value))
			continue;
		if (!strncmp(json_object_get_string(name), "iosched.", 8))
			continue;
		/* of the twins vm.dirty_ratio and vm.dirty_bytes (and the
		 * background pair) the one not in force reads 0 */
		if (!strncmp(json_object_get_string(name), "vm.dirty", 8) &&
		    json_object_is_type(value, json_type_string) &&
		    !strcmp(json_object_get_string(value), "0"))
			continue;
		add_pair(out, json_object_get_string(name), value);
	}
}

/* info --json: the dirty thresholds, the first device's queue, atime. */
static void from_info(struct json_object *o, struct knob_list *out)
{
	static const char *const queue[] = {"scheduler", "read_ahead_kb",
					    "nr_requests"};
	static const char *const atimes[] = {"noatime", "strictatime",
					     "relatime"};
	struct json_object *vm, *stack, *devs, *dev, *x, *mnt;
	size_t i;

	if (json_object_object_get_ex(o, "vm", &vm)) {
		/* the ratios unless bytes are in force */
		const char *pairs[2][2] = {
		    {"dirty_ratio", "dirty_bytes"},
		    {"dirty_background_ratio", "dirty_background_bytes"}};

		for (i = 0; i < 2; i++) {
			struct json_object *b = NULL;
			const char *use = pairs[i][0];
			struct strbuf name = STRBUF_INIT;

			if (json_object_object_get_ex(vm, pairs[i][1], &b) &&
			    json_object_get_int64(b) > 0)
				use = pairs[i][1];
			strbuf_addf(&name, "vm.%s", use);
			if (json_object_object_get_ex(vm, use, &x))
				add_pair(out, name.buf, x);
			strbuf_release(&name);
		}
		if (json_object_object_get_ex(vm, "dirty_expire_centisecs", &x))
			add_pair(out, "vm.dirty_expire_centisecs", x);
		if (json_object_object_get_ex(vm, "dirty_writeback_centisecs",
					      &x))
			add_pair(out, "vm.dirty_writeback_centisecs", x);
	}
	if (!json_object_object_get_ex(o, "stack", &stack))
		return;
	if (json_object_object_get_ex(stack, "devices", &devs) &&
	    json_object_is_type(devs, json_type_array) &&
	    (dev = json_object_array_get_idx(devs, 0)))
		for (i = 0; i < 3; i++)
			if (json_object_object_get_ex(dev, queue[i], &x))
				add_pair(out, queue[i], x);
	if (json_object_object_get_ex(stack, "mount", &mnt) &&
	    json_object_object_get_ex(mnt, "vfs_options", &x) &&
	    json_object_is_type(x, json_type_string)) {
		const char *opts = json_object_get_string(x);

		for (i = 0; i < 3; i++)
			if (strstr(opts, atimes[i])) {
				struct strbuf sb = STRBUF_INIT;

				strbuf_addf(&sb, "atime=%s", atimes[i]);
				knob_list_add(out, sb.buf);
				strbuf_release(&sb);
				break;
			}
	}
}

int tune_set_read(const char *spec, struct knob_list *out, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct json_object *o = NULL, *x;
	int ret;

	if (strchr(spec, '=')) {
		knob_list_add(out, spec);
		return 0;
	}
	ret = userfile_read(spec, SET_FILE_MAX_BYTES, &text, err);
	if (ret)
		goto out;
	o = json_tokener_parse(text.buf);
	if (o && json_object_object_get_ex(o, "knobs", &x) &&
	    json_object_is_type(x, json_type_array))
		from_knobs(x, out);
	else if (o && (json_object_object_get_ex(o, "vm", &x) ||
		       json_object_object_get_ex(o, "stack", &x)))
		from_info(o, out);
	else
		ret = err_set(err, -EINVAL,
			      "'%s' is neither KNOB=VALUE nor the JSON of "
			      "'iotrial knobs --json' or 'iotrial info --json'",
			      spec);
out:
	if (o)
		json_object_put(o);
	strbuf_release(&text);
	return ret;
}
