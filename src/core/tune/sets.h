/*
 * The sets of settings bisect compares: given on the command line as
 * KNOB=VALUE, or read from what `iotrial knobs --json` or `iotrial info
 * --json` wrote on a machine. Such a file is untrusted: every value
 * read here still goes through the knob's own parser before anything
 * is written.
 */
#ifndef IOTRIAL_TUNE_SETS_H
#define IOTRIAL_TUNE_SETS_H

#include "../knob/knob.h"
#include "../../util/strbuf.h"

/*
 * Append the settings spec stands for to out, each "KNOB=VALUE": spec
 * itself when it has a '='; else the JSON file it names, either
 * knobs --json ("knobs": each name and value; the iosched.* parameters,
 * which follow the scheduler, left out) or info --json (vm's dirty
 * thresholds, the queue of the first device of "stack": scheduler,
 * read_ahead_kb, nr_requests; the mount's atime). 0, or -errno with
 * err ("cannot read 'F': ...", "'F' is neither ..."); -EPERM for a
 * file that names a raw knob (sysfs:, sysctl:), which could write any
 * file as root. Nothing is added to out on an error.
 */
int tune_set_read(const char *spec, struct knob_list *out, struct strbuf *err);

#endif
