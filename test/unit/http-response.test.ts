// ApiResponse decodes a body as the global Response does (the Fetch standard's "UTF-8 decode": a leading
// BOM dropped, invalid bytes replaced), so a reader of text() or json() sees the same string either way.
import { describe, expect, it } from 'vitest';
import { ApiHeaders, ApiResponse } from '../../src/engines/http-response.js';

const bodies: Buffer[] = [
  Buffer.from('{"a":1}'),
  Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')]),
  Buffer.from([0x22, 0xff, 0xfe, 0x22]),
  Buffer.from(''),
];

describe('ApiResponse bodies', () => {
  it('text() and json() give what the global Response gives', async () => {
    for (const b of bodies) {
      const ours = () => new ApiResponse(b, 200, 'OK', new ApiHeaders([]), 'http://127.0.0.1/x');
      const theirs = () => new Response(new Uint8Array(b));
      expect(await ours().text()).toBe(await theirs().text());
      const settle = (p: Promise<unknown>) => p.then((v) => ({ v }), (e: Error) => ({ e: e.name }));
      expect(await settle(ours().json())).toEqual(await settle(theirs().json()));
    }
  });
});
