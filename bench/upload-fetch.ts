// Bare `fetch` sending files to the service's multipart upload, `concurrency` at a time: what
// the upload and folder-sync benches put the app beside (upload.bench.ts sends them from its
// own process and from one of their own, upload-fetch-child.ts).
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export async function fetchUploads(
  files: string[],
  to: { baseUrl: string; brandId: string; key: string },
  concurrency: number,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < files.length) {
        const file = files[next++] as string;
        const form = new FormData();
        form.append('brandSessionId', to.brandId);
        form.append(
          'file',
          new Blob([await readFile(file)], { type: 'image/png' }),
          path.basename(file),
        );
        const res = await fetch(`${to.baseUrl}/images/uploads/file`, {
          method: 'POST',
          headers: { 'x-api-key': to.key },
          body: form,
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`fetch: ${res.status}`);
      }
    }),
  );
}
