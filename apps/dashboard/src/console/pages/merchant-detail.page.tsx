import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { MerchantRoleName } from '@pay/contracts/dashboard';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatRupiah } from '../../shared/format/format';
import { PageTitle } from '../../shared/ui/page-title';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { OnceSecret } from '../../shared/ui/secret';
import { Section } from '../../shared/ui/section';
import { ErrorState, FormError, LoadingState, Saved, fieldError } from '../../shared/ui/states';
import { StatusBadge } from '../../shared/ui/status-badge';
import { useAction, useAsync } from '../../shared/ui/use-async';
import { parseSchedule, type Merchant } from '../console.api';
import { useConsoleApi } from '../use-console-api';
import { SettingsForm } from './settings-form';
import { MerchantIntegration } from './merchant-integration';
import { ReversePayoutSection } from './reverse-payout.section';

type Num = number | string;

type FeeField = 'payinFeePercent' | 'payinFeeFixed' | 'payoutFee';
const FEE_FIELDS: FeeField[] = ['payinFeePercent', 'payinFeeFixed', 'payoutFee'];

/** A field's value as typed: a number, or null when it is empty or not a number (never 0 for an empty field). */
const typedNumber = (v: Num): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const text = v.trim();
  if (text === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
};

/**
 * The merchant's fees. An empty or invalid field is an error next to it and nothing is sent (an
 * emptied field is not 0 %: a merchant with free pay-ins); a change is shown old -> new and saved
 * only once confirmed.
 */
function FeesForm({ merchant, onSaved }: { merchant: Merchant; onSaved(): void }) {
  const { t } = useTranslation();
  const api = useConsoleApi();
  const [values, setValues] = useState<Record<FeeField, Num>>({
    payinFeePercent: merchant.payinFeePercent ?? '',
    payinFeeFixed: merchant.payinFeeFixed ?? '',
    payoutFee: merchant.payoutFee ?? '',
  });
  const [missing, setMissing] = useState<FeeField[]>([]);
  const [changes, setChanges] = useState<{ field: FeeField; from: number | null; to: number }[] | null>(null);
  const [saved, setSaved] = useState(false);
  const [unchanged, setUnchanged] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const set = (field: FeeField) => (v: Num) => setValues({ ...values, [field]: v });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    setUnchanged(false);
    setError(null);
    const typed = FEE_FIELDS.map((field) => ({ field, to: typedNumber(values[field]) }));
    const invalid = typed.filter((f) => f.to === null).map((f) => f.field);
    setMissing(invalid);
    if (invalid.length) return;
    const diff = typed
      .map(({ field, to }) => ({ field, from: merchant[field], to: to as number }))
      .filter((c) => c.from !== c.to);
    if (diff.length === 0) setUnchanged(true);
    else setChanges(diff);
  };
  const show = (field: FeeField, v: number | null) =>
    v === null ? '-' : field === 'payinFeePercent' ? `${v} %` : formatRupiah(v);
  return (
    <Section title={t('merchants.fees')}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <NumberInput
            label={t('merchants.payinFeePercent')}
            min={0}
            max={100}
            decimalScale={3}
            value={values.payinFeePercent}
            onChange={set('payinFeePercent')}
            error={missing.includes('payinFeePercent') ? t('errors.required') : fieldError(error, 'payinFeePercent')}
          />
          <NumberInput
            label={t('merchants.payinFeeFixed')}
            min={0}
            allowDecimal={false}
            value={values.payinFeeFixed}
            onChange={set('payinFeeFixed')}
            error={missing.includes('payinFeeFixed') ? t('errors.required') : fieldError(error, 'payinFeeFixed')}
          />
          <NumberInput
            label={t('merchants.payoutFee')}
            min={0}
            allowDecimal={false}
            value={values.payoutFee}
            onChange={set('payoutFee')}
            error={missing.includes('payoutFee') ? t('errors.required') : fieldError(error, 'payoutFee')}
          />
          <Group>
            <Button type="submit">{t('merchants.saveFees')}</Button>
          </Group>
          <FormError error={error} fields={FEE_FIELDS} />
          {unchanged && (
            <Alert color="gray" role="status" py="xs">
              {t('merchants.feesUnchanged')}
            </Alert>
          )}
          <Saved show={saved} />
        </Stack>
      </form>
      <ConfirmDialog
        opened={changes !== null}
        title={t('merchants.feesConfirmTitle', { name: merchant.name })}
        body={
          <Stack gap={4}>
            {(changes ?? []).map((c) => (
              <Text key={c.field}>
                {t(`merchants.${c.field}`)}: {show(c.field, c.from)} → {show(c.field, c.to)}
              </Text>
            ))}
          </Stack>
        }
        confirmLabel={t('merchants.feesConfirm')}
        onClose={() => setChanges(null)}
        onConfirm={async () => {
          try {
            await api.saveFees(merchant.id, {
              payinFeePercent: typedNumber(values.payinFeePercent) as number,
              payinFeeFixed: typedNumber(values.payinFeeFixed) as number,
              payoutFee: typedNumber(values.payoutFee) as number,
            });
          } catch (e) {
            // The server's refusal goes next to its field, as a refusal of any other form.
            setError(e);
            return;
          }
          setSaved(true);
          onSaved();
        }}
      />
    </Section>
  );
}

function MerchantSettings({ merchant, onSaved }: { merchant: Merchant; onSaved(): void }) {
  const { t } = useTranslation();
  const api = useConsoleApi();
  const id = merchant.id;
  const [qris, setQris] = useState({
    nmid: merchant.qris.nmid,
    mcc: merchant.qris.mcc,
    merchantCriteria: merchant.qris.criteria,
    city: merchant.qris.city,
    postalCode: merchant.qris.postalCode,
  });
  const parsed = parseSchedule(merchant.settlement);
  const [delayDays, setDelayDays] = useState<Num>(merchant.delayDays ?? parsed.delayDays ?? '');
  const [hour, setHour] = useState<Num>(merchant.hour ?? parsed.hour ?? '');
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<MerchantRoleName>('owner');
  const [link, setLink] = useState<string | null>(null);
  const invite = useAction(api.inviteUser);
  const q = (k: keyof typeof qris) => (e: { currentTarget: { value: string } }) =>
    setQris({ ...qris, [k]: e.currentTarget.value });

  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <FeesForm merchant={merchant} onSaved={onSaved} />
      <SettingsForm
        title={t('merchants.qris')}
        submitLabel={t('merchants.saveQris')}
        fields={Object.keys(qris)}
        onSubmit={() => api.saveQris(id, qris).then(onSaved)}
      >
        {(error) => (
          <>
            <TextInput
              label={t('merchants.nmid')}
              maxLength={20}
              value={qris.nmid}
              onChange={q('nmid')}
              error={fieldError(error, 'nmid')}
            />
            <TextInput
              label={t('merchants.mcc')}
              maxLength={4}
              value={qris.mcc}
              onChange={q('mcc')}
              error={fieldError(error, 'mcc')}
            />
            <TextInput
              label={t('merchants.criteria')}
              maxLength={3}
              value={qris.merchantCriteria}
              onChange={q('merchantCriteria')}
              error={fieldError(error, 'merchantCriteria')}
            />
            <TextInput
              label={t('merchants.city')}
              maxLength={100}
              value={qris.city}
              onChange={q('city')}
              error={fieldError(error, 'city')}
            />
            <TextInput
              label={t('merchants.postalCode')}
              maxLength={5}
              value={qris.postalCode}
              onChange={q('postalCode')}
              error={fieldError(error, 'postalCode')}
            />
          </>
        )}
      </SettingsForm>
      <SettingsForm
        title={t('merchants.schedule')}
        submitLabel={t('merchants.saveSchedule')}
        fields={['delayDays', 'hour']}
        onSubmit={() =>
          api
            .saveSchedule(id, {
              // Empty is sent as null, which the ops API refuses next to the field (never 0: T+0).
              delayDays: typedNumber(delayDays) as number,
              hour: typedNumber(hour) as number,
            })
            .then(onSaved)
        }
      >
        {(error) => (
          <>
            {merchant.settlement && <Text>{t('merchants.scheduleNow', { value: merchant.settlement })}</Text>}
            <NumberInput
              label={t('merchants.scheduleDelayDays')}
              min={0}
              max={30}
              allowDecimal={false}
              value={delayDays}
              onChange={setDelayDays}
              error={fieldError(error, 'delayDays')}
            />
            <NumberInput
              label={t('merchants.scheduleHour')}
              min={0}
              max={23}
              allowDecimal={false}
              value={hour}
              onChange={setHour}
              error={fieldError(error, 'hour')}
            />
          </>
        )}
      </SettingsForm>
      <Section title={t('merchants.inviteUser')}>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            setLink(null);
            const r = await invite.run(id, email.trim(), inviteRole);
            if (r) {
              setLink(r.value);
              setEmail('');
            }
          }}
          noValidate
        >
          <Stack>
            <TextInput
              label={t('merchants.inviteEmail')}
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fieldError(invite.error, 'email')}
            />
            <NativeSelect
              label={t('merchants.inviteRole')}
              data={['owner', 'developer', 'finance', 'viewer'].map((r) => ({
                value: r,
                label: t(`users.merchantRoles.${r}`),
              }))}
              value={inviteRole}
              onChange={(e) => setInviteRole(e.currentTarget.value as MerchantRoleName)}
            />
            <Group>
              <Button type="submit" loading={invite.busy}>
                {t('merchants.invite')}
              </Button>
            </Group>
            <FormError error={invite.error} fields={['email']} />
            {link && (
              <>
                <OnceSecret label={t('merchants.inviteLink')} value={link} testId="set-password-link" />
                <Text size="sm">{t('merchants.inviteLinkHint')}</Text>
              </>
            )}
          </Stack>
        </form>
      </Section>
    </SimpleGrid>
  );
}

export default function MerchantDetailPage() {
  const { t } = useTranslation();
  const { merchantId = '' } = useParams();
  const api = useConsoleApi();
  const { data: m, error, loading, reload } = useAsync(() => api.merchant(merchantId), [api, merchantId]);

  return (
    <Stack>
      <Anchor component={Link} to="/merchants">
        {t('common.backToList')}
      </Anchor>
      <PageTitle>{t('merchants.detailTitle', { name: m?.name ?? merchantId })}</PageTitle>
      {loading && !m && <LoadingState />}
      {error !== null && <ErrorState error={error} onRetry={reload} />}
      {m && (
        <>
          <Group>
            <StatusBadge status={m.active ? 'active' : 'inactive'} />
            <Text>
              {t('merchants.balance')}: {formatRupiah(m.available)}
            </Text>
            <Text>
              {t('merchants.pending')}: {formatRupiah(m.pending)}
            </Text>
            {m.callbackUrl && (
              <Text style={{ wordBreak: 'break-all' }}>
                {t('merchants.callbackUrl')}: {m.callbackUrl}
              </Text>
            )}
          </Group>
          <MerchantSettings key={m.id} merchant={m} onSaved={reload} />
          <Title order={2} size="h3" mt="md">
            {t('merchants.integration')}
          </Title>
          <MerchantIntegration key={`integration-${m.id}`} merchant={m} onChanged={reload} />
          <ReversePayoutSection key={`reversal-${m.id}`} onReversed={reload} />
        </>
      )}
    </Stack>
  );
}
