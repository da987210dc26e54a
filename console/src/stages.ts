/** The trust lifecycle, in order (TrustLifecycleStage of the reference). */
export const STAGES = ['registered', 'tested', 'hardened', 'trusted', 'optimized', 'adapted'] as const;
export const AGENT_STATUSES = ['draft', 'creating', 'active', 'under_review', 'deprecated', 'archived', 'pending', 'rejected'] as const;

export function nextStage(stage: string): string | null {
  const index = STAGES.indexOf(stage as (typeof STAGES)[number]);
  return index >= 0 && index < STAGES.length - 1 ? (STAGES[index + 1] as string) : null;
}
