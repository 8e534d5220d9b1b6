import { escapeHtml } from './escape.js';

/**
 * Renders a template tree to an HTML string.
 * @param {object|string} node root of the tree
 * @param {Record<string, string>} vars values for `{"var": name}` nodes
 * @returns {string}
 */
export function render(
  node,
  vars = {},
) {
  return renderNode(node, vars);
}

/**
 * Renders one node: plain text, a variable reference or an element.
 * @param {object|string} node
 * @param {Record<string, string>} vars
 * @returns {string}
 */
function renderNode(node, vars) {
  if (typeof node === 'string') {
    return escapeHtml(node);
  }
  if ('var' in node) {
    return escapeHtml(vars[node.var] ?? '');
  }
  const inner = renderChildren(node.children ?? [], vars);
  return `<${node.tag}>${inner}</${node.tag}>`;
}

/**
 * Renders and concatenates a list of child nodes.
 * @param {Array<object|string>} children
 * @param {Record<string, string>} vars
 * @returns {string}
 */
function renderChildren(children, vars) {
  return children.map((child) => renderNode(child, vars)).join('');
}

/**
 * Counts the nodes of a template tree, including the root.
 * @param {object|string} node
 * @returns {number}
 */
export const countNodes = (node) => {
  if (typeof node !== 'object' || !Array.isArray(node.children)) {
    return 1;
  }
  let total = 1;
  for (const child of node.children) {
    total += countNodes(child);
  }
  return total;
};
