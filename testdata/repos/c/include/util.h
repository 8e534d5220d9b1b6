/* util.h - small helpers shared by the command-line front end. */
#pragma once

/** Smaller of two values; evaluates its arguments twice. */
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/** Hash value type returned by str_hash(). */
typedef unsigned long hash_t;

int parse_number(const char *text, double *out);
void log_msg(const char *msg);
hash_t str_hash(const char *text);
unsigned long factorial(unsigned n);
