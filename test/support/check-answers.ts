/**
 * Setup file of the e2e projects: every JSON answer a suite receives from the server it started (through
 * supertest or `fetch`) is checked against the OpenAPI document. See openapi-check.ts.
 */
import { checkEveryAnswer } from './openapi-check';

checkEveryAnswer();
