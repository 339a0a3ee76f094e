import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downloadAddressOf, sizeInBytes, transferStateOf } from '../../src/api/transfer-record.js';

// A transfer-file record as loosely as the provider documents it (docs/dialect-and-spec-gaps.md, "The provider's dialect").

describe('transfer-file records', () => {
  it('both vocabularies of statuses are understood; any other is unknown, never ready', () => {
    expect(['completed', 'available', ' Available '].map(transferStateOf)).toEqual(['ready', 'ready', 'ready']);
    expect(['downloaded', 'consumed'].map(transferStateOf)).toEqual(['taken', 'taken']);
    expect(['pending', 'error'].map(transferStateOf)).toEqual(['waiting', 'failed']);
    fc.assert(fc.property(fc.string(), (s) => {
      fc.pre(!['completed', 'available'].includes(s.trim().toLowerCase()));
      expect(transferStateOf(s)).not.toBe('ready');
    }));
    expect(transferStateOf(undefined)).toBe('unknown');
  });

  it('a size is checked only when it is plainly bytes', () => {
    expect(sizeInBytes(0.038)).toBeUndefined();
    expect(sizeInBytes(12)).toBeUndefined();
    expect(sizeInBytes('2048')).toBeUndefined();
    expect(sizeInBytes(2048)).toBe(2048);
  });

  it('the download address: a known field, else the one address in the record, else an error that shows no address', () => {
    const url = 'https://bucket.example/f.csv?X-Amz-Signature=abc';
    expect(downloadAddressOf({ transfer_file_id: 't', download_url: url })).toEqual({ url, field: 'download_url' });
    expect(downloadAddressOf({ transfer_file_id: 't', url })).toEqual({ url, field: 'url' });
    expect(downloadAddressOf({ transfer_file_id: 't', s3_presigned: url, name: 'f.csv' })).toEqual({ url, field: 's3_presigned' });
    const none = downloadAddressOf({ transfer_file_id: 't', name: 'f.csv' });
    const two = downloadAddressOf({ transfer_file_id: 't', a: url, b: `${url}&x=1` });
    expect('error' in none && none.error).toMatch(/no download address/);
    expect('error' in two && two.error).toMatch(/2 different addresses \(a, b\)/);
    expect(JSON.stringify(two)).not.toContain('Signature');
  });
});
