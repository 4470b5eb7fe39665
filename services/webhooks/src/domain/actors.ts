/**
 * Who did it, for audit entries: the e-mail of each user, from the identity topic's user.registered and
 * user.updated facts (full values, so replaying the history topic ends on the current e-mail). The
 * identity read model of the service kit keeps no e-mails; this is the webhooks service's own projection.
 */
import { TOPICS, UserRegisteredEvent, UserUpdatedEvent, on, subscribeEvents } from '@skald/contracts';
import type { Collection, DocumentStore, EventBus, Subscription } from '@skald/ports';

export const ACTORS_GROUP = 'webhooks.actors';

interface ActorDoc {
  readonly _id: string;
  readonly email: string;
}

export interface ActorDirectory {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** '' when the user is not known yet. */
  emailOf(userId: string): Promise<string>;
}

export async function createActorDirectory(bus: EventBus, docs: DocumentStore): Promise<ActorDirectory> {
  const actors: Collection<ActorDoc> = await docs.collection<ActorDoc>('actors');
  const setEmail = (userId: string, email: string) => actors.updateOne({ _id: userId }, { $set: { email } }, { upsert: true }).then(() => undefined);
  let subscription: Subscription | null = null;
  return {
    async start() {
      if (subscription) return;
      await bus.ensureTopics([TOPICS.identity]);
      subscription = await subscribeEvents(bus, {
        group: ACTORS_GROUP,
        handlers: [on(UserRegisteredEvent, (d) => setEmail(d.userId, d.email)), on(UserUpdatedEvent, (d) => setEmail(d.userId, d.email))],
      });
    },
    async stop() {
      const current = subscription;
      subscription = null;
      if (current) await current.stop();
    },
    async emailOf(userId) {
      return (await actors.findOne({ _id: userId }))?.email ?? '';
    },
  };
}
