import { isIP } from 'node:net';
import os from 'node:os';

/**
 * What the start-up line tells a person to open: the web console at `/` when it is built
 * (docs/console.md), and the API docs at `/docs`. An address that means "every interface"
 * (`HOST=0.0.0.0` or `::`) is not one a browser can open (issue 17), so the line names this
 * machine's loopback address, and the machine's name for other machines.
 */
export function startUpLine(host: string, port: number, hostname: string = os.hostname(), withConsole = false): string {
  const base = (h: string) => `http://${isIP(h) === 6 ? `[${h}]` : h}:${port}`;
  const open = (h: string) => (withConsole ? `console at ${base(h)}/, API docs at ${base(h)}/docs` : `API docs at ${base(h)}/docs`);
  if (host === '0.0.0.0' || host === '::') {
    const local = host === '::' ? '::1' : '127.0.0.1';
    const others = withConsole ? `${base(hostname)}/ and ${base(hostname)}/docs` : `${base(hostname)}/docs`;
    return `Warden is ready: ${open(local)} on this machine, ${others} from others`;
  }
  return `Warden is ready: ${open(host)}`;
}
