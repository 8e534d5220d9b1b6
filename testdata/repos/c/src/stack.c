#include "rpn.h"

/** Empties the stack. */
void stack_init(Stack *s)
{
    s->top = 0;
}

/** Pushes v, failing when the stack is full. */
enum status stack_push(Stack *s, double v)
{
    if (s->top >= STACK_MAX) {
        return STATUS_OVERFLOW;
    }
    s->items[s->top++] = v;
    return STATUS_OK;
}

/** Pops the top value into *out, failing when the stack is empty. */
enum status stack_pop(Stack *s, double *out)
{
    if (s->top == 0) {
        return STATUS_UNDERFLOW;
    }
    *out = s->items[--s->top];
    return STATUS_OK;
}

/** Number of values currently on the stack. */
int stack_depth(const Stack *s)
{
    return s->top;
}
