/* rpn.h - value stack and expression evaluation for the calculator. */
#pragma once

/** Maximum number of values the stack can hold. */
#define STACK_MAX 64

/** A fixed-capacity stack of doubles. */
typedef struct {
    double items[STACK_MAX];
    int top;
} Stack;

/** Result codes shared by the stack and the evaluator. */
enum status {
    STATUS_OK,
    STATUS_OVERFLOW,
    STATUS_UNDERFLOW,
    STATUS_SYNTAX,
};

void stack_init(Stack *s);
enum status stack_push(Stack *s, double v);
enum status stack_pop(Stack *s, double *out);
int stack_depth(const Stack *s);

/** Evaluates a space-separated RPN expression such as "3 4 + 2 *". */
enum status eval_rpn(const char *expr, double *result);

/** Evaluates an infix expression with + - * / and parentheses, left to right. */
double eval_infix(const char *expr);
