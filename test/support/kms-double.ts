/**
 * A TEST DOUBLE of AWS KMS, for a service this machine cannot reach (no KMS emulator installs
 * here: local-kms and LocalStack need Go or Docker). A loopback HTTP server speaking the part of
 * KMS's JSON protocol (awsJson1_1, `X-Amz-Target: TrentService.*`) the oracle and worker use:
 * `GetPublicKey` (DER SubjectPublicKeyInfo, KeySpec, KeyUsage) and `Sign` with `MessageType:
 * DIGEST` and `ECDSA_SHA_256` (a DER ECDSA signature, high s left as KMS leaves it). The callers
 * run their real code path, `@aws-sdk/client-kms` included; the keys and signatures come from an
 * independent library, @noble/curves.
 *
 * It does not check SigV4 (it only requires an Authorization header), key policies or grants.
 * `hang()` makes it stop answering (requests stay open) until `resume()`.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { p256 } from '@noble/curves/p256';
import { secp256k1 } from '@noble/curves/secp256k1';

export type KmsKeySpec = 'ECC_SECG_P256K1' | 'ECC_NIST_P256';

interface DoubleKey {
  keyId: string;
  spec: KmsKeySpec;
  privateKey: Uint8Array;
  publicKey: Uint8Array;
}

export interface KmsDouble {
  /** `127.0.0.1:<port>`, the endpoint part of an `awskms://` reference. */
  host: string;
  /** Creates a key; returns its id (a UUID), and an alias where one is given. */
  createKey(spec: KmsKeySpec, alias?: string): { keyId: string; publicKey: Uint8Array };
  /** Sign calls answered so far. */
  readonly signCalls: number;
  hang(): void;
  resume(): void;
  close(): Promise<void>;
}

/** Environment the SDK needs to send requests (the double does not check them). */
export const KMS_DOUBLE_ENV = { AWS_ACCESS_KEY_ID: 'AKIATESTDOUBLE', AWS_SECRET_ACCESS_KEY: 'test-double-secret', AWS_REGION: 'us-east-1' };

const CURVE = { ECC_SECG_P256K1: secp256k1, ECC_NIST_P256: p256 } as const;
const JWK_CURVE = { ECC_SECG_P256K1: 'secp256k1', ECC_NIST_P256: 'P-256' } as const;

function spki(spec: KmsKeySpec, point: Uint8Array): Buffer {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  return createPublicKey({
    key: { kty: 'EC', crv: JWK_CURVE[spec], x: b64(point.subarray(1, 33)), y: b64(point.subarray(33, 65)) },
    format: 'jwk',
  }).export({ type: 'spki', format: 'der' });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startKmsDouble(): Promise<KmsDouble> {
  const keys = new Map<string, DoubleKey>();
  let signCalls = 0;
  let hanging = false;
  const held: ServerResponse[] = [];

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, type: string, message: string) => answer(res, 400, { __type: type, message });

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      if (hanging) {
        held.push(res);
        return;
      }
      if (req.headers.authorization === undefined) return error(res, 'MissingAuthenticationTokenException', 'no Authorization');
      const target = String(req.headers['x-amz-target'] ?? '');
      const input = JSON.parse(body) as { KeyId?: string; Message?: string; MessageType?: string; SigningAlgorithm?: string };
      const key = keys.get(input.KeyId ?? '');
      if (key === undefined) return error(res, 'NotFoundException', `Key '${input.KeyId ?? ''}' does not exist`);
      if (target === 'TrentService.GetPublicKey') {
        return answer(res, 200, {
          KeyId: `arn:aws:kms:us-east-1:111122223333:key/${key.keyId}`,
          KeySpec: key.spec,
          KeyUsage: 'SIGN_VERIFY',
          PublicKey: spki(key.spec, key.publicKey).toString('base64'),
          SigningAlgorithms: ['ECDSA_SHA_256'],
        });
      }
      if (target === 'TrentService.Sign') {
        const message = Buffer.from(input.Message ?? '', 'base64');
        if (input.MessageType !== 'DIGEST' || input.SigningAlgorithm !== 'ECDSA_SHA_256' || message.length !== 32)
          return error(res, 'ValidationException', 'this double signs 32-byte DIGESTs with ECDSA_SHA_256 only');
        signCalls++;
        // KMS does not normalise s: neither does the double.
        const signature = CURVE[key.spec].sign(message, key.privateKey, { lowS: false });
        return answer(res, 200, {
          KeyId: `arn:aws:kms:us-east-1:111122223333:key/${key.keyId}`,
          Signature: Buffer.from(signature.toDERRawBytes()).toString('base64'),
          SigningAlgorithm: 'ECDSA_SHA_256',
        });
      }
      return error(res, 'UnknownOperationException', target);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    host: `127.0.0.1:${port}`,
    createKey(spec, alias) {
      const privateKey = CURVE[spec].utils.randomPrivateKey();
      const key = { keyId: randomUUID(), spec, privateKey, publicKey: CURVE[spec].getPublicKey(privateKey, false) };
      keys.set(key.keyId, key);
      if (alias !== undefined) keys.set(`alias/${alias}`, key);
      return { keyId: key.keyId, publicKey: key.publicKey };
    },
    get signCalls() {
      return signCalls;
    },
    hang() {
      hanging = true;
    },
    resume() {
      hanging = false;
      for (const res of held.splice(0)) res.destroy();
    },
    async close() {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
