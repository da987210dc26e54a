import { isIPv4, isIPv6 } from 'node:net';

/**
 * IP addresses as bytes, and CIDR blocks, for the outbound fence (docs/connector.md). Written
 * out rather than through `net.BlockList` because the fence must also see the IPv4 address
 * inside an IPv6 one (IPv4-mapped, IPv4-compatible, NAT64), which BlockList only does for the
 * mapped form.
 */

export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: Uint8Array;
}

export interface Cidr {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

function parseIPv4(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map(Number));
}

function parseIPv6(text: string): Uint8Array {
  const bytes = new Uint8Array(16);
  let head = text;
  let tail = '';
  const gap = text.indexOf('::');
  if (gap >= 0) {
    head = text.slice(0, gap);
    tail = text.slice(gap + 2);
  }
  const groups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a = 0, b = 0, c = 0, d = 0] = parseIPv4(piece);
        out.push((a << 8) | b, (c << 8) | d);
      } else {
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const front = groups(head);
  const back = groups(tail);
  const all = gap >= 0 ? [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back] : front;
  all.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

/** An IP address literal (IPv6 with or without brackets, with or without a zone), or null when `text` is none. */
export function parseIp(text: string): IpAddress | null {
  let host = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = host.indexOf('%');
  if (zone >= 0) host = host.slice(0, zone);
  if (isIPv4(host)) return { family: 4, bytes: parseIPv4(host) };
  if (isIPv6(host)) return { family: 6, bytes: parseIPv6(host) };
  return null;
}

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);
const ZERO_96 = new Array<number>(12).fill(0);
const MAPPED_96 = [...new Array<number>(10).fill(0), 0xff, 0xff];
const NAT64_96 = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];

/**
 * The IPv4 address an IPv6 one carries, when it carries one a connection could reach:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, deprecated but still parsed) and the
 * NAT64 well-known prefix (64:ff9b::a.b.c.d).
 */
export function embeddedIPv4(ip: IpAddress): IpAddress | null {
  if (ip.family !== 6) return null;
  const b = ip.bytes;
  const carries = startsWith(b, MAPPED_96) || startsWith(b, NAT64_96) || (startsWith(b, ZERO_96) && (b[12]! | b[13]!) !== 0);
  return carries ? { family: 4, bytes: b.slice(12) } : null;
}

/** "a.b.c.d/n", "x::y/n" or a bare address (a /32 or /128); null when `text` is none. IPv4-mapped IPv6 blocks become IPv4 blocks. */
export function parseCidr(text: string): Cidr | null {
  const slash = text.lastIndexOf('/');
  const ip = parseIp(slash >= 0 ? text.slice(0, slash) : text);
  if (ip === null) return null;
  const max = ip.family === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const raw = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(raw)) return null;
    prefix = Number(raw);
    if (prefix > max) return null;
  }
  if (ip.family === 6 && prefix >= 96 && startsWith(ip.bytes, MAPPED_96)) {
    return { family: 4, bytes: ip.bytes.slice(12), prefix: prefix - 96 };
  }
  return { family: ip.family, bytes: ip.bytes, prefix };
}

function inBlock(bytes: Uint8Array, cidr: Cidr): boolean {
  const whole = Math.floor(cidr.prefix / 8);
  for (let i = 0; i < whole; i++) if (bytes[i] !== cidr.bytes[i]) return false;
  const rest = cidr.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[whole]! & mask) === (cidr.bytes[whole]! & mask);
}

/** Whether `ip` is in `cidr`, also through the IPv4 address an IPv6 one carries. */
export function cidrContains(cidr: Cidr, ip: IpAddress): boolean {
  if (cidr.family === ip.family) return inBlock(ip.bytes, cidr);
  const inner = embeddedIPv4(ip);
  return cidr.family === 4 && inner !== null && inBlock(inner.bytes, cidr);
}
