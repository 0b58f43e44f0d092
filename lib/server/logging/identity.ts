import 'server-only';
import { noteRequestIdentity } from '../http/request-context';

/**
 * Names who made the current request in its log line: the person's and the organisation's ids (random
 * UUIDs of the database, meaningless outside it), never an e-mail address or a client ID.
 */
export function noteSessionIdentity(actor: { person: { id: string }; organisation: { id: string } }): void {
  noteRequestIdentity({ personId: actor.person.id, organisationId: actor.organisation.id });
}
