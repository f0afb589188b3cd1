/*
 * Where a trace's paths land when it is played elsewhere: beneath a
 * directory (a replay's work directory, an export's --root), each path
 * with the directory every played file shares taken off. A replay and
 * an fio iolog export map them alike, so the same trace lays out the
 * same tree whichever plays it.
 */
#ifndef IOTRIAL_TRACE_PATHS_H
#define IOTRIAL_TRACE_PATHS_H

#include "trace.h"

struct strbuf;

/* Is the absolute path p plain: no empty, "." or ".." component? */
int trace_path_plain(const char *p);

/*
 * Where t's paths land beneath a directory: *rel (allocated here, one
 * per file) holds file i + 1's path below the deepest directory every
 * played file shares (at most the first one's own directory), "." for
 * that directory itself, NULL for a file that is never played
 * (TFK_OTHER). 0, or -EINVAL with err set when a path is not plain and
 * absolute: then nothing can land outside the directory. Free *rel with
 * trace_names_free() whatever this returns.
 */
int trace_map_names(const struct trace *t, char ***rel, struct strbuf *err);
void trace_names_free(char **rel, size_t nr_files);

#endif
