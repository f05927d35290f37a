import { randomBytes } from 'node:crypto';
import { compressFrameSync } from 'lz4-napi';
import { decompressLz4Frames, Lz4FrameError } from './lz4-frame';

describe(decompressLz4Frames.name, () => {
  const csv = 'time,user\n2026-09-18T00:03:40Z,0x53bbf2c0b745fd5cada06ddb4a3fb5e955f6efb3\n';

  it('decompresses one frame, with or without checksums', () => {
    expect(decompressLz4Frames(compressFrameSync(csv)).toString()).toBe(csv);
    expect(decompressLz4Frames(compressFrameSync(csv, { contentChecksum: true, blockChecksums: true })).toString()).toBe(csv);
  });

  it('decompresses every frame of a stream and skips skippable frames (the decoder alone stops after the first)', () => {
    const skippable = Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const body = Buffer.concat([compressFrameSync('time,user\n'), skippable, compressFrameSync('1,2\n')]);
    expect(decompressLz4Frames(body).toString()).toBe('time,user\n1,2\n');
  });

  it('refuses a body that is not LZ4', () => {
    expect(() => decompressLz4Frames(Buffer.from(csv))).toThrow(new Lz4FrameError('not an LZ4 frame (wrong magic number)'));
    expect(() => decompressLz4Frames(Buffer.alloc(0))).toThrow('empty body, expected an LZ4 frame');
  });

  it('refuses a frame cut off at a block boundary, which the decoder alone would accept', () => {
    const frame = compressFrameSync(randomBytes(100_000).toString('hex'));
    const beforeEndMark = frame.subarray(0, frame.length - 4);
    expect(() => decompressLz4Frames(beforeEndMark)).toThrow('truncated LZ4 frame (no end mark)');
    expect(() => decompressLz4Frames(frame.subarray(0, 11))).toThrow('truncated LZ4 frame (no end mark)');
  });

  it('refuses a corrupt block and bytes after the last frame', () => {
    const frame = Buffer.from(compressFrameSync(csv, { contentChecksum: true }));
    frame[frame.length - 10] ^= 0xff;
    expect(() => decompressLz4Frames(frame)).toThrow(/^corrupt LZ4 frame/);
    expect(() => decompressLz4Frames(Buffer.concat([compressFrameSync(csv), Buffer.from('garbage')]))).toThrow(
      /unexpected bytes after an LZ4 frame at offset \d+/,
    );
  });
});
