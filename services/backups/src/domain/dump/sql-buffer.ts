/**
 * The dump's byte writer: SQL text is assembled in reused fixed-size buffers and handed out in chunks of
 * about CHUNK_BYTES, so memory stays constant whatever the table size. Values arrive as the raw bytes the
 * server sent (text protocol, connection character set utf8mb4, `typeCast: false`) and are written as
 * literals without decoding: strings are quoted with the escapes `mysqldump` uses, binary values as hex.
 * Escaping works byte by byte, which is safe for UTF-8: the escaped bytes never occur inside a multi-byte
 * sequence.
 */

/** Size of one output chunk (and of the reused buffer). */
export const CHUNK_BYTES = 256 * 1024;

const QUOTE = 0x27;
const BACKSLASH = 0x5c;

/** The byte after a backslash for each byte that needs escaping inside '...'; 0 = copy as is. */
const ESCAPE_AS = new Uint8Array(256);
ESCAPE_AS[0x00] = 0x30; // \0
ESCAPE_AS[0x0a] = 0x6e; // \n
ESCAPE_AS[0x0d] = 0x72; // \r
ESCAPE_AS[0x1a] = 0x5a; // \Z (Ctrl-Z ends a file on Windows)
ESCAPE_AS[0x22] = 0x22; // \"
ESCAPE_AS[0x27] = 0x27; // \'
ESCAPE_AS[0x5c] = 0x5c; // \\

/** Bytes of a number as the text protocol sends it: digits, sign, point, exponent. */
const NUMERIC = new Uint8Array(256);
for (const c of '0123456789+-.eE') NUMERIC[c.charCodeAt(0)] = 1;

export class SqlBuffer {
  #buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  #offset = 0;
  readonly #ready: Buffer[] = [];
  /** Bytes written so far (what the downloaded file will weigh). */
  written = 0;

  /** Takes the complete chunks written so far (the caller yields them). */
  drain(): Buffer[] {
    return this.#ready.splice(0, this.#ready.length);
  }

  /** Takes everything, the partly filled buffer included. */
  flush(): Buffer[] {
    this.#seal();
    return this.drain();
  }

  get pendingChunks(): number {
    return this.#ready.length;
  }

  text(text: string): void {
    this.bytes(Buffer.from(text, 'utf8'));
  }

  /** Copies bytes as they are. */
  bytes(bytes: Buffer): void {
    this.written += bytes.length;
    if (bytes.length > CHUNK_BYTES) {
      this.#seal();
      this.#ready.push(Buffer.from(bytes));
      return;
    }
    this.#room(bytes.length);
    bytes.copy(this.#buffer, this.#offset);
    this.#offset += bytes.length;
  }

  /** A string literal: '…' with backslash escapes. */
  quoted(value: Buffer): void {
    const worst = value.length * 2 + 2;
    if (worst > CHUNK_BYTES) {
      this.#seal();
      const own = Buffer.allocUnsafe(worst);
      const end = escapeInto(value, own, 0);
      this.written += end;
      this.#ready.push(own.subarray(0, end));
      return;
    }
    this.#room(worst);
    const end = escapeInto(value, this.#buffer, this.#offset);
    this.written += end - this.#offset;
    this.#offset = end;
  }

  /** A binary value: 0x… (or '' when empty, which 0x cannot express). */
  hex(value: Buffer): void {
    if (value.length === 0) this.bytes(EMPTY_STRING);
    else this.bytes(Buffer.from(`0x${value.toString('hex')}`, 'latin1'));
  }

  /** A BIT value from its big-endian bytes: b'0101…'. */
  bits(value: Buffer): void {
    let text = "b'";
    for (const byte of value) text += byte.toString(2).padStart(8, '0');
    this.bytes(Buffer.from(`${text}'`, 'latin1'));
  }

  /** A number as sent; anything that is not plainly numeric is quoted instead (a hostile server). */
  number(value: Buffer): void {
    for (let i = 0; i < value.length; i += 1) {
      if (NUMERIC[value[i]!] === 0) {
        this.quoted(value);
        return;
      }
    }
    if (value.length === 0) this.bytes(EMPTY_STRING);
    else this.bytes(value);
  }

  #room(needed: number): void {
    if (this.#offset + needed > CHUNK_BYTES) this.#seal();
  }

  #seal(): void {
    if (this.#offset === 0) return;
    // The sealed part is handed out as is; the next bytes go to a fresh buffer (no copy, no reuse race).
    this.#ready.push(this.#buffer.subarray(0, this.#offset));
    this.#buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.#offset = 0;
  }
}

const EMPTY_STRING = Buffer.from("''", 'latin1');

function escapeInto(value: Buffer, target: Buffer, start: number): number {
  let at = start;
  target[at++] = QUOTE;
  let runStart = 0;
  for (let i = 0; i < value.length; i += 1) {
    const escape = ESCAPE_AS[value[i]!]!;
    if (escape === 0) continue;
    if (i > runStart) at += value.copy(target, at, runStart, i);
    target[at++] = BACKSLASH;
    target[at++] = escape;
    runStart = i + 1;
  }
  if (value.length > runStart) at += value.copy(target, at, runStart, value.length);
  target[at++] = QUOTE;
  return at;
}

/** `name` as a quoted identifier. */
export function quoteIdentifier(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``;
}

/** A text value as an SQL string literal (for values the dump writes itself, such as sql_mode). */
export function quoteText(text: string): string {
  const escaped = Buffer.from(text, 'utf8');
  const out = Buffer.allocUnsafe(escaped.length * 2 + 2);
  return out.subarray(0, escapeInto(escaped, out, 0)).toString('utf8');
}
