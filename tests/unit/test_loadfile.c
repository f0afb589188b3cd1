/*
 * dbench load files: every operation of Debian's client.txt parses to
 * the fields the replay uses (paths made relative, handles renumbered,
 * statuses read), dbench 4 timestamps and the old spellings are taken,
 * unknown operations are counted, and a malformed line is an error
 * naming the file and the line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "core/workload/loadfile.h"

static int parse(struct loadfile *lf, const char *text, struct strbuf *err)
{
	return loadfile_parse(lf, "t.txt", text, strlen(text), err);
}

static void test_ops(void **state)
{
	static const char text[] =
	    "Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
	    "Mkdir \"\\clients\" NT_STATUS_OK\n"
	    "NTCreateX \"\\clients\\client1\" 0x1 0x2 16385 NT_STATUS_OK\n"
	    "Close 16385 NT_STATUS_OK\n"
	    "\n# a comment\n"
	    "NTCreateX \"\\clients\\client1\\f 1.txt\" 0x40 0x5 9938 "
	    "NT_STATUS_OK\n"
	    "WriteX 9938 65536 4096 4096 NT_STATUS_OK\n"
	    "ReadX 9938 0 4096 100 NT_STATUS_OK\n"
	    "LockX 9938 2147483538 1 NT_STATUS_OK\n"
	    "UnlockX 9938 2147483538 1 NT_STATUS_OK\n"
	    "QUERY_FILE_INFORMATION 9938 258 NT_STATUS_OK\n"
	    "SET_FILE_INFORMATION 9938 1004 NT_STATUS_OK\n"
	    "Flush 9938 NT_STATUS_OK\n"
	    "Close 9938 NT_STATUS_OK\n"
	    "QUERY_PATH_INFORMATION \"\\clients\\client1\\x\" 1004 "
	    "NT_STATUS_OBJECT_NAME_NOT_FOUND\n"
	    "QUERY_FS_INFORMATION 259 NT_STATUS_OK\n"
	    "FIND_FIRST \"\\clients\\client1\\~dmtmp\\<.JNK\" 260 1366 0 "
	    "NT_STATUS_NO_SUCH_FILE\n"
	    "Rename \"\\clients\\a\" \"\\clients\\b\" NT_STATUS_OK\n"
	    "Unlink \"\\clients\\b\" 0x6 NT_STATUS_OK\n"
	    "Rmdir \"\\clients\\client1\" 0xC0000034\n";
	struct strbuf err = STRBUF_INIT;
	struct loadfile lf;
	const struct lf_op *op;

	(void)state;
	assert_int_equal(parse(&lf, text, &err), 0);
	assert_int_equal(lf.nr_ops, 19);
	assert_int_equal(lf.nr_lines, 21);
	assert_int_equal(lf.nr_unknown, 0);
	assert_int_equal(lf.nr_handles, 2);
	assert_int_equal(lf.max_io_bytes, 4096);
	op = &lf.ops[0];
	assert_int_equal(op->kind, LF_DELTREE);
	assert_string_equal(lf_str(&lf, op->path), "clients/client1");
	assert_true(op->expect_ok);
	assert_int_equal(op->line, 1);
	op = &lf.ops[2];
	assert_int_equal(op->kind, LF_NTCREATEX);
	assert_int_equal(op->options, LF_FILE_DIRECTORY_FILE);
	assert_int_equal(op->disposition, LF_FILE_CREATE);
	assert_int_equal(op->handle, 0);
	assert_int_equal(lf.ops[3].handle, 0);
	op = &lf.ops[4];
	assert_int_equal(op->line, 7);
	assert_string_equal(lf_str(&lf, op->path), "clients/client1/f 1.txt");
	assert_int_equal(op->handle, 1);
	assert_int_equal(op->disposition, LF_FILE_OVERWRITE_IF);
	op = &lf.ops[5];
	assert_int_equal(op->kind, LF_WRITEX);
	assert_int_equal(op->offset, 65536);
	assert_int_equal(op->size, 4096);
	assert_int_equal(op->ret_size, 4096);
	assert_int_equal(lf.ops[6].ret_size, 100);
	assert_int_equal(lf.ops[7].kind, LF_LOCKX);
	assert_int_equal(lf.ops[7].offset, 2147483538u);
	assert_int_equal(lf.ops[9].kind, LF_QFILEINFO);
	assert_int_equal(lf.ops[10].kind, LF_SFILEINFO);
	assert_int_equal(lf.ops[11].kind, LF_FLUSH);
	op = &lf.ops[13];
	assert_int_equal(op->kind, LF_QPATHINFO);
	assert_false(op->expect_ok);
	op = &lf.ops[15];
	assert_int_equal(op->kind, LF_FIND);
	assert_string_equal(lf_str(&lf, op->path), "clients/client1/~dmtmp");
	assert_string_equal(lf_str(&lf, op->path2), "*.JNK");
	assert_int_equal(op->size, 1366);
	assert_false(op->expect_ok);
	op = &lf.ops[16];
	assert_string_equal(lf_str(&lf, op->path2), "clients/b");
	assert_false(lf.ops[18].expect_ok); /* a hex status but 0 fails */
	assert_int_equal(lf.kind_count[LF_CLOSE], 2);
	loadfile_release(&lf);
	strbuf_release(&err);
}

static void test_dbench4_and_unknown(void **state)
{
	static const char text[] =
	    "0.000 Deltree \"\\clients\\client1\" NT_STATUS_OK\n"
	    "0.010 Qpathinfo \"\\x\" 1004 0x0\n"
	    "0.020 Sleep 1000 NT_STATUS_OK\n"
	    "SMB2Frob \"\\x\" NT_STATUS_OK\n"
	    "SMB2Frob \"\\y\" NT_STATUS_OK\n"
	    "Teleport 1 NT_STATUS_OK\n"
	    "Find \"\\*\" 260 10 0 NT_STATUS_OK\r\n";
	struct loadfile lf;

	(void)state;
	assert_int_equal(parse(&lf, text, NULL), 0);
	assert_int_equal(lf.nr_ops, 3);
	assert_int_equal(lf.ops[0].kind, LF_DELTREE);
	assert_true(lf.ops[1].expect_ok);
	assert_string_equal(lf_str(&lf, lf.ops[1].path), "x");
	assert_int_equal(lf.nr_ignored, 1);
	assert_int_equal(lf.nr_unknown, 2);
	assert_string_equal(lf.unknown[0].name, "SMB2Frob");
	assert_int_equal(lf.unknown[0].count, 2);
	assert_int_equal(lf.unknown[0].first_line, 4);
	assert_string_equal(lf.unknown[1].name, "Teleport");
	/* a pattern in the root: the directory is the client's own */
	assert_string_equal(lf_str(&lf, lf.ops[2].path), ".");
	assert_string_equal(lf_str(&lf, lf.ops[2].path2), "*");
	loadfile_release(&lf);
}

/* text fails with an error naming t.txt, the line and want */
static void refused(const char *text, unsigned line, const char *want)
{
	struct strbuf err = STRBUF_INIT, head = STRBUF_INIT;
	struct loadfile lf;

	assert_int_equal(parse(&lf, text, &err), -EINVAL);
	strbuf_addf(&head, "loadfile 't.txt' line %u: ", line);
	if (strncmp(err.buf, head.buf, head.len) || !strstr(err.buf, want))
		fail_msg("'%s': got '%s', want '%s...%s'", text, err.buf,
			 head.buf, want);
	assert_int_equal(lf.nr_ops, 0);
	loadfile_release(&lf);
	strbuf_release(&err);
	strbuf_release(&head);
}

static void test_malformed(void **state)
{
	(void)state;
	refused("Close 1 NT_STATUS_OK\nClose 1\n", 2, "expected a status");
	refused("Close NT_STATUS_OK\n", 1, "Close takes 1 field (handle)");
	refused("WriteX 1 0 4096 NT_STATUS_OK\n", 1, "WriteX takes 4 fields");
	refused("WriteX 1 zero 4096 4096 NT_STATUS_OK\n", 1,
		"'zero' is not a number");
	refused("ReadX 1 -5 4096 4096 NT_STATUS_OK\n", 1, "negative");
	refused("ReadX 1 0 4096 8192 NT_STATUS_OK\n", 1, "8192 bytes of a");
	refused("ReadX 1 0 99999999 1 NT_STATUS_OK\n", 1, "over 16 MiB");
	refused("\n\nUnlink \"\\a\\..\\..\\etc\" 0 NT_STATUS_OK\n", 3,
		"leaves the client's directory");
	refused("Deltree \"\\clients NT_STATUS_OK\n", 1, "quote is not closed");
	refused("NTCreateX \"\\a\" 0x40 9 1 NT_STATUS_OK\n", 1,
		"disposition 9");
	refused("Close 1 NT_STATUS_OK\nClose 1 OK\n", 2, "not 'OK'");
}

static void test_empty(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct loadfile lf;

	(void)state;
	assert_int_equal(parse(&lf, "# nothing\n\n", &err), -EINVAL);
	assert_string_equal(err.buf, "loadfile 't.txt': it holds no operation");
	loadfile_release(&lf);
	strbuf_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ops),
	    cmocka_unit_test(test_dbench4_and_unknown),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
