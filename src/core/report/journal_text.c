/*
 * `iotrial revert --list`: what the journal holds, read without the lock
 * and without root, and without changing anything (recovery does not run
 * before it either), so anyone can see what a crash left, what would be
 * restored, what was changed since and is kept, and who left it. Each
 * record is described by its kind (undo_ops.describe). A corrupt journal
 * is shown too, numbered line by line, since that is exactly when a
 * person needs to read it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "journal_text.h"
#include "../model/model_json.h"
#include "../../version.h"
#include "../journal/session.h"
#include "../journal/state.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Append the local time of t_s: "2024-11-29 22:01:03". */
static void add_time(struct strbuf *out, uint64_t t_s)
{
	time_t t = (time_t)t_s;
	struct tm tm;
	char buf[32];

	if (localtime_r(&t, &tm) &&
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm))
		strbuf_addstr(out, buf);
	else
		strbuf_addf(out, "@%" PRIu64, t_s);
}

/* The owner line: who made these changes and what becomes of them. */
static void add_owner(struct strbuf *out, const struct jrec *own, int kept,
		      const char *boot)
{
	strbuf_addf(out, "made by 'iotrial %s' (pid %" PRId64 ", ",
		    own->f[JF_CMD], own->pid);
	add_time(out, own->time_s);
	strbuf_addch(out, ')');
	if (strcmp(own->f[JF_BOOT], boot))
		strbuf_addstr(out, " before the last reboot: no longer "
				   "applies");
	else if (kept)
		strbuf_addstr(out, ", kept until 'iotrial revert'");
	else if (knob_owner_alive(own, boot))
		strbuf_addstr(out, ", still running: it restores them when "
				   "it ends");
	else
		strbuf_addstr(out, ", gone: the next iotrial that changes "
				   "settings (run, compare, set, apply, "
				   "revert) restores them");
	strbuf_addstr(out, ":\n");
}

/* The raw file, numbered, for a journal that does not parse. */
static void add_numbered(struct strbuf *out, const struct journal *j)
{
	struct strbuf raw = STRBUF_INIT;
	const char *p, *nl;
	unsigned n = 0;

	journal_read(j, &raw, NULL);
	for (p = raw.buf; *p; p = *nl ? nl + 1 : nl) {
		const char *c;

		nl = strchrnul(p, '\n');
		strbuf_addf(out, "%5u  ", ++n);
		/* a damaged file may hold anything: never send control
		 * bytes to the terminal as they are */
		for (c = p; c < nl; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				strbuf_addf(out, "\\x%02x", (unsigned char)*c);
			else
				strbuf_addch(out, *c);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&raw);
}

int report_journal_text(struct strbuf *out, size_t *out_live,
			struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	struct journal j;
	char *boot = knob_boot_id();
	uint64_t last_owner = 0;
	size_t i, nlive;
	int ret, dir_fd = -1;

	*out_live = 0;
	knob_journal_path(&path);
	journal_init(&j, path.buf);
	ret = state_open(0, &dir_fd, &why);
	if (ret == -ENOENT) {
		ret = 0; /* no state directory: nothing journaled */
		goto out;
	}
	if (!ret) {
		journal_set_dir(&j, dir_fd, "journal");
		ret = journal_load(&j, &why);
	}
	if (ret == -EBADMSG) {
		err_set(err, ret,
			"the journal '%s' is corrupt: %s; its lines are below "
			"('set' lines hold original values, %%-escaped): "
			"restore what you need by hand, then move it aside "
			"(mv %s %s.bad)",
			path.buf, why.buf, path.buf, path.buf);
		add_numbered(out, &j);
		goto out;
	}
	if (ret) {
		err_set(err, ret, "%s", why.buf);
		goto out;
	}
	nlive = journal_live(&j);
	*out_live = nlive;
	if (!nlive)
		goto out;
	strbuf_addf(out,
		    "journal '%s': %zu change%s to undo, newest "
		    "first on restore\n",
		    path.buf, nlive, nlive == 1 ? "" : "s");
	for (i = 0; i < j.nr; i++) {
		const struct jrec *r = &j.recs[i], *own;
		const struct undo_ops *kind;

		if ((r->type != JREC_SET && r->type != JREC_SCR) || r->done)
			continue;
		own = journal_find(&j, r->ref);
		if (own && own->seq != last_owner) {
			last_owner = own->seq;
			add_owner(out, own, r->kept, boot);
		}
		strbuf_addf(out, "  #%" PRIu64 " ", r->seq);
		kind = undo_kind(r);
		if (kind)
			kind->describe(&j, r, UNDO_LIST, out);
		else
			strbuf_addf(out,
				    "a '%s' record this iotrial does not "
				    "know",
				    jrec_kind(r));
		strbuf_addch(out, '\n');
	}
out:
	if (j.torn_bytes && !ret)
		strbuf_addf(out,
			    "(line %u was cut short by a crash before its "
			    "change was made; it is ignored)\n",
			    j.torn_line);
	journal_release(&j);
	if (dir_fd >= 0)
		close(dir_fd);
	strbuf_release(&path);
	strbuf_release(&why);
	free(boot);
	return ret;
}

/* The owner's state, as the owner line of add_owner() says it. */
static const char *owner_state(const struct jrec *own, int kept,
			       const char *boot)
{
	if (strcmp(own->f[JF_BOOT], boot))
		return "before-reboot";
	if (kept)
		return "kept";
	if (knob_owner_alive(own, boot))
		return "running";
	return "gone";
}

/* A journal field into *out with its presence byte: null when the line
 * lacks it. */
static void field(const struct jrec *r, int f, char **out, uint8_t *has)
{
	*out = r->f[f] ? xstrdup(r->f[f]) : NULL;
	*has = r->f[f] ? MODEL_SET : MODEL_NULL;
}

/* One record still to undo, for report_journal_json(), into o. */
static void record_doc(const struct journal *j, const struct jrec *r,
		       const char *boot, struct journal_record_doc *o)
{
	const struct jrec *own = journal_find(j, r->ref);
	const struct undo_ops *kind = undo_kind(r);
	struct strbuf text = STRBUF_INIT;

	o->seq = r->seq;
	o->kind = xstrdup(jrec_kind(r));
	if (r->type == JREC_SET) {
		field(r, JF_NAME, &o->knob, &o->has_knob);
		field(r, JF_SCOPE, &o->scope, &o->has_scope);
		field(r, JF_OBJECT, &o->object, &o->has_object);
		field(r, JF_ORIG, &o->original, &o->has_original);
		field(r, JF_WROTE, &o->wrote, &o->has_wrote);
	} else {
		field(r, JF_WHAT, &o->what, &o->has_what);
		field(r, JF_A, &o->path, &o->has_path);
	}
	o->kept = r->kept;
	if (own) {
		struct journal_owner_doc *ow = xcalloc(1, sizeof(*ow));

		ow->command = own->f[JF_CMD] ? xstrdup(own->f[JF_CMD]) : NULL;
		ow->pid = own->pid;
		add_time(&text, own->time_s);
		ow->time = strbuf_detach(&text, NULL);
		ow->state = xstrdup(owner_state(own, r->kept, boot));
		o->owner = ow;
	}
	if (kind)
		kind->describe(j, r, UNDO_LIST, &text);
	o->text = strbuf_detach(&text, NULL);
}

int report_journal_json(struct journal_doc *out, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	struct journal j;
	char *boot = knob_boot_id();
	size_t i, nlive = 0;
	int ret, dir_fd = -1;

	journal_doc_init(out);
	knob_journal_path(&path);
	journal_init(&j, path.buf);
	ret = state_open(0, &dir_fd, &why);
	if (ret == -ENOENT) {
		ret = 0; /* no state directory: nothing journaled */
		goto done;
	}
	if (!ret) {
		journal_set_dir(&j, dir_fd, "journal");
		ret = journal_load(&j, &why);
	}
	if (ret == -EBADMSG) {
		err_set(err, ret,
			"the journal '%s' is corrupt: %s; 'iotrial revert "
			"--list' without --json shows its lines",
			path.buf, why.buf);
		goto out;
	}
	if (ret) {
		err_set(err, ret, "%s", why.buf);
		goto out;
	}
	nlive = journal_live(&j);
	out->records = xcalloc(j.nr + 1, sizeof(*out->records));
	for (i = 0; i < j.nr; i++) {
		const struct jrec *r = &j.recs[i];

		if ((r->type != JREC_SET && r->type != JREC_SCR) || r->done)
			continue;
		record_doc(&j, r, boot, &out->records[out->nr_records++]);
	}
done:
	out->schema = xstrdup(IOTRIAL_SCHEMA);
	out->kind = xstrdup("journal");
	out->journal = xstrdup(path.buf);
	out->live = nlive;
out:
	journal_release(&j);
	if (dir_fd >= 0)
		close(dir_fd);
	strbuf_release(&path);
	strbuf_release(&why);
	free(boot);
	return ret;
}
