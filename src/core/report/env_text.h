/*
 * What `iotrial info` prints: an environment snapshot (observe/env.h),
 * the same facts every result carries in its "env", for a person or as
 * JSON.
 */
#ifndef IOTRIAL_ENV_TEXT_H
#define IOTRIAL_ENV_TEXT_H

#include "../observe/env.h"
#include "../../util/strbuf.h"

/*
 * Kernel, CPUs, memory and the vm.dirty_* settings, then (when e has a
 * stack) the target, its mount and each device of its stack with its
 * model, size, block size and queue values. Appends to out.
 */
void report_env_text(const struct env *e, struct strbuf *out);

/* e as env_to_json_object() makes it, pretty-printed with a final
 * newline. Appends to out. */
void report_env_json(const struct env *e, struct strbuf *out);

#endif
