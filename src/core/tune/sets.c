/*
 * bisect's sets of settings from the command line or from a machine's
 * knobs --json or info --json (sets.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "sets.h"
#include "../model/model_json.h"
#include "../../util/error.h"
#include "../../util/userfile.h"
#include "../../util/banned.h"

#define SET_FILE_MAX_BYTES (4u << 20)

/* "name=value" into out. */
static void add_str(struct knob_list *out, const char *name, const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "%s=%s", name, value);
	knob_list_add(out, sb.buf);
	strbuf_release(&sb);
}

/* "name=value" into out, when the value was read (has). */
static void add_int(struct knob_list *out, const char *name, int64_t value,
		    uint8_t has)
{
	struct strbuf sb = STRBUF_INIT;

	if (has != MODEL_SET)
		return;
	strbuf_addf(&sb, "%s=%" PRId64, name, value);
	knob_list_add(out, sb.buf);
	strbuf_release(&sb);
}

/* knobs --json: every knob but the scheduler's own parameters. A raw
 * knob is refused (-EPERM, its name into *raw): the file is from
 * elsewhere, and such a knob would be written as root. */
static int from_knobs(const struct knobs_doc *doc, struct knob_list *out,
		      const char **raw)
{
	size_t i;

	for (i = 0; i < doc->nr_knobs; i++) {
		const struct knob_doc *k = &doc->knobs[i];

		if (k->name && knob_name_is_raw(k->name)) {
			*raw = k->name;
			return -EPERM;
		}
		if (!k->name || !k->value || !strncmp(k->name, "iosched.", 8))
			continue;
		/* of the twins vm.dirty_ratio and vm.dirty_bytes (and the
		 * background pair) the one not in force reads 0 */
		if (!strncmp(k->name, "vm.dirty", 8) && !strcmp(k->value, "0"))
			continue;
		add_str(out, k->name, k->value);
	}
	return 0;
}

/* info --json's dirty thresholds: the ratios unless bytes are in
 * force, and the writeback timers. */
static void from_vm(const struct env_vm *vm, struct knob_list *out)
{
	if (vm->has_dirty_bytes == MODEL_SET && vm->dirty_bytes > 0)
		add_int(out, "vm.dirty_bytes", vm->dirty_bytes,
			vm->has_dirty_bytes);
	else
		add_int(out, "vm.dirty_ratio", vm->dirty_ratio,
			vm->has_dirty_ratio);
	if (vm->has_dirty_background_bytes == MODEL_SET &&
	    vm->dirty_background_bytes > 0)
		add_int(out, "vm.dirty_background_bytes",
			vm->dirty_background_bytes,
			vm->has_dirty_background_bytes);
	else
		add_int(out, "vm.dirty_background_ratio",
			vm->dirty_background_ratio,
			vm->has_dirty_background_ratio);
	add_int(out, "vm.dirty_expire_centisecs", vm->dirty_expire_centisecs,
		vm->has_dirty_expire_centisecs);
	add_int(out, "vm.dirty_writeback_centisecs",
		vm->dirty_writeback_centisecs,
		vm->has_dirty_writeback_centisecs);
}

/* info --json: the dirty thresholds, the first device's queue, atime. */
static void from_info(const struct env_doc *env, struct knob_list *out)
{
	static const char *const atimes[] = {"noatime", "strictatime",
					     "relatime"};
	const struct env_stack *stack = env->stack;
	const struct env_device *dev;
	size_t i;

	if (env->vm)
		from_vm(env->vm, out);
	if (!stack)
		return;
	if (stack->nr_devices) {
		dev = &stack->devices[0];
		if (dev->scheduler)
			add_str(out, "scheduler", dev->scheduler);
		add_int(out, "read_ahead_kb", dev->read_ahead_kb,
			dev->has_read_ahead_kb);
		add_int(out, "nr_requests", dev->nr_requests,
			dev->has_nr_requests);
	}
	if (stack->mount && stack->mount->vfs_options)
		for (i = 0; i < 3; i++)
			if (strstr(stack->mount->vfs_options, atimes[i])) {
				add_str(out, "atime", atimes[i]);
				break;
			}
}

/* The settings of the document text, knobs --json or info --json, into
 * out; -EINVAL when it is neither, -EPERM with the knob's name in raw
 * when it names a raw knob. The file is from elsewhere: its strings are
 * made printable as they are read. */
static int from_text(const struct strbuf *text, struct knob_list *out,
		     struct strbuf *raw)
{
	struct knobs_doc knobs;
	struct info_doc info;
	struct strbuf err = STRBUF_INIT;
	const char *name = NULL;
	int ret = -EINVAL;

	info_doc_init(&info);
	if (!knobs_doc_decode(text->buf, text->len, &knobs,
			      MODEL_DECODE_PRINTABLE, &err) &&
	    knobs.knobs) {
		ret = from_knobs(&knobs, out, &name);
		if (ret)
			strbuf_addf(raw, "%.100s", name);
	} else if (!info_doc_decode(text->buf, text->len, &info,
				    MODEL_DECODE_PRINTABLE, &err) &&
		   info.env && (info.env->vm || info.env->stack)) {
		from_info(info.env, out);
		ret = 0;
	}
	knobs_doc_release(&knobs);
	info_doc_release(&info);
	strbuf_release(&err);
	return ret;
}

int tune_set_read(const char *spec, struct knob_list *out, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, raw = STRBUF_INIT;
	struct knob_list got = {0};
	size_t i;
	int ret;

	if (strchr(spec, '=')) {
		knob_list_add(out, spec);
		return 0;
	}
	ret = userfile_read(spec, SET_FILE_MAX_BYTES, &text, err);
	if (ret)
		goto out;
	ret = from_text(&text, &got, &raw);
	if (ret == -EPERM)
		err_set(err, ret,
			"'%s' names the raw knob '%s': a set read from a file "
			"may name only iotrial's own knobs, as 'iotrial knobs "
			"--json' lists them",
			spec, raw.buf);
	else if (ret)
		err_set(err, ret,
			"'%s' is neither KNOB=VALUE nor the JSON of "
			"'iotrial knobs --json' or 'iotrial info --json'",
			spec);
	for (i = 0; !ret && i < got.nr; i++)
		knob_list_add(out, got.v[i]);
out:
	knob_list_release(&got);
	strbuf_release(&text);
	strbuf_release(&raw);
	return ret;
}
