/**
 * Server-sent events framing as the EventSource standard parses it (event, data, id fields; `:` comments
 * ignored; a blank line dispatches). The live tail reads its stream with fetch (EventSource cannot send
 * the Authorization header), so it parses the frames itself.
 */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
  /** The frame's own id field, when it had one. */
  readonly id: string | undefined;
}

export class SseParser {
  #buffer = '';
  #event = 'message';
  #data: string[] = [];
  #id: string | undefined;

  /** Feeds decoded text; answers the messages it completed. */
  push(text: string): SseMessage[] {
    this.#buffer += text;
    const out: SseMessage[] = [];
    let match: RegExpExecArray | null;
    while ((match = /\r\n|\r|\n/.exec(this.#buffer)) !== null) {
      // A lone \r at the end may be the first half of \r\n: wait for more.
      if (match[0] === '\r' && match.index === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      this.#line(line, out);
    }
    return out;
  }

  #line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.#data.length > 0) out.push({ event: this.#event, data: this.#data.join('\n'), id: this.#id });
      this.#event = 'message';
      this.#data = [];
      this.#id = undefined;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') this.#event = value;
    else if (field === 'data') this.#data.push(value);
    else if (field === 'id') this.#id = value;
  }
}
