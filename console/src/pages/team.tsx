export function TeamPage(_p: { id?: string }) { return <p>todo</p>; }
