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

  /**
   * The next `out.length` varints into `out`: a column of a block read in one loop over local variables (what a
   * read by key pays for every row of each block it touches: a fifth of the call per varint, measured).
   */
  varints(out: Float64Array): void {
    const buf = this.#buf;
    let pos = this.pos;
    for (let i = 0; i < out.length; i++) {
      let b = buf[pos++]!;
      if (b < 0x80) {
        out[i] = b;
        continue;
      }
      let value = b & 0x7f;
      let scale = 0x80;
      do {
        // Past the end reads undefined: no continuation bit, and the check below throws.
        b = buf[pos++]!;
        value += (b & 0x7f) * scale;
        scale *= 0x80;
      } while (b >= 0x80);
      out[i] = value;
    }
    if (pos > buf.length) throw new RangeError('varint: past the end of the block');
    this.pos = pos;
  }

  /** The byte `ahead` bytes from here, not read (undefined past the end). */
  peek(ahead = 0): number | undefined {
    return this.#buf[this.pos + ahead];
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

/**
 * The decompressed size a zstd frame's header states, or undefined when it states none (a frame written by a
 * stream without its size pledged, or bytes that are no zstd frame). RFC 8878, 3.1.1.1.
 */
export function zstdContentSize(frame: Uint8Array): number | undefined {
  if (frame.length < 6 || frame[0] !== 0x28 || frame[1] !== 0xb5 || frame[2] !== 0x2f || frame[3] !== 0xfd) return undefined;
  const descriptor = frame[4]!;
  const singleSegment = (descriptor >> 5) & 1;
  const fieldSize = [singleSegment === 1 ? 1 : 0, 2, 4, 8][descriptor >> 6]!;
  if (fieldSize === 0) return undefined;
  const at = 5 + (singleSegment === 1 ? 0 : 1) + [0, 1, 2, 4][descriptor & 3]!;
  if (at + fieldSize > frame.length) return undefined;
  let size = 0;
  // Little-endian; past 6 bytes no block's frame goes (and a double would lose the low bits).
  for (let i = fieldSize - 1; i >= 0; i--) {
    if (i >= 6 && frame[at + i] !== 0) return undefined;
    size = size * 256 + frame[at + i]!;
  }
  return fieldSize === 2 ? size + 256 : size;
}

/** Largest output one call gets its whole buffer for at once (a wrong size in a damaged header allocates no more). */
const SIZED_OUTPUT_MAX = 1 << 28;

/**
 * Options for zstdDecompressSync to decompress `size` bytes (one or more frames' stated sizes summed): the whole
 * output in one buffer. Node's default 16 KB chunks cost a native call and an allocation each, then a copy of
 * them all into one (a fifth of a 300 KB text group's decompression, measured); one byte more than the size so
 * the call ends without asking for another chunk.
 */
export function zstdOutput(size: number | undefined, dictionary?: Buffer): { chunkSize?: number; dictionary?: Buffer } {
  const sized = size !== undefined && size < SIZED_OUTPUT_MAX ? { chunkSize: Math.max(64, size + 1) } : {};
  return dictionary === undefined ? sized : { ...sized, dictionary };
}
