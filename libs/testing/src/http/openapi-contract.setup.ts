// Jest set-up file of the e2e suites and the journeys (setupFilesAfterEnv): every answer of a
// registered API (the merchant API of each LocalStack, the journeys' target) is checked against
// its OpenAPI document; a violation fails the test even when the test caught the fetch error.
import { installContractFetch, takeContractViolations } from './openapi-contract';

installContractFetch();

afterEach(() => {
  const found = takeContractViolations();
  if (found.length) throw new Error(`${found.length} answer(s) broke the OpenAPI contract:\n${found.join('\n')}`);
});
