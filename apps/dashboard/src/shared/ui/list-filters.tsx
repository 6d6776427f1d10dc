import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface Filters {
  status: string;
  from: string;
  to: string;
  merchantTrxId: string;
}

export const NO_FILTERS: Filters = { status: '', from: '', to: '', merchantTrxId: '' };

/** Some filter is set: an empty list then means "nothing matches", not "nothing yet". */
export const isFiltered = (f: Filters): boolean => Boolean(f.status || f.from || f.to || f.merchantTrxId.trim());

/** Status, date range (Asia/Jakarta days) and merchant transaction ID search; applied on submit. */
export function ListFilters({
  statuses,
  searchLabel,
  initial = NO_FILTERS,
  onApply,
}: {
  statuses: string[];
  searchLabel: string;
  initial?: Filters;
  onApply(f: Filters): void;
}) {
  const { t } = useTranslation();
  const [f, setF] = useState<Filters>(initial);
  const set = (k: keyof Filters) => (e: { currentTarget: { value: string } }) =>
    setF({ ...f, [k]: e.currentTarget.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ ...f, merchantTrxId: f.merchantTrxId.trim() });
  };
  return (
    <form onSubmit={submit} role="search">
      <Group align="flex-end" gap="sm" mb="md">
        <NativeSelect
          label={t('common.status')}
          value={f.status}
          onChange={set('status')}
          data={[
            { value: '', label: t('common.all') },
            ...statuses.map((s) => ({ value: s, label: t(`status.${s}`, { defaultValue: s }) })),
          ]}
        />
        <TextInput label={t('common.from')} type="date" value={f.from} onChange={set('from')} />
        <TextInput label={t('common.to')} type="date" value={f.to} onChange={set('to')} />
        <TextInput
          label={searchLabel}
          type="search"
          value={f.merchantTrxId}
          onChange={set('merchantTrxId')}
          style={{ flexGrow: 1, minWidth: 220 }}
        />
        <Button type="submit" variant="outline">
          {t('common.apply')}
        </Button>
      </Group>
    </form>
  );
}
