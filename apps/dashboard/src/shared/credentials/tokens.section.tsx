import { Button, Checkbox, Code, Group, Stack, Table, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format/format';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { OnceSecret } from '../ui/secret';
import { Section } from '../ui/section';
import { EmptyText, FormError, fieldError } from '../ui/states';
import { StatusBadge } from '../ui/status-badge';
import { useAction } from '../ui/use-async';

/** An API token as both apps list it (never the token itself: only its first characters). */
export interface ApiToken {
  id: string;
  label: string;
  prefix: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** What the token may do (docs/access.md); absent where the list does not say */
  scopes?: string[];
}

/** What the section calls: the merchant dashboard's own API, or the console's for one merchant. */
export interface TokenActions {
  /** `scopes`: left out, every scope */
  createToken(label: string, scopes?: string[]): Promise<{ secret: string }>;
  revokeToken(id: string): Promise<unknown>;
}

/**
 * A merchant's API tokens: create one (shown once), list them, revoke one once confirmed. The
 * merchant dashboard's Developers page and the console's merchant page. With `availableScopes`,
 * the token's scopes are chosen (all ticked: every scope). Without `canManage` (a role without
 * tokens:manage) the list is shown, nothing to create or revoke.
 */
export function TokensSection({
  tokens,
  actions,
  onChanged,
  availableScopes = [],
  canManage = true,
}: {
  tokens: ApiToken[];
  actions: TokenActions;
  onChanged(): void;
  availableScopes?: string[];
  canManage?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const api = actions;
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [scopes, setScopes] = useState<string[]>(availableScopes);
  const create = useAction(api.createToken);
  const everyScope = (chosen: string[]) => availableScopes.every((s) => chosen.includes(s));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // Every scope ticked: the default (full access), sent as none chosen.
    const result = await create.run(label.trim(), everyScope(scopes) ? undefined : scopes);
    if (result) {
      setCreated(result.value.secret);
      setLabel('');
      setScopes(availableScopes);
      onChanged();
    }
  };
  const scopesOf = (tok: ApiToken) =>
    tok.scopes === undefined ? '' : everyScope(tok.scopes) ? t('developers.allScopes') : tok.scopes.join(', ');

  return (
    <Section title={t('developers.tokens')}>
      <Stack>
        {canManage && (
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <Group align="flex-end">
                <TextInput
                  label={t('developers.tokenLabel')}
                  required
                  maxLength={100}
                  value={label}
                  onChange={(e) => setLabel(e.currentTarget.value)}
                  error={fieldError(create.error, 'label')}
                />
                <Button
                  type="submit"
                  loading={create.busy}
                  disabled={availableScopes.length > 0 && scopes.length === 0}
                >
                  {t('developers.createToken')}
                </Button>
              </Group>
              {availableScopes.length > 0 && (
                <Checkbox.Group
                  label={t('developers.scopes')}
                  description={t('developers.scopesHelp')}
                  value={scopes}
                  onChange={setScopes}
                  error={fieldError(create.error, 'scopes')}
                >
                  <Group mt="xs" gap="md">
                    {availableScopes.map((s) => (
                      <Checkbox key={s} value={s} label={s} />
                    ))}
                  </Group>
                </Checkbox.Group>
              )}
            </Stack>
          </form>
        )}
        <FormError error={create.error} fields={['label', 'scopes']} />
        {created && <OnceSecret label={t('developers.newToken')} value={created} testId="new-token" />}
        <Table.ScrollContainer minWidth={560}>
          <Table striped aria-label={t('developers.tokensLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('developers.label')}</Table.Th>
                <Table.Th scope="col">{t('developers.created')}</Table.Th>
                <Table.Th scope="col">{t('developers.lastUsed')}</Table.Th>
                <Table.Th scope="col">{t('developers.scopes')}</Table.Th>
                <Table.Th scope="col">{t('common.status')}</Table.Th>
                <Table.Th scope="col">{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.map((tok) => (
                <Table.Tr key={tok.id}>
                  <Table.Td>
                    {tok.label || tok.id} {tok.prefix && <Code>{tok.prefix}…</Code>}
                  </Table.Td>
                  <Table.Td>{formatDateTime(tok.createdAt, i18n.language)}</Table.Td>
                  <Table.Td>{formatDateTime(tok.lastUsedAt, i18n.language)}</Table.Td>
                  <Table.Td data-testid="token-scopes">{scopesOf(tok)}</Table.Td>
                  <Table.Td>
                    {tok.revokedAt ? (
                      `${t('developers.revoked')} ${formatDateTime(tok.revokedAt, i18n.language)}`
                    ) : (
                      <StatusBadge status="active" />
                    )}
                  </Table.Td>
                  <Table.Td>
                    {canManage && !tok.revokedAt && (
                      <Button size="xs" variant="outline" color="red.9" onClick={() => setRevoking(tok)}>
                        {t('developers.revoke')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {tokens.length === 0 && <EmptyText>{t('developers.noTokens')}</EmptyText>}
      </Stack>
      <ConfirmDialog
        opened={revoking !== null}
        title={t('developers.revokeTitle')}
        body={t('developers.revokeBody', { label: revoking?.label ?? '' })}
        confirmLabel={t('developers.revokeToken')}
        danger
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (revoking) await api.revokeToken(revoking.id);
          onChanged();
        }}
      />
    </Section>
  );
}
