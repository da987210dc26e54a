export function PolicyList(_p: { id?: string }) { return <p>todo</p>; }
export function PolicyPage(_p: { id?: string }) { return <p>todo</p>; }
