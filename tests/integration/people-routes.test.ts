import { describe, expect, it } from 'vitest';
import * as activity from '@/app/api/admin/activity/route';
import * as connectionTest from '@/app/api/admin/connection/test/route';
import * as connection from '@/app/api/admin/connection/route';
import * as adminPersonReset from '@/app/api/admin/people/[id]/reset/route';
import * as adminPerson from '@/app/api/admin/people/[id]/route';
import * as adminPersonSessions from '@/app/api/admin/people/[id]/sessions/route';
import * as adminPeople from '@/app/api/admin/people/route';
import * as accountSession from '@/app/api/account/sessions/[id]/route';
import * as accountSessions from '@/app/api/account/sessions/route';
import * as account from '@/app/api/account/route';
import * as batches from '@/app/api/batches/route';
import * as link from '@/app/api/links/[token]/route';
import * as people from '@/app/api/people/route';
import * as session from '@/app/api/session/route';
import * as targetRestore from '@/app/api/settings/targets/history/[id]/restore/route';
import * as targetHistory from '@/app/api/settings/targets/history/route';
import * as targets from '@/app/api/settings/targets/route';
import * as viewById from '@/app/api/settings/views/[id]/route';
import * as views from '@/app/api/settings/views/route';
import { DEFAULT_TARGETS } from '@/lib/contract/targets';
import { settingsStore } from '@/lib/server/settings';
import { SANDBOX_ORGANISATIONS } from '@/scripts/sandbox-people';
import {
  bffForFile,
  call,
  detailOf,
  json,
  PEOPLE,
  request,
  sessionCookieOf,
  signIn,
  signInBody,
  type Handler,
} from '../helpers/bff';
import { control } from '../helpers/sandbox';

const sandbox = bffForFile({ SIGNIN_ATTEMPTS_PER_IP: '100000' });

const LETTUCE = {
  general: { germination: 85, usable: null, cv: null },
  crops: { Lettuce: { germination: 80, usable: 70, cv: null } },
};

/** A fresh member of the demo organisation with `role`, invited by its administrator and signed in through the link. */
async function newMember(admin: string, role: 'viewer' | 'editor' | 'admin', name = `A ${role}`) {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@demo.example`;
  const invited = await call(adminPeople.POST, '/api/admin/people', admin, 'POST', { email, role });
  expect(invited.status).toBe(201);
  const { id, inviteUrl } = await json<{ id: string; inviteUrl: string }>(invited);
  const token = inviteUrl.split('/invite/')[1]!;
  const used = await link.POST(
    request(`/api/links/${token}`, { method: 'POST', json: { name, password: 'a good long password' } }),
  );
  expect(used.status).toBe(204);
  return { id, email, token, cookie: sessionCookieOf(used)! };
}

describe('roles, enforced by the server on every write route', () => {
  it('a viewer is refused every write but their own (403 naming the role needed); an editor may write but not administer; an administrator may do all', async () => {
    const [viewer, editor, admin] = [
      await signIn(PEOPLE.demo.viewer),
      await signIn(PEOPLE.demo.editor),
      await signIn(PEOPLE.demo.admin),
    ];
    const shared = await json<{ id: string }>(
      await call(views.POST, '/api/settings/views', editor, 'POST', {
        name: `Shared ${Date.now()}`,
        query: 'warn=1',
        shared: true,
      }),
    );
    await call(targets.PUT, '/api/settings/targets', editor, 'PUT', { targets: LETTUCE });
    const [entry] = (
      await json<{ entries: { id: string }[] }>(await call(targetHistory.GET, '/api/settings/targets/history', viewer))
    ).entries;
    const target = await newMember(admin, 'viewer');

    // [handler, path, method, body, role needed, what the refusal says]
    const routes: [Handler, string, string, unknown, 'editor' | 'admin', string][] = [
      [targets.PUT, '/api/settings/targets', 'PUT', { targets: DEFAULT_TARGETS }, 'editor', 'saving the targets'],
      [
        targetRestore.POST,
        `/api/settings/targets/history/${entry!.id}/restore`,
        'POST',
        undefined,
        'editor',
        'restoring earlier targets',
      ],
      [
        views.POST,
        '/api/settings/views',
        'POST',
        { name: 'Try', query: '', shared: true },
        'editor',
        'sharing a view with the organisation',
      ],
      [
        views.POST,
        '/api/settings/views',
        'POST',
        { name: 'Try', query: '', isDefault: true },
        'editor',
        'making a view the default',
      ],
      [
        viewById.PATCH,
        `/api/settings/views/${shared.id}`,
        'PATCH',
        { name: 'Mine' },
        'editor',
        'changing a view shared with the organisation',
      ],
      [
        viewById.DELETE,
        `/api/settings/views/${shared.id}`,
        'DELETE',
        undefined,
        'editor',
        'deleting a view shared with the organisation',
      ],
      [adminPeople.GET, '/api/admin/people', 'GET', undefined, 'admin', 'seeing the organisation’s people'],
      [
        adminPeople.POST,
        '/api/admin/people',
        'POST',
        { email: 'new@demo.example', role: 'viewer' },
        'admin',
        'inviting people',
      ],
      [
        adminPerson.PATCH,
        `/api/admin/people/${target.id}`,
        'PATCH',
        { role: 'editor' },
        'admin',
        'changing people’s roles',
      ],
      [adminPerson.DELETE, `/api/admin/people/${target.id}`, 'DELETE', undefined, 'admin', 'removing people'],
      [
        adminPersonSessions.DELETE,
        `/api/admin/people/${target.id}/sessions`,
        'DELETE',
        undefined,
        'admin',
        'signing people out',
      ],
      [
        adminPersonReset.POST,
        `/api/admin/people/${target.id}/reset`,
        'POST',
        undefined,
        'admin',
        'issuing password resets',
      ],
      [connection.GET, '/api/admin/connection', 'GET', undefined, 'admin', 'seeing the connection'],
      [
        connection.PUT,
        '/api/admin/connection',
        'PUT',
        { clientSecret: 'demo-secret' },
        'admin',
        'changing the connection',
      ],
      [connectionTest.POST, '/api/admin/connection/test', 'POST', undefined, 'admin', 'testing the connection'],
      [activity.GET, '/api/admin/activity', 'GET', undefined, 'admin', 'reading the activity log'],
    ];
    for (const [handler, path, method, body, needed, what] of routes) {
      for (const [cookie, role, article] of [
        [viewer, 'viewer', 'a viewer'],
        ...(needed === 'admin' ? [[editor, 'editor', 'an editor']] : []),
      ] as const) {
        const refused = await call(handler, path, cookie, method, body);
        expect([`${method} ${path} as ${role}`, refused.status, await detailOf(refused)]).toEqual([
          `${method} ${path} as ${role}`,
          403,
          `role: ${what} needs the ${needed} role; you are ${article}`,
        ]);
      }
    }
    // Allowed to the roles that may: nothing of the above was changed by the refusals.
    expect((await call(targets.PUT, '/api/settings/targets', editor, 'PUT', { targets: DEFAULT_TARGETS })).status).toBe(
      200,
    );
    expect(
      (await call(targetRestore.POST, `/api/settings/targets/history/${entry!.id}/restore`, editor, 'POST')).status,
    ).toBe(200);
    expect(
      (await call(viewById.PATCH, `/api/settings/views/${shared.id}`, editor, 'PATCH', { isDefault: true })).status,
    ).toBe(200);
    for (const [handler, path, method, body] of routes.filter((r) => r[4] === 'admin' && r[2] === 'GET'))
      expect((await call(handler, path, admin, method, body)).status).toBe(200);
    expect((await call(connectionTest.POST, '/api/admin/connection/test', admin, 'POST')).status).toBe(200);
    expect((await call(adminPersonReset.POST, `/api/admin/people/${target.id}/reset`, admin, 'POST')).status).toBe(201);
    expect(
      (await call(adminPerson.PATCH, `/api/admin/people/${target.id}`, admin, 'PATCH', { role: 'editor' })).status,
    ).toBe(200);
    expect((await call(viewById.DELETE, `/api/settings/views/${shared.id}`, editor, 'DELETE')).status).toBe(204);
    // Everyone has their own account, views and sessions.
    for (const cookie of [viewer, editor, admin]) {
      expect((await call(account.PATCH, '/api/account', cookie, 'PATCH', { timeZone: 'Europe/Berlin' })).status).toBe(
        200,
      );
      const own = await call(views.POST, '/api/settings/views', cookie, 'POST', {
        name: `Own ${Math.random()}`,
        query: '',
      });
      expect(own.status).toBe(201);
      expect(
        (await call(viewById.DELETE, `/api/settings/views/${(await json<{ id: string }>(own)).id}`, cookie, 'DELETE'))
          .status,
      ).toBe(204);
    }
  });

  it('the last administrator cannot demote, disable or remove themselves (409 saying why)', async () => {
    const store = settingsStore();
    const org = (await store.organisations.bySlug('drift'))!;
    const admin = await signIn(PEOPLE.drift.admin);
    const me = (await store.people.byEmail(PEOPLE.drift.admin.email))!;
    const path = `/api/admin/people/${me.id}?org=drift`;
    for (const [handler, method, body] of [
      [adminPerson.PATCH, 'PATCH', { role: 'editor' }],
      [adminPerson.PATCH, 'PATCH', { disabled: true }],
      [adminPerson.DELETE, 'DELETE', undefined],
    ] as const) {
      const refused = await call(handler, path, admin, method, body);
      expect(refused.status).toBe(409);
      expect(await detailOf(refused)).toMatch(
        /this would leave Drift Nursery without an administrator; make someone else an administrator first$/,
      );
    }
    expect(await store.people.roleIn(org.id, me.id)).toBe('admin');
  });
});

describe('the organisation’s people for its members', () => {
  it('any member gets the name and e-mail of everyone not disabled, of the organisation asked for only; nothing more', async () => {
    const admin = await signIn(PEOPLE.demo.admin);
    const leaver = await newMember(admin, 'editor', 'Lea Ver');
    expect(
      (await call(adminPerson.PATCH, `/api/admin/people/${leaver.id}`, admin, 'PATCH', { disabled: true })).status,
    ).toBe(200);
    const members = (
      await json<{ people: { email: string; name: string; disabled: boolean }[] }>(
        await call(adminPeople.GET, '/api/admin/people', admin),
      )
    ).people;
    const viewer = await signIn(PEOPLE.demo.viewer);
    const answer = await call(people.GET, '/api/people', viewer);
    expect(answer.status).toBe(200);
    const listed = (await json<{ people: Record<string, unknown>[] }>(answer)).people;
    expect(listed).toEqual(members.filter((m) => !m.disabled).map((m) => ({ email: m.email, name: m.name })));
    expect(listed.map((p) => p.email)).toEqual(
      expect.arrayContaining([PEOPLE.demo.admin.email, PEOPLE.demo.editor.email, PEOPLE.demo.viewer.email]),
    );
    expect(listed.map((p) => p.email)).not.toContain(leaver.email);
    // Another organisation's people are not among them; asked for that organisation by a non-member, 403.
    expect(listed.map((p) => p.email)).not.toContain(PEOPLE.other.admin.email);
    expect((await call(people.GET, '/api/people?org=other', viewer)).status).toBe(403);
    const other = (
      await json<{ people: { email: string }[] }>(
        await call(people.GET, '/api/people', await signIn(PEOPLE.other.viewer)),
      )
    ).people;
    expect(other.map((p) => p.email)).toContain(PEOPLE.other.admin.email);
    expect(other.map((p) => p.email)).not.toContain(PEOPLE.demo.viewer.email);
    // Signed out: 401; a write: 405.
    expect((await people.GET(request('/api/people'))).status).toBe(401);
    expect((await call(people.POST, '/api/people', viewer, 'POST', {})).status).toBe(405);
  });
});

describe('one-time links', () => {
  it('an invite link is used once: it sets the name and password and signs in; used again, it is 404; the person then signs in with the password', async () => {
    const admin = await signIn(PEOPLE.demo.admin);
    const { email, token, cookie } = await newMember(admin, 'editor', 'Ana Jansen');
    expect(await json(await call(session.GET, '/api/session', cookie))).toMatchObject({
      user: { email, name: 'Ana Jansen' },
      role: 'editor',
    });
    for (const response of [
      await link.GET(request(`/api/links/${token}`)),
      await link.POST(request(`/api/links/${token}`, { method: 'POST', json: { password: 'another long password' } })),
    ]) {
      expect([response.status, await detailOf(response)]).toEqual([404, 'token: this link is not valid any more']);
    }
    expect((await signIn({ email, password: 'a good long password' })).length).toBeGreaterThan(10);
  });

  it('a reset link replaces the password once; an older link stops working when a newer one is made; an expired link is 404', async () => {
    const admin = await signIn(PEOPLE.demo.admin);
    const { id, email } = await newMember(admin, 'viewer');
    const reset = async () =>
      (
        await json<{ resetUrl: string }>(
          await call(adminPersonReset.POST, `/api/admin/people/${id}/reset`, admin, 'POST'),
        )
      ).resetUrl.split('/reset/')[1]!;
    const older = await reset();
    const newer = await reset();
    expect((await link.GET(request(`/api/links/${older}`))).status).toBe(404);
    expect(await json(await link.GET(request(`/api/links/${newer}`)))).toEqual({
      kind: 'reset',
      email,
      name: 'A viewer',
      organisation: { slug: 'demo', name: 'Greenfield Seeds (demo)' },
    });
    // Too short a password is refused, and the link stays usable.
    const short = await link.POST(request(`/api/links/${newer}`, { method: 'POST', json: { password: 'short' } }));
    expect([short.status, await detailOf(short)]).toEqual([422, 'password: must be at least 12 characters']);
    expect(
      (await link.POST(request(`/api/links/${newer}`, { method: 'POST', json: { password: 'the new long password' } })))
        .status,
    ).toBe(204);
    expect(
      (await link.POST(request(`/api/links/${newer}`, { method: 'POST', json: { password: 'yet another password' } })))
        .status,
    ).toBe(404);
    expect(
      (
        await session.POST(
          request('/api/session', { method: 'POST', json: { email, password: 'a good long password' } }),
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await session.POST(
          request('/api/session', { method: 'POST', json: { email, password: 'the new long password' } }),
        )
      ).status,
    ).toBe(204);

    // A link whose time is up (its expires_at set in the past in the store, as a week later would) is not valid any more.
    const late = await reset();
    await settingsStore()
      .db.updateTable('one_time_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('person_id', '=', id)
      .where('used_at', 'is', null)
      .execute();
    for (const response of [
      await link.GET(request(`/api/links/${late}`)),
      await link.POST(request(`/api/links/${late}`, { method: 'POST', json: { password: 'too late for this link' } })),
    ]) {
      expect([response.status, await detailOf(response)]).toEqual([404, 'token: this link is not valid any more']);
    }
  });

  it('invites are valid 7 days, resets 24 hours; only the hash of a token is stored', async () => {
    const admin = await signIn(PEOPLE.demo.admin);
    const started = Date.now();
    const { id, token } = await newMember(admin, 'viewer');
    const rows = await settingsStore()
      .db.selectFrom('one_time_links')
      .selectAll()
      .where('person_id', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.expires_at.getTime() - started).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(rows[0]!.expires_at.getTime() - started).toBeLessThan(7 * 86_400_000 + 60_000);
    expect(JSON.stringify(rows)).not.toContain(token);
    const { resetUrl } = await json<{ resetUrl: string }>(
      await call(adminPersonReset.POST, `/api/admin/people/${id}/reset`, admin, 'POST'),
    );
    const reset = await settingsStore()
      .db.selectFrom('one_time_links')
      .selectAll()
      .where('person_id', '=', id)
      .where('kind', '=', 'reset')
      .executeTakeFirstOrThrow();
    expect(reset.expires_at.getTime() - Date.now()).toBeLessThan(86_400_000 + 60_000);
    expect(reset.expires_at.getTime() - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    expect(resetUrl).toMatch(/^http:\/\/app\.test\/reset\/[A-Za-z0-9_-]{43}$/);
  });
});

describe('the activity log records each action with its actor', () => {
  it('sign-ins (ok and refused), sign-outs, targets, views, people, sessions, the connection and passwords: who, what, before and after; never a secret', async () => {
    const admin = await signIn(PEOPLE.demo.admin);
    const editor = await signIn(PEOPLE.demo.editor);
    const refused = await session.POST(
      request('/api/session', {
        method: 'POST',
        json: { ...signInBody(PEOPLE.demo.editor), password: 'not the password' },
      }),
    );
    expect(refused.status).toBe(401);
    await call(targets.PUT, '/api/settings/targets', editor, 'PUT', { targets: LETTUCE });
    const [, previous] = (
      await json<{ entries: { id: string }[] }>(await call(targetHistory.GET, '/api/settings/targets/history', editor))
    ).entries;
    if (previous)
      await call(targetRestore.POST, `/api/settings/targets/history/${previous.id}/restore`, editor, 'POST');
    const view = await json<{ id: string }>(
      await call(views.POST, '/api/settings/views', editor, 'POST', { name: 'Logged view', query: 'warn=1' }),
    );
    await call(viewById.PATCH, `/api/settings/views/${view.id}`, editor, 'PATCH', { name: 'Logged view, renamed' });
    await call(viewById.PATCH, `/api/settings/views/${view.id}`, editor, 'PATCH', { shared: true });
    await call(viewById.PATCH, `/api/settings/views/${view.id}`, editor, 'PATCH', { isDefault: true });
    await call(viewById.PATCH, `/api/settings/views/${view.id}`, editor, 'PATCH', { shared: false });
    await call(viewById.DELETE, `/api/settings/views/${view.id}`, editor, 'DELETE');
    const member = await newMember(admin, 'viewer');
    await call(adminPerson.PATCH, `/api/admin/people/${member.id}`, admin, 'PATCH', { role: 'editor' });
    await call(adminPerson.PATCH, `/api/admin/people/${member.id}`, admin, 'PATCH', { disabled: true });
    await call(adminPerson.PATCH, `/api/admin/people/${member.id}`, admin, 'PATCH', { disabled: false });
    await call(adminPersonSessions.DELETE, `/api/admin/people/${member.id}/sessions`, admin, 'DELETE');
    await call(adminPersonReset.POST, `/api/admin/people/${member.id}/reset`, admin, 'POST');
    await call(adminPerson.DELETE, `/api/admin/people/${member.id}`, admin, 'DELETE');
    expect(
      (await call(connection.PUT, '/api/admin/connection', admin, 'PUT', { clientSecret: 'demo-secret' })).status,
    ).toBe(200);
    const other = await signIn(PEOPLE.demo.editor);
    await session.DELETE(request('/api/session', { method: 'DELETE', cookie: other }));

    const { entries } = await json<{
      entries: {
        actor: { email: string; name: string };
        action: string;
        subject: string;
        before: unknown;
        after: unknown;
        address: string | null;
      }[];
    }>(await call(activity.GET, '/api/admin/activity?limit=1000', admin));
    const by = (action: string) => entries.filter((e) => e.action === action);
    const editorActor = { email: PEOPLE.demo.editor.email, name: PEOPLE.demo.editor.name };
    const adminActor = { email: PEOPLE.demo.admin.email, name: PEOPLE.demo.admin.name };
    expect(by('sign_in').find((e) => (e.after as { result: string }).result === 'refused')).toMatchObject({
      actor: editorActor,
      after: { method: 'password', result: 'refused' },
    });
    expect(by('sign_in').find((e) => (e.after as { result: string }).result === 'ok')).toMatchObject({
      after: { method: 'password', result: 'ok' },
    });
    expect(by('sign_out')[0]).toMatchObject({ actor: editorActor });
    expect(by('targets_changed')[0]).toMatchObject({ actor: editorActor, after: LETTUCE });
    if (previous) expect(by('targets_restored')[0]).toMatchObject({ actor: editorActor, before: LETTUCE });
    for (const action of [
      'view_created',
      'view_renamed',
      'view_shared',
      'view_made_default',
      'view_unshared',
      'view_deleted',
    ])
      expect(by(action)[0], action).toMatchObject({ actor: editorActor });
    expect(by('view_renamed')[0]).toMatchObject({
      before: { name: 'Logged view' },
      after: { name: 'Logged view, renamed' },
    });
    for (const action of [
      'person_invited',
      'role_changed',
      'person_disabled',
      'person_enabled',
      'sessions_revoked',
      'password_reset_issued',
      'person_removed',
    ]) {
      expect(
        by(action).find((e) => e.subject === member.email),
        action,
      ).toMatchObject({ actor: adminActor });
    }
    expect(by('role_changed').find((e) => e.subject === member.email)).toMatchObject({
      before: { role: 'viewer' },
      after: { role: 'editor' },
    });
    expect(by('password_set').find((e) => e.subject === member.email)).toMatchObject({
      actor: { email: member.email },
      after: { link: 'invite' },
    });
    expect(by('connection_changed')[0]).toMatchObject({
      actor: adminActor,
      after: { clientId: 'demo-client', secretSetAt: expect.any(String) },
    });
    expect(JSON.stringify(entries)).not.toContain('demo-secret');

    // Filtered by action and person, and as CSV.
    const filtered = await json<{ entries: { action: string; actor: { email: string } }[] }>(
      await call(
        activity.GET,
        `/api/admin/activity?action=view_shared&actor=${encodeURIComponent(PEOPLE.demo.editor.email.toUpperCase())}`,
        admin,
      ),
    );
    expect(filtered.entries.length).toBeGreaterThan(0);
    expect(
      filtered.entries.every((e) => e.action === 'view_shared' && e.actor.email === PEOPLE.demo.editor.email),
    ).toBe(true);
    const csv = await call(activity.GET, '/api/admin/activity?format=csv&action=person_invited', admin);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('at,actor_email,actor_name,action,subject,before,after,address');
    expect(text).toContain(member.email);
    const bad = await call(activity.GET, '/api/admin/activity?action=everything', admin);
    expect([bad.status, await detailOf(bad)]).toEqual([422, 'action: must be one of the activity log’s actions']);
  });

  it('another organisation’s activity is not shown: the log of one organisation has none of another’s', async () => {
    const driftAdmin = await signIn(PEOPLE.drift.admin);
    const { entries } = await json<{ entries: { actor: { email: string } }[] }>(
      await call(activity.GET, '/api/admin/activity?limit=1000', driftAdmin),
    );
    expect(entries.every((e) => e.actor.email.endsWith('@drift.example'))).toBe(true);
  });
});

describe('sessions of one’s own', () => {
  it('lists the person’s sessions (browser, address, times; a handle, not the id), signs out one, and all others', async () => {
    const person = PEOPLE.other.viewer;
    const phone = await session.POST(
      request('/api/session', {
        method: 'POST',
        json: signInBody(person),
        headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1' },
      }),
    );
    const laptop = await signIn(person);
    const third = await signIn(person);
    const listed = await json<{ sessions: { id: string; current: boolean; browser: string }[] }>(
      await call(accountSessions.GET, '/api/account/sessions', laptop),
    );
    expect(listed.sessions.length).toBeGreaterThanOrEqual(3);
    expect(listed.sessions.filter((s) => s.current)).toHaveLength(1);
    expect(listed.sessions.map((s) => s.browser)).toContain('Safari on iOS');
    const phoneCookie = sessionCookieOf(phone)!;
    const phoneHandle = listed.sessions.find((s) => s.browser === 'Safari on iOS')!.id;
    expect(phoneCookie).not.toContain(phoneHandle);
    expect((await call(accountSession.DELETE, `/api/account/sessions/${phoneHandle}`, laptop, 'DELETE')).status).toBe(
      204,
    );
    expect((await call(session.GET, '/api/session', phoneCookie)).status).toBe(401);
    expect((await call(accountSession.DELETE, '/api/account/sessions/not-a-handle', laptop, 'DELETE')).status).toBe(
      404,
    );
    expect((await call(accountSessions.DELETE, '/api/account/sessions', laptop, 'DELETE')).status).toBe(204);
    expect((await call(session.GET, '/api/session', third)).status).toBe(401);
    expect((await call(session.GET, '/api/session', laptop)).status).toBe(200);
  });
});

describe('the connection', () => {
  it('a new secret is tried at the service before it is saved; once saved, the token of the old one is dropped', async () => {
    const admin = await signIn(PEOPLE.special.admin);
    const load = async () =>
      (await call(batches.GET, '/api/batches?start_date=2026-01-01T00:00:00Z&org=special', admin)).status;
    const signInsAtService = async () =>
      ((await control(sandbox(), 'GET', '/_sandbox/stats')) as { authRequests: number }).authRequests;
    expect(await load()).toBe(200);
    const cached = await signInsAtService();
    expect(await load()).toBe(200);
    expect(await signInsAtService()).toBe(cached);

    // Refused by the service: nothing saved, and the token in use stays in use.
    const refused = await call(connection.PUT, '/api/admin/connection?org=special', admin, 'PUT', {
      clientSecret: 'not the secret',
    });
    expect(refused.status).toBe(422);
    expect(await load()).toBe(200);
    expect(await signInsAtService()).toBe(cached + 1);

    // Accepted (the same secret, as after a rotation agreed with the service's operator): the next load signs in afresh.
    const secret = SANDBOX_ORGANISATIONS.find((o) => o.slug === 'special')!.clientSecret;
    expect(
      (await call(connection.PUT, '/api/admin/connection?org=special', admin, 'PUT', { clientSecret: secret })).status,
    ).toBe(200);
    expect(await signInsAtService()).toBe(cached + 2);
    expect(await load()).toBe(200);
    expect(await signInsAtService()).toBe(cached + 3);
  });
});
