/** JSON is stored as text on both engines (docs/decisions.md, "Storage"). */
export const fromJsonColumn = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

export const toJsonColumn = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
