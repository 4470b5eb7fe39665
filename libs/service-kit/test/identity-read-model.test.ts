/**
 * Identity read model against small in-memory fakes of the ports (libs may not import the adapters;
 * services/auth/test/identity-read-model.integration.test.ts runs the same suite on the real
 * embedded adapters).
 */
import { identityReadModelSuite } from '../contract/identity-read-model.contract.ts';
import { FakeDocumentStore, FakeEventBus } from './identity-read-model.fakes.ts';

identityReadModelSuite('in-memory fakes', async () => ({
  bus: new FakeEventBus(),
  docs: new FakeDocumentStore(),
  cleanup: async () => undefined,
}));
