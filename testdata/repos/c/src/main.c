#include <stdio.h>
#include <string.h>

#include "rpn.h"
#include "util.h"

/** Width of the result column. */
#define COLUMN 12

/** Prints usage and returns the exit code for a bad invocation. */
static int usage(const char *prog)
{
    printf("usage: %s RPN-EXPR | -i INFIX-EXPR\n", prog);
    return 2;
}

/** Evaluates the expression given on the command line and prints the result. */
int main(int argc, char **argv)
{
    double result = 0.0;
    unsigned n;
    if (argc < 2) {
        return usage(argv[0]);
    }
    if (strcmp(argv[1], "-i") == 0 && argc > 2) {
        printf("%*g\n", COLUMN, eval_infix(argv[2]));
        return 0;
    }
    if (!parse_number(argv[1], &result) && eval_rpn(argv[1], &result) != STATUS_OK) {
        log_msg("evaluation failed");
        return 1;
    }
    printf("%*g\n", COLUMN, result);
    n = (unsigned)MIN(strlen(argv[1]), 10u);
    printf("%u! = %lu, hash %lu\n", n, factorial(n), str_hash(argv[1]));
    return 0;
}
