/*
 * What scratch.c shares with scratch_undo.c (recovery): tearing down a
 * mount and a loop device.
 */
#ifndef IOTRIAL_SCRATCH_INT_H
#define IOTRIAL_SCRATCH_INT_H

/* Unmount mnt (no link followed), retrying briefly while it is busy,
 * then lazily. 0 (also when nothing is mounted) or -errno. */
int scratch_umount(const char *mnt);
/* Detach loop device dev; the kernel defers it while it is open. */
int scratch_detach_loop(const char *dev);

#endif
