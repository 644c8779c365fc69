// Reads one secret: all of stdin when it is piped (trailing newline dropped), or one typed
// line with echo off when it is a terminal.
export async function readSecret(prompt: string, signal: AbortSignal): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '')
      .trim();
  }
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onAbort = (): void => reject(new Error('interrupted'));
      signal.addEventListener('abort', onAbort, { once: true });
      stdin.on('data', (data: Buffer) => {
        for (const ch of data.toString('utf8')) {
          if (ch === '\r' || ch === '\n') {
            signal.removeEventListener('abort', onAbort);
            return resolve(typed.trim());
          }
          if (ch === '\u0003') return reject(new Error('interrupted'));
          if (ch === '\u007f') typed = typed.slice(0, -1);
          else typed += ch;
        }
      });
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    process.stderr.write('\n');
  }
}
