export function RedteamList(_p: { id?: string }) { return <p>todo</p>; }
export function CampaignPage(_p: { id?: string }) { return <p>todo</p>; }
