/** Varints and length-prefixed strings for the block layout's columns (block-codec.ts). */

/** Appends to a growing buffer. Varints are LEB128, for any safe integer >= 0 (not limited to 32 bits). */
export class ByteWriter {
  #buf = Buffer.alloc(1 << 12);
  #length = 0;

  #room(n: number): void {
    if (this.#length + n <= this.#buf.length) return;
    const next = Buffer.alloc(Math.max(this.#buf.length * 2, this.#length + n));
    this.#buf.copy(next, 0, 0, this.#length);
    this.#buf = next;
  }

  varint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint: ${value} is not a safe integer >= 0`);
    this.#room(8);
    let v = value;
    while (v >= 0x80) {
      this.#buf[this.#length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.#buf[this.#length++] = v;
  }

  bytes(bytes: Uint8Array): void {
    this.#room(bytes.length);
    this.#buf.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  /** UTF-8 bytes after their length (plus `lengthOffset`, which lets 0 mean something else). */
  string(value: string, lengthOffset = 0): void {
    const bytes = Buffer.from(value, 'utf8');
    this.varint(bytes.length + lengthOffset);
    this.bytes(bytes);
  }

  done(): Buffer {
    return this.#buf.subarray(0, this.#length);
  }
}

export class ByteReader {
  pos = 0;
  readonly #buf: Buffer;

  constructor(buf: Buffer) {
    this.#buf = buf;
  }

  varint(): number {
    // One byte: most varints of a block (codes, small deltas, lengths).
    const first = this.#buf[this.pos];
    if (first !== undefined && first < 0x80) {
      this.pos++;
      return first;
    }
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.#buf.length) throw new RangeError('varint: past the end of the block');
      const b = this.#buf[this.pos++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
  }

  bytes(n: number): Buffer {
    if (this.pos + n > this.#buf.length) throw new RangeError('bytes: past the end of the block');
    const out = this.#buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  utf8(n: number): string {
    return this.bytes(n).toString('utf8');
  }

  string(): string {
    return this.utf8(this.varint());
  }

  /** The bytes from here to the end. */
  rest(): Buffer {
    return this.#buf.subarray(this.pos);
  }
}
