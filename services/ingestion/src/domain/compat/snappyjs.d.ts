/** snappyjs ships no types; the one function ingestion uses (Loki's snappy block format). */
declare module 'snappyjs' {
  /** Decompresses a snappy block; throws if invalid or if the declared length exceeds maxLength. */
  export function uncompress<T extends Uint8Array | ArrayBuffer>(compressed: T, maxLength?: number): T;
  export function compress<T extends Uint8Array | ArrayBuffer>(uncompressed: T): T;
  const snappy: { uncompress: typeof uncompress; compress: typeof compress };
  export default snappy;
}
