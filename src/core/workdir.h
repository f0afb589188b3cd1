/*
 * Work directories of directory targets (workdir.c): made with a random
 * "iotrial.XXXXXX" name, held open, used only through descriptors, and
 * removed only while they are still the directory that was made. The
 * public side is in target.h; this is what target.c and scratch.c share.
 */
#ifndef IOTRIAL_WORKDIR_H
#define IOTRIAL_WORKDIR_H

#include "target.h"
#include "../util/strbuf.h"

/* Empty and remove t's work directory, close its descriptors, free its
 * names. Nothing when t has none. */
void workdir_release(struct target *t);

#endif
