import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export interface Me {
  id: string;
  email: string;
  is_super_admin?: boolean;
  password_change_required?: boolean;
}

export interface AppState {
  me: Me;
  /** The team the console works in (chosen in the top bar). */
  team: string | null;
  teams: { team_id: string; team_name: string; role: string }[];
  reloadMe: () => Promise<void>;
}

export const AppContext = createContext<AppState>(null as unknown as AppState);
export const useApp = () => useContext(AppContext);
