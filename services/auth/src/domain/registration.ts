/** Sign-up (docs/spec/part-1.txt section 2): every new account is a staff user without 2FA. */
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError } from '@skald/ports';
import { DEFAULT_SITE_ROLE, UserRegisteredEvent, identityMessage } from '@skald/contracts';
import { HttpError } from '@skald/service-kit';
import type { AuthContext } from './context.ts';
import { hashPassword } from './passwords.ts';
import type { UserDoc } from './store.ts';

export const USERNAME_TAKEN = 'That username is already taken.';
export const EMAIL_TAKEN = 'That e-mail address is already registered.';
export const REGISTERED = 'Registered! You can log in now.';

export interface Registration {
  readonly username: string;
  readonly password: string;
  readonly email: string;
}

/** Creates the account (409 for a taken username or e-mail, any case) and publishes user.registered. */
export async function registerUser(ctx: Pick<AuthContext, 'store' | 'events' | 'passwordCost'>, input: Registration): Promise<UserDoc> {
  const { store } = ctx;
  const usernameLower = input.username.toLowerCase();
  const email = input.email.toLowerCase();
  if ((await store.users.findOne({ usernameLower })) !== null) throw new HttpError(409, USERNAME_TAKEN);
  if ((await store.users.findOne({ email })) !== null) throw new HttpError(409, EMAIL_TAKEN);
  const user: UserDoc = {
    _id: randomUUID(),
    username: input.username,
    usernameLower,
    email,
    passwordHash: await hashPassword(input.password, ctx.passwordCost),
    siteRole: DEFAULT_SITE_ROLE,
    active: true,
    tokenVersion: 0,
    twoFactorEnabled: false,
    totpSecretSealed: null,
    totpPendingSealed: null,
    totpLastStep: null,
    createdAt: new Date().toISOString(),
    lastLoginAt: null,
  };
  try {
    await store.users.insertOne(user);
  } catch (err) {
    // A concurrent registration won the race for the same name or address.
    if (err instanceof DuplicateKeyError) {
      const nameTaken = (await store.users.findOne({ usernameLower })) !== null;
      throw new HttpError(409, nameTaken ? USERNAME_TAKEN : EMAIL_TAKEN);
    }
    throw err;
  }
  await ctx.events.publish(
    [identityMessage(UserRegisteredEvent, { userId: user._id, username: user.username, email, role: DEFAULT_SITE_ROLE, createdAt: user.createdAt })],
    { actorId: user._id, actorEmail: email, serverId: null, action: 'user.registered', details: { username: user.username } },
  );
  return user;
}
