import * as samlify from 'samlify';
import { generate } from 'selfsigned';

// The IdP side parses Tessera's AuthnRequest; XSD validation is not what these tests are about.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** Tessera's SP metadata for provider `name` at `publicUrl`: entityID, the ACS, signed assertions wanted. */
export function spMetadataFor(publicUrl: string, name: string): string {
  return `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${publicUrl}/auth/login/${name}/metadata">
<md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
<md:NameIDFormat>${EMAIL_FORMAT}</md:NameIDFormat>
<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${publicUrl}/auth/login/${name}/acs" index="0"/>
</md:SPSSODescriptor>
</md:EntityDescriptor>`;
}

/** A person the IdP vouches for. */
export interface IdpUser {
  email: string;
  firstName?: string;
  lastName?: string;
  /** More attributes, by name. */
  extra?: Record<string, string>;
}

/** How a response is bent for refusal tests. */
export interface ResponseOptions {
  /** Seconds to move the assertion's times (IssueInstant, NotBefore, NotOnOrAfter) by; negative: in the past. */
  shiftSeconds?: number;
  /** The audience the assertion names instead of the SP's entityID. */
  audience?: string;
}

/** A real SAML 2.0 identity provider (samlify) with its own signing key, driven in-process. */
export interface TestSamlIdp {
  metadata: string;
  /**
   * Plays the IdP: reads Tessera's redirect (SAMLRequest, RelayState), signs in `user` and returns the
   * form fields the browser would post to the ACS.
   */
  respond(redirect: URL, spMetadata: string, user: IdpUser, options?: ResponseOptions): Promise<{ SAMLResponse: string; RelayState: string }>;
  /** Plays the IdP's single logout service: reads the LogoutRequest Tessera redirected to. */
  readLogoutRequest(redirect: URL, spMetadata: string): Promise<{ issuer: string; nameID: string; sessionIndex: string; relayState: string | null }>;
}

export async function startSamlIdp(): Promise<TestSamlIdp> {
  const pems = await generate([{ name: 'commonName', value: 'idp.test' }], { keySize: 2048, algorithm: 'sha256' });
  const idp = samlify.IdentityProvider({
    entityID: 'https://idp.test/metadata',
    privateKey: pems.private,
    signingCert: pems.cert,
    nameIDFormat: [EMAIL_FORMAT],
    singleSignOnService: [{ Binding: REDIRECT, Location: 'https://idp.test/sso' }],
    singleLogoutService: [{ Binding: REDIRECT, Location: 'https://idp.test/slo' }],
    wantAuthnRequestsSigned: false,
  });
  return {
    metadata: idp.getMetadata(),
    async readLogoutRequest(redirect, spMetadata) {
      const sp = samlify.ServiceProvider({ metadata: spMetadata });
      const query = Object.fromEntries(redirect.searchParams);
      const { extract } = await idp.parseLogoutRequest(sp, 'redirect', { query });
      return { issuer: String(extract.issuer), nameID: String(extract.nameID), sessionIndex: String(extract.sessionIndex), relayState: query.RelayState ?? null };
    },
    async respond(redirect, spMetadata, user, options = {}) {
      const sp = samlify.ServiceProvider({ metadata: spMetadata });
      const query = Object.fromEntries(redirect.searchParams);
      const parsed = await idp.parseLoginRequest(sp, 'redirect', { query });
      const requestId = String(parsed.extract.request?.id ?? '');
      const request = { extract: { request: { id: requestId } } };
      const shift = (options.shiftSeconds ?? 0) * 1000;
      const at = (offsetMs: number) => new Date(Date.now() + shift + offsetMs).toISOString();
      const response = await idp.createLoginResponse(sp, request, 'post', { email: user.email }, {
        relayState: query.RelayState,
        customTagReplacement: (template: string) => {
          const id = `_${crypto.randomUUID()}`;
          const attributes = `<saml:AttributeStatement>${attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', user.email)}${user.firstName ? attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', user.firstName) : ''}${user.lastName ? attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', user.lastName) : ''}${Object.entries(user.extra ?? {})
            .map(([name, value]) => attribute(name, value))
            .join('')}</saml:AttributeStatement>`;
          const values: Record<string, string> = {
            ID: id,
            AssertionID: `_${crypto.randomUUID()}`,
            Destination: sp.entityMeta.getAssertionConsumerService('post') as string,
            Audience: options.audience ?? sp.entityMeta.getEntityID(),
            SubjectRecipient: sp.entityMeta.getAssertionConsumerService('post') as string,
            Issuer: idp.entityMeta.getEntityID(),
            IssueInstant: at(0),
            StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
            ConditionsNotBefore: at(-60_000),
            ConditionsNotOnOrAfter: at(300_000),
            SubjectConfirmationDataNotOnOrAfter: at(300_000),
            NameIDFormat: EMAIL_FORMAT,
            NameID: user.email,
            InResponseTo: requestId,
          };
          // replaceTagsByValue escapes values, so the two XML fragments go in first.
          const withStatements = template
            .replace('{AuthnStatement}', `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="_session"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`)
            .replace('{AttributeStatement}', attributes);
          return { id, context: samlify.SamlLib.replaceTagsByValue(withStatements, values) };
        },
      });
      return { SAMLResponse: response.context, RelayState: query.RelayState! };
    },
  };
}

function attribute(name: string, value: string): string {
  return `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri"><saml:AttributeValue xsi:type="xs:string">${value}</saml:AttributeValue></saml:Attribute>`;
}
