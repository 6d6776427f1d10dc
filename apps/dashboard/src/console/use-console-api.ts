import { useMemo } from 'react';
import { useApi } from '../shared/session/session.context';
import { consoleApi, type ConsoleApi } from './console.api';

export function useConsoleApi(): ConsoleApi {
  const api = useApi();
  return useMemo(() => consoleApi(api), [api]);
}
