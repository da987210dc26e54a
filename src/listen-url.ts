import { isIP } from 'node:net';
import os from 'node:os';

/**
 * What the start-up line tells a person to open. An address that means "every interface"
 * (`HOST=0.0.0.0` or `::`) is not one a browser can open (issue 17), so the line names this
 * machine's loopback address, and the machine's name for other machines.
 */
export function startUpLine(host: string, port: number, hostname: string = os.hostname()): string {
  const url = (h: string) => `http://${isIP(h) === 6 ? `[${h}]` : h}:${port}/docs`;
  if (host === '0.0.0.0' || host === '::') {
    const local = url(host === '::' ? '::1' : '127.0.0.1');
    return `Warden is ready: API docs at ${local} on this machine, ${url(hostname)} from others`;
  }
  return `Warden is ready: API docs at ${url(host)}`;
}
