import { decompressFrameSync } from 'lz4-napi';

const FRAME_MAGIC = 0x184d2204;
/** 0x184D2A50 to 0x184D2A5F: user data a decoder must skip. */
const SKIPPABLE_MAGIC = 0x184d2a50;
const SKIPPABLE_MASK = 0xfffffff0;
const FRAME_VERSION = 1;

/** Why a body is not a complete LZ4 frame stream (the message names the problem, never the bytes). */
export class Lz4FrameError extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = 'Lz4FrameError';
  }
}

/**
 * Decompresses a stream of LZ4 frames (the format of `lz4` and `lz4.frame`). The frame structure is walked
 * first because the decoder alone is too lenient for a source of truth: it returns nothing for an empty
 * body, stops silently after the first of several frames, and accepts a frame cut off at a block boundary.
 * Here any of those is an Lz4FrameError, as is a body that is not LZ4 at all.
 */
export function decompressLz4Frames(bytes: Uint8Array): Buffer {
  if (bytes.length === 0) throw new Lz4FrameError('empty body, expected an LZ4 frame');
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const magic = readWord(body, at);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      at += 8 + readWord(body, at + 4);
      continue;
    }
    if (magic !== FRAME_MAGIC)
      throw new Lz4FrameError(at === 0 ? 'not an LZ4 frame (wrong magic number)' : `unexpected bytes after an LZ4 frame at offset ${at}`);
    const end = frameEnd(body, at + 4);
    parts.push(decompressOne(body.subarray(at, end)));
    at = end;
  }
  if (at > body.length) throw truncated();
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/** Where the frame whose descriptor starts at `at` ends: after its end mark and content checksum. */
function frameEnd(body: Buffer, at: number): number {
  const flags = readByte(body, at);
  if (flags >> 6 !== FRAME_VERSION) throw new Lz4FrameError(`unsupported LZ4 frame version ${flags >> 6}`);
  const blockChecksum = (flags & 0x10) !== 0;
  const contentSize = (flags & 0x08) !== 0;
  const contentChecksum = (flags & 0x04) !== 0;
  const dictionaryId = (flags & 0x01) !== 0;
  // FLG, BD, the optional content size and dictionary id, then the header checksum byte.
  let cursor = at + 2 + (contentSize ? 8 : 0) + (dictionaryId ? 4 : 0) + 1;
  for (;;) {
    const blockSize = readWord(body, cursor);
    cursor += 4;
    if (blockSize === 0) break;
    // The high bit only says the block is stored uncompressed.
    cursor += (blockSize & 0x7fffffff) + (blockChecksum ? 4 : 0);
  }
  const end = cursor + (contentChecksum ? 4 : 0);
  if (end > body.length) throw truncated();
  return end;
}

function decompressOne(frame: Buffer): Buffer {
  try {
    return decompressFrameSync(frame);
  } catch (err) {
    throw new Lz4FrameError(`corrupt LZ4 frame (${err instanceof Error ? err.message : 'decoder failed'})`);
  }
}

function readWord(body: Buffer, at: number): number {
  if (at + 4 > body.length) throw truncated();
  return body.readUInt32LE(at);
}

function readByte(body: Buffer, at: number): number {
  if (at + 1 > body.length) throw truncated();
  return body[at];
}

function truncated(): Lz4FrameError {
  return new Lz4FrameError('truncated LZ4 frame (no end mark)');
}
