import { describe, expect, it } from 'vitest';
import * as session from '@/app/api/session/route';
import * as targets from '@/app/api/settings/targets/route';
import * as viewById from '@/app/api/settings/views/[id]/route';
import * as views from '@/app/api/settings/views/route';
import { DEMO, detailOf, request, sessionCookieOf } from './bff';

const pair = { germination: 80, usable: null, cv: null };
const general = { germination: 90, usable: null, cv: null };
const NUL = 'must not contain the NUL character (U+0000)';
const LONE = (code: string) => `must be valid Unicode: it holds a lone surrogate (U+${code})`;
const CONTROL = (code: string) =>
  `must not contain control characters such as tabs or line breaks (it holds U+${code})`;

/**
 * Text the database cannot keep as sent (NUL, a lone surrogate) or a name should not hold (control
 * characters), sent to every route that stores text: 422 naming the field, never a 500, nothing stored, and
 * the store still works after. Run by a test file whose settings store is PGlite or PostgreSQL.
 */
export function refusesUnstorableText() {
  const signIn = async () =>
    sessionCookieOf(await session.POST(request('/api/session', { method: 'POST', json: DEMO })))!;
  const saveTargets = async (cookie: string, crops: Record<string, typeof pair>) =>
    targets.PUT(request('/api/settings/targets', { method: 'PUT', cookie, json: { targets: { general, crops } } }));
  const createView = async (cookie: string, json: unknown) =>
    views.POST(request('/api/settings/views', { method: 'POST', cookie, json }));

  describe('text the settings store cannot keep as sent is refused before it reaches the database', () => {
    it.each([
      ['Tom\u0000ato', `targets.crops.Tom\\u0000ato: a crop name ${NUL}`],
      ['\ud800', `targets.crops.\\ud800: a crop name ${LONE('D800')}`],
      ['Tomato\udc00', `targets.crops.Tomato\\udc00: a crop name ${LONE('DC00')}`],
      ['Tom\tato', `targets.crops.Tom\\u0009ato: a crop name ${CONTROL('0009')}`],
      ['Tom\nato', `targets.crops.Tom\\u000aato: a crop name ${CONTROL('000A')}`],
      ['Tom\u009bato', `targets.crops.Tom\\u009bato: a crop name ${CONTROL('009B')}`],
    ])('PUT /api/settings/targets with the crop %j: 422 naming it, nothing saved', async (crop, detail) => {
      const cookie = await signIn();
      const before = await (await targets.GET(request('/api/settings/targets', { cookie }))).json();
      const response = await saveTargets(cookie, { Lettuce: pair, [crop]: pair });
      expect(response.status).toBe(422);
      expect(await detailOf(response)).toBe(detail);
      expect(await (await targets.GET(request('/api/settings/targets', { cookie }))).json()).toEqual(before);
    });

    it.each([
      [{ name: 'Trays\u0000 of May', query: 'crop=Lettuce' }, `name: ${NUL}`],
      [{ name: '\ud83c May', query: 'crop=Lettuce' }, `name: ${LONE('D83C')}`],
      [{ name: 'Trays\tof May', query: 'crop=Lettuce' }, `name: ${CONTROL('0009')}`],
      [{ name: 'Trays of May', query: 'crop=Lett\u0000uce' }, `query: ${NUL}`],
      [{ name: 'Trays of May', query: 'crop=\udfff' }, `query: ${LONE('DFFF')}`],
      [{ name: 'Trays of May', query: 'crop=Let\ntuce' }, `query: ${CONTROL('000A')}`],
    ])('POST /api/settings/views %j: 422 naming the field, nothing saved', async (body, detail) => {
      const cookie = await signIn();
      const before = await (await views.GET(request('/api/settings/views', { cookie }))).json();
      const response = await createView(cookie, body);
      expect(response.status).toBe(422);
      expect(await detailOf(response)).toBe(detail);
      expect(await (await views.GET(request('/api/settings/views', { cookie }))).json()).toEqual(before);
    });

    it('PATCH /api/settings/views/<id> renaming to a name with NUL or a lone surrogate: 422, the name kept', async () => {
      const cookie = await signIn();
      const created = await createView(cookie, { name: `Kept ${Date.now()}`, query: 'crop=Lettuce' });
      expect(created.status).toBe(201);
      const view = (await created.json()) as { id: string; name: string };
      const path = `/api/settings/views/${view.id}`;
      for (const [name, detail] of [
        ['Re\u0000named', `name: ${NUL}`],
        ['\udbff', `name: ${LONE('DBFF')}`],
      ] as const) {
        const response = await viewById.PATCH(request(path, { method: 'PATCH', cookie, json: { name } }));
        expect(response.status).toBe(422);
        expect(await detailOf(response)).toBe(detail);
      }
      const list = (await (await views.GET(request('/api/settings/views', { cookie }))).json()) as {
        views: { id: string; name: string }[];
      };
      expect(list.views.find((v) => v.id === view.id)?.name).toBe(view.name);
      expect((await viewById.DELETE(request(path, { method: 'DELETE', cookie }))).status).toBe(204);
    });

    it('sign-in with an e-mail address holding NUL, a lone surrogate or a control character: 422 naming it (the address is looked up in the database)', async () => {
      for (const [json, detail] of [
        [{ email: 'editor@demo\u0000.example', password: DEMO.password }, `email: the e-mail address ${NUL}`],
        [{ email: 'editor@demo.example\ud800', password: DEMO.password }, `email: the e-mail address ${LONE('D800')}`],
        [{ email: 'editor@demo.example\n', password: DEMO.password }, `email: the e-mail address ${CONTROL('000A')}`],
      ] as const) {
        const response = await session.POST(request('/api/session', { method: 'POST', json }));
        expect(response.status).toBe(422);
        expect(await detailOf(response)).toBe(detail);
      }
    });

    it('keeps what it can: emoji (surrogate pairs), accents and spaces inside, after every refusal above', async () => {
      const cookie = await signIn();
      const crops = { 'Pak choi 小白菜': pair, 'Tomato 🍅': pair, 'Bœuf de Marmande': pair };
      const saved = await saveTargets(cookie, crops);
      expect(saved.status).toBe(200);
      expect(((await saved.json()) as { targets: { crops: object } }).targets.crops).toEqual(crops);
      const view = await createView(cookie, { name: `Tomaten 🍅 ${Date.now()}`, query: 'q=%00%F0%9F%8D%85' });
      expect(view.status).toBe(201);
      expect(((await view.json()) as { query: string }).query).toBe('q=%00%F0%9F%8D%85');
    });
  });
}
