/**
 * Entry point: renders a message template and queues it for delivery.
 */
import { readFileSync } from 'node:fs';
import { Logger, format } from './events/logger.js';
import { Outbox } from './events/outbox.js';
import { render as renderTemplate, countNodes } from './template/render.js';

/** Template used when no file is given on the command line. */
const DEFAULT_TEMPLATE = '{"tag":"p","children":["Hello, ",{"var":"name"},"!"]}';

/**
 * Loads a template tree from a JSON file, or the default one.
 * @param {string|undefined} path
 * @returns {object}
 */
function loadTemplate(path) {
  const text = path ? readFileSync(path, 'utf8') : DEFAULT_TEMPLATE;
  return JSON.parse(text);
}

/**
 * Builds the summary line printed after queueing.
 * @param {Outbox} outbox
 * @param {Logger} logger
 * @returns {string}
 */
function summary(outbox, logger) {
  /**
   * Joins two descriptions; shadows the imported `format`.
   * @param {string} left
   * @param {string} right
   */
  function format(left, right) {
    return `${left} | ${right}`;
  }
  return format(outbox.describe(), logger.describe());
}

/**
 * Renders the template for a recipient and queues the result.
 * @param {string[]} argv
 */
export function main(argv) {
  const logger = new Logger('notify');
  const outbox = new Outbox('mail');
  const tree = loadTemplate(argv[2]);
  const html = renderTemplate(tree, { name: argv[3] ?? 'world' });
  outbox.push(html);
  logger.log(format('nodes', countNodes(tree)));
  console.log(summary(outbox, logger));
  console.log(outbox.flush());
}

main(process.argv);
