/*
 * The journal's records: format and parser (the format is described in
 * journal.h; the file, its append and compaction are journal_file.c).
 *
 * The parser is strict because what it reads decides what gets written
 * to a production machine as root: a line with a bad checksum, an
 * unknown keyword, a reference to a record that does not exist, or a
 * sequence number out of order makes the whole journal "corrupt", and
 * callers then refuse to change anything until a person has looked.
 * The one tolerated defect is a last line without its newline: records
 * are fsync'd before the change they announce, so such a line announced
 * a change that never happened.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "journal.h"
#include "journal-int.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Longest line we accept: snapshots of a scheduler are a few hundred. */
#define JOURNAL_MAX_LINE 65536
/* Most tokens on a line (set has 10 with its keyword). */
#define JOURNAL_MAX_TOKENS 10

/* Keyword, and number of tokens after it, per record type. */
static const struct {
	const char *word;
	unsigned nr_tokens;
	unsigned nr_strings;
} kinds[] = {
    [JREC_OWN] = {"own", 6, 2},	      [JREC_SET] = {"set", 9, 7},
    [JREC_SCR] = {"scr", 5, 3},	      [JREC_KEEP] = {"keep", 2, 0},
    [JREC_UNDO] = {"undo", 2, 0},     [JREC_DROP] = {"drop", 3, 1},
    [JREC_WROTE] = {"wrote", 3, 1},   [JREC_RESTORE] = {"restore", 2, 0},
    [JREC_RETIRE] = {"retire", 3, 1},
};

/* The string fields r carries on its line: a set line of the previous
 * version has no WROTE. */
static unsigned nr_strings_of(const struct jrec *r)
{
	if (r->type == JREC_SET && r->wrote_unknown)
		return kinds[JREC_SET].nr_strings - 1;
	return kinds[r->type].nr_strings;
}

const char *journal_type_name(enum jrec_type t)
{
	return kinds[t].word;
}

const char *jrec_kind(const struct jrec *r)
{
	if (r->type == JREC_SET)
		return "set";
	return r->type == JREC_SCR ? r->f[JF_WHAT] : NULL;
}

/* CRC-32 (IEEE 802.3, reflected), bit by bit: lines are short. */
static uint32_t crc32_of(const char *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		c ^= (unsigned char)p[i];
		for (b = 0; b < 8; b++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	return ~c;
}

void jrec_set(struct jrec *r, int i, const char *s)
{
	free(r->f[i]);
	r->f[i] = xstrdup(s ? s : "");
}

void jrec_release(struct jrec *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < JF_MAX; i++)
		free(r->f[i]);
	memset(r, 0, sizeof(*r));
}

void jrec_copy(struct jrec *out, const struct jrec *r)
{
	int i;

	*out = *r;
	for (i = 0; i < JF_MAX; i++)
		out->f[i] = xstrdup(r->f[i] ? r->f[i] : "");
}

void journal_init(struct journal *j, const char *path)
{
	memset(j, 0, sizeof(*j));
	j->path = xstrdup(path ? path : "");
	j->dir_fd = AT_FDCWD;
	j->name = xstrdup(j->path);
	j->next_seq = 1;
	j->fd = -1;
}

void journal_set_dir(struct journal *j, int dir_fd, const char *name)
{
	free(j->name);
	j->name = xstrdup(name);
	j->dir_fd = dir_fd;
}

/* As journal-int.h says. */
void journal_clear(struct journal *j)
{
	size_t i;

	for (i = 0; i < j->nr; i++)
		jrec_release(&j->recs[i]);
	j->nr = 0;
}

void journal_release(struct journal *j)
{
	if (!j)
		return;
	journal_clear(j);
	free(j->recs);
	free(j->path);
	free(j->name);
	if (j->fd >= 0)
		close(j->fd);
	memset(j, 0, sizeof(*j));
	j->fd = -1;
	j->dir_fd = AT_FDCWD;
}

struct jrec *journal_find(const struct journal *j, uint64_t seq)
{
	size_t lo = 0, hi = j->nr;

	/* seqs increase strictly with position */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->recs[mid].seq == seq)
			return &j->recs[mid];
		if (j->recs[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int journal_same_setting(const struct jrec *a, const struct jrec *b)
{
	return a->type == JREC_SET && b->type == JREC_SET &&
	       !strcmp(a->f[JF_GROUP], b->f[JF_GROUP]) &&
	       !strcmp(a->f[JF_SCOPE], b->f[JF_SCOPE]) &&
	       !strcmp(a->f[JF_OBJECT], b->f[JF_OBJECT]);
}

const struct jrec *journal_wrote_of(const struct journal *j, uint64_t seq)
{
	const struct jrec *t = journal_find(j, seq);
	size_t i;

	if (!t || !t->confirmed)
		return NULL;
	for (i = (size_t)(t - j->recs) + 1; i < j->nr; i++)
		if (j->recs[i].type == JREC_WROTE && j->recs[i].ref == seq)
			return &j->recs[i];
	return NULL;
}

size_t journal_live(const struct journal *j)
{
	size_t i, n = 0;

	for (i = 0; i < j->nr; i++)
		if ((j->recs[i].type == JREC_SET ||
		     j->recs[i].type == JREC_SCR) &&
		    !j->recs[i].done)
			n++;
	return n;
}

void journal_escape(struct strbuf *out, const char *s)
{
	if (!*s) {
		strbuf_addch(out, '%');
		return;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > ' ' && c < 0x7f && c != '%')
			strbuf_addch(out, (char)c);
		else
			strbuf_addf(out, "%%%02X", c);
	}
}

/* Append field s, escaped. */
static void add_field(struct strbuf *out, const char *s)
{
	strbuf_addch(out, ' ');
	journal_escape(out, s);
}

void journal_format(const struct jrec *r, struct strbuf *out)
{
	size_t start = out->len;
	unsigned i;

	strbuf_addf(out, "%s %" PRIu64, kinds[r->type].word, r->seq);
	if (r->type == JREC_OWN)
		strbuf_addf(out, " %" PRId64 " %" PRIu64 " %" PRIu64, r->pid,
			    r->start_ticks, r->time_s);
	else
		strbuf_addf(out, " %" PRIu64, r->ref);
	for (i = 0; i < nr_strings_of(r); i++)
		add_field(out, r->f[i] ? r->f[i] : "");
	strbuf_addf(out, " c=%08" PRIx32 "\n",
		    crc32_of(out->buf + start, out->len - start));
}

/* A decimal u64, digits only. */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s || strlen(s) > 20)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* The value of one hex digit, or -1. */
static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

char *journal_unescape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!strcmp(s, "%"))
		return xstrdup("");
	for (; *s; s++) {
		int hi, lo;

		if (*s != '%') {
			strbuf_addch(&sb, *s);
			continue;
		}
		hi = hexval(s[1]);
		lo = hi < 0 ? -1 : hexval(s[2]);
		if (lo < 0 || (hi == 0 && lo == 0)) {
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addch(&sb, hi * 16 + lo);
		s += 2;
	}
	return strbuf_detach(&sb, NULL);
}

/* As journal-int.h says. */
void journal_apply(struct journal *j, const struct jrec *r)
{
	struct jrec *t;
	size_t i;

	switch (r->type) {
	case JREC_UNDO:
	case JREC_DROP:
		t = journal_find(j, r->ref);
		if (t)
			t->done = 1;
		break;
	case JREC_KEEP:
		for (i = 0; i < j->nr; i++)
			if (j->recs[i].type == JREC_SET &&
			    j->recs[i].ref == r->ref)
				j->recs[i].kept = 1;
		break;
	case JREC_WROTE:
		t = journal_find(j, r->ref);
		if (t)
			t->confirmed = 1;
		break;
	case JREC_RESTORE:
		t = journal_find(j, r->ref);
		if (t)
			t->restoring = 1;
		break;
	case JREC_RETIRE:
		t = journal_find(j, r->ref);
		for (i = 0; t && i < j->nr && j->recs[i].seq < t->seq; i++)
			if (journal_same_setting(&j->recs[i], t))
				j->recs[i].done = 1;
		if (t)
			t->done = 1;
		break;
	default:
		break;
	}
}

/* Check the references of r against what j holds; message into err. */
static int check_refs(const struct journal *j, const struct jrec *r,
		      struct strbuf *err)
{
	const struct jrec *t;

	if (r->type == JREC_OWN) {
		if (r->pid <= 0 || r->pid > 0x7fffffff)
			return err_set(err, -EBADMSG, "bad pid %" PRId64,
				       r->pid);
		return 0;
	}
	t = journal_find(j, r->ref);
	switch (r->type) {
	case JREC_SET:
	case JREC_SCR:
	case JREC_KEEP:
		if (!t || t->type != JREC_OWN)
			return err_set(err, -EBADMSG,
				       "it names owner %" PRIu64 ", which is "
				       "not an 'own' record above it",
				       r->ref);
		break;
	case JREC_UNDO:
	case JREC_DROP:
		if (!t || (t->type != JREC_SET && t->type != JREC_SCR))
			return err_set(err, -EBADMSG,
				       "it names record %" PRIu64 ", which is "
				       "not a 'set' or 'scr' record above it",
				       r->ref);
		if (t->done)
			return err_set(err, -EBADMSG,
				       "record %" PRIu64 " was already undone",
				       r->ref);
		break;
	case JREC_WROTE:
	case JREC_RESTORE:
	case JREC_RETIRE:
		if (!t || t->type != JREC_SET || t->done)
			return err_set(err, -EBADMSG,
				       "it names record %" PRIu64 ", which is "
				       "not a live 'set' record above it",
				       r->ref);
		if (r->type == JREC_WROTE && t->confirmed)
			return err_set(err, -EBADMSG,
				       "record %" PRIu64 " was already "
				       "confirmed",
				       r->ref);
		break;
	default:
		break;
	}
	if (r->type == JREC_SET && strcmp(r->f[JF_SCOPE], "device") &&
	    strcmp(r->f[JF_SCOPE], "mount") && strcmp(r->f[JF_SCOPE], "system"))
		return err_set(err, -EBADMSG, "unknown scope '%s'",
			       r->f[JF_SCOPE]);
	if (r->type == JREC_SET && !*r->f[JF_NAME])
		return err_set(err, -EBADMSG, "a 'set' record without a knob");
	if (r->type == JREC_SET && !r->wrote_unknown && !*r->f[JF_WROTE])
		return err_set(err, -EBADMSG,
			       "a 'set' record with an empty written value");
	if (r->type == JREC_SCR && strcmp(r->f[JF_WHAT], "dir") &&
	    strcmp(r->f[JF_WHAT], "file") && strcmp(r->f[JF_WHAT], "loop") &&
	    strcmp(r->f[JF_WHAT], "mount") && strcmp(r->f[JF_WHAT], "work") &&
	    strcmp(r->f[JF_WHAT], "cgroup"))
		return err_set(err, -EBADMSG, "unknown scratch resource '%s'",
			       r->f[JF_WHAT]);
	return 0;
}

/* Parse one record line (no newline, NUL-terminated, writable). */
static int parse_line(char *line, size_t n, struct jrec *r, struct strbuf *err)
{
	char *tok[JOURNAL_MAX_TOKENS + 1], *p, *save = NULL;
	unsigned nt = 0, t, i;
	uint64_t crc, v;

	memset(r, 0, sizeof(*r));
	if (n < 12 || strncmp(line + n - 11, " c=", 3))
		return err_set(err, -EBADMSG, "no checksum at the end");
	crc = 0;
	for (p = line + n - 8; *p; p++) {
		int h = hexval(*p);

		if (h < 0 || (*p >= 'A' && *p <= 'F'))
			return err_set(err, -EBADMSG, "malformed checksum");
		crc = crc * 16 + (uint64_t)h;
	}
	if (crc != crc32_of(line, n - 11))
		return err_set(err, -EBADMSG,
			       "checksum mismatch: the line was changed or "
			       "damaged");
	line[n - 11] = '\0';
	for (p = strtok_r(line, " ", &save); p;
	     p = strtok_r(NULL, " ", &save)) {
		if (nt == JOURNAL_MAX_TOKENS)
			return err_set(err, -EBADMSG, "too many fields");
		tok[nt++] = p;
	}
	if (!nt)
		return err_set(err, -EBADMSG, "an empty record");
	for (t = 0; t < sizeof(kinds) / sizeof(kinds[0]); t++)
		if (!strcmp(tok[0], kinds[t].word))
			break;
	if (t == sizeof(kinds) / sizeof(kinds[0]))
		return err_set(err, -EBADMSG, "unknown record '%.20s'", tok[0]);
	/* a set line of the previous version: no written value */
	if (t == JREC_SET && nt == kinds[t].nr_tokens)
		r->wrote_unknown = 1;
	else if (nt != kinds[t].nr_tokens + 1)
		return err_set(err, -EBADMSG,
			       "'%s' needs %u fields, this one has %u",
			       kinds[t].word, kinds[t].nr_tokens, nt - 1);
	r->type = (enum jrec_type)t;
	if (parse_u64(tok[1], &r->seq) || !r->seq)
		return err_set(err, -EBADMSG, "bad sequence number");
	i = 2;
	if (r->type == JREC_OWN) {
		if (parse_u64(tok[2], &v) || v > INT64_MAX ||
		    parse_u64(tok[3], &r->start_ticks) ||
		    parse_u64(tok[4], &r->time_s))
			return err_set(err, -EBADMSG, "bad number");
		r->pid = (int64_t)v;
		i = 5;
	} else if (parse_u64(tok[2], &r->ref)) {
		return err_set(err, -EBADMSG, "bad record reference");
	} else {
		i = 3;
	}
	for (t = 0; t < JF_MAX; t++)
		r->f[t] = NULL;
	for (t = 0; t < nr_strings_of(r); t++) {
		r->f[t] = journal_unescape(tok[i + t]);
		if (!r->f[t]) {
			jrec_release(r);
			return err_set(err, -EBADMSG, "bad escape in field %u",
				       i + t);
		}
	}
	for (; t < JF_MAX; t++)
		r->f[t] = xstrdup("");
	return 0;
}

int journal_parse(struct journal *j, const char *buf, size_t len,
		  struct strbuf *err)
{
	struct strbuf line = STRBUF_INIT, why = STRBUF_INIT;
	size_t pos = 0;
	unsigned lineno = 0;
	int ret = 0;

	journal_clear(j);
	j->next_seq = 1;
	j->torn_bytes = 0;
	j->torn_line = 0;
	while (pos < len && !ret) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		struct jrec r;

		lineno++;
		if (!nl) {
			/* cut short by a crash before its change was made */
			j->torn_bytes = n;
			j->torn_line = lineno;
			break;
		}
		strbuf_reset(&line);
		strbuf_add(&line, buf + pos, n);
		pos += n + 1;
		if (n > JOURNAL_MAX_LINE || strlen(line.buf) != n) {
			ret = err_set(err, -EBADMSG,
				      "line %u: too long or holds a NUL byte",
				      lineno);
			break;
		}
		if (lineno == 1) {
			if (!strcmp(line.buf, JOURNAL_HEADER))
				continue;
			if (!strncmp(line.buf, "iotrial-journal ", 16))
				ret = err_set(err, -EBADMSG,
					      "line 1: format '%.20s' is not "
					      "'1'; a newer iotrial wrote it",
					      line.buf + 16);
			else
				ret = err_set(err, -EBADMSG,
					      "line 1: not an iotrial journal "
					      "(it should start with '%s')",
					      JOURNAL_HEADER);
			break;
		}
		ret = parse_line(line.buf, n, &r, &why);
		if (!ret && r.seq < j->next_seq)
			ret = err_set(&why, -EBADMSG,
				      "sequence number %" PRIu64
				      " is not above the one before",
				      r.seq);
		if (!ret)
			ret = check_refs(j, &r, &why);
		if (ret) {
			jrec_release(&r);
			err_set(err, -EBADMSG, "line %u: %s", lineno, why.buf);
			break;
		}
		r.line = lineno;
		ALLOC_GROW(j->recs, j->nr + 1, j->alloc);
		j->recs[j->nr++] = r;
		j->next_seq = r.seq + 1;
		journal_apply(j, &j->recs[j->nr - 1]);
	}
	if (ret) {
		journal_clear(j);
		j->next_seq = 1;
	}
	strbuf_release(&line);
	strbuf_release(&why);
	return ret;
}
