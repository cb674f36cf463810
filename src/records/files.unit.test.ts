// Files of records, pure parts: what an upload must be and under which name it is sent.
import { describe, expect, it } from 'vitest';
import { checkUpload, kindOf, safeFilename } from './files.js';

const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16)]);

describe('kindOf', () => {
  it('knows a file by its first bytes, among the allowed kinds only', () => {
    expect(kindOf(PDF, ['pdf', 'png', 'jpeg'])).toBe('pdf');
    expect(kindOf(PNG, ['pdf', 'png', 'jpeg'])).toBe('png');
    expect(kindOf(JPEG, ['pdf', 'png', 'jpeg'])).toBe('jpeg');
    expect(kindOf(PNG, ['pdf'])).toBeNull();
    expect(kindOf(Buffer.from('MZ\x90\x00 not a pdf'), ['pdf'])).toBeNull();
    expect(kindOf(Buffer.from('%PD'), ['pdf'])).toBeNull();
  });
});

describe('checkUpload', () => {
  it('accepts a PDF by its content whatever its name says, with its size and SHA-256', () => {
    const checked = checkUpload({ buffer: PDF, originalname: 'Vertrag 2026.exe' }, { kinds: ['pdf'] });
    expect(checked).toMatchObject({ upload: true, name: 'Vertrag 2026.pdf', type: 'application/pdf', size: PDF.length });
    expect((checked as { sha256: string }).sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses what is not what it claims, an empty file and one over the size, naming the limit', () => {
    expect(checkUpload({ buffer: Buffer.from('<html>hi</html>'), originalname: 'x.pdf' }, { kinds: ['pdf', 'png'] })).toEqual({ problem: 'records:files.wrongKind', params: { kinds: 'PDF, PNG' } });
    expect(checkUpload({ buffer: Buffer.alloc(0), originalname: 'x.pdf' }, { kinds: ['pdf'] })).toEqual({ problem: 'records:files.empty' });
    const eleven = Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024)]);
    expect(checkUpload({ buffer: eleven, originalname: 'x.pdf' }, { kinds: ['pdf'] })).toEqual({ problem: 'records:files.tooLarge', params: { max: '10 MB' } });
    expect(checkUpload({ buffer: PDF, originalname: 'x.pdf' }, { kinds: ['pdf'], maxBytes: 10 })).toMatchObject({ problem: 'records:files.tooLarge' });
  });
});

describe('safeFilename', () => {
  it.each([
    ['Prüfbericht März.pdf', 'pdf', 'Prüfbericht März.pdf'],
    ['../../etc/passwd', 'pdf', 'passwd.pdf'],
    ['C:\\Users\\a\\Scan 01.jpeg', 'jpeg', 'Scan 01.jpg'],
    ['a"b<c>d\u0000e;f.pdf', 'pdf', 'abcdef.pdf'],
    ['.pdf', 'pdf', 'datei.pdf'],
    ['', 'png', 'datei.png'],
  ] as const)('%j as %s is sent as %j', (original, kind, safe) => {
    expect(safeFilename(original, kind)).toBe(safe);
  });

  it('keeps names to 120 characters with their extension', () => {
    const long = safeFilename(`${'x'.repeat(300)}.pdf`, 'pdf');
    expect(long).toHaveLength(120);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});
