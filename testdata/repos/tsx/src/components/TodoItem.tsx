import { h, VNode } from '../jsx';
import { Todo } from '../state/store';
import { Button } from './Button';

/** Properties of {@link TodoItem}. */
export interface TodoItemProps {
  todo: Todo;
}

/** CSS classes of a todo row. */
export function classNames(todo: Todo): string {
  return todo.done ? 'todo done' : 'todo';
}

/** One row of the todo list, with a toggle button. */
export const TodoItem = ({ todo }: TodoItemProps): VNode => (
  <li class={classNames(todo)} data-id={todo.id}>
    {todo.title}
    {Button({ label: todo.done ? 'Undo' : 'Done' })}
  </li>
);
