/** Maximum number of messages kept before the oldest are dropped. */
export const MAX_QUEUE = 100;

/**
 * Serializes queued messages for delivery.
 * @param {string} channel
 * @param {string[]} messages
 * @returns {string}
 */
export const render = function (channel, messages) {
  return JSON.stringify({ channel, messages });
};

/** Queues rendered messages for one channel. */
export class Outbox {
  /** @param {string} channel */
  constructor(channel) {
    this.channel = channel;
    this.messages = [];
  }

  /**
   * Adds a message, dropping the oldest one when the queue is full.
   * @param {string} message
   */
  push(message) {
    this.messages.push(message);
    if (this.messages.length > MAX_QUEUE) {
      this.messages.shift();
    }
  }

  /** @returns {string} the serialized queue, which is then emptied */
  flush() {
    const out = render(this.channel, this.messages);
    this.messages = [];
    return out;
  }

  /** @returns {string} a short description of this outbox */
  describe() {
    return `outbox ${this.channel} (${this.messages.length} queued)`;
  }

  /** @returns {string} the description, for string contexts */
  toString() {
    return this.describe();
  }
}
