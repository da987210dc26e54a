export function Guardrails(_p: { id?: string }) { return <p>todo</p>; }
