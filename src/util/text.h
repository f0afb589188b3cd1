/*
 * Text from files we did not write (imported results, the stored
 * experiments made from them) ends up on a terminal. A string holding
 * ESC, BEL or a C1 control can move the cursor, retitle the window or
 * hide what follows, so such text is made printable before it is kept.
 */
#ifndef IOTRIAL_TEXT_H
#define IOTRIAL_TEXT_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Make s printable in place: every control character (C0 below 0x20,
 * DEL, and C1 U+0080..U+009F written in UTF-8) and every byte that is
 * not part of well-formed UTF-8 becomes one '?'. Other UTF-8 is kept.
 * s stays NUL-terminated and never grows. Returns how many characters
 * were replaced (0: s was already printable).
 */
size_t text_make_printable(char *s);

/* The same, keeping newlines and tabs: for a message of several lines. */
size_t text_make_printable_lines(char *s);

/*
 * The length (1..4) of the well-formed UTF-8 character at s, its code
 * point into *cp; 0 at the NUL or where s starts no such character.
 */
size_t text_utf8_char(const char *s, unsigned *cp);

/*
 * JSON text made safe to read anywhere and to print on a terminal, from
 * byte from of sb on: a byte that is not part of well-formed UTF-8
 * becomes U+FFFD (the replacement character), DEL and the C1 controls
 * (which a JSON printer writes raw, and a terminal may obey) their \u
 * escapes. Such bytes occur only inside JSON strings, where the escapes
 * mean the same characters, so the text parses to what it meant (bytes
 * that were no UTF-8 aside) and stays strict JSON. Returns how many
 * characters were changed.
 */
size_t text_json_safe(struct strbuf *sb, size_t from);

#endif
