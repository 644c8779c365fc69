// The files of a ZIP as path → sha256, read with yauzl directly: the expected content of an
// installed Skill, independent of the code that installs it.
import { createHash } from 'node:crypto';
import yauzl from 'yauzl';

export function zipFiles(zipPath: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const files: Record<string, string> = {};
      zip.on('error', reject);
      zip.on('end', () => resolve(files));
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const hash = createHash('sha256');
          stream.on('data', (chunk: Buffer) => hash.update(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files[entry.fileName] = hash.digest('hex');
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}
