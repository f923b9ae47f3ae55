/** A self-signed certificate for 127.0.0.1, made when a test or bench starts an HTTPS server. */
import { createHash, X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';

export interface SelfSigned {
  key: string;
  cert: string;
  /** Base64 SHA-256 of the public key (SPKI): what Chromium's `--ignore-certificate-errors-spki-list` takes. */
  spki: string;
}

export async function selfSignedCertificate(): Promise<SelfSigned> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  const der = new X509Certificate(pems.cert).publicKey.export({ type: 'spki', format: 'der' });
  return { key: pems.private, cert: pems.cert, spki: createHash('sha256').update(der).digest('base64') };
}
