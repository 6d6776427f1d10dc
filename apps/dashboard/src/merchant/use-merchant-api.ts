import { useMemo } from 'react';
import { useApi } from '../shared/session/session.context';
import { merchantApi, type MerchantApi } from './merchant.api';

export function useMerchantApi(): MerchantApi {
  const api = useApi();
  return useMemo(() => merchantApi(api), [api]);
}
