export { fromSnapAmount, type SnapAmount, toSnapAmount } from './amount';
export {
  classify,
  type CodeClass,
  FINAL_FAILURES,
  type FinalFailure,
  parseResponseCode,
  RESPONSE_CASES,
  type ResponseCode,
  transactionState,
  type TransactionState,
} from './response-codes';
export {
  type AccountInquiryRequest,
  type BalanceInquiryRequest,
  type QrGenerateRequest,
  type QrQueryRequest,
  type QrRefundRequest,
  SERVICES,
  type ServiceName,
  type TransferRequestBody,
  type TransferStatusRequest,
} from './services';
export {
  asymmetricSignature,
  asymmetricStringToSign,
  bodyDigest,
  minifyJson,
  type RequestToSign,
  symmetricSignature,
  symmetricStringToSign,
  tokenSignature,
  verifyAsymmetricSignature,
  verifySymmetricSignature,
} from './signatures';
export {
  type SnapAttempt,
  type SnapCallRecord,
  SnapClient,
  type SnapClientOptions,
  type SnapResult,
} from './snap-client';
export { ExternalIds, parseSnapTimestamp, snapTimestamp } from './timestamps';
