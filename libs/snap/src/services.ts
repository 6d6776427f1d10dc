import type { SnapAmount } from './amount';

/** The services this platform uses, by SNAP service code, with their paths after the provider's prefix (§4). */
export const SERVICES = {
  balanceInquiry: { code: '11', path: '/v1.0/balance-inquiry' },
  bankStatement: { code: '14', path: '/v1.0/bank-statement' },
  accountInquiryInternal: { code: '15', path: '/v1.0/account-inquiry-internal' },
  accountInquiryExternal: { code: '16', path: '/v1.0/account-inquiry-external' },
  transferIntrabank: { code: '17', path: '/v1.0/transfer-intrabank' },
  transferInterbank: { code: '18', path: '/v1.0/transfer-interbank' },
  transferStatus: { code: '36', path: '/v1.0/transfer/status' },
  qrMpmGenerate: { code: '47', path: '/v1.0/qr/qr-mpm-generate' },
  qrMpmQuery: { code: '51', path: '/v1.0/qr/qr-mpm-query' },
  qrMpmNotify: { code: '52', path: '/v1.0/qr/qr-mpm-notify' },
  qrMpmRefund: { code: '78', path: '/v1.0/qr/qr-mpm-refund' },
  accessToken: { code: '73', path: '/v1.0/access-token/b2b' },
  /** Not an ASPI service (SNAP defines no settlement report): the simulator acquirer's, in SNAP's envelope; a real acquirer's differs */
  qrMpmSettlementReport: { code: '90', path: '/v1.0/qr/qr-mpm-settlement-report' },
} as const;
export type ServiceName = keyof typeof SERVICES;

type Info = Record<string, unknown>;

/** 15 (no bank code: an account at the provider) and 16. */
export interface AccountInquiryRequest {
  beneficiaryBankCode?: string;
  beneficiaryAccountNo: string;
  partnerReferenceNo?: string;
  additionalInfo?: Info;
}

/** 17 (intrabank: no beneficiary name or bank) and 18 (interbank). */
export interface TransferRequestBody {
  partnerReferenceNo: string;
  amount: SnapAmount;
  beneficiaryAccountName?: string;
  beneficiaryAccountNo: string;
  beneficiaryBankCode?: string;
  sourceAccountNo: string;
  transactionDate: string;
  customerReference?: string;
  remark?: string;
  feeType?: 'OUR' | 'BEN' | 'SHA';
  additionalInfo?: Info;
}

/** 36: send every identifier known (providers differ in which they require, §7). */
export interface TransferStatusRequest {
  originalPartnerReferenceNo: string;
  originalReferenceNo?: string;
  originalExternalId?: string;
  serviceCode: string;
  transactionDate?: string;
  amount?: SnapAmount;
  additionalInfo?: Info;
}

export interface BalanceInquiryRequest {
  partnerReferenceNo?: string;
  accountNo: string;
  balanceTypes?: string[];
  additionalInfo?: Info;
}

export interface QrGenerateRequest {
  partnerReferenceNo: string;
  amount: SnapAmount;
  merchantId: string;
  subMerchantId?: string;
  storeId?: string;
  terminalId?: string;
  validityPeriod?: string;
  additionalInfo?: Info;
}

export interface QrQueryRequest {
  originalPartnerReferenceNo: string;
  originalReferenceNo?: string;
  originalExternalId?: string;
  serviceCode: '47';
  merchantId?: string;
  additionalInfo?: Info;
}

export interface QrRefundRequest {
  originalPartnerReferenceNo: string;
  originalReferenceNo?: string;
  originalExternalId?: string;
  partnerRefundNo: string;
  refundAmount: SnapAmount;
  merchantId?: string;
  reason?: string;
  additionalInfo?: Info;
}
