import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

// Dark shades only: white text on them meets WCAG AA contrast.
const COLORS: Record<string, string> = {
  success: 'teal.9',
  delivered: 'teal.9',
  ready: 'teal.9',
  active: 'teal.9',
  settled: 'teal.9',
  completed: 'teal.9',
  failed: 'red.9',
  dead: 'red.9',
  error: 'red.9',
  // A success the bank returned: the money is back, neither a success nor a failure
  reversed: 'orange.9',
  // Adjustments: decided, and what the ledger made of an approved one
  approved: 'teal.9',
  applied: 'teal.9',
  rejected: 'red.9',
  requested: 'blue.9',
  pending: 'blue.9',
  // Held for a second person's approval: the money held, nothing sent
  awaiting_approval: 'yellow.9',
  processing: 'blue.9',
  running: 'blue.9',
  queued: 'blue.9',
};

export function StatusBadge({ status, testId }: { status: string; testId?: string }) {
  const { t, i18n } = useTranslation();
  // The contract's badge text is the API status itself (English); Indonesian readers get the translation.
  const text = testId && i18n.language === 'en' ? status : t(`status.${status}`, { defaultValue: status });
  return (
    <Badge
      variant="filled"
      color={COLORS[status] ?? 'gray.8'}
      data-testid={testId}
      data-status={status}
      styles={{ root: { flexShrink: 0, maxWidth: 'none' }, label: { overflow: 'visible' } }}
    >
      {text}
    </Badge>
  );
}
