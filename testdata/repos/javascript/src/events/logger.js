/** Width of the level column in log lines. */
export const LEVEL_WIDTH = 5;

/**
 * Formats a key/value pair as `key=value`.
 * @param {string} key
 * @param {unknown} value
 * @returns {string}
 */
export function format(key, value) {
  return `${key}=${String(value)}`;
}

/** Writes prefixed lines to the console and counts them. */
export class Logger {
  /**
   * @param {string} name prefix for every line
   */
  constructor(name) {
    this.name = name;
    this.count = 0;
  }

  /**
   * Logs one message at info level.
   * @param {string} message
   */
  log(message) {
    this.count += 1;
    const level = 'info'.padEnd(LEVEL_WIDTH);
    console.log(`${level} ${this.name}: ${message}`);
  }

  /** @returns {string} a short description of this logger */
  describe() {
    return `logger ${this.name} (${this.count} lines)`;
  }
}
