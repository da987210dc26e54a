export function PersonasPage(_p: { id?: string }) { return <p>todo</p>; }
