export function EvaluationList(_p: { id?: string }) { return <p>todo</p>; }
export function EvaluationPage(_p: { id?: string }) { return <p>todo</p>; }
