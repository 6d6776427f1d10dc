export { ConfigError, loadConfig, commonEnv, serviceEnv, port, bool, positiveInt } from './config/config';
export { createLogger, newLogId, runWithLogId, currentLogId, type Logger } from './logging/logger';
export { ApiError } from './errors/api-error';
export { EnvelopeExceptionFilter } from './errors/envelope.filter';
export { logIdMiddleware, requestLogger, requestLogId } from './http/log-id.middleware';
export { type ReadinessCheck, type ReadinessReport, runReadiness, createMetricsRegistry, startOpsServer } from './health/readiness';
export { runService } from './bootstrap/run-service';
export { Reply, SuccessEnvelopeInterceptor } from './http/success-envelope.interceptor';
export { createValidationPipe } from './http/validation.pipe';
