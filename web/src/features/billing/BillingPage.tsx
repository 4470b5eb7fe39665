import type { ApiTier, CurrentTier } from '@skald/contracts/api';
import { Alert, Button, Col, Empty, Row, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorText, messageText, statusOf } from '../../app/errors.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useToast } from '../../app/toast.tsx';
import { useMeQuery } from '../auth/authApi.ts';
import { serversApi } from '../servers/serversApi.ts';
import { PageTitle } from '../shell/PageTitle.tsx';
import {
  billingApi,
  CURRENT_TIER_POLL_MS,
  isSubscriptionActive,
  PAYMENTS_NOT_CONFIGURED,
  paymentRedirect,
  planAction,
  useCreateCheckoutSessionMutation,
  useCreatePortalSessionMutation,
  useCurrentTierQuery,
  useTiersQuery,
} from './billingApi.ts';

// docs/spec/part-2.txt section 8, as written.
export const BILLING_TEXT = {
  noServer: 'Please select a server to view subscription details.',
  plansFailed: 'Failed to load subscription plans.',
  currentFailed: 'Failed to load current tier.',
  portalFailed: 'Failed to open subscription management.',
  checkoutFailed: 'Failed to start payment process.',
  success: 'Payment succesful! Your subscription has been upgraded.',
  canceled: 'Payment cancelled. No charges were made.',
  cancelling: 'Your subscription is cancelled: the server keeps its plan until the end of the billing period, then reverts to the free plan.',
  ownerOnly: 'Only the server owner can change the subscription.',
} as const;

/** Only an http(s) address is followed: the answer decides where the browser goes. */
function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

type ReturnBanner = 'success' | 'canceled' | null;

/** The payment provider sends the user back with ?success=true or ?canceled=true (docs/spec/part-2.txt section 2). */
function bannerFrom(params: URLSearchParams): ReturnBanner {
  if (params.get('success') === 'true') return 'success';
  if (params.get('canceled') === 'true') return 'canceled';
  return null;
}

const PRICE = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });
const COUNT = new Intl.NumberFormat('en-US');

function priceText(price: number): string {
  return `${PRICE.format(price)} / month`;
}

/** '1 webhook', '3 webhooks': the phrase after the number, singular or plural. */
function counted(n: number, one: string, many: string): string {
  return `${COUNT.format(n)} ${n === 1 ? one : many}`;
}

function limitLines(tier: ApiTier): string[] {
  return [
    counted(tier.limit, 'log per hour', 'logs per hour'),
    counted(tier.retentionDays, 'day retention', 'days retention'),
    counted(tier.maxPhotoLogs, 'photo log', 'photo logs'),
    counted(tier.maxServerUsers, 'server user', 'server users'),
    counted(tier.maxExportsPerMonth, 'export per month', 'exports per month'),
    counted(tier.maxWebhooks, 'webhook', 'webhooks'),
    counted(tier.maxBackups, 'database backup', 'database backups'),
    // Beyond the spec's seven limits: the tiers also bound alert rules and evidence cases, and a plan card
    // is where an owner compares what an upgrade brings (docs/TIERS.md).
    counted(tier.maxAlertRules, 'alert rule', 'alert rules'),
    counted(tier.maxCases, 'evidence case', 'evidence cases'),
  ];
}

interface PlanCardProps {
  tier: ApiTier;
  action: ReturnType<typeof planAction>;
  canUpgrade: boolean;
  busy: boolean;
  pending: boolean;
  onUpgrade(): void;
}

function PlanCard({ tier, action, canUpgrade, busy, pending, onUpgrade }: PlanCardProps) {
  const current = action === 'current';
  const headingId = `plan-${tier.key}`;
  return (
    <article className={current ? 'plan-card plan-current' : 'plan-card'} data-testid="plan-card" data-tier={tier.key} aria-labelledby={headingId} aria-current={current ? 'true' : undefined}>
      <h2 id={headingId} className="plan-title">
        {tier.label}
      </h2>
      <p className="plan-price">{priceText(tier.price)}</p>
      <ul className="plan-limits">
        {limitLines(tier).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <div className="plan-action">
        {current && <span className="plan-current-label">Current Plan</span>}
        {action === 'upgrade' && canUpgrade && (
          <Button type="primary" onClick={onUpgrade} loading={pending} disabled={busy && !pending} aria-label={`Upgrade to ${tier.label}`}>
            Upgrade
          </Button>
        )}
      </div>
    </article>
  );
}

function CurrentSummary({ current, label }: { current: CurrentTier; label: string | undefined }) {
  return (
    <Typography.Paragraph className="count-line" data-testid="current-summary">
      Current plan: {label ?? current.tierKey}
      {current.subscriptionStatus !== null && ` · Subscription status: ${current.subscriptionStatus}`}
    </Typography.Paragraph>
  );
}

export default function BillingPage() {
  const { serverId, serverName } = useAppSelector((s) => s.session);
  const dispatch = useAppDispatch();
  const toast = useToast();
  const [searchParams, setSearchParams] = useSearchParams();
  // Read once on arrival; the address loses the parameters right after (docs/spec/part-2.txt section 2).
  const [banner, setBanner] = useState<ReturnBanner>(() => bannerFrom(searchParams));
  const [paymentsOff, setPaymentsOff] = useState(false);
  const [pendingTier, setPendingTier] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  const { data: me } = useMeQuery(undefined);
  const tiers = useTiersQuery(undefined, { skip: !serverId });
  const current = useCurrentTierQuery(serverId ?? '', { skip: !serverId, pollingInterval: CURRENT_TIER_POLL_MS, skipPollingIfUnfocused: true });
  const [createCheckout, checkout] = useCreateCheckoutSessionMutation();
  const [createPortal, portal] = useCreatePortalSessionMutation();

  const hasReturnParams = searchParams.has('success') || searchParams.has('canceled');
  useEffect(() => {
    if (!hasReturnParams) return;
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('success');
        next.delete('canceled');
        return next;
      },
      { replace: true },
    );
  }, [hasReturnParams, setSearchParams]);

  // A successful payment refreshes the current tier (and the sidebar's usage, whose limits follow it).
  useEffect(() => {
    if (banner !== 'success' || !serverId) return;
    dispatch(billingApi.util.invalidateTags([{ type: 'CurrentTier', id: serverId }]));
    dispatch(serversApi.util.invalidateTags([{ type: 'Usage', id: serverId }]));
  }, [banner, serverId, dispatch]);

  /** A 503 with the not-configured text is shown on the page (the plans stay); anything else is a toast. */
  const failed = (err: unknown, fallback: string) => {
    const notConfigured = statusOf(err) === 503 && (errorText(err, '') === PAYMENTS_NOT_CONFIGURED || messageText(err, '') === PAYMENTS_NOT_CONFIGURED);
    if (notConfigured) setPaymentsOff(true);
    else toast.error(fallback);
  };

  /** Leaves for the provider's page; the actions stay disabled while the browser goes. */
  const leaveFor = (url: string, fallback: string) => {
    if (!isWebUrl(url)) {
      toast.error(fallback);
      return;
    }
    setLeaving(true);
    paymentRedirect.to(url);
  };

  const upgrade = async (tier: string) => {
    if (!serverId) return;
    setPendingTier(tier);
    try {
      const { url } = await createCheckout({ serverId, tier }).unwrap();
      leaveFor(url, BILLING_TEXT.checkoutFailed);
    } catch (err) {
      failed(err, BILLING_TEXT.checkoutFailed);
    } finally {
      setPendingTier(null);
    }
  };

  const manage = async () => {
    if (!serverId) return;
    try {
      const { url } = await createPortal({ serverId }).unwrap();
      leaveFor(url, BILLING_TEXT.portalFailed);
    } catch (err) {
      failed(err, BILLING_TEXT.portalFailed);
    }
  };

  const banners = (
    <>
      {banner === 'success' && <Alert type="success" title={BILLING_TEXT.success} showIcon closable={{ 'aria-label': 'Close', onClose: () => setBanner(null) }} role="status" />}
      {banner === 'canceled' && <Alert type="error" title={BILLING_TEXT.canceled} showIcon closable={{ 'aria-label': 'Close', onClose: () => setBanner(null) }} role="status" />}
    </>
  );

  if (!serverId) {
    return (
      <div className="page">
        <PageTitle>Subscription Plans</PageTitle>
        {banners}
        <Empty description={BILLING_TEXT.noServer} />
      </div>
    );
  }

  const isOwner = me?.servers.find((s) => s.id === serverId)?.role === 'owner';
  const currentTier = current.data;
  const active = currentTier ? isSubscriptionActive(currentTier) : false;
  const busy = leaving || checkout.isLoading || portal.isLoading;
  const list = tiers.data ?? [];

  return (
    <div className="page">
      <PageTitle>Subscription Plans – {serverName}</PageTitle>
      {banners}
      {paymentsOff && <Alert type="warning" title={PAYMENTS_NOT_CONFIGURED} showIcon role="alert" data-testid="payments-off" />}
      {current.isError && <Alert type="error" title={BILLING_TEXT.currentFailed} showIcon />}
      {currentTier?.is_cancelling && <Alert type="warning" title={BILLING_TEXT.cancelling} showIcon data-testid="cancelling-notice" />}
      {currentTier && (
        <div className="plan-toolbar">
          <CurrentSummary current={currentTier} label={list.find((t) => t.key === currentTier.tierKey)?.label} />
          {isOwner && currentTier.stripeSubscriptionId !== null && (
            <Button onClick={() => void manage()} loading={portal.isLoading} disabled={busy && !portal.isLoading}>
              Manage Subscription
            </Button>
          )}
        </div>
      )}
      {me && !isOwner && <Typography.Paragraph type="secondary">{BILLING_TEXT.ownerOnly}</Typography.Paragraph>}
      {tiers.isError ? (
        <Alert type="error" title={BILLING_TEXT.plansFailed} showIcon />
      ) : !tiers.data ? (
        <Space>
          <Spin /> <span>Loading subscription plans...</span>
        </Space>
      ) : (
        <Row gutter={[16, 16]} role="list" aria-label="Subscription plans">
          {list.map((tier) => (
            <Col xs={24} sm={12} xl={6} key={tier.key} role="listitem">
              <PlanCard
                tier={tier}
                action={planAction(list, tier.key, currentTier)}
                canUpgrade={isOwner && !active}
                busy={busy}
                pending={pendingTier === tier.key}
                onUpgrade={() => void upgrade(tier.key)}
              />
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
