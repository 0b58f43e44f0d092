import 'server-only';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The organisations' client secrets at rest: AES-256-GCM under CREDENTIALS_KEY, written as
 * `v1.<keyId>.<iv>.<ciphertext and tag>` (base64url). The key id is taken from a hash of the key itself, so a
 * ciphertext names the key that opens it whatever order the keys are listed in; older keys
 * (CREDENTIALS_KEY_PREVIOUS) only decrypt. The organisation's id is the associated data: a ciphertext copied
 * onto another organisation's row does not open there.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type CredentialsKey = { id: string; key: Buffer };

/** The key id: the first 12 hex characters of sha256("tsb-credentials-key:" + key bytes). */
export function credentialsKeyId(key: Buffer): string {
  return createHash('sha256').update('tsb-credentials-key:').update(key).digest('hex').slice(0, 12);
}

/** A key from its base64 text (32 bytes), or an Error naming what is wrong with it. */
export function parseCredentialsKey(text: string, variable: string): CredentialsKey {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/_-]+=*$/.test(text.trim())) {
    throw new Error(
      `Invalid configuration: ${variable} must be 32 random bytes in base64 (e.g. \`openssl rand -base64 32\`)`,
    );
  }
  return { id: credentialsKeyId(key), key };
}

export class CredentialsCipher {
  private readonly byId: Map<string, Buffer>;

  constructor(
    private readonly current: CredentialsKey,
    previous: readonly CredentialsKey[] = [],
  ) {
    this.byId = new Map([...previous, current].map((k) => [k.id, k.key]));
  }

  get currentKeyId(): string {
    return this.current.id;
  }

  encrypt(secret: string, organisationId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(aad(organisationId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return [VERSION, this.current.id, iv.toString('base64url'), sealed.toString('base64url')].join('.');
  }

  /** The secret, or an Error that says why not (unknown key, tampered, another organisation's) and never quotes it. */
  decrypt(ciphertext: string, organisationId: string): string {
    const [version, keyId, iv, sealed, ...rest] = ciphertext.split('.');
    if (version !== VERSION || !keyId || !iv || !sealed || rest.length > 0)
      throw new Error('the stored client secret is not in a form this server writes');
    const key = this.byId.get(keyId);
    if (!key)
      throw new Error(
        `the stored client secret is encrypted under key ${keyId}, which is neither CREDENTIALS_KEY nor in CREDENTIALS_KEY_PREVIOUS`,
      );
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length < TAG_BYTES) throw new Error('the stored client secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(aad(organisationId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new Error('the stored client secret does not open under its key (altered, or another organisation’s)');
    }
  }

  /** Whether a ciphertext was written under an older key (re-encrypted at start-up). */
  isStale(ciphertext: string): boolean {
    return ciphertext.split('.')[1] !== this.current.id;
  }
}

const aad = (organisationId: string) => Buffer.from(`tsb-organisation-secret:${organisationId}`, 'utf8');
