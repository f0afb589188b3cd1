/*
 * libFuzzer target for the unit `series NAME at-boot --install` writes
 * (series_unit_text()): a systemd unit built from a series name, the
 * path of this iotrial and the path of its store. The name comes from
 * the command line and the store, the paths from wherever iotrial and
 * its store live; none of them may break out of the unit's syntax. The
 * input is the three, separated by NUL bytes. The contracts: the unit
 * is refused (-EINVAL, a message, nothing written) or it is exactly the
 * unit's skeleton, every line a comment, a section or one of its five
 * keys, each once, no control byte and only UTF-8; its Description
 * names the series as given; and its ExecStart, read as systemd reads
 * it (split at blanks, "%%" a '%', "$$" a '$', any other specifier or
 * variable refused), is the command line asked for, word for word.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/series/series_plan.h"
#include "util/text.h"
#include "util/xalloc.h"
#include "util/banned.h"

static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/*
 * Split ExecStart's value into words as systemd does for what
 * series_unit_text() may write (no quotes, no backslash: those are
 * refused); a '%' or '$' not doubled traps. Returns the number of
 * words (at most max), each a malloc'd string.
 */
static size_t exec_words(const char *v, char **w, size_t max)
{
	size_t n = 0;

	while (*v) {
		struct strbuf word = STRBUF_INIT;

		while (*v == ' ' || *v == '\t')
			v++;
		if (!*v)
			break;
		for (; *v && *v != ' ' && *v != '\t'; v++) {
			check(*v != '"' && *v != '\'' && *v != '\\');
			if (*v == '%' || *v == '$') {
				check(v[1] == *v); /* "%%", "$$" */
				v++;
			}
			strbuf_addch(&word, *v);
		}
		check(n < max);
		w[n++] = strbuf_detach(&word, NULL);
	}
	return n;
}

/* Check the unit text u against the name and paths it was made of. */
static void check_unit(const char *u, const char *name, const char *bin,
		       const char *db)
{
	static const char *const keys[] = {
	    "Description=", "After=", "Type=", "ExecStart=", "WantedBy="};
	static const char *const sections[] = {"[Unit]", "[Service]",
					       "[Install]"};
	const char *want[8] = {bin,	    "series",	 name,	 "run",
			       "--planned", "--at-boot", "--db", db};
	unsigned seen[5] = {0}, section = 0;
	char *copy = xstrdup(u), *line, *save = NULL, *w[16];
	struct strbuf desc = STRBUF_INIT;
	size_t i, n;

	/* UTF-8, and no control byte but the line ends */
	check(!text_make_printable_lines(copy));
	check(!strchr(u, '\t') && !strchr(u, '\r'));
	strbuf_addf(&desc,
		    "iotrial series %s: the next planned group of "
		    "iterations",
		    name);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (line[0] == '[') {
			check(section < 3 && !strcmp(line, sections[section]));
			section++;
			continue;
		}
		check(section > 0);
		for (i = 0; i < 5; i++)
			if (!strncmp(line, keys[i], strlen(keys[i])))
				break;
		check(i < 5 && !seen[i]++);
		line += strlen(keys[i]);
		if (i == 0) {
			/* no specifier: a series name holds no '%' */
			check(!strcmp(line, desc.buf) && !strchr(line, '%'));
		} else if (i == 3) {
			n = exec_words(line, w, 16);
			check(n == 8);
			for (i = 0; i < n; i++) {
				check(!strcmp(w[i], want[i]));
				free(w[i]);
			}
		}
	}
	check(section == 3);
	for (i = 0; i < 5; i++)
		check(seen[i] == 1);
	strbuf_release(&desc);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT, unit = STRBUF_INIT;
	char *buf = malloc(size + 3);
	const char *name, *bin, *db;
	int ret;

	if (!buf)
		return 0;
	/* NAME\0BINARY\0DB: missing fields are empty */
	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = buf[size + 2] = '\0';
	name = buf;
	bin = name + strlen(name) + 1;
	if (bin > buf + size)
		bin = buf + size + 1;
	db = bin + strlen(bin) + 1;
	if (db > buf + size + 1)
		db = buf + size + 2;
	ret = series_unit_text(name, bin, db, &out, &err);
	if (ret) {
		check(ret == -EINVAL && err.len > 0 && out.len == 0);
	} else {
		check(series_name_ok(name));
		check_unit(out.buf, name, bin, db);
	}
	/* a name the CLI accepts makes a plain file name under the unit
	 * directory */
	if (series_name_ok(name)) {
		series_unit_name(name, &unit);
		check(!strchr(unit.buf, '/') && unit.len < 128);
	}
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&unit);
	free(buf);
	return 0;
}
