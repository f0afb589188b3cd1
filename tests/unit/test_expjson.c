/*
 * Tests for core/report/expjson: the getters of experiment objects. A
 * mistyped member reads as a missing one (json-c would otherwise turn a
 * number into text and text into a number), NULL and non-objects are
 * accepted, the environment falls back to the first run's, and a target
 * object gives its spec, else its path.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "core/report/expjson.h"
#include "util/banned.h"

static struct json_object *parse(const char *text)
{
	struct json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

/* Members of the right type are read; others read as missing. */
static void test_types(void **state)
{
	struct json_object *o =
	    parse("{\"id\": \"8f44\", \"n\": 6, \"median\": 1.5, "
		  "\"seed\": 123, \"label\": null, \"ratio\": \"1.1\", "
		  "\"big\": 2e9, \"neg\": -1, \"arms\": []}");

	(void)state;
	assert_string_equal(expjson_str(o, "id"), "8f44");
	assert_string_equal(expjson_str(o, "seed"), "");
	assert_string_equal(expjson_str(o, "label"), "");
	assert_string_equal(expjson_str(o, "missing"), "");
	assert_true(expjson_num(o, "n") == 6);
	assert_true(expjson_num(o, "median") == 1.5);
	assert_true(isnan(expjson_num(o, "ratio")));
	assert_true(isnan(expjson_num(o, "label")));
	assert_int_equal(expjson_count(o, "n"), 6);
	assert_int_equal(expjson_count(o, "big"), 0);
	assert_int_equal(expjson_count(o, "neg"), 0);
	assert_int_equal(expjson_count(o, "median"), 1);
	assert_non_null(expjson_get(o, "seed"));
	assert_null(expjson_get(o, "label"));
	assert_non_null(expjson_get_type(o, "arms", json_type_array));
	assert_null(expjson_get_type(o, "arms", json_type_object));
	json_object_put(o);
}

/* NULL and values that are not objects are empty objects. */
static void test_not_objects(void **state)
{
	struct json_object *a = parse("[1, 2]"), *s = parse("\"text\"");

	(void)state;
	assert_null(expjson_get(NULL, "id"));
	assert_null(expjson_get(a, "id"));
	assert_string_equal(expjson_str(s, "id"), "");
	assert_true(isnan(expjson_num(NULL, "n")));
	assert_null(expjson_env(NULL));
	assert_string_equal(expjson_target(a), "");
	assert_null(expjson_verdict(NULL, 1));
	json_object_put(a);
	json_object_put(s);
}

/* The experiment's own env first, else its first run's. */
static void test_env(void **state)
{
	struct json_object *own = parse(
	    "{\"env\": {\"hostname\": \"a\"}, \"runs\": [{\"run\": {\"env\": "
	    "{\"hostname\": \"b\"}}}]}");
	struct json_object *run =
	    parse("{\"runs\": [{\"run\": {\"env\": {\"hostname\": \"b\"}}}, "
		  "{\"run\": {\"env\": {\"hostname\": \"c\"}}}]}");
	struct json_object *none = parse("{\"runs\": [], \"env\": 3}");

	(void)state;
	assert_string_equal(expjson_str(expjson_env(own), "hostname"), "a");
	assert_string_equal(expjson_str(expjson_env(run), "hostname"), "b");
	assert_null(expjson_env(none));
	json_object_put(own);
	json_object_put(run);
	json_object_put(none);
}

/* A string target, or an object's spec, else its path. */
static void test_target(void **state)
{
	struct json_object *s = parse("{\"target\": \"/tmp\"}");
	struct json_object *spec =
	    parse("{\"target\": {\"spec\": \"/srv\", \"path\": \"/x\"}}");
	struct json_object *path = parse("{\"target\": {\"path\": \"/x\"}}");

	(void)state;
	assert_string_equal(expjson_target(s), "/tmp");
	assert_string_equal(expjson_target(spec), "/srv");
	assert_string_equal(expjson_target(path), "/x");
	json_object_put(s);
	json_object_put(spec);
	json_object_put(path);
}

/* The verdict of an arm by its index, none for the baseline. */
static void test_verdict(void **state)
{
	struct json_object *e =
	    parse("{\"baseline\": 0, \"verdicts\": [{\"arm\": 2, \"verdict\": "
		  "\"slower\"}, {\"arm\": 1, \"verdict\": \"faster\"}]}");

	(void)state;
	assert_string_equal(expjson_str(expjson_verdict(e, 1), "verdict"),
			    "faster");
	assert_string_equal(expjson_str(expjson_verdict(e, 2), "verdict"),
			    "slower");
	assert_null(expjson_verdict(e, 0));
	json_object_put(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_types),   cmocka_unit_test(test_not_objects),
	    cmocka_unit_test(test_env),	    cmocka_unit_test(test_target),
	    cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
