/*
 * The kinds of journal record this program knows: the table the session
 * looks each record up in (journal_undo_kinds[], session.h).
 *
 * The journal sits below what it journals (knobs, targets), so it
 * includes none of them; its users do not register themselves at run
 * time either, since a journal left by a crash may hold any kind and a
 * command that forgot to register one would then leave it undone. The
 * table is therefore plain data, linked in: it lives here, above the
 * journal and the targets and beside the knobs, the lowest place that
 * sees every kind. A new kind is one row.
 */
#include "knob_journal.h"
#include "../journal/session.h"
#include "../targets/cgroup.h"
#include "../targets/scratch.h"
#include "../targets/workdir.h"

const struct undo_ops *const journal_undo_kinds[] = {
    &knob_undo_ops,	     /* set: a knob's setting */
    &scratch_dir_undo_ops,   /* scr dir: a scratch directory, its mnt */
    &scratch_file_undo_ops,  /* scr file: a scratch image */
    &scratch_loop_undo_ops,  /* scr loop: a scratch loop device */
    &scratch_mount_undo_ops, /* scr mount: a scratch file system */
    &workdir_undo_ops,	     /* scr work: a run's work directory */
    &cgroup_undo_ops,	     /* scr cgroup: a workload's cgroup */
    NULL,
};
