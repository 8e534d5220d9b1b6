import { Button } from './components/Button';
import { TodoItem } from './components/TodoItem';
import { h, renderToString as render, VNode } from './jsx';
import { Filter, FilterState, TodoStore, summarize } from './state/store';

/** Title shown above the list. */
const APP_TITLE = 'Todos';

/** Renders the whole application for a store and a filter. */
export function App(store: TodoStore, filter: FilterState): VNode {
  /** Local footer text; shadows the imported `summarize`. */
  function summarize(): string {
    return `${store.describe()} (${filter.describe()})`;
  }
  const items = store.visible(filter).map((todo) => TodoItem({ todo }));
  return (
    <main>
      <h1>{APP_TITLE}</h1>
      <ul>{items}</ul>
      <footer>{summarize()}</footer>
      {Button({ label: 'Clear', primary: true })}
    </main>
  );
}

/** Builds a demo store and prints the rendered HTML. */
function main(): void {
  const store = new TodoStore();
  const filter = new FilterState(Filter.Open);
  store.add('write fixtures');
  const done = store.add('check line numbers');
  store.toggle(done.id);
  console.log(render(App(store, filter)));
  console.log(summarize(store.all()));
  console.log(filter.label());
}

main();
