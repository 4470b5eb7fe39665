import { identifierOf, NON_LINKING_IDENTIFIER_KINDS, PLAYER_NAME_KEYS } from '@skald/contracts/api';

/**
 * A log's metadata as the card shows it: the text of JSON.stringify(metadata, null, 2), cut into pieces so
 * that every identifier (a string that is exactly `<kind>:<value>`, contracts' identifierOf) and every
 * player name (the string under a name key of an object holding a linking identifier) can link to its
 * player (docs/PLAYERS.md, "Web"). Joined, the pieces' texts are exactly the JSON text.
 */
export interface MetadataPiece {
  readonly text: string;
  /** The identifier whose player this piece opens; absent for plain text. */
  readonly player?: string;
}

const NAME_KEYS: ReadonlySet<string> = new Set(PLAYER_NAME_KEYS);
const NON_LINKING: readonly string[] = NON_LINKING_IDENTIFIER_KINDS.map((kind) => `${kind}:`);

function linkingIdentifier(value: string): string | null {
  const identifier = identifierOf(value.trim());
  return identifier !== null && !NON_LINKING.some((prefix) => identifier.startsWith(prefix)) ? identifier : null;
}

/**
 * The first linking identifier of an object's group, as the extraction groups: its own string values and
 * the strings of its arrays at any depth of arrays (nested objects are groups of their own). `ip` and
 * `token` make no player, so a name beside only those links nowhere.
 */
function groupIdentifier(object: Readonly<Record<string, unknown>>): string | null {
  const inValue = (value: unknown): string | null => {
    if (typeof value === 'string') return linkingIdentifier(value);
    if (!Array.isArray(value)) return null;
    for (const item of value) {
      const found = inValue(item);
      if (found !== null) return found;
    }
    return null;
  };
  for (const value of Object.values(object)) {
    const found = inValue(value);
    if (found !== null) return found;
  }
  return null;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

class Writer {
  readonly pieces: MetadataPiece[] = [];
  private plain = '';

  text(text: string): void {
    this.plain += text;
  }

  link(text: string, player: string): void {
    this.flush();
    this.pieces.push({ text, player });
  }

  flush(): void {
    if (this.plain !== '') this.pieces.push({ text: this.plain });
    this.plain = '';
  }

  /** `nameOf`: the identifier a string here names when it is a player name (it sits under a name key). */
  value(value: unknown, indent: string, nameOf: string | null): void {
    if (typeof value === 'string') this.string(value, nameOf);
    else if (Array.isArray(value)) this.array(value, indent);
    else if (typeof value === 'object' && value !== null) this.object(value as Record<string, unknown>, indent);
    else this.text(isOmitted(value) ? 'null' : (JSON.stringify(value) ?? 'null'));
  }

  private string(value: string, nameOf: string | null): void {
    const json = JSON.stringify(value);
    const player = identifierOf(value.trim()) ?? (value.trim() === '' ? null : nameOf);
    if (player === null) {
      this.text(json);
      return;
    }
    this.text('"');
    this.link(json.slice(1, -1), player);
    this.text('"');
  }

  private array(values: readonly unknown[], indent: string): void {
    if (values.length === 0) {
      this.text('[]');
      return;
    }
    const inner = `${indent}  `;
    this.text('[\n');
    values.forEach((item, index) => {
      this.text(inner);
      this.value(item, inner, null);
      this.text(index < values.length - 1 ? ',\n' : '\n');
    });
    this.text(`${indent}]`);
  }

  private object(object: Readonly<Record<string, unknown>>, indent: string): void {
    const keys = Object.keys(object).filter((key) => !isOmitted(object[key]));
    if (keys.length === 0) {
      this.text('{}');
      return;
    }
    const player = groupIdentifier(object);
    const inner = `${indent}  `;
    this.text('{\n');
    keys.forEach((key, index) => {
      this.text(`${inner}${JSON.stringify(key)}: `);
      this.value(object[key], inner, player !== null && NAME_KEYS.has(key) ? player : null);
      this.text(index < keys.length - 1 ? ',\n' : '\n');
    });
    this.text(`${indent}}`);
  }
}

export function metadataPieces(metadata: Readonly<Record<string, unknown>>): MetadataPiece[] {
  const writer = new Writer();
  writer.value(metadata, '', null);
  writer.flush();
  return writer.pieces;
}
