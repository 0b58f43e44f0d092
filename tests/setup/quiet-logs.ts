import { logger } from '@/lib/server/logging/logger';

/*
 * The server's logger is silent in tests: a run prints the tests' results, not thousands of request lines. A
 * test that reads log lines captures them (tests/helpers/logs.ts), which lets them through meanwhile.
 */
logger().level = 'silent';
