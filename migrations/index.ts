import { SystemSchemaMigration } from './20261121000001-system-schema.ts';
import { AuthVerificationTokensMigration } from './20261121000002-auth-verification-tokens.ts';
import { UniquePermissionsMigration } from './20261121000003-unique-permissions.ts';
import { AuthTfaUsedStepsMigration } from './20261123000001-auth-tfa-used-steps.ts';
import { AuthNormalisedEmailsMigration } from './20261123000002-auth-normalised-emails.ts';
import { WebhookDeliveriesMigration } from './20261123000003-webhook-deliveries.ts';
import { FlowTicksMigration } from './20261123000004-flow-ticks.ts';
import { GeometryDomainsMigration } from './20261123000010-geometry-domains.ts';
import { FieldValidationMigration } from './20261124000001-field-validation.ts';
import { UniqueTranslationsMigration } from './20261124000002-unique-translations.ts';
import { GeometryCollectionMigration } from './20261124000020-geometry-collection.ts';
import { AutomationOutboxMigration } from './20261124000030-automation-outbox.ts';
import { ExtensionsMigration } from './20261126000010-extensions.ts';
import { AuthAccessStampsMigration } from './20261126000020-auth-access-stamps.ts';
import { OutboxRecordFunctionMigration } from './20261126000038-outbox-record-function.ts';
import { AuthSamlUsedRequestsMigration } from './20261127000001-auth-saml-used-requests.ts';
import { PublicRegistrationMigration } from './20261128000001-public-registration.ts';

/** Every system migration, oldest first; MikroORM runs them in this order. */
export const systemMigrations = [SystemSchemaMigration, AuthVerificationTokensMigration, UniquePermissionsMigration, AuthTfaUsedStepsMigration, AuthNormalisedEmailsMigration, WebhookDeliveriesMigration, FlowTicksMigration, GeometryDomainsMigration, FieldValidationMigration, UniqueTranslationsMigration, GeometryCollectionMigration, AutomationOutboxMigration, ExtensionsMigration, AuthAccessStampsMigration, OutboxRecordFunctionMigration, AuthSamlUsedRequestsMigration, PublicRegistrationMigration];
