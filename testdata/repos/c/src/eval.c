#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpn.h"

/** Longest token accepted by the RPN tokenizer. */
#define TOKEN_MAX 32

/** One RPN token: an operator character or a number. */
struct token {
    int is_op;
    char op;
    double value;
};

/** File-local logger; shadows the project-wide log_msg() declared in util.h. */
static void log_msg(const char *msg)
{
    fprintf(stderr, "eval: %s\n", msg);
}

/** Advances *p past any white space. */
static void skip_spaces(const char **p)
{
    while (isspace((unsigned char)**p)) {
        (*p)++;
    }
}

/** Applies the binary operator op to a and b; division by zero yields 0. */
static double apply_op(char op, double a, double b)
{
    switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    default: return b != 0.0 ? a / b : 0.0;
    }
}

/** Reads one token at *cursor and advances it; returns 0 at the end of input. */
static int next_token(
    const char **cursor,
    struct token *tok)
{
    char buf[TOKEN_MAX];
    size_t n = 0;
    skip_spaces(cursor);
    while (**cursor && !isspace((unsigned char)**cursor) && n + 1 < sizeof buf) {
        buf[n++] = *(*cursor)++;
    }
    buf[n] = '\0';
    if (n == 0) {
        return 0;
    }
    if (n == 1 && strchr("+-*/", buf[0]) != NULL) {
        tok->is_op = 1;
        tok->op = buf[0];
    } else {
        tok->is_op = 0;
        tok->value = strtod(buf, NULL);
    }
    return 1;
}

enum status eval_rpn(const char *expr, double *result)
{
    Stack stack;
    struct token tok;
    double a, b;
    stack_init(&stack);
    while (next_token(&expr, &tok)) {
        if (!tok.is_op) {
            if (stack_push(&stack, tok.value) != STATUS_OK) {
                log_msg("stack overflow");
                return STATUS_OVERFLOW;
            }
            continue;
        }
        if (stack_pop(&stack, &b) != STATUS_OK || stack_pop(&stack, &a) != STATUS_OK) {
            log_msg("not enough operands");
            return STATUS_UNDERFLOW;
        }
        stack_push(&stack, apply_op(tok.op, a, b));
    }
    if (stack_depth(&stack) != 1) {
        return STATUS_SYNTAX;
    }
    return stack_pop(&stack, result);
}

static double parse_expr(const char **p);

/** factor := number | '(' expr ')' */
static double parse_factor(const char **p)
{
    char *end = NULL;
    double v;
    skip_spaces(p);
    if (**p == '(') {
        (*p)++;
        v = parse_expr(p);
        skip_spaces(p);
        if (**p == ')') {
            (*p)++;
        }
        return v;
    }
    v = strtod(*p, &end);
    *p = end;
    return v;
}

/** expr := factor (op factor)*, evaluated strictly left to right. */
static double parse_expr(const char **p)
{
    double acc = parse_factor(p);
    for (;;) {
        char op;
        skip_spaces(p);
        op = **p;
        if (op != '+' && op != '-' && op != '*' && op != '/') {
            return acc;
        }
        (*p)++;
        acc = apply_op(op, acc, parse_factor(p));
    }
}

double eval_infix(const char *expr)
{
    return parse_expr(&expr);
}
