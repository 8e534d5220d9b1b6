/** Which todos a list view shows. */
export enum Filter {
  All,
  Open,
  Done,
}

/** One entry of the todo list. */
export interface Todo {
  id: number;
  title: string;
  done: boolean;
}

/** Holds the todos and hands out ids. */
export class TodoStore {
  private todos: Todo[] = [];
  private nextId = 1;

  /** Adds a todo and returns it. */
  add(title: string): Todo {
    const todo: Todo = { id: this.nextId, title: title.trim(), done: false };
    this.nextId += 1;
    this.todos.push(todo);
    return todo;
  }

  /** Flips the done flag of the todo with `id`. */
  toggle(id: number): void {
    const todo = this.todos.find((t) => t.id === id);
    if (todo) {
      todo.done = !todo.done;
    }
  }

  /** All todos, in insertion order. */
  all(): Todo[] {
    return [...this.todos];
  }

  /** Todos that pass `filter`. */
  visible(filter: FilterState): Todo[] {
    return this.todos.filter((t) => filter.accepts(t));
  }

  /** Short description such as `3 todos, 1 open`. */
  describe(): string {
    return summarize(this.todos);
  }
}

/** The currently selected filter. */
export class FilterState {
  constructor(public current: Filter = Filter.All) {}

  /** Whether `todo` passes the filter. */
  accepts(todo: Todo): boolean {
    if (this.current === Filter.Open) {
      return !todo.done;
    }
    return this.current === Filter.Done ? todo.done : true;
  }

  /** Lower-case name of the filter. */
  describe(): string {
    return Filter[this.current].toLowerCase();
  }

  /** Footer label such as `showing open`. */
  label(): string {
    return `showing ${this.describe()}`;
  }
}

/** Summarizes a list of todos as `N todos, M open`. */
export function summarize(todos: Todo[]): string {
  const open = todos.filter((t) => !t.done).length;
  return `${todos.length} todos, ${open} open`;
}
