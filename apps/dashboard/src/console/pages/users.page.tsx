import { Alert, Anchor, Badge, Button, Group, NativeSelect, TextInput } from '@mantine/core';
import type { MerchantRoleName } from '@pay/contracts/dashboard';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../shared/format/format';
import { useApi } from '../../shared/session/session.context';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { DataTable, ListFooter } from '../../shared/ui/data-table';
import { PageTitle } from '../../shared/ui/page-title';
import { FormError } from '../../shared/ui/states';
import { useCursorList } from '../../shared/ui/use-async';
import { type ConsoleUser, consoleUsersApi } from '../console-users.api';
import { useMerchantNames } from '../use-merchant-names';

const MERCHANT_ROLES: MerchantRoleName[] = ['owner', 'developer', 'finance', 'viewer'];

/** Dashboard and console users; disabling one signs it out everywhere (the API refuses an operator's own user). */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const rawApi = useApi();
  const api = useMemo(() => consoleUsersApi(rawApi), [rawApi]);
  const list = useCursorList((cursor) => api.users(cursor), [api]);
  const merchantName = useMerchantNames();
  const [changing, setChanging] = useState<ConsoleUser | null>(null);
  const [linkFor, setLinkFor] = useState<ConsoleUser | null>(null);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const [unlockError, setUnlockError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const yesNo = (v: boolean) => (v ? t('common.yes') : t('common.no'));

  return (
    <>
      <PageTitle>{t('users.title')}</PageTitle>
      {done && (
        <Alert color="teal" role="status" mb="md">
          {done}
        </Alert>
      )}
      <DataTable
        label={t('users.tableLabel')}
        rows={list.items}
        rowKey={(u) => u.id}
        columns={[
          { header: t('users.email'), cell: (u) => u.email },
          { header: t('users.role'), cell: (u) => t(`users.roles.${u.role}`) },
          {
            header: t('users.merchantRole'),
            // A merchant user's role, changed at once (audited; the last owner cannot be demoted).
            cell: (u) =>
              u.merchantRole ? (
                <NativeSelect
                  size="xs"
                  aria-label={t('users.merchantRoleOf', { email: u.email })}
                  data={MERCHANT_ROLES.map((r) => ({ value: r, label: t(`users.merchantRoles.${r}`) }))}
                  value={u.merchantRole}
                  onChange={async (e) => {
                    setDone(null);
                    setUnlockError(null);
                    try {
                      const user = await api.setRole(u.id, e.currentTarget.value as MerchantRoleName);
                      setDone(
                        t('users.roleChanged', {
                          email: user.email,
                          role: t(`users.merchantRoles.${user.merchantRole ?? 'owner'}`),
                        }),
                      );
                    } catch (err) {
                      setUnlockError(err);
                    }
                    list.reload();
                  }}
                />
              ) : (
                '—'
              ),
          },
          {
            header: t('users.merchant'),
            cell: (u) =>
              u.merchantId ? (
                <Anchor component={Link} to={`/merchants/${encodeURIComponent(u.merchantId)}`}>
                  {merchantName(u.merchantId)}
                </Anchor>
              ) : (
                '—'
              ),
          },
          { header: t('users.totp'), cell: (u) => yesNo(u.totpEnabled) },
          {
            header: t('users.lockedUntil'),
            cell: (u) => (u.lockedUntil ? formatDateTime(u.lockedUntil, i18n.language) : '—'),
          },
          {
            header: t('users.disabled'),
            cell: (u) => (u.disabled ? <Badge color="red.9">{t('common.yes')}</Badge> : t('common.no')),
          },
          {
            header: t('common.actions'),
            cell: (u) => (
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="outline"
                  color={u.disabled ? undefined : 'red.9'}
                  onClick={() => setChanging(u)}
                >
                  {u.disabled ? t('users.enable') : t('users.disable')}
                </Button>
                {u.lockedUntil && (
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={async () => {
                      setDone(null);
                      setLink(null);
                      setUnlockError(null);
                      try {
                        const user = await api.unlock(u.id);
                        setDone(t('users.unlockedDone', { email: user.email }));
                        list.reload();
                      } catch (e) {
                        setUnlockError(e);
                      }
                    }}
                  >
                    {t('users.unlock')}
                  </Button>
                )}
                <Button size="xs" variant="default" onClick={() => setLinkFor(u)}>
                  {t('users.newLink')}
                </Button>
              </Group>
            ),
          },
        ]}
      />
      <ListFooter list={list} emptyText={t('users.empty')} />
      <FormError error={unlockError} />
      {link && (
        <Alert color="teal" role="status" mt="md">
          {t('users.linkDone', { email: link.email })}
          <TextInput
            mt="xs"
            readOnly
            aria-label={t('users.link')}
            value={link.url}
            onFocus={(e) => e.currentTarget.select()}
          />
        </Alert>
      )}
      <ConfirmDialog
        opened={linkFor !== null}
        title={t('users.newLinkTitle', { email: linkFor?.email ?? '' })}
        body={t('users.newLinkBody')}
        confirmLabel={t('users.newLink')}
        onClose={() => setLinkFor(null)}
        onConfirm={async () => {
          if (!linkFor) return;
          setDone(null);
          setLink({ email: linkFor.email, url: await api.newLink(linkFor.id) });
        }}
      />
      <ConfirmDialog
        opened={changing !== null}
        title={
          changing?.disabled
            ? t('users.enableTitle', { email: changing.email })
            : t('users.disableTitle', { email: changing?.email ?? '' })
        }
        body={changing?.disabled ? t('users.enableBody') : t('users.disableBody')}
        confirmLabel={changing?.disabled ? t('users.enable') : t('users.disable')}
        danger={!changing?.disabled}
        onClose={() => setChanging(null)}
        onConfirm={async () => {
          if (!changing) return;
          setDone(null);
          const user = await api.setDisabled(changing.id, !changing.disabled);
          setDone(t(user.disabled ? 'users.disabledDone' : 'users.enabledDone', { email: user.email }));
          list.reload();
        }}
      />
    </>
  );
}
