/*
 * Whose is a journal record, and is its owner still there: owners are
 * told alive or gone by pid, process start time and boot id.
 */
#ifndef IOTRIAL_JOURNAL_OWNER_H
#define IOTRIAL_JOURNAL_OWNER_H

#include "journal.h"

/* Is the process of own record own still running, in this boot? */
int knob_owner_alive(const struct jrec *own, const char *boot);
/* Where this boot's id is read from. */
#define KNOB_BOOT_ID_FILE "/proc/sys/kernel/random/boot_id"
/* The boot id of a boot whose id could not be read: "cannot tell". */
#define KNOB_BOOT_UNKNOWN "unknown"
/*
 * This boot's id, from KNOB_BOOT_ID_FILE, or KNOB_BOOT_UNKNOWN when it
 * cannot be read; caller frees. An unknown boot never counts as another
 * boot: records of changes that a reboot undoes are kept, not retired.
 */
char *knob_boot_id(void);

#endif
