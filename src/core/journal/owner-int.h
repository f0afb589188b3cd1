/*
 * What session.c and recover.c take from owner.c, and nothing above
 * the journal uses: which records are live, which belong to a gone
 * owner, and the process start time owners are told apart by.
 */
#ifndef IOTRIAL_JOURNAL_OWNER_INT_H
#define IOTRIAL_JOURNAL_OWNER_INT_H

#include <stdint.h>
#include "journal.h"

/* Is r a live set/scr record? */
int session_live(const struct jrec *r);
/*
 * Is r something recovery acts on: live, and its owner gone? A kept
 * change waits for iotrial revert as long as its boot lasts, and the
 * records of a live owner are its own business, lock or no lock. A
 * record whose boot cannot be told (a kind that does not outlive a
 * reboot, this boot's or the owner's id unread) is left as it is.
 */
int session_stale(const struct journal *j, const struct jrec *r,
		  const char *boot);
/*
 * Can recovery not tell whether r's change still applies: a live record
 * of a kind that does not outlive a reboot, its owner gone, and this
 * boot's id or the owner's unread?
 */
int session_cannot_tell(const struct journal *j, const struct jrec *r,
			const char *boot);
/* Is b a boot id that was read (not "unknown", not missing)? */
int session_boot_known(const char *b);
/* Field 22 of /proc/PID/stat (start time in ticks); 0 if unknown. */
uint64_t session_start_ticks(long pid);

#endif
