/*
 * Linux 2.4's /proc/sys/vm/bdflush line, as tuning advice still gives it
 * ("echo 80 0 0 0 500 3000 90 0 0 > /proc/sys/vm/bdflush"): nine numbers
 * in one file. Today four of them are knobs of their own (the bdflush.*
 * names vmdirty.c translates), and the rest have no modern meaning. So a
 * whole line becomes the bdflush.* assignments of the fields that still
 * mean something, with a note that names each field that is dropped and
 * its value, and the plan treats them as if they had been typed.
 */
#include <errno.h>
#include <string.h>
#include "knob.h"
#include "../../util/error.h"
#include "../../util/banned.h"

#define BDFLUSH_FIELDS 9

/* One field of the line, in order. */
struct bdflush_field {
	const char *name; /* as 2.4's Documentation/sysctl/vm.txt calls it */
	const char *knob; /* the bdflush.* name it became, or NULL */
	const char *gone; /* why it has none, when knob is NULL */
	int reserved;	  /* unused even in 2.4 */
};

static const struct bdflush_field fields[BDFLUSH_FIELDS] = {
    {"nfract", "bdflush.nfract", NULL},
    {"ndirty", NULL,
     "buffers written per wake-up; the flusher threads size their own "
     "batches"},
    {"nrefill", NULL, "reserved, unused by 2.4 itself", 1},
    {"nref_dirt", NULL, "reserved, unused by 2.4 itself", 1},
    {"interval", "bdflush.interval", NULL},
    {"age_buffer", "bdflush.age_buffer", NULL},
    {"nfract_sync", "bdflush.nfract_sync", NULL},
    {"nfract_stop_bdflush", NULL,
     "where 2.4 stopped writing back; writeback now stops below "
     "vm.dirty_background_ratio"},
    {"reserved", NULL, "reserved, unused by 2.4 itself", 1},
};

int knob_is_bdflush_line(const char *name)
{
	return !strcmp(name, "bdflush");
}

int knob_is_bdflush_field(const char *name)
{
	size_t i;

	for (i = 0; i < BDFLUSH_FIELDS; i++)
		if (fields[i].knob && !strcmp(name, fields[i].knob))
			return 1;
	return 0;
}

/* Append "a", "a and b", "a, b and c": item i of n, as it comes. */
static void add_item(struct strbuf *sb, size_t i, size_t n, const char *item)
{
	if (i)
		strbuf_addstr(sb, i + 1 == n ? " and " : ", ");
	strbuf_addstr(sb, item);
}

/* How field i is worded in the note: the order of its group. */
enum field_kind {
	FIELD_KEPT,	/* translated to its modern knob */
	FIELD_GONE,	/* no modern knob */
	FIELD_RESERVED, /* unused even in 2.4 */
};

static enum field_kind kind_of(size_t i)
{
	if (fields[i].knob)
		return FIELD_KEPT;
	return fields[i].reserved ? FIELD_RESERVED : FIELD_GONE;
}

/* The note of a parsed line: values[i] is field i's text, nr of them. */
static void line_note(const char *line, char values[][24], size_t nr,
		      struct strbuf *note)
{
	static const char *const tail[][2] = {
	    [FIELD_KEPT] = {" is translated", " are translated"},
	    [FIELD_GONE] = {" has no modern knob and is not set",
			    " have no modern knob and are not set"},
	    [FIELD_RESERVED] = {" was reserved (unused) in 2.4",
				" were reserved (unused) in 2.4"},
	};
	struct strbuf item = STRBUF_INIT;
	size_t i, n, k;
	int kind;

	strbuf_addf(note, "bdflush='%s' is Linux 2.4's line: ", line);
	for (kind = FIELD_KEPT; kind <= FIELD_RESERVED; kind++) {
		for (i = n = 0; i < nr; i++)
			n += kind_of(i) == (enum field_kind)kind;
		if (!n)
			continue;
		if (kind != FIELD_KEPT)
			strbuf_addstr(note, "; ");
		if (kind == FIELD_RESERVED)
			strbuf_addstr(note, n > 1 ? "fields " : "field ");
		for (i = k = 0; i < nr; i++) {
			if (kind_of(i) != (enum field_kind)kind)
				continue;
			strbuf_reset(&item);
			if (kind == FIELD_RESERVED)
				strbuf_addf(&item, "%zu", i + 1);
			else
				strbuf_addf(&item, "%s=%s", fields[i].name,
					    values[i]);
			add_item(note, k++, n, item.buf);
		}
		strbuf_addstr(note, tail[kind][n > 1]);
	}
	if (nr < BDFLUSH_FIELDS)
		strbuf_addf(note,
			    "; fields %zu to %d were not given and are left "
			    "as they are",
			    nr + 1, BDFLUSH_FIELDS);
	strbuf_release(&item);
}

int knob_bdflush_split(const char *line, struct knob_list *assign,
		       struct strbuf *note, struct strbuf *err)
{
	static const char space[] = " \t";
	char values[BDFLUSH_FIELDS][24];
	struct strbuf as = STRBUF_INIT;
	const char *p = line + strspn(line, space);
	size_t i, n;
	int ret = 0;

	for (i = 0; *p; i++, p += n, p += strspn(p, space)) {
		n = strcspn(p, space);
		if (i == BDFLUSH_FIELDS)
			ret = err_set(err, -EINVAL,
				      "bdflush='%s' has more than %d fields; "
				      "Linux 2.4's line is nine numbers, e.g. "
				      "bdflush='40 0 0 0 500 3000 60 0 0'",
				      line, BDFLUSH_FIELDS);
		else if (strspn(p, "0123456789") != n || n >= sizeof(values[0]))
			ret = err_set(err, -EINVAL,
				      "bdflush='%s': field %zu (%s) is '%.*s', "
				      "not a number; Linux 2.4's line is nine "
				      "numbers, e.g. bdflush='40 0 0 0 500 "
				      "3000 60 0 0'",
				      line, i + 1, fields[i].name, (int)n, p);
		if (ret)
			goto out;
		memcpy(values[i], p, n);
		values[i][n] = '\0';
	}
	if (!i) {
		ret = err_set(err, -EINVAL,
			      "'bdflush' needs Linux 2.4's line of numbers, "
			      "e.g. bdflush='40 0 0 0 500 3000 60 0 0'");
		goto out;
	}
	for (n = 0; n < i; n++) {
		if (!fields[n].knob)
			continue;
		strbuf_setf(&as, "%s=%s", fields[n].knob, values[n]);
		knob_list_add(assign, as.buf);
	}
	line_note(line, values, i, note);
out:
	strbuf_release(&as);
	return ret;
}

int knob_bdflush_refuse(const char *name, struct strbuf *err)
{
	size_t i;

	if (knob_is_bdflush_line(name))
		return err_set(err, -EINVAL,
			       "'bdflush' is Linux 2.4's whole line: give it "
			       "a value, as bdflush='40 0 0 0 500 3000 60 0 0' "
			       "(set, --set, --vary), or name one field: "
			       "bdflush.nfract, bdflush.interval, "
			       "bdflush.age_buffer, bdflush.nfract_sync");
	if (strncmp(name, "bdflush.", 8))
		return 0;
	for (i = 0; i < BDFLUSH_FIELDS; i++) {
		if (strcmp(name + 8, fields[i].name))
			continue;
		if (fields[i].knob)
			return 0;
		return err_set(err, -EINVAL,
			       "'%s' has no modern knob (%s); the "
			       "bdflush fields that do are "
			       "bdflush.nfract, bdflush.interval, "
			       "bdflush.age_buffer and bdflush.nfract_sync",
			       name, fields[i].gone);
	}
	return err_set(err, -EINVAL,
		       "'%s' is not a field of Linux 2.4's bdflush; those "
		       "with a modern knob are bdflush.nfract, "
		       "bdflush.interval, bdflush.age_buffer and "
		       "bdflush.nfract_sync",
		       name);
}
