/** A virtual DOM element produced by JSX. */
export interface VNode {
  tag: string;
  props: Props;
  children: Child[];
}

/** Attributes of an element. */
export type Props = Record<string, string | number | boolean>;

/** Anything that may appear as a child of an element. */
export type Child = VNode | string | number | null | Child[];

/**
 * JSX factory: builds a {@link VNode} for an intrinsic element.
 * Components are plain functions and are called directly.
 */
export function h(
  tag: string,
  props: Props | null,
  ...children: Child[]
): VNode {
  return { tag, props: props ?? {}, children: flatten(children) };
}

/** Flattens nested child arrays and drops empty children. */
function flatten(children: Child[]): Child[] {
  const out: Child[] = [];
  for (const child of children) {
    if (Array.isArray(child)) {
      out.push(...flatten(child));
    } else if (child !== null && child !== undefined) {
      out.push(child);
    }
  }
  return out;
}

/** Renders a node tree to an HTML string. */
export function renderToString(node: Child): string {
  if (node === null || node === undefined) {
    return '';
  }
  if (typeof node === 'string' || typeof node === 'number') {
    return escapeHtml(String(node));
  }
  if (Array.isArray(node)) {
    return renderChildren(node);
  }
  const attrs = Object.entries(node.props).map(([k, v]) => ` ${k}="${escapeHtml(String(v))}"`);
  return `<${node.tag}${attrs.join('')}>${renderChildren(node.children)}</${node.tag}>`;
}

/** Renders a list of children and concatenates the results. */
function renderChildren(children: Child[]): string {
  return children.map((c) => renderToString(c)).join('');
}

/** Escapes `&`, `<` and `"` for use in HTML text and attributes. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
