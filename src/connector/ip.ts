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
const TRANSLATED_96 = [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0];
const NAT64_96 = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
const NAT64_LOCAL_48 = [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01];
const SIX_TO_FOUR_16 = [0x20, 0x02];
const TEREDO_32 = [0x20, 0x01, 0x00, 0x00];

const v4 = (...bytes: number[]): IpAddress => ({ family: 4, bytes: Uint8Array.from(bytes) });

/**
 * The IPv4 addresses an IPv6 one may carry, which a connection to it could end up reaching
 * (none: it carries none). One reading for the unambiguous forms: IPv4-mapped `::ffff:0:0/96`,
 * IPv4-translated `::ffff:0:0:0/96`, IPv4-compatible `::/96` (deprecated, still parsed; `::`
 * and `::1` are IPv6's own), NAT64's well-known `64:ff9b::/96` and 6to4 `2002::/16`. Several for
 * the rest: the local-use NAT64 prefix `64:ff9b:1::/48`, whose prefix length (and so where the
 * IPv4 address sits, RFC 6052) only its network knows, gives each placement; Teredo
 * `2001::/32` gives its client (obfuscated in the last 32 bits) and its server.
 */
export function embeddedIPv4s(ip: IpAddress): IpAddress[] {
  if (ip.family !== 6) return [];
  const b = Array.from(ip.bytes);
  const last = (): IpAddress => v4(b[12]!, b[13]!, b[14]!, b[15]!);
  if (startsWith(ip.bytes, MAPPED_96) || startsWith(ip.bytes, TRANSLATED_96) || startsWith(ip.bytes, NAT64_96)) return [last()];
  if (startsWith(ip.bytes, ZERO_96)) return (b[12]! | b[13]! | b[14]!) !== 0 || b[15]! > 1 ? [last()] : [];
  if (startsWith(ip.bytes, SIX_TO_FOUR_16)) return [v4(b[2]!, b[3]!, b[4]!, b[5]!)];
  if (startsWith(ip.bytes, TEREDO_32)) return [v4(b[12]! ^ 0xff, b[13]! ^ 0xff, b[14]! ^ 0xff, b[15]! ^ 0xff), v4(b[4]!, b[5]!, b[6]!, b[7]!)];
  if (startsWith(ip.bytes, NAT64_LOCAL_48)) {
    // RFC 6052's layouts for a /48, /56, /64 and /96 prefix: the shorter ones skip byte 8 (the
    // "u" octet) and end in a zero suffix, so a layout whose suffix is not zero is not this one.
    const zeroFrom = (from: number) => b.slice(from).every((byte) => byte === 0) && b[8] === 0;
    const layouts: IpAddress[] = [];
    if (zeroFrom(11)) layouts.push(v4(b[6]!, b[7]!, b[9]!, b[10]!));
    if (zeroFrom(12)) layouts.push(v4(b[7]!, b[9]!, b[10]!, b[11]!));
    if (zeroFrom(13)) layouts.push(v4(b[9]!, b[10]!, b[11]!, b[12]!));
    // No translator sends to 0.0.0.0/8: a layout reading one there is not the network's (a /48
    // address read as a /96 is 0.0.0.0). An address with no other reading keeps it (and is refused).
    const readings = [...layouts, last()].filter((reading) => reading.bytes[0] !== 0);
    return readings.length > 0 ? readings : [last()];
  }
  return [];
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

/** Whether `ip` is in `cidr` (same family only: see matchesAnyBlock and insideBlocks for IPv4 inside IPv6). */
export function cidrContains(cidr: Cidr, ip: IpAddress): boolean {
  return cidr.family === ip.family && inBlock(ip.bytes, cidr);
}

/**
 * The first block that holds `ip` or any IPv4 address it may carry (a deny list: whichever
 * reading the network takes, a denied address is not reached).
 */
export function matchingBlock<T extends { cidr: Cidr }>(blocks: readonly T[], ip: IpAddress): T | undefined {
  const readings = [ip, ...embeddedIPv4s(ip)];
  return blocks.find((block) => readings.some((reading) => cidrContains(block.cidr, reading)));
}

/**
 * Whether `ip` is in one of the blocks, or carries IPv4 and every IPv4 address it may carry is
 * (an allow list: no reading may lead outside it).
 */
export function insideBlocks(blocks: ReadonlyArray<{ cidr: Cidr }>, ip: IpAddress): boolean {
  if (blocks.some((block) => cidrContains(block.cidr, ip))) return true;
  const readings = embeddedIPv4s(ip);
  return readings.length > 0 && readings.every((reading) => blocks.some((block) => cidrContains(block.cidr, reading)));
}
