/*
 * Dangerous libc calls, banned the way git and curl ban them: an unbounded
 * copy is a buffer overflow waiting for a long device name. Use snprintf()
 * or a strbuf instead. Every .c file includes it last, after the system
 * headers, so their own uses are not affected.
 */
#ifndef IOTRIAL_BANNED_H
#define IOTRIAL_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gets
#define gets(x) BANNED(gets)

#endif
