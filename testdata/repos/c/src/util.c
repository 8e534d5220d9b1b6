#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/** Parses a whole string as a number; returns 1 and stores it in *out on success. */
int parse_number(const char *text, double *out)
{
    char *end = NULL;
    if (strlen(text) == 0) {
        return 0;
    }
    *out = strtod(text, &end);
    return *end == '\0';
}

/** Writes a diagnostic line to stderr. */
void log_msg(const char *msg)
{
    fprintf(stderr, "rpn: %s\n", msg);
}

/** djb2 hash of a NUL-terminated string. */
hash_t str_hash(const char *text)
{
    hash_t h = 5381;
    while (*text) {
        h = h * 33 + (unsigned char)*text++;
    }
    return h;
}

/** n! computed recursively. */
unsigned long factorial(unsigned n)
{
    return n <= 1 ? 1 : n * factorial(n - 1);
}
