import { DOMParser } from '@xmldom/xmldom';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** What Tessera needs of the identity provider's metadata. */
export interface IdpMetadata {
  entityId: string;
  /** Where the browser is sent with the AuthnRequest (HTTP-Redirect binding). */
  ssoUrl: string;
  /** Base64 certificates whose keys sign the IdP's assertions. */
  signingCerts: string[];
  /** The IdP's single logout endpoint (HTTP-Redirect), if it has one. */
  sloUrl: string | null;
}

/** What Tessera needs of its own (service provider) metadata. */
export interface SpMetadata {
  entityId: string;
  /** The AssertionConsumerService (HTTP-POST) the IdP posts the response to. */
  acsUrl: string;
}

/** Reads the IdP's metadata; throws an Error naming what is missing. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  const descriptor = entity(xml);
  const idp = descriptor.getElementsByTagNameNS(MD, 'IDPSSODescriptor')[0];
  if (!idp) throw new Error('IDP_METADATA has no IDPSSODescriptor');
  const sso = services(idp, 'SingleSignOnService');
  const ssoUrl = sso.find((service) => service.binding === REDIRECT_BINDING)?.location;
  if (!ssoUrl) throw new Error('IDP_METADATA has no SingleSignOnService with the HTTP-Redirect binding');
  const signingCerts = Array.from(idp.getElementsByTagNameNS(MD, 'KeyDescriptor'))
    .filter((key) => !key.getAttribute('use') || key.getAttribute('use') === 'signing')
    .flatMap((key) => Array.from(key.getElementsByTagNameNS(DS, 'X509Certificate')).map((cert) => (cert.textContent ?? '').replace(/\s+/g, '')))
    .filter(Boolean);
  if (signingCerts.length === 0) throw new Error('IDP_METADATA has no signing certificate (KeyDescriptor with an X509Certificate)');
  const sloUrl = services(idp, 'SingleLogoutService').find((service) => service.binding === REDIRECT_BINDING)?.location ?? null;
  return { entityId: entityId(descriptor, 'IDP_METADATA'), ssoUrl, signingCerts, sloUrl };
}

/** Reads Tessera's own metadata; throws an Error naming what is missing. */
export function parseSpMetadata(xml: string): SpMetadata {
  const descriptor = entity(xml);
  const sp = descriptor.getElementsByTagNameNS(MD, 'SPSSODescriptor')[0];
  if (!sp) throw new Error('SP_METADATA has no SPSSODescriptor');
  const acsUrl = services(sp, 'AssertionConsumerService').find((service) => service.binding === POST_BINDING)?.location;
  if (!acsUrl) throw new Error('SP_METADATA has no AssertionConsumerService with the HTTP-POST binding');
  return { entityId: entityId(descriptor, 'SP_METADATA'), acsUrl };
}

function entity(xml: string): Element {
  const errors: string[] = [];
  const document = new DOMParser({ errorHandler: { error: (message) => errors.push(String(message)), fatalError: (message) => errors.push(String(message)) } }).parseFromString(xml, 'text/xml');
  if (errors.length > 0) throw new Error(`the metadata is not well-formed XML: ${errors[0]}`);
  const root = document.documentElement;
  if (!root || root.localName !== 'EntityDescriptor' || root.namespaceURI !== MD) throw new Error('the metadata has no EntityDescriptor');
  return root;
}

function entityId(descriptor: Element, variable: string): string {
  const id = descriptor.getAttribute('entityID');
  if (!id) throw new Error(`${variable} has no entityID`);
  return id;
}

function services(parent: Element, name: string): Array<{ binding: string | null; location: string | null }> {
  return Array.from(parent.getElementsByTagNameNS(MD, name)).map((service) => ({ binding: service.getAttribute('Binding'), location: service.getAttribute('Location') }));
}
