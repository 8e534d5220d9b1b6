/** Characters that must be escaped in HTML text, with their entities. */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * Escapes HTML special characters in `text`.
 * @param {string} text
 * @returns {string}
 */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (ch) => ENTITIES[ch]);
}
