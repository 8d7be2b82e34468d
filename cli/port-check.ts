import { createServer } from 'node:net';
import { ExitError } from './errors.ts';

/**
 * Fails with a message naming the port and how to pick another when HOST:PORT cannot be listened on.
 * `start` checks before it migrates and creates the first administrator, whose password is shown once:
 * failing to listen after that would lose it.
 */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const next = port + 1;
      const howTo = `choose another port with PORT (e.g. \`PORT=${next} npx tessera start\`, or PORT=${next} in .env) or \`tessera start --port ${next}\``;
      if (error.code === 'EADDRINUSE') reject(new ExitError(1, `Port ${port} on ${host} is already in use (another Tessera, or another program, listens there): stop it, or ${howTo}.`));
      else if (error.code === 'EACCES') reject(new ExitError(1, `Port ${port} on ${host} needs extra privileges: ${howTo}.`));
      else if (error.code === 'EADDRNOTAVAIL') reject(new ExitError(1, `HOST ${host} is not an address of this machine: set HOST to one (e.g. 127.0.0.1 or 0.0.0.0).`));
      else reject(error);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
