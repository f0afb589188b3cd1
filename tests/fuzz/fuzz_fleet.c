/*
 * libFuzzer target for core/fleet: the merge of hosts' experiments and
 * the parser of ansible-playbook --list-hosts. A fleet merges files that
 * came back from many machines, any of them damaged or hand-edited. The
 * input is one host's experiment, decoded as the merge reads a host's
 * file: it is merged with two copies of itself and a failed host, the
 * fleet table is rendered, and what every caller assumes is checked: a
 * merge either fails with a message or lists every host, the failed one
 * failed, and the report renders it. The same bytes go through the
 * decode of the playbook's records of a host (HOST.error, HOST.revert)
 * and, NUL-terminated, through the --list-hosts parser, which counts
 * the lines it returns.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/experiment/import.h"
#include "core/fleet/fleet.h"
#include "core/model/model_json.h"
#include "core/report/page.h"
#include "util/banned.h"

/* Stop the run: libFuzzer reports the crash with the input. */
static void check(int ok)
{
	if (!ok)
		__builtin_trap();
}

/* A copy of exp the hosts can take over. */
static struct experiment_doc *copy_of(const struct experiment_doc *exp)
{
	struct experiment_doc *c = malloc(sizeof(*c));

	check(c != NULL);
	experiment_doc_copy(c, exp);
	return c;
}

/* Merge three copies of exp and a failed host; check and render. */
static void merge(const struct experiment_doc *exp)
{
	struct strbuf err = STRBUF_INIT, text = STRBUF_INIT;
	struct fleet_hosts h = {0};
	struct experiment_doc out;
	bool partial = false;
	int ret;

	fleet_hosts_add(&h, "b", "b.json", copy_of(exp), NULL, NULL);
	fleet_hosts_add(&h, "a", "a.json", copy_of(exp), NULL, NULL);
	fleet_hosts_add(&h, "c", "c.json", copy_of(exp), NULL, NULL);
	fleet_hosts_add(&h, "d", "d.error", NULL, "compare", "failed");
	ret = fleet_merge(&h, &out, &partial, &err);
	if (ret) {
		check(ret == -EINVAL && out.fleet == NULL && err.len);
	} else {
		check(out.fleet != NULL && partial);
		check(out.fleet->nr_hosts == 4 && out.fleet->nr_host_list == 4);
		/* the merge decoded its hosts strictly: the report reads
		 * every merged document, and its table has every host */
		check(!report_page(&out, &emit_text_ops, REPORT_SEC(fleet),
				   &text, &err));
		check(strstr(text.buf, "failed at 'compare'") != NULL);
		/* and the document is what the codec writes back */
		strbuf_reset(&text);
		experiment_doc_encode(&out, 0, &text);
		check(text.len > 0);
	}
	experiment_doc_release(&out);
	fleet_hosts_release(&h);
	strbuf_release(&err);
	strbuf_release(&text);
}

/* The input as the playbook's record of a host (HOST.error,
 * HOST.revert): decoded strictly, printable, it encodes again. */
static void record(const char *buf, size_t size)
{
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct fleet_record_doc rec;

	if (!fleet_record_doc_decode(buf, size, &rec, MODEL_DECODE_PRINTABLE,
				     &err)) {
		fleet_record_doc_encode(&rec, 0, &out);
		check(out.len > 0);
	} else {
		check(err.len > 0);
	}
	fleet_record_doc_release(&rec);
	strbuf_release(&err);
	strbuf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf err = STRBUF_INIT, hosts = STRBUF_INIT;
	struct import_run r;
	char *buf = malloc(size + 1);
	size_t nr, i, lines = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	nr = fleet_parse_list_hosts(buf, &hosts);
	for (i = 0; i < hosts.len; i++)
		lines += hosts.buf[i] == '\n';
	check(nr == lines);
	record(buf, size);
	if (!import_parse(buf, size, "fuzz.json", NULL, &r, &err)) {
		if (r.kind == IMPORT_EXPERIMENT)
			merge(r.doc.exp);
		import_run_release(&r);
	}
	strbuf_release(&err);
	strbuf_release(&hosts);
	free(buf);
	return 0;
}
