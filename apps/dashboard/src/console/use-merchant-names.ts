import { useCallback, useMemo } from 'react';
import { useAsync } from '../shared/ui/use-async';
import { useConsoleApi } from './use-console-api';

/**
 * How the console's lists name a merchant: its name, with its id after it (`Toko Maju (#7)`), read
 * from the merchant list once per page; the id alone while the names load or for one not listed.
 */
export function useMerchantNames(): (id: string | number | null | undefined) => string {
  const api = useConsoleApi();
  const { data } = useAsync(() => api.merchants(null), [api]);
  const names = useMemo(() => new Map((data?.items ?? []).map((m) => [m.id, m.name])), [data]);
  return useCallback(
    (id) => {
      if (id === null || id === undefined || id === '') return '—';
      const name = names.get(String(id));
      return name ? `${name} (#${id})` : `#${id}`;
    },
    [names],
  );
}
