export function TelemetryPage(_p: { id?: string }) { return <p>todo</p>; }
