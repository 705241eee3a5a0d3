// Bytes → text without Node's Buffer, so the parsers run anywhere TextDecoder exists (Node,
// browsers, workers). The library is built with no DOM or Node typings, so the one global
// it needs is declared here rather than pulling in either set of types.
type TextDecoderLike = { decode(input?: Uint8Array, options?: { stream?: boolean }): string };
declare const TextDecoder: new (label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean }) => TextDecoderLike;

/** Input of every parser: the file's bytes, in chunks of any size. */
export type ByteStream = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export type TextEncodingName = 'utf-8' | 'windows-1252';

/** Decode a byte stream chunk by chunk; multi-byte characters split across chunks are kept whole. */
export async function* decodeStream(bytes: ByteStream, encoding: TextEncodingName = 'utf-8'): AsyncGenerator<string> {
  // ignoreBOM: false makes the decoder drop a leading UTF-8 byte-order mark.
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  // Windows-1252 is one byte per character, so an all-ASCII chunk (every chunk of OFAC's
  // files) can take the much faster UTF-8 path with the same result.
  const ascii = encoding === 'windows-1252' ? new TextDecoder('utf-8') : undefined;
  for await (const chunk of bytes) {
    const text = ascii && isAscii(chunk) ? ascii.decode(chunk) : decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) > 0x7f) return false;
  return true;
}

/** Concatenate a byte stream into one array (for the formats that need the whole file). */
export async function readAllBytes(bytes: ByteStream): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of bytes) {
    parts.push(chunk);
    length += chunk.length;
  }
  if (parts.length === 1 && parts[0]) return parts[0];
  const all = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.length;
  }
  return all;
}

/**
 * UTF-8 when the bytes are valid UTF-8, Windows-1252 otherwise: the UK OFSI file is published
 * in Windows-1252 while newer UK files are UTF-8, and a file does not say which it is.
 */
export function decodeAuto(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/** Lenient UTF-8 decoding of a file's first bytes, for format sniffing. */
export function decodeHead(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** Wrap a string as a one-chunk text stream. */
export async function* textChunks(text: string): AsyncGenerator<string> {
  yield text;
}
