import { newSpanId, newTraceId } from './ids.js';
import type { Telemetry, TelemetryLabels } from './types.js';

export interface GuardScanRecord {
  direction: 'input' | 'output';
  flagged: boolean;
  /** The highest detection score (0..1) and the methods that hit. */
  score: number;
  triggered: readonly string[];
  startNs: bigint;
  seconds: number;
  teamId: string;
  labels: TelemetryLabels;
  /** The trace the scan belongs to (a gateway call's); absent: a trace of its own. */
  traceId?: string | undefined;
  parentSpanId?: string | undefined;
  serviceName?: string | undefined;
}

/**
 * One guard scan in telemetry (issue 29): `dome_{input|output}_requests_total`,
 * `dome_{input|output}_flagged_total` when it flagged, `dome_{input|output}_latency_seconds`,
 * and Dome's `dome-detection` span with `detection.label` and `detection.score`. The scan
 * operation records through it; a gateway's guards can too.
 */
export function recordGuardScan(telemetry: Telemetry, scan: GuardScanRecord): void {
  const { direction, teamId, labels } = scan;
  telemetry.count(`dome_${direction}_requests_total`, labels, teamId);
  if (scan.flagged) telemetry.count(`dome_${direction}_flagged_total`, labels, teamId);
  telemetry.observe(`dome_${direction}_latency_seconds`, scan.seconds, labels, teamId);
  telemetry.span({
    traceId: scan.traceId ?? newTraceId(),
    spanId: newSpanId(),
    parentSpanId: scan.parentSpanId,
    name: 'dome-detection',
    kind: 'internal',
    startNs: scan.startNs,
    endNs: scan.startNs + BigInt(Math.round(scan.seconds * 1e9)),
    status: 'ok',
    serviceName: scan.serviceName ?? 'warden',
    attributes: {
      'dome.direction': direction,
      'detection.label': scan.flagged ? (scan.triggered[0] ?? 'flagged') : 'clean',
      'detection.score': scan.score,
      'detection.flagged': scan.flagged,
      ...labels,
    },
    teamId,
  });
}
